// What both card styles draw with (cardface.js, the plain faces, and cardface_ru.js,
// the Russian pattern): the SVG elements, the four suit symbols, the corner indices,
// the pips of the number cards in their usual places and the 100 × 140 face that
// holds them.  Everything is filled with `currentColor`, so the page's styles colour
// the suits (red and black, or the four-colour deck of the settings) and the dark theme.

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
const PIPS = {
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

/** The number cards' rank letters and how many pips each has. */
const NUMBER = { 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10 };

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
function index(rankText, suit) {
  const wide = rankText.length > 1;
  return node("g", { class: "card-index" },
    node("text", { x: 13, y: 29, "text-anchor": "middle", "font-size": wide ? 25 : 30, "font-weight": 700,
      "letter-spacing": wide ? -2 : 0 }, document.createTextNode(rankText)),
    suitShape(suit, 13, 44, 19));
}

/** The two corner indices of a face: `rankText` over the suit at the top left, and turned at the bottom right. */
export function corners(rankText, suit) {
  const top = index(rankText, suit);
  const bottom = index(rankText, suit);
  bottom.setAttribute("transform", "rotate(180 50 70)");
  return [top, bottom];
}

/** Whether `rank` (a rank letter) is a number card's, drawn with pips. */
export function isNumber(rank) {
  return rank in NUMBER;
}

/** The pips of a number card (rank letter 2-9 or T) in their usual places. */
export function numberPips(rank, suit) {
  const n = NUMBER[rank];
  const size = n >= 9 ? 15 : 18;  // nine and ten pips stay clear of the indices
  return PIPS[n].map(([x, y, flip]) => suitShape(suit, n >= 9 ? 50 + (x - 50) * 0.85 : x, y, size, !!flip));
}

/** A card's face: the 100 × 140 SVG holding `parts`, of the class `className`. */
export function faceSvg(className, parts) {
  return node("svg", { class: className, viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false",
    fill: "currentColor", preserveAspectRatio: "xMidYMid meet" }, ...parts);
}
