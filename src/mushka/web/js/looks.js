// How the page looks, as the player set it: the theme (the system's, light or
// dark) and the deck (two colours, or four: diamonds blue, clubs green).
// Both are attributes of the document's root that the stylesheet reads.

import { prefs, setPref } from "./store.js";

/** The theme choices, the system's first. */
export const THEMES = ["auto", "light", "dark"];
/** The deck choices. */
export const DECKS = ["two", "four"];

/** Apply the saved theme and deck to the page. */
export function applyLooks() {
  const p = prefs();
  const root = document.documentElement;
  const theme = THEMES.includes(p.theme) ? p.theme : "auto";
  if (theme === "auto") delete root.dataset.theme;
  else root.dataset.theme = theme;
  root.dataset.deck = p.deck === "four" ? "four" : "two";
}

/** Save one of the looks (`theme` or `deck`) and apply it at once. */
export function setLook(name, value) {
  setPref(name, value);
  applyLooks();
}
