// Cards on the page: names, short forms, sorting, and their elements.
//
// A card travels as its canonical code (rank then suit, "KC", "TH": rule N2).
// On the page it is drawn in SVG (cardface.js) with its rank and suit in the
// corners, so that it is readable without colour, and carries a full spoken
// name ("king of clubs", "король треф") as its accessible label: the names
// are the server's (CARD_WORDS of texts.js, mushka.cards).

import { cardFace } from "./cardface.js";
import { h } from "./dom.js";
import { lang } from "./i18n.js";
import { CARD_WORDS } from "./texts.js";

const RANKS = "23456789TJQKA";
const SUITS = "SCDH";
const SYMBOLS = { S: "♠", C: "♣", D: "♦", H: "♥" };
// Russian cards print В(алет), Д(ама), К(ороль), Т(уз).
const RANK_SHORT_RU = { T: "10", J: "В", Q: "Д", K: "К", A: "Т" };
const RANK_SHORT_EN = { T: "10" };

/** Default trick order of each variant, high to low (C3, MI2, K2). */
export const RANK_ORDER = { classic: "AKQJT98765432", mistigri: "KQJAT98765432", kopilka: "AKQJT98765432" };

/** Suits in display order, colours alternating (♠ ♥ ♣ ♦). */
const DISPLAY_SUITS = ["S", "H", "C", "D"];

/** Split a code into rank and suit letters ("TH" -> {rank: "T", suit: "H"}). */
export function parse(code) {
  const text = String(code).trim().toUpperCase().replace(/^10/, "T");
  const rank = text.slice(0, -1);
  const suit = text.slice(-1);
  if (rank.length !== 1 || !RANKS.includes(rank) || !SUITS.includes(suit)) return null;
  return { rank, suit, code: rank + suit };
}

/** The suit symbol of a suit letter. */
export function suitSymbol(suit) {
  return SYMBOLS[suit] || "?";
}

/** The suit's name in the current language (plural, as on a table: "clubs", "трефы"). */
export function suitName(suit) {
  return CARD_WORDS[lang() === "ru" ? "ru" : "en"].suits[suit] || suit;
}

/** Short form with a symbol: "K♣" / "К♣", "10♥". */
export function short(code) {
  const c = parse(code);
  if (!c) return String(code);
  const table = lang() === "ru" ? RANK_SHORT_RU : RANK_SHORT_EN;
  return (table[c.rank] || c.rank) + SYMBOLS[c.suit];
}

/** Full name: "king of clubs" / "король треф". */
export function cardName(code) {
  const c = parse(code);
  if (!c) return String(code);
  const words = CARD_WORDS[lang() === "ru" ? "ru" : "en"];
  const rank = words.ranks[RANKS.indexOf(c.rank)];
  return lang() === "ru" ? `${rank} ${words.suits_of[c.suit]}` : `${rank} of ${words.suits[c.suit]}`;
}

/** Whether a suit is printed red. */
export function isRed(suit) {
  return suit === "H" || suit === "D";
}

/**
 * Sort a hand as a player holds it: by suit (trumps first, then the
 * alternating display order), then by the variant's trick order.
 */
export function sortHand(codes, { order = RANK_ORDER.classic, trump = null } = {}) {
  const suitKey = (s) => (s === trump ? -1 : DISPLAY_SUITS.indexOf(s));
  return [...codes].sort((a, b) => {
    const x = parse(a);
    const y = parse(b);
    if (!x || !y) return String(a).localeCompare(String(b));
    return suitKey(x.suit) - suitKey(y.suit) || order.indexOf(x.rank) - order.indexOf(y.rank);
  });
}

/**
 * A card element.  `interactive` makes it a button (focusable; Enter and
 * Space activate it); otherwise it is an image with a spoken label.
 */
export function cardElement(code, { interactive = false, extraLabel = "", classes = "", key = null } = {}) {
  const c = parse(code);
  if (!c) return backElement();
  const label = extraLabel ? `${cardName(code)}, ${extraLabel}` : cardName(code);
  const face = cardFace(c.rank, short(code).slice(0, -1), c.suit);
  const cls = `card suit-${c.suit} ${isRed(c.suit) ? "red" : "black"} ${classes}`.trim();
  if (interactive) {
    return h("button", { type: "button", class: cls, "aria-label": label, title: label,
      dataset: { card: c.code, key: key || `card-${c.code}` } }, face);
  }
  return h("span", { class: cls, role: "img", "aria-label": label, title: label, dataset: { card: c.code } }, face);
}

/** A face-down card. */
export function backElement(label = "") {
  return h("span", { class: "card back", role: label ? "img" : null, "aria-label": label || null,
    "aria-hidden": label ? null : "true" });
}
