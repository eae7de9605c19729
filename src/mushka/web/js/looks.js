// How the page looks, as the player set it: the theme (the system's, light or
// dark), the deck (two colours, or four: diamonds blue, clubs green) and the
// card style (plain, or the Russian pattern with Russian indices).
// Both are attributes of the document's root that the stylesheet reads.

import { prefs, setPref } from "./store.js";

/** The theme choices, the system's first. */
export const THEMES = ["auto", "light", "dark"];
/** The deck choices. */
export const DECKS = ["two", "four"];
/** The card styles: the plain faces, or the Russian pattern (cardface_ru.js). */
export const FACES = ["plain", "russian"];

/** Apply the saved theme and deck to the page. */
export function applyLooks() {
  const p = prefs();
  const root = document.documentElement;
  const theme = THEMES.includes(p.theme) ? p.theme : "auto";
  if (theme === "auto") delete root.dataset.theme;
  else root.dataset.theme = theme;
  root.dataset.deck = p.deck === "four" ? "four" : "two";
  root.dataset.face = p.face === "russian" ? "russian" : "plain";
}

/** Save one of the looks (`theme`, `deck` or `face`) and apply it at once. */
export function setLook(name, value) {
  setPref(name, value);
  applyLooks();
}
