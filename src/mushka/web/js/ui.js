// Page-wide feedback: a short toast and a polite screen-reader announcer.

import { byId } from "./dom.js";

let toastTimer = null;

/** Show a short message at the bottom of the screen for a few seconds. */
export function toast(text) {
  const el = byId("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 3500);
}

/** Take the toast away now (what it said no longer holds). */
export function hideToast() {
  clearTimeout(toastTimer);
  byId("toast").hidden = true;
}

/** Tell screen-reader users what happened (the visible page shows it already). */
export function announce(text, urgent = false) {
  if (!text) return;
  const el = byId("announcer");
  el.setAttribute("aria-live", urgent ? "assertive" : "polite");
  // Replacing the text (not appending) keeps the live region short.
  el.textContent = text;
}
