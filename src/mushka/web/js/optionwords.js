// The rules and the house rules in words: each option's title, each closed
// value as a player says it, and each rule a player meets in one plain
// sentence.  The words are the server's (rules/words.toml, sent in texts.js);
// the code names (`lone_player = takes_all_tricks`) stay one hover away, for
// players who type them in `mushka play -o`.

import { has, lang, plural, t } from "./i18n.js";

/** The text of `key` when the catalogue has one, else `fallback`. */
function word(key, fallback, params = {}) {
  return has(key) ? t(key, params) : fallback;
}

/** The title of option `name` in the current language. */
export function optionTitle(name) {
  return word(`option.title.${name}`, name);
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
  if (has(`option.value.${text}`)) return t(`option.value.${text}`);
  if (name === "rank_order" && ORDERS[text.toUpperCase()]) return word(`option.value.${ORDERS[text.toUpperCase()]}`, text);
  if (name === "rank_order" && /^[2-9TJQKA]+$/i.test(text)) {
    const ru = { T: "10", J: "В", Q: "Д", K: "К", A: "Т" };
    return [...text.toUpperCase()].map((r) => (lang() === "ru" ? ru[r] || r : r === "T" ? "10" : r)).join(" ");
  }
  if (name === "deck_by_players" && /^\d+:\d+(,\d+:\d+)*$/.test(text)) {
    const pairs = text.split(",").map((p) => p.split(":"));
    const [first, ...rest] = pairs;
    const head = t("option.words.deck_head", { players: first[0], cards: first[1] });
    return [head, ...rest.map(([n, k]) => `${n}: ${k}`)].join(" · ");
  }
  if (name === "session_games" && /^\d+$/.test(text)) {
    const form = plural(Number(text), "games_one", "games_few", "games_many");
    return t(`option.words.${form}`, { n: text });
  }
  if (name === "suit_values" && /^([SCDH]\d+,?)+$/i.test(text.replace(/\s+/g, ","))) {
    return text.split(/[,\s]+/).filter(Boolean).map((p) => `${SUIT_SIGNS[p[0].toUpperCase()]} ${p.slice(1)}`).join(" · ");
  }
  return text;
}

/** The rule `id` in plain words in the current language, or null when there is none. */
export function plainRule(id) {
  return word(`rule.plain.${id}`, null);
}
