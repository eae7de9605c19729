// Card faces drawn in SVG, in code: no image file, no font for the suits.
//
// A face is a 100 × 140 drawing: the index (rank and suit) in the top left
// corner and, upside down, in the bottom right one, large enough to read on a
// phone; the pips of a number card in the usual places; a framed letter for a
// court card; one large pip for an ace.  The pieces are cardsvg.js's, which the
// Russian pattern (cardface_ru.js, the settings' "card style") draws with too.

import { corners, faceSvg, isNumber, node, numberPips, suitShape } from "./cardsvg.js";
import { russianFace } from "./cardface_ru.js";

/**
 * The SVG face of a card: `rank` is its rank letter (2-9, T, J, Q, K, A),
 * `rankText` the rank as the page prints it ("10", "К", "Q"…), `suit` its suit letter.
 */
export function cardFace(rank, rankText, suit) {
  if (typeof document !== "undefined" && document.documentElement.dataset.face === "russian") {
    return russianFace(rank, suit);
  }
  const parts = corners(rankText, suit);
  if (isNumber(rank)) {
    parts.push(...numberPips(rank, suit));
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
  return faceSvg("card-face", parts);
}
