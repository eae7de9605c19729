// The turn timer (docs/protocol.md, `clock`, P15): a countdown everybody at
// the table sees, players and spectators alike, and the notice of a bot
// playing for a player whose time ran out.
//
// The server keeps the deadline; a `clock` message says how much time was
// left when it left the server.  The page counts down from its own receipt
// of it (performance.now), so no two clocks are ever compared, and it never
// decides anything itself: when the time is up the server hands the seat to
// a bot and says so in `presence`.

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
  }

  /** A `clock` message (alone, or inside a `state`). */
  set(clock) {
    this.seconds = clock ? clock.seconds : 0;
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
    const left = this.left();
    if (left === null || !this.table || this.table.status !== "playing") {
      this.el.hidden = true;
      clearInterval(this.ticker);
      return;
    }
    this.el.hidden = false;
    const mine = this.seat === this.mySeat;
    const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    this.el.textContent = mine ? t("clock_yours", { time }) : t("clock_theirs", { name: seatLabel(this.table, this.seat), time });
    this.el.dataset.seat = String(this.seat);
    this.el.dataset.left = String(left);
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

/** The table's time per move in words ("30 s a move", "no turn timer"). */
export function timerWords(seconds) {
  return seconds ? t("timer_per_move", { n: seconds }) : t("timer_off");
}
