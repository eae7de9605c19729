// The rules in plain words for players: one sentence for each rule a player
// meets at the table, beside the exact text and its id (which stay one click
// away in the rules panel).  Rules of the table's options are worded for the
// default option values; the exact text below the sentence says what this
// table's options make of them.

import { lang } from "./i18n.js";

const PLAIN = {
  C1: ["Three to seven players.", "Играют от трёх до семи человек."],
  C2: ["The deck has 32 cards for three, 36 for four, 52 for five or more.", "Колода: 32 карты на троих, 36 на четверых, 52 на пятерых и больше."],
  C3: ["In every suit the ace is highest, then king, queen, jack, ten and down.", "В каждой масти старше всех туз, затем король, дама, валет, десятка и ниже."],
  C4: ["The first dealer is drawn by lot; then the deal goes round the table.", "Первого сдающего выбирает жребий, дальше сдают по кругу."],
  C5: ["Everyone gets five cards; the next card is turned up and its suit is trump.", "Каждому сдают по пять карт; следующую открывают, её масть — козырь."],
  C6: ["The dealer may take the turned-up card, throwing away one of his; then he must play.", "Сдающий может взять открытую карту, сбросив одну свою; тогда он обязан играть."],
  C7: ["In turn each player passes (sits the deal out) or plays, and may exchange cards for the top of the talon.", "По очереди каждый пасует (не участвует в сдаче) или играет и может обменять карты на верхние карты прикупа."],
  C8: ["You cannot exchange more cards than the talon still holds.", "Нельзя прикупить больше карт, чем осталось в прикупе."],
  C9: ["If everybody passes, nothing is written and the next deal starts.", "Если все спасовали, ничего не пишется и начинается следующая сдача."],
  C10: ["If only one player plays, he takes all five tricks without playing them.", "Если играет только один, он берёт все пять взяток без розыгрыша."],
  C11: ["The ace of spades is the «мушка»: it beats a trick of any suit.", "Туз пик — «мушка»: он бьёт взятку любой масти."],
  C12: ["The мушка beats every card that is not a trump, and may be played at any time; a trump beats it.", "Мушка бьёт любую некозырную карту и её можно положить всегда; козырь её бьёт."],
  C13: ["The first player who plays leads; whoever takes a trick leads the next.", "Первым ходит первый из играющих; взявший взятку ходит следующим."],
  C14: ["Follow suit if you can; if you cannot, play a trump if you have one; otherwise play any card.", "Кладите карту той же масти; если её нет — козыря, если он есть; иначе любую карту."],
  C15: ["The мушка wins the trick if it beats the rest; else the highest trump; else the highest card of the suit led.", "Взятку берёт мушка, если она старше остальных; иначе старший козырь; иначе старшая карта масти хода."],
  C16: ["Everyone's record starts at 30 and is written down towards zero.", "Запись каждого начинается с 30 и списывается к нулю."],
  C17: ["Each trick you take writes one point off your record.", "Каждая взятая взятка списывает с записи одно очко."],
  C18: ["If you play and take no trick, 5 points are added to your record (a ремиз).", "Кто играл и не взял ни одной взятки, прибавляет к записи 5 очков (ремиз)."],
  C19: ["A player who passed writes nothing.", "Спасовавшему ничего не пишется."],
  C20: ["The partie ends after the deal in which a record reaches zero; the lowest record wins.", "Партия кончается после сдачи, в которой чья-то запись дошла до нуля; выигрывает наименьшая запись."],
  C21: ["The winner is paid by every other player what is left on his record.", "Каждый из остальных платит победителю то, что осталось у него в записи."],
  C22: ["Five cards of one suit are paid by everyone; four of a suit with the ace of spades win the мушка at once.", "Пять карт одной масти оплачивают все; четыре одной масти с тузом пик сразу выигрывают мушку."],
  MI2: ["In mistigri the ace ranks below the jack: king, queen, jack, ace, ten and down.", "В мистигри туз ниже валета: король, дама, валет, туз, десятка и ниже."],
  MI3: ["In mistigri the king of clubs is the privileged card, instead of the ace of spades.", "В мистигри преимущественная карта — король треф, а не туз пик."],
  MI4: ["A trump can beat the king of clubs.", "Короля треф можно побить козырем."],
  MI5: ["The king of clubs may not be thrown away in an exchange.", "Короля треф нельзя сбросить при прикупе."],
  MI6: ["Holding the king of clubs and taking no trick costs a ремиз of 10.", "Кто держал короля треф и не взял ни одной взятки, пишет ремиз 10."],
  MI7: ["Holding the king of clubs and taking a trick writes off 5 points more.", "Кто держал короля треф и взял взятку, списывает ещё 5 очков."],
  MI8: ["Whoever gets the king of clubs may not pass.", "Кому пришёл король треф, не может пасовать."],
  MI9: ["Five cards of one suit are shown and paid by every other player; the deal goes on.", "Пять карт одной масти показывают, и каждый из остальных платит за них; сдача продолжается."],
  MI13: ["Four cards of one suit with the king of clubs win the мушка at once.", "Четыре карты одной масти с королём треф сразу выигрывают мушку."],
  K1: ["Kopilka is played by exactly four.", "В копилку играют ровно вчетвером."],
  K3: ["Everyone pays the ante into the pot before the session.", "Перед игрой каждый вносит ставку в кассу."],
  K4: ["A session is four games; each player deals once.", "Игра состоит из четырёх сдач; каждый сдаёт один раз."],
  K5: ["Five cards each, the rest is the talon; there are no trumps.", "По пять карт каждому, остальное — прикуп; козырей нет."],
  K6: ["Three or more cards of one suit must be declared right after the deal.", "Три и больше карт одной масти надо объявить сразу после сдачи."],
  K9: ["The ace of spades is the мушка: it beats a trick of any suit.", "Туз пик — мушка: он бьёт взятку любой масти."],
  K11: ["On a lead you follow suit, or draw from the talon when you have none of the suit, or pass.", "На ход кладут карту той же масти, или, когда её нет, берут из прикупа, или пасуют."],
  K12: ["Passing while you hold the suit led costs a ремиз of 5 into the pot.", "Пас, когда на руках есть масть хода, стоит ремиза 5 в кассу."],
  K13: ["The ace of spades takes the trick if played; else the highest card of the suit led.", "Взятку берёт туз пик, если его положили; иначе старшая карта масти хода."],
  K15: ["If nobody adds a card, the leader takes his card back and the next player leads.", "Если никто не положил карту, ходивший берёт её обратно и ходит следующий."],
  K16: ["Whoever takes a trick must lead another suit next.", "Взявший взятку должен ходить другой мастью."],
  K18: ["The game ends when a player has played all his cards.", "Игра кончается, когда кто-то сыграл все свои карты."],
  K21: ["A trick is paid by its suit's value; a trick taken by the ace of spades pays double.", "Взятка оплачивается по цене масти; взятка, взятая тузом пик, — вдвойне."],
  K22: ["After each game: a ремиз for no trick, tricks paid from the pot, and everyone but the one who went out pays in.", "После каждой сдачи: ремиз за отсутствие взяток, взятки оплачиваются из кассы, и все, кроме вышедшего первым, вносят плату."],
  K23: ["After the fourth game, whoever went out first in it takes the whole pot.", "После четвёртой сдачи весь банк забирает тот, кто в ней вышел первым."],
};

/** The rule `id` in plain words in the current language, or null when there is none. */
export function plainRule(id) {
  const pair = PLAIN[id];
  return pair ? pair[lang() === "ru" ? 1 : 0] : null;
}
