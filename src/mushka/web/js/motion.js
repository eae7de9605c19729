// Motion and pace of the table: the animation speed setting, the pause on a
// completed trick, the cards' movements and the turn's sound.
//
// The page redraws itself from the newest state on every message; motion is
// only a picture of that change, never a queue in front of it.  Before a
// redraw the page notes where each card was (`capture`); after it, `play`
// moves the cards from there to where they now are (a card played flies from
// its seat, a dealt hand comes from the talon, a collected trick flies to its
// winner).  A redraw that comes while cards are still moving finishes them at
// once: the newer state wins.  With the speed "off", or when the system asks
// for reduced motion (prefers-reduced-motion), nothing moves; the pause on
// a completed trick is a still picture and keeps its length unless the speed
// is "off".

import { prefs, setPref } from "./store.js";

/** The speed settings, slowest last. */
export const SPEEDS = ["off", "fast", "normal", "slow"];
const FACTOR = { off: 0, fast: 0.5, normal: 1, slow: 1.8 };
const MOVE_MS = 320;
const PAUSE_MS = 1500;
const DEAL_STEP_MS = 70;

/** The chosen speed (remembered in the browser; "normal" until chosen). */
export function speedSetting() {
  const value = prefs().speed;
  return SPEEDS.includes(value) ? value : "normal";
}

/** Remember the speed. */
export function setSpeed(value) {
  if (SPEEDS.includes(value)) setPref("speed", value);
}

/** Whether the system asks for reduced motion. */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** What moves now: "off", "reduced" (the system asks for none) or the speed. */
export function motionMode() {
  const speed = speedSetting();
  if (speed === "off") return "off";
  return reducedMotion() ? "reduced" : speed;
}

/** How long a completed trick stays in view before it is collected (ms; 0 with the speed off). */
export function trickPauseMs() {
  return Math.round(PAUSE_MS * FACTOR[speedSetting()]);
}

function moveMs() {
  const mode = motionMode();
  return mode === "off" || mode === "reduced" ? 0 : Math.round(MOVE_MS * FACTOR[mode]);
}

const running = new Set();

/** Finish every movement at once (a newer state is being drawn). */
export function finishAll() {
  for (const anim of [...running]) {
    try {
      anim.finish();
    } catch (_) {
      // An animation of a node already gone: nothing to finish.
    }
  }
  running.clear();
  for (const ghost of document.querySelectorAll(".motion-ghost")) ghost.remove();
}

/** Where each moving part of `root` is now: `{key: {rect, node}}` (keys are `data-anim` values). */
export function capture(root) {
  const out = new Map();
  for (const el of root.querySelectorAll("[data-anim]")) {
    out.set(el.dataset.anim, { rect: el.getBoundingClientRect(), node: el });
  }
  return out;
}

function track(anim) {
  running.add(anim);
  anim.finished.then(() => running.delete(anim), () => running.delete(anim));
  return anim;
}

function slide(el, from, to, ms, delay = 0) {
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  track(el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(0.85)`, opacity: 0.6 },
    { transform: "none", opacity: 1 }], { duration: ms, delay, easing: "ease-out", fill: "backwards" }));
}

/** A copy of a card that is gone from the page, flown to `to` and then removed. */
function flyAway(node, from, to, ms) {
  const ghost = node.cloneNode(true);
  ghost.classList.add("motion-ghost");
  ghost.removeAttribute("data-anim");
  ghost.setAttribute("aria-hidden", "true");
  Object.assign(ghost.style, { position: "fixed", left: `${from.left}px`, top: `${from.top}px`,
    width: `${from.width}px`, height: `${from.height}px`, margin: "0", zIndex: "30", pointerEvents: "none" });
  document.body.append(ghost);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const anim = track(ghost.animate([{ transform: "none", opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) scale(0.4)`, opacity: 0 }], { duration: ms, easing: "ease-in" }));
  anim.finished.then(() => ghost.remove(), () => ghost.remove());
}

/**
 * Move what changed between `before` (from `capture`) and the page now.
 * `collectTo` is the seat that took the trick whose cards are gone, if any.
 */
export function play(root, before, { collectTo = null } = {}) {
  const ms = moveMs();
  document.documentElement.dataset.motion = motionMode();
  if (!ms || !before.size) return;
  const now = capture(root);
  const seatRect = (s) => {
    const el = root.querySelector(`[data-anim="seat-${s}"]`) || root.querySelector(`[data-anim="me-${s}"]`);
    return el ? el.getBoundingClientRect() : null;
  };
  let dealt = 0;
  for (const [key, { rect, node }] of now) {
    if (before.has(key)) continue;
    if (key.startsWith("trick-")) {
      // A card played: from the player's hand (one's own) or his seat box.
      const [, seat, card] = key.split("-");
      const from = before.get(`hand-${card}`)?.rect || seatRect(seat);
      if (from) slide(node, from, rect, ms);
    } else if (key.startsWith("hand-")) {
      // A card dealt or drawn: from the talon, one after the other.
      const talon = before.get("talon")?.rect || now.get("talon")?.rect;
      if (talon) slide(node, talon, rect, ms, dealt++ * DEAL_STEP_MS * (ms / MOVE_MS));
    }
  }
  if (collectTo !== null && collectTo !== undefined) {
    const to = seatRect(collectTo);
    if (to) {
      for (const [key, { rect, node }] of before) {
        if (key.startsWith("trick-") && !now.has(key)) flyAway(node, rect, to, ms);
      }
    }
  }
}

/** A short two-note chime made on the spot (WebAudio; no sound file). */
export function chime() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    const start = ctx.currentTime;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.08, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.36);
    [660, 880].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      osc.type = "sine";
      osc.frequency.value = freq;
      osc.connect(gain);
      osc.start(start + i * 0.12);
      osc.stop(start + 0.14 + i * 0.12);
      if (i === 1) osc.onended = () => ctx.close();
    });
  } catch (_) {
    // No sound then; the tab's title and the status line still say it.
  }
}
