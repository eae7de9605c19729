// The Russian-pattern faces (the settings' "card style": Russian), drawn for this page in
// SVG, in code, after the look of the Russian («атласная») deck rather than copied from
// any: double-ended court cards with a half-length figure in each half, the king crowned,
// the queen in a diadem and veil, the jack in a feathered cap; aces with the suit in a
// wreath; number cards with the usual pips.  The indices are Russian whatever the page's
// language: В (валет), Д (дама), К (король), Т (туз).
//
// Like the plain faces, the suit's colour is `currentColor` (so the four-colour deck and
// the themes apply); the few other colours (gold, skin, white) are fixed, as on a card.

import { corners, faceSvg, isNumber, node, numberPips, suitShape } from "./cardsvg.js";

const GOLD = "#c8962e";
const SKIN = "#f2d7b5";
const WHITE = "#fffdf7";
const INK = "#2a2a2a";

/** The Russian index of a rank: В, Д, К, Т for the jack, queen, king and ace; 10 for the ten. */
export const RUSSIAN_INDEX = { T: "10", J: "В", Q: "Д", K: "К", A: "Т" };

/** The headwear of a court figure whose head is centred at (50, 36). */
function headwear(rank) {
  if (rank === "K") {
    // A crown: five points on a band, a jewel in the middle.
    return node("g", {},
      node("path", { d: "M40 30 L41 19 L45 25 L50 16 L55 25 L59 19 L60 30 Z", fill: GOLD, stroke: INK, "stroke-width": 0.8 }),
      node("circle", { cx: 50, cy: 26, r: 1.6, fill: "currentColor" }));
  }
  if (rank === "Q") {
    // A diadem over a veil that falls to the shoulders.
    return node("g", {},
      node("path", { d: "M38 36 C38 24 62 24 62 36 L64 52 L60 52 L58 36 C56 29 44 29 42 36 L40 52 L36 52 Z",
        fill: "currentColor", opacity: 0.85 }),
      node("path", { d: "M42 29 C46 24 54 24 58 29 L56 31 C52 28 48 28 44 31 Z", fill: GOLD, stroke: INK, "stroke-width": 0.6 }),
      node("circle", { cx: 50, cy: 25.5, r: 1.4, fill: WHITE }));
  }
  // The jack: a flat cap with a feather.
  return node("g", {},
    node("path", { d: "M39 31 C40 23 60 23 61 31 Z", fill: "currentColor" }),
    node("path", { d: "M58 26 C64 18 70 16 72 14 C70 20 66 25 60 29 Z", fill: GOLD, stroke: INK, "stroke-width": 0.5 }));
}

/** One half of a court card: the figure from the waist up, its head at (50, 36), the suit beside it. */
function courtHalf(rank, suit) {
  return node("g", {},
    // The robe: square shoulders down to the middle line, a white front panel with a gold
    // edge and pattern, a white collar; the king's has an ermine-like band.
    node("path", { d: "M30 70 L30 57 C30 51 36 48 42 47 L58 47 C64 48 70 51 70 57 L70 70 Z", fill: "currentColor" }),
    node("path", { d: "M43 50 L57 50 L59 70 L41 70 Z", fill: WHITE, stroke: GOLD, "stroke-width": 1.5 }),
    node("path", { d: "M50 52 L54 57 L50 62 L46 57 Z M50 63 L53 67 L50 70 L47 67 Z", fill: "currentColor" }),
    node("path", { d: "M41 47 C44 52 56 52 59 47 C56 44.5 44 44.5 41 47 Z", fill: WHITE, stroke: INK, "stroke-width": 0.5 }),
    rank === "K" ? node("path", { d: "M30 64 L41 64 M59 64 L70 64", stroke: GOLD, "stroke-width": 2.5 }) : null,
    // The head.
    node("circle", { cx: 50, cy: 37, r: 8.5, fill: SKIN, stroke: INK, "stroke-width": 0.8 }),
    rank === "K" ? node("path", { d: "M44 41 C46 48 54 48 56 41 C54 44 46 44 44 41 Z", fill: INK, opacity: 0.75 }) : null,
    headwear(rank),
    // What the figure holds: a sceptre (king), a flower (queen), a halberd (jack), on its left.
    rank === "K" ? node("path", { d: "M66 66 L66 30 M63 31 L69 31", stroke: GOLD, "stroke-width": 2 }) : null,
    rank === "Q" ? node("g", {}, node("path", { d: "M66 66 L66 40", stroke: INK, "stroke-width": 1 }),
      node("circle", { cx: 66, cy: 38, r: 3, fill: WHITE, stroke: "currentColor", "stroke-width": 1.5 })) : null,
    rank === "J" ? node("path", { d: "M68 68 L68 26 M64 30 L72 26 L68 34 Z", stroke: INK, "stroke-width": 1.2, fill: GOLD }) : null,
    suitShape(suit, 33, 26, 11));
}

/** A court card: two halves, the lower one turned, within a gold-lined frame. */
function courtCard(rank, suit) {
  const lower = courtHalf(rank, suit);
  lower.setAttribute("transform", "rotate(180 50 70)");
  return [
    node("rect", { x: 25, y: 14, width: 50, height: 112, rx: 4, fill: WHITE, stroke: GOLD, "stroke-width": 2 }),
    courtHalf(rank, suit),
    lower,
    node("path", { d: "M25 70 L75 70", stroke: GOLD, "stroke-width": 1.5 }),
  ];
}

/** An ace: the suit large, in a wreath of leaves. */
function aceCard(suit) {
  const leaves = [];
  for (let i = 0; i < 16; i += 1) {
    const a = (i / 16) * Math.PI * 2;
    const x = 50 + Math.cos(a) * 29;
    const y = 70 + Math.sin(a) * 29;
    leaves.push(node("ellipse", { cx: x.toFixed(1), cy: y.toFixed(1), rx: 4.5, ry: 2.2, fill: GOLD,
      transform: `rotate(${((a * 180) / Math.PI + 90).toFixed(0)} ${x.toFixed(1)} ${y.toFixed(1)})` }));
  }
  return [
    node("circle", { cx: 50, cy: 70, r: 29, fill: "none", stroke: GOLD, "stroke-width": 1 }),
    ...leaves,
    suitShape(suit, 50, 70, 34),
  ];
}

/** The Russian-pattern face of a card (rank letter 2-9, T, J, Q, K, A; suit letter). */
export function russianFace(rank, suit) {
  const parts = corners(RUSSIAN_INDEX[rank] || rank, suit);
  if (isNumber(rank)) {
    parts.push(...numberPips(rank, suit));
  } else if (rank === "A") {
    parts.push(...aceCard(suit));
  } else {
    parts.push(...courtCard(rank, suit));
  }
  return faceSvg("card-face russian", parts);
}
