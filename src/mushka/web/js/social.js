// The table's social side, mixed into the table page (table.js): the turn
// timer (timer.js), the table chat (chat.js) and "suggest a move" (hint.js).
// The page hands this module the messages it does not draw itself (`clock`,
// `chat`, `hint`, chat refusals) and asks it for two pieces of the page: the
// bar under the felt (countdown, bots playing for people, the hint) and the
// chat box beside the panels.

import { h } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { ChatBox } from "./chat.js";
import { hintBox } from "./hint.js";
import { TurnClock, standInNotices, timerWords } from "./timer.js";
import { plainMessage } from "./ruleword.js";

export const socialMethods = {
  /** Set up the clock and the chat box (once, on the first use). */
  socialInit() {
    if (this.clock) return;
    this.clock = new TurnClock();
    this.chat = new ChatBox((msg) => (this.conn ? this.conn.send(msg) !== null : false));
    this.suggestion = null;
    this.suggestionAsked = null;
    onLangChange(() => this.chat.relabel());
  },

  /** A message for the social side; true if it was one (the page then redraws). */
  socialHandle(msg) {
    this.socialInit();
    switch (msg.type) {
      case "state":
        this.clock.set(msg.clock || null);
        this.suggestion = null;
        return false;
      case "update":
        this.suggestion = null;
        return false;
      case "clock":
        this.clock.set(msg);
        return true;
      case "chat":
        this.chat.add(msg);
        return false; // the box draws itself; the rest of the page is unchanged
      case "hint":
        this.suggestion = msg;
        return true;
      case "error":
        if (typeof msg.code === "string" && msg.code.startsWith("chat_")) {
          this.chat.refused(plainMessage(msg.message, msg.rule), msg.rule);
          return null; // handled here; not a refusal of a move
        }
        if (msg.code === "hint_humans" || msg.code === "hint_turn") this.suggestionAsked = null;
        return false;
      default:
        return false;
    }
  },

  /** The bar under the felt: the countdown, bots playing for people, the suggested move. */
  socialBar(myTurn) {
    this.socialInit();
    return h("div", { class: "social-bar" },
      this.timerBadge(),
      this.takeBackBadge(),
      this.clock.element(this.table, this.seat),
      ...standInNotices(this.table, this.seat, () => this.lobbyCommand({ type: "back" })),
      hintBox(this, myTurn));
  },

  /** The table's time control for everybody to see ("15 s + 3 min"; P15), or null without a timer. */
  timerBadge() {
    const seconds = this.table.turn_seconds || 0;
    const bank = this.table.bank_seconds || 0;
    return seconds ? h("span", { class: "badge", dataset: { testid: "timer-setting" },
      title: bank ? t("bank_title") : t("timer_title"), text: timerWords(seconds, bank) }) : null;
  },

  /** The chat box (the same element every time). */
  chatBox() {
    this.socialInit();
    return this.chat.element(this.seat);
  },
};
