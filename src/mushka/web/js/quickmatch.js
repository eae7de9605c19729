// The lobby's quick match (POST /api/quickmatch; docs/protocol.md): the player
// asks for a variant and a table size, waits a few seconds for strangers who ask
// for the same, and is taken to his seat; bots of the level he chose fill the
// seats nobody took.  While he waits the panel says how many would sit together
// and about how long it will still take, and he may give up.

import { quickMatch, quickMatchCancel, quickMatchStatus } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const POLL_MS = 500;

/** One player's quick match: its ticket, what the server last said, and the panel. */
export class QuickMatch {
  /**
   * `onChange()` redraws the lobby; `onSeated(url)` goes to the seat; `onError(message)`
   * shows a refusal in the form.
   */
  constructor({ onChange, onSeated, onError }) {
    this.onChange = onChange;
    this.onSeated = onSeated;
    this.onError = onError;
    this.ticket = null;
    this.answer = null;
    this.timer = null;
    this.request = null;
  }

  get active() {
    return this.request !== null;
  }

  /** Join the queue with `request` ({variant, players, level, name}). */
  async start(request) {
    if (this.active) return;
    this.request = request;
    this.answer = null;
    this.onChange();
    try {
      this.take(await quickMatch(request));
    } catch (err) {
      this.stop();
      this.onError(err.message || String(err));
    }
  }

  take(answer) {
    this.answer = answer;
    this.ticket = answer.ticket;
    if (answer.status === "seated") {
      this.onSeated(answer.url);
      return;
    }
    this.onChange();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), POLL_MS);
  }

  async poll() {
    if (!this.ticket) return;
    try {
      this.take(await quickMatchStatus(this.ticket));
    } catch (err) {
      this.stop();
      this.onError(err.message || String(err));
    }
  }

  /** Leave the queue (nothing happens if the table was made meanwhile: the next answer seats him). */
  async cancel() {
    const ticket = this.ticket;
    this.stop();
    if (ticket) {
      try {
        await quickMatchCancel(ticket);
      } catch (_) {
        // Already seated or forgotten: there is nothing left to cancel.
      }
    }
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
    this.ticket = null;
    this.request = null;
    this.answer = null;
    this.onChange();
  }

  /** The waiting panel (null when not waiting). */
  view(variantName) {
    if (!this.active) return null;
    const a = this.answer;
    const seconds = a ? Math.max(1, Math.ceil(a.wait)) : null;
    const text = !a ? t("quick_match_asking")
      : t("quick_match_waiting", { variant: variantName, players: this.request.players, people: a.waiting, s: seconds });
    return h("div", { class: "quick-wait", role: "status", "aria-live": "polite", dataset: { testid: "quick-match-wait" } },
      h("span", { class: "spinner", "aria-hidden": "true" }),
      h("span", { text }),
      h("button", { type: "button", class: "btn small", dataset: { key: "quick-match-cancel" },
        text: t("quick_match_cancel"), onclick: () => this.cancel() }));
  }
}
