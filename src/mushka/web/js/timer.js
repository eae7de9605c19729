// The turn timer (docs/protocol.md, `clock`, P15): a countdown everybody at
// the table sees, players and spectators alike, and the notice of a bot
// playing for a player whose time ran out.
//
// The server keeps the deadline; a `clock` message says how much time was
// left when it left the server.  The page counts down from its own receipt
// of it (performance.now), so no two clocks are ever compared, and it never
// decides anything itself: when the time is up the server hands the seat to
// a bot and says so in `presence`.
//
// A table with a time bank (a chess clock's: "15 s + 3 min") also sends every
// seat's bank left (`banks`).  Each seat shows its bank; the seat to act first
// counts down the move's own time, then (drawn differently) its bank.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatLabel } from "./seats.js";

const TICK_MS = 250;
const URGENT_S = 10;

/** The countdown of the move the server times now (one element kept across renders). */
export class TurnClock {
  constructor() {
    this.seat = null;
    this.seconds = 0;
    this.end = null;
    this.table = null;
    this.mySeat = null;
    this.el = h("div", { class: "turn-clock", role: "timer", dataset: { testid: "turn-clock" }, hidden: true });
    this.ticker = null;
    this.bank = 0;
    this.banks = null;
    this.bankEls = new Map();
  }

  /** The bank left of seat `seat` (mm:ss), kept up to date while it runs; null without a bank. */
  bankElement(seat) {
    if (!this.banks || seat === null || seat === undefined || this.banks[seat] === undefined) return null;
    let el = this.bankEls.get(seat);
    if (!el) {
      el = h("span", { class: "badge bank-left", dataset: { testid: `bank-${seat}` } });
      this.bankEls.set(seat, el);
    }
    this.drawBank(seat, el);
    return el;
  }

  /** The seat timed now: the move's own seconds left, and his bank left (both whole, rounded up). */
  parts() {
    const left = this.left();
    if (left === null) return null;
    const exact = Math.max(0, (this.end - performance.now()) / 1000);
    const bank = this.banks && this.banks[this.seat] !== undefined ? this.banks[this.seat] : 0;
    const move = exact - bank;
    return move > 0 ? { move: Math.ceil(move), bank: Math.ceil(bank), banking: false }
      : { move: 0, bank: Math.ceil(exact), banking: true };
  }

  drawBank(seat, el) {
    const p = seat === this.seat ? this.parts() : null;
    const secs = p ? p.bank : Math.ceil(this.banks[seat]);
    const time = mmss(secs);
    el.textContent = t("bank_chip", { time });
    el.title = t("bank_left", { time });
    el.setAttribute("aria-label", el.title);
    el.dataset.left = String(secs);
    el.classList.toggle("running", !!(p && p.banking));
    el.classList.toggle("empty", secs === 0);
  }

  /** A `clock` message (alone, or inside a `state`). */
  set(clock) {
    this.seconds = clock ? clock.seconds : 0;
    this.bank = clock && clock.bank ? clock.bank : 0;
    this.banks = clock && Array.isArray(clock.banks) ? clock.banks : null;
    this.seat = clock && clock.remaining !== null && clock.remaining !== undefined ? clock.seat : null;
    this.end = this.seat === null ? null : performance.now() + clock.remaining * 1000;
    clearInterval(this.ticker);
    this.ticker = this.end === null ? null : setInterval(() => this.draw(), TICK_MS);
    this.draw();
  }

  /** Seconds left (whole, rounded up), or null when nothing is timed. */
  left() {
    if (this.end === null) return null;
    return Math.max(0, Math.ceil((this.end - performance.now()) / 1000));
  }

  /** The element, drawn for `table` as seen from `mySeat`. */
  element(table, mySeat) {
    this.table = table;
    this.mySeat = mySeat;
    this.draw();
    return this.el;
  }

  draw() {
    for (const [seat, el] of this.bankEls) {
      if (this.banks && this.banks[seat] !== undefined) this.drawBank(seat, el);
    }
    const left = this.left();
    if (left === null || !this.table || this.table.status !== "playing") {
      this.el.hidden = true;
      // A clock that comes inside a `state` is set before the page knows the table: it keeps
      // ticking, and shows once the page draws it.
      if (left === null || this.table) clearInterval(this.ticker);
      return;
    }
    this.el.hidden = false;
    const mine = this.seat === this.mySeat;
    // With a bank: the move's own time first, then the bank (said so, and drawn differently).
    const p = this.banks ? this.parts() : null;
    const banking = !!(p && p.banking);
    const shown = p ? (banking ? p.bank : p.move) : left;
    const time = mmss(shown);
    const name = seatLabel(this.table, this.seat);
    this.el.textContent = banking ? (mine ? t("clock_bank_yours", { time }) : t("clock_bank_theirs", { name, time }))
      : mine ? t("clock_yours", { time }) : t("clock_theirs", { name, time });
    this.el.dataset.seat = String(this.seat);
    this.el.dataset.left = String(left);
    this.el.dataset.phase = banking ? "bank" : "move";
    this.el.classList.toggle("bank", banking);
    this.el.classList.toggle("urgent", left <= URGENT_S);
    this.el.classList.toggle("mine", mine);
    this.el.setAttribute("aria-label", this.el.textContent);
  }

  stop() {
    clearInterval(this.ticker);
  }
}

/** The notices of bots playing for people (timed out or away), with "take my seat back" for one's own. */
export function standInNotices(table, mySeat, onBack) {
  const notes = [];
  for (const s of table.seats) {
    if (s.kind !== "human" || !s.substitute) continue;
    const name = seatLabel(table, s.seat);
    const why = s.timed_out ? t("bot_for_timed_out", { name }) : t("bot_for_away", { name });
    const mine = s.seat === mySeat;
    notes.push(h("div", { class: "notice stand-in", role: "status", dataset: { testid: `stand-in-${s.seat}` } },
      h("span", { text: why }),
      mine ? h("button", { type: "button", class: "btn small primary", dataset: { key: "take-back", testid: "take-back" },
        text: t("take_seat_back"), onclick: onBack }) : null));
  }
  return notes;
}

/** Whole seconds as m:ss ("2:05"). */
function mmss(secs) {
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
}

/** A time bank in words ("3 min", "90 s"). */
export function bankWords(bank) {
  return bank % 60 === 0 ? t("bank_minutes", { n: bank / 60 }) : t("bank_seconds", { n: bank });
}

/** The table's time control in words ("30 s a move", "15 s a move + 3 min bank", "no turn timer"). */
export function timerWords(seconds, bank = 0) {
  if (!seconds) return t("timer_off");
  return bank ? t("timer_with_bank", { n: seconds, bank: bankWords(bank) }) : t("timer_per_move", { n: seconds });
}
