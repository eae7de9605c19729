// House rules in words: each option's title and each closed value as a
// player says it.  The code names (`lone_player = takes_all_tricks`) stay one
// hover away, for players who type them in `mushka play -o`.

import { lang, plural } from "./i18n.js";

const TITLES = {
  deck_by_players: ["Deck size by players", "Колода по числу игроков"],
  deck: ["Deck", "Колода"],
  rank_order: ["Rank of the cards", "Старшинство карт"],
  dealer_takes_turnup: ["Dealer may take the trump card", "Сдающий может взять козырь"],
  max_exchange: ["Most cards exchanged", "Наибольший прикуп"],
  all_pass: ["When everybody passes", "Когда все спасовали"],
  lone_player: ["A lone player", "Один играющий"],
  privileged_beats_trumps: ["Privileged card beats trumps", "Преимущественная карта бьёт козыри"],
  privileged_free_play: ["Privileged card fits any trick", "Преимущественную карту можно класть на любую взятку"],
  must_follow: ["Follow suit", "Ходить в масть"],
  must_trump_if_void: ["Trump when void", "Без масти — бить козырем"],
  must_head_trick: ["Must win the trick if able", "Обязательно брать взятку, если можно"],
  must_overtrump: ["Must overtrump", "Перебивать козырь старшим"],
  initial_record: ["Starting record", "Начальная запись"],
  trick_value: ["Points per trick", "Очков за взятку"],
  remiz: ["Remiz", "Ремиз"],
  stake: ["Stake per point", "Ставка за очко"],
  flush: ["Five of a suit", "Пять карт одной масти"],
  privileged_four: ["Four of a suit and the privileged card", "Четыре одной масти и преимущественная"],
  flush_payment: ["Payment for a flush", "Плата за одномастные"],
  can_discard_privileged: ["Privileged card may be discarded", "Преимущественную карту можно сбросить"],
  privileged_remiz: ["Remiz of the privileged card's holder", "Ремиз держателя преимущественной карты"],
  privileged_bonus: ["Bonus of the privileged card", "Премия преимущественной карты"],
  privileged_must_play: ["Privileged card's holder must play", "С преимущественной картой пасовать нельзя"],
  ante: ["Ante", "Взнос в кассу"],
  game_payment: ["Payment after a game", "Плата после игры"],
  suit_values: ["Value of the suits", "Цена мастей"],
  renege: ["Passing while holding the suit", "Пас при наличии масти"],
  redistribution: ["Sharing out three of a suit", "Раздача трёх одномастных"],
  session_games: ["Games in the session", "Игр в сессии"],
};

const VALUES = {
  true: ["yes", "да"],
  false: ["no", "нет"],
  auto: ["by the number of players", "по числу игроков"],
  32: ["32 cards", "32 карты"],
  36: ["36 cards", "36 карт"],
  52: ["52 cards", "52 карты"],
  ace_high: ["ace high (A K Q J 10 …)", "туз старший (Т К Д В 10 …)"],
  mistigri: ["mistigri (K Q J A 10 …)", "мистигри (К Д В Т 10 …)"],
  redeal: ["the next player deals", "сдаёт следующий"],
  same_dealer: ["the same dealer deals again", "сдаёт тот же"],
  takes_all_tricks: ["takes all five tricks", "берёт все пять взяток"],
  dealer_must_play: ["the dealer must play with him", "сдающий обязан играть с ним"],
  wins_mushka: ["wins the mushka", "выигрывает мушку"],
  side_payment: ["is paid by everybody", "получает плату со всех"],
  none: ["nothing special", "ничего особого"],
  as_flush: ["as five of a suit", "как пять одной масти"],
  remiz: ["the same as the remiz", "как обычный ремиз"],
  ante: ["the same as the ante", "как взнос"],
  penalty: ["allowed, costs a remiz", "можно, за ремиз"],
  forbid: ["not allowed", "нельзя"],
  modern: ["modern", "современная"],
  old: ["old", "старинная"],
};

function pick(pair, fallback) {
  return pair ? pair[lang() === "ru" ? 1 : 0] : fallback;
}

/** The title of option `name` in the current language. */
export function optionTitle(name) {
  return pick(TITLES[name], name);
}

const SUIT_SIGNS = { S: "♠", C: "♣", D: "♦", H: "♥" };
const ORDERS = { AKQJT98765432: "ace_high", KQJAT98765432: "mistigri" };

/**
 * A value of an option in words; `name` (the option) lets the structured values read as
 * a player says them: "3 players: 32 cards · 4: 36 …", "♥ 4 · ♣ 3 …", "ace high (A K Q …)".
 * An open value such as a number shows as itself.
 */
export function optionValue(value, name = "") {
  const text = String(value);
  if (VALUES[text]) return pick(VALUES[text], text);
  if (name === "rank_order" && ORDERS[text.toUpperCase()]) return pick(VALUES[ORDERS[text.toUpperCase()]], text);
  if (name === "rank_order" && /^[2-9TJQKA]+$/i.test(text)) {
    const ru = { T: "10", J: "В", Q: "Д", K: "К", A: "Т" };
    return [...text.toUpperCase()].map((r) => (lang() === "ru" ? ru[r] || r : r === "T" ? "10" : r)).join(" ");
  }
  if (name === "deck_by_players" && /^\d+:\d+(,\d+:\d+)*$/.test(text)) {
    const pairs = text.split(",").map((p) => p.split(":"));
    const [first, ...rest] = pairs;
    const head = lang() === "ru" ? `${first[0]} игрока: ${first[1]} карты` : `${first[0]} players: ${first[1]} cards`;
    return [head, ...rest.map(([n, k]) => `${n}: ${k}`)].join(" · ");
  }
  if (name === "session_games" && /^\d+$/.test(text)) {
    return lang() === "ru" ? `${text} ${plural(Number(text), "игра", "игры", "игр")}` : `${text} games`;
  }
  if (name === "suit_values" && /^([SCDH]\d+,?)+$/i.test(text.replace(/\s+/g, ","))) {
    return text.split(/[,\s]+/).filter(Boolean).map((p) => `${SUIT_SIGNS[p[0].toUpperCase()]} ${p.slice(1)}`).join(" · ");
  }
  return text;
}

/** Every option name with a title (a test checks that the server's options all have one). */
export function knownOptions() {
  return Object.keys(TITLES);
}
