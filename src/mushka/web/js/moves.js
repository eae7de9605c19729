// What the player can do now, derived from the view's list of legal actions.
//
// The server is the only judge of legality: the page marks what `legal`
// allows, but it still sends a choice the list does not contain, so that the
// refusal comes back from the server with the rule it breaks (RULES §4).

import { parse } from "./cards.js";

/** The key of a set of cards: their codes sorted, space-separated. */
export function cardsKey(codes) {
  return [...codes].map((c) => parse(c)?.code || c).sort().join(" ");
}

/**
 * The move model of a deal view for its own seat.
 *
 * Returns `{mode, myTurn, cards, canPass, canDraw, standKeys, takeCards,
 * discardCards, playCards}`; `mode` is `declare`, `play`, `redistribute`,
 * `over` or `watch` (a spectator).
 */
export function moveModel(deal) {
  const legal = deal.legal || [];
  const myTurn = deal.seat !== null && deal.seat !== undefined && deal.to_act === deal.seat;
  const standKeys = new Set();
  const takeCards = new Set();
  const discardCards = new Set();
  const playCards = new Set();
  let canPass = false;
  let canDraw = false;
  for (const action of legal) {
    const words = action.trim().split(/\s+/);
    const head = words[0].toLowerCase();
    if (head === "pass") canPass = true;
    else if (head === "draw") canDraw = true;
    else if (head === "stand") standKeys.add(cardsKey(words.slice(1)));
    else if (head === "take") takeCards.add(words[1]);
    else if (head === "discard") discardCards.add(words[1]);
    else if (parse(head)) playCards.add(parse(head).code);
  }
  let mode = deal.phase;
  if (deal.seat === null || deal.seat === undefined) mode = "watch";
  // A card is "useful" when some legal action names it.
  const useful = new Set([...playCards, ...discardCards, ...takeCards]);
  for (const key of standKeys) for (const c of key.split(" ").filter(Boolean)) useful.add(c);
  return { mode, myTurn, legal, canPass, canDraw, standKeys, takeCards, discardCards, playCards, useful };
}

/** The stand action for the selected cards (`stand` alone for none). */
export function standAction(selected) {
  const key = cardsKey(selected);
  return key ? `stand ${key}` : "stand";
}

/** Whether the stand with `selected` is among the legal actions. */
export function standIsLegal(model, selected) {
  return model.standKeys.has(cardsKey(selected));
}
