// Taking back one's last card (docs/protocol.md, P21), mixed into the table page (table.js).
//
// The server decides: a card may be taken back only while nobody has acted after it, only
// where every other seat is a bot or the table's creator allowed it (`table.takeback`),
// and never the card that ended a deal.  The page only offers the button while that can
// be so (its own card is the last change it has seen) and sends `take_back`; a refusal
// comes back as any refusal does, in words.  Everybody at the table reads who took his
// card back (`taken_back`), and the whole state of the position before it follows.

import { cardName } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { announce, toast } from "./ui.js";

const CARD = /^(?:[2-9TJQKA]|10)[SHDC]$/;

/** Whether `seat` may take back cards at `table`: its creator allowed it, or every other seat is a bot. */
export function takeBackAllowed(table, seat) {
  if (!table || seat === null || seat === undefined) return false;
  return !!table.takeback || table.seats.every((s) => s.seat === seat || s.kind === "bot");
}

export const takeBackMethods = {
  /** Note the action this seat sends (its card may be taken back once the server has applied it). */
  noteOwnAction(action) {
    this.ownAction = action;
  },

  /** An `update` of this seat's own action: the card it played may be taken back until the next one. */
  noteOwnUpdate(msg) {
    const card = typeof this.ownAction === "string" && CARD.test(this.ownAction) ? this.ownAction : null;
    const ended = msg.events.some((e) => e.event === "DealEnded" || e.event === "GameEnded");
    this.undo = card && !ended ? { ply: msg.ply, card } : null;
  },

  /** `taken_back`: say who took which card back (the state of before it follows). */
  takenBack(msg) {
    this.undo = null;
    this.pending = null;
    this.refusal = null;
    toast(msg.text);
    announce(msg.text);
  },

  /** The "take back" button, while this seat's card is the last action the page has seen. */
  takeBackButton() {
    const undo = this.undo;
    if (!undo || undo.ply !== this.ply || !this.table || this.table.status !== "playing"
        || (this.view && this.view.result) || !takeBackAllowed(this.table, this.seat)) return null;
    return h("button", { type: "button", class: "btn small undo", dataset: { key: "undo-card", testid: "undo-card" },
      title: t("undo_card_title"), text: t("undo_card", { card: cardName(undo.card) }),
      onclick: () => {
        if (!this.conn) return;
        this.pending = this.conn.send({ type: "take_back" });
        this.render();
      } });
  },

  /** The table's setting, for everybody at a table with other people: take-backs allowed. */
  takeBackBadge() {
    if (!this.table || !this.table.takeback) return null;
    return h("span", { class: "badge", dataset: { testid: "takeback-setting" }, title: t("takeback_on_title"),
      text: t("takeback_on") });
  },
};
