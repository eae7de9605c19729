// Short summaries of the rules by id, for the table's rules panel.
//
// The ids are those of the project's rules specification, so that a refusal
// naming a rule ("C14: …") can point at its summary here.  These are
// reminders for players at the table, not the full text.

import { lang } from "./i18n.js";

const COMMON_TRUMP = [
  ["C5", "Five cards each; the next card is turned up and its suit is trump. The rest is the talon.",
    "Каждому сдают по 5 карт; следующая карта открывается, её масть — козырь. Остальные карты — прикуп."],
  ["C6", "When his turn comes, the dealer may take the turned-up card and discard one of his cards; then he must play.",
    "В свою очередь сдающий может взять открытую карту, сбросив одну свою; после этого он обязан играть."],
  ["C7", "From the eldest to the dealer, each player passes or stands; standing, he may exchange 0-5 cards from the talon, once.",
    "От старшей руки до сдающего каждый пасует или играет; играя, он может один раз прикупить от 0 до 5 карт."],
  ["C8", "Nobody exchanges more cards than the talon still holds (nor more than max_exchange).",
    "Нельзя прикупить больше карт, чем осталось в прикупе (и больше max_exchange)."],
  ["C9", "If everybody passes, nobody scores and the deal passes on.", "Если все спасовали, никто ничего не пишет, сдача переходит дальше."],
  ["C10", "If exactly one player stands, he takes all five tricks without play.",
    "Если играет только один, он берёт все пять взяток без розыгрыша."],
  ["C13", "The eldest standing player leads; the winner of a trick leads to the next.",
    "Первым ходит старший из играющих; взявший взятку ходит следующим."],
  ["C14", "Follow suit if you can; if you cannot, play a trump if you have one; otherwise any card.",
    "Ходить надо в масть; нет масти — бить козырем, если он есть; иначе — любой картой."],
  ["C15", "The trick goes to the privileged card, else to the highest trump, else to the highest card of the led suit.",
    "Взятку берёт преимущественная карта, иначе старший козырь, иначе старшая карта масти хода."],
  ["C16", "Every record starts at 30 (initial_record) and is written off towards zero.",
    "Запись каждого начинается с 30 (initial_record) и списывается к нулю."],
  ["C17", "Each trick taken writes off one point (trick_value).", "Каждая взятка списывает одно очко (trick_value)."],
  ["C18", "A standing player who takes no trick adds a remiz of 5 to his record.",
    "Играющий, не взявший ни одной взятки, приписывает ремиз 5 очков."],
  ["C20", "The partie ends when a record reaches zero; the lowest record wins.",
    "Партия кончается, когда чья-то запись дойдёт до нуля; выигрывает наименьшая запись."],
  ["C21", "The winner takes every other player's remaining record (times the stake).",
    "Победитель берёт с каждого партнёра его оставшуюся запись (умноженную на ставку)."],
];

const CLASSIC = [
  ["C1", "3 to 7 players; the deck depends on their number (C2).", "От трёх до семи игроков; колода зависит от их числа (C2)."],
  ["C3", "Ranks high to low: A K Q J 10 9 8 7 (6 …).", "Старшинство карт: Т К Д В 10 9 8 7 (6 …)."],
  ...COMMON_TRUMP.slice(0, 5),
  ["C11", "The ace of spades is the мушка: it beats a trick of any suit.",
    "Туз пик — мушка: он перекрывает взятку любой масти."],
  ["C12", "The A♠ beats every non-trump card and may be played to any trick; any trump beats it unless spades are trumps.",
    "Туз пик бьёт любую некозырную карту и может быть сыгран на любую взятку; любой козырь бьёт его, если пики не козыри."],
  ...COMMON_TRUMP.slice(5),
  ["C22", "Five cards of one suit (or four and the A♠) win the мушка at once.",
    "Пять карт одной масти (или четыре и туз пик) сразу выигрывают мушку."],
];

const MISTIGRI = [
  ["MI1", "3 to 7 players, the deck by their number as in classic мушка.", "От трёх до семи игроков, колода по их числу, как в обычной мушке."],
  ["MI2", "Ranks high to low: K Q J A 10 9 8 7 (the ace between ten and jack).",
    "Старшинство карт: К Д В Т 10 9 8 7 (туз между десяткой и валетом)."],
  ["MI3", "The king of clubs is the privileged card instead of the A♠.", "Преимущественная карта — король треф вместо туза пик."],
  ["MI4", "Any trump beats the K♣ unless clubs are trumps.", "Любой козырь бьёт короля треф, если трефы не козыри."],
  ["MI5", "The K♣ may not be discarded in an exchange.", "Короля треф нельзя сбрасывать при прикупке."],
  ...COMMON_TRUMP.slice(0, 5),
  ["MI6", "A player who held the K♣ and took no trick writes a remiz of 10; others write 5.",
    "Имевший короля треф и не взявший взятки пишет ремиз 10; остальные — 5."],
  ["MI7", "A player who held the K♣ and took a trick writes off 5 extra points.",
    "Имевший короля треф и взявший взятку списывает 5 лишних очков."],
  ["MI8", "A player who holds the K♣ may not pass.", "Игрок, к которому пришёл король треф, не имеет права на пас."],
  ["MI9", "Five of a suit: the holder shows them and is paid by every other player into a side account; play goes on.",
    "Пять карт одной масти: их владелец открывает их и получает плату с каждого партнёра в отдельный счёт; игра продолжается."],
  ["MI10", "Of several flushes the higher suit wins: ♠ < ♣ < ♦ < ♥.", "Из нескольких одномастных рук выигрывает старшая масть: ♠ < ♣ < ♦ < ♥."],
  ["MI13", "Four of a suit and the K♣ win the мушка: the holder takes all records.",
    "Четыре карты одной масти и король треф выигрывают мушку: владелец берёт все записи."],
  ...COMMON_TRUMP.slice(5),
];

const KOPILKA = [
  ["K1", "Exactly four players.", "Ровно четыре игрока."],
  ["K2", "32 cards; ranks A K Q J 10 9 8 7.", "32 карты; старшинство Т К Д В 10 9 8 7."],
  ["K3", "Every player pays the ante (10) into the pot before the session.", "Перед игрой каждый вносит в кассу взнос (10)."],
  ["K4", "A session is four games; each player deals once.", "Сеанс — четыре игры; каждый сдаёт по разу."],
  ["K5", "Five cards each, the rest is the talon. No trumps.", "По пять карт каждому, остальное — прикуп. Козырей нет."],
  ["K6", "Three or more cards of one suit must be declared right after the deal.",
    "Три и более карты одной масти надо объявить сразу после сдачи."],
  ["K7", "The others each take one of those cards at random, the owner draws replacements, each taker discards one card.",
    "Партнёры берут по одной из этих карт наугад, владелец прикупает взамен, каждый взявший сбрасывает одну карту."],
  ["K9", "The ace of spades beats a trick of any suit and may be played to any trick.",
    "Туз пик перекрывает взятку любой масти и может быть положен на любую взятку."],
  ["K10", "The eldest leads to the first trick.", "Первым ходит старшая рука."],
  ["K11", "Each other player plays a card of the led suit (or the A♠), draws from the talon when void, or passes. No other suit.",
    "Каждый следующий кладёт карту масти хода (или туз пик), прикупает, если масти нет, или пасует. Другую масть сносить нельзя."],
  ["K12", "Passing while holding the led suit costs a remiz of 5 into the pot.", "Пас при наличии масти стоит ремиз 5 в кассу."],
  ["K13", "The trick goes to the A♠, else to the highest card of the led suit.", "Взятку берёт туз пик, иначе старшая карта масти хода."],
  ["K14", "A trick counts if at least one other player put a card on it.", "Взятка считается, если хотя бы один партнёр дал на неё карту."],
  ["K15", "If nobody puts a card on the lead, the leader takes it back and the next player leads.",
    "Если никто не дал карты, первый игрок берёт свою карту обратно, и ходит следующий."],
  ["K16", "The winner of a trick must lead a different suit next, if he can.", "Взявший взятку должен ходить с другой масти, если может."],
  ["K18", "The game ends when a player has no cards left after a trick.", "Игра кончается, когда после взятки у кого-то не осталось карт."],
  ["K19", "Four leads in a row taken back end the game with nobody out.", "Четыре взятых обратно хода подряд кончают игру без вышедшего."],
  ["K20", "A trick is worth its suit: ♥ 4, ♣ 3, ♦ 2, ♠ 1 (suit_values).", "Взятка стоит по масти: ♥ 4, ♣ 3, ♦ 2, ♠ 1 (suit_values)."],
  ["K21", "A trick taken by the A♠ is worth double.", "Взятка, взятая тузом пик, стоит вдвойне."],
  ["K22", "After each game: remizes for no trick, tricks paid from the pot, then all but the one who went out pay into the pot.",
    "После игры: ремизы за отсутствие взяток, выплата взяток из кассы, затем все, кроме вышедшего, платят в кассу."],
  ["K23", "After game four, the player who went out first takes the pot.", "После четвёртой игры кассу забирает вышедший первым."],
];

const BY_VARIANT = { classic: CLASSIC, mistigri: MISTIGRI, kopilka: KOPILKA };

/** The rule summaries of `variant` as [id, text] in the current language. */
export function rulesFor(variant) {
  const list = BY_VARIANT[variant] || CLASSIC;
  const ru = lang() === "ru";
  return list.map(([id, en, rus]) => [id, ru ? rus : en]);
}
