// Card faces drawn in SVG, in code: no image file, no font for the suits.
//
// A face is a 100 × 140 drawing: the index (rank and suit) in the top left
// corner and, upside down, in the bottom right one, large enough to read on a
// phone; the pips of a number card in the usual places; a framed letter for a
// court card; one large pip for an ace.  Everything is filled with
// `currentColor`, so the page's styles colour the suits (red and black, or
// the four-colour deck of the settings) and the dark theme.

import { russianFace } from "./cardface_ru.js";

const NS = "http://www.w3.org/2000/svg";

/** The four suit symbols, each drawn in a 100 × 100 box (centre 50, 50). */
const SUIT_PATHS = {
  H: "M50 92 C30 74 4 56 6 32 C8 14 22 6 34 8 C42 9 48 15 50 23 C52 15 58 9 66 8 C78 6 92 14 94 32 C96 56 70 74 50 92 Z",
  D: "M50 4 C60 22 74 38 90 50 C74 62 60 78 50 96 C40 78 26 62 10 50 C26 38 40 22 50 4 Z",
  S: "M50 4 C64 24 94 40 92 62 C91 78 74 84 60 76 C58 75 56 73 55 71 C56 82 60 90 68 96 L32 96 "
    + "C40 90 44 82 45 71 C44 73 42 75 40 76 C26 84 9 78 8 62 C6 40 36 24 50 4 Z",
  C: "M50 6 C62 6 71 15 71 27 C71 35 67 41 61 45 C66 42 71 41 76 42 C87 44 95 53 94 64 C93 76 83 84 72 83 "
    + "C64 82 58 78 55 71 C56 82 60 90 68 96 L32 96 C40 90 44 82 45 71 C42 78 36 82 28 83 C17 84 7 76 6 64 "
    + "C5 53 13 44 24 42 C29 41 34 42 39 45 C33 41 29 35 29 27 C29 15 38 6 50 6 Z",
};

/** Pip centres of the number cards (x, y, upside down) in the 100 × 140 face. */
const L = 36;
const R = 64;
export const PIPS = {
  2: [[50, 30], [50, 110, 1]],
  3: [[50, 30], [50, 70], [50, 110, 1]],
  4: [[L, 30], [R, 30], [L, 110, 1], [R, 110, 1]],
  5: [[L, 30], [R, 30], [50, 70], [L, 110, 1], [R, 110, 1]],
  6: [[L, 30], [R, 30], [L, 70], [R, 70], [L, 110, 1], [R, 110, 1]],
  7: [[L, 30], [R, 30], [50, 50], [L, 70], [R, 70], [L, 110, 1], [R, 110, 1]],
  8: [[L, 30], [R, 30], [50, 50], [L, 70], [R, 70], [50, 90, 1], [L, 110, 1], [R, 110, 1]],
  9: [[L, 30], [R, 30], [L, 57], [R, 57], [50, 70], [L, 83, 1], [R, 83, 1], [L, 110, 1], [R, 110, 1]],
  10: [[L, 30], [R, 30], [50, 44], [L, 57], [R, 57], [L, 83, 1], [R, 83, 1], [50, 96, 1], [L, 110, 1], [R, 110, 1]],
};
export const NUMBER = { 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10 };

/** An SVG element `name` with `attrs` and `children`. */
export function node(name, attrs = {}, ...children) {
  const el = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children) if (child) el.appendChild(child);
  return el;
}

/** One suit symbol of `size` units centred on (x, y), upside down if `flip`. */
export function suitShape(suit, x, y, size, flip = false) {
  const s = size / 100;
  const turn = flip ? ` rotate(180 ${x} ${y})` : "";
  return node("path", { d: SUIT_PATHS[suit], transform: `${turn} translate(${x - size / 2} ${y - size / 2}) scale(${s})`.trim() });
}

/** The corner index: the rank as printed over the suit (the top left one; turn it for the other). */
export function index(rankText, suit) {
  const wide = rankText.length > 1;
  return node("g", { class: "card-index" },
    node("text", { x: 13, y: 29, "text-anchor": "middle", "font-size": wide ? 25 : 30, "font-weight": 700,
      "letter-spacing": wide ? -2 : 0 }, document.createTextNode(rankText)),
    suitShape(suit, 13, 44, 19));
}

/**
 * The SVG face of a card: `rank` is its rank letter (2-9, T, J, Q, K, A),
 * `rankText` the rank as the page prints it ("10", "К", "Q"…), `suit` its suit letter.
 */
export function cardFace(rank, rankText, suit) {
  if (typeof document !== "undefined" && document.documentElement.dataset.face === "russian") {
    return russianFace(rank, suit);
  }
  const parts = [index(rankText, suit)];
  const bottom = index(rankText, suit);
  bottom.setAttribute("transform", "rotate(180 50 70)");
  parts.push(bottom);
  if (rank in NUMBER) {
    const n = NUMBER[rank];
    const size = n >= 9 ? 15 : 18;  // nine and ten pips stay clear of the indices
    for (const [x, y, flip] of PIPS[n]) parts.push(suitShape(suit, n >= 9 ? 50 + (x - 50) * 0.85 : x, y, size, !!flip));
  } else if (rank === "A") {
    parts.push(suitShape(suit, 50, 70, 46));
  } else {
    // A court card: a frame, the rank's letter large and the suit above and below it.
    parts.push(node("rect", { x: 28, y: 20, width: 44, height: 100, rx: 5, fill: "none", stroke: "currentColor",
      "stroke-width": 2, opacity: 0.7 }));
    parts.push(node("text", { x: 50, y: 86, "text-anchor": "middle", "font-size": 40, "font-weight": 700 },
      document.createTextNode(rankText)));
    parts.push(suitShape(suit, 50, 36, 20));
    parts.push(suitShape(suit, 50, 104, 20, true));
  }
  return node("svg", { class: "card-face", viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false",
    fill: "currentColor", preserveAspectRatio: "xMidYMid meet" }, ...parts);
}
