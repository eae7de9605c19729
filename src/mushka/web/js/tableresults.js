// The table page's end-of-deal notice and end-of-game result, each change with its reason.
//
// Methods of TablePage (table.js), mixed into its prototype: `this` is the page.

import { h } from "./dom.js";
import { t, withLang } from "./i18n.js";
import { dealHeadline, explainSeat, moneyItems, stateWord } from "./explain.js";
import { seatLabel, signed } from "./seats.js";
import { optionDefault } from "./tableinfo.js";

/** The table page's end-of-deal notice and end-of-game result, each change with its reason. (methods of TablePage). */
export const resultMethods = {
  /** The finished deal the notice is about (from the score sheet, so it follows the language). */
  noticeResult() {
    const n = this.dealNotice && this.dealNotice.number;
    const history = this.view.history || [];
    return n && history.length >= n ? history[n - 1] : null;
  },

  dealNoticeBox() {
    const result = this.noticeResult();
    if (!result) return null;
    const variant = this.table.variant;
    // The short name (without a bot's level): the box lies between the seats and has little room.
    const name = (s) => seatLabel(this.table, s, this.seat).split(" · ")[0];
    const headline = dealHeadline(result, variant, name);
    const rows = [...Array(this.table.players).keys()].map((s) => {
      const e = explainSeat(result, s, variant, { gamePayment: this.gamePayment() });
      const word = stateWord(e.state);
      return h("tr", { dataset: { seat: s } },
        h("th", { scope: "row", text: name(s) }),
        h("td", { class: "num", text: word || String(e.tricks) }),
        h("td", { class: "num strong", text: word ? "" : signed(e.change) }),
        h("td", { class: "why" }, ...this.reasons(e.parts)));
    });
    const trick = this.dealNotice.trick;
    // Kopilka counts its games out of the session's length (K4, option session_games).
    const games = this.view && this.view.games;
    const title = variant !== "kopilka" ? t("deal_over_n", { n: this.dealNotice.number })
      : games ? t("game_over_n_of", { n: this.dealNotice.number, of: games }) : t("game_over_n", { n: this.dealNotice.number });
    return h("div", { class: "panel notice", dataset: { testid: "deal-notice" }, role: "status" },
      h("div", { class: "notice-head" }, h("strong", { text: title }),
        h("button", { type: "button", class: "btn small", dataset: { key: "dismiss-notice" }, text: t("dismiss"),
          onclick: () => { this.dealNotice = null; this.render(); } })),
      headline ? h("p", { text: headline }) : null,
      h("div", { class: "table-scroll" }, h("table", { class: "grid compact", dataset: { testid: "deal-summary" } },
        h("thead", {}, h("tr", {}, h("th", { text: t("player") }), h("th", { class: "num", text: t("tricks") }),
          h("th", { class: "num", text: t("change") }), h("th", { text: t("why") }))),
        h("tbody", {}, rows))),
      // The last trick of the deal open at once: the felt behind shows the next deal already.
      trick ? h("details", { open: true }, h("summary", { text: t("trick_taken_by", {
        n: trick.number, name: seatLabel(this.table, trick.winner, this.seat) }) }),
      this.trickCards(trick.cards, trick.winner, { small: true })) : null);
  },

  resultBanner(view) {
    const res = view.result;
    const winner = res.winner === null || res.winner === undefined
      ? t("pot_shared") : t("winner_is", { name: seatLabel(this.table, res.winner, this.seat) });
    const variant = this.table.variant;
    const items = moneyItems(view, variant, Number(this.optionValueOf("ante")) || 0);
    const seats = [...Array(this.table.players).keys()];
    const head = h("tr", {}, h("th", { text: "" }), seats.map((s) => h("th", { class: "num", scope: "col",
      text: seatLabel(this.table, s, this.seat) })));
    const rows = items.map((it) => h("tr", {}, h("th", { scope: "row" }, it.label, " ", this.ruleRef(it.rule)),
      it.values.map((v) => h("td", { class: "num", text: signed(v) }))));
    rows.push(h("tr", { class: "strong", dataset: { testid: "final-money" } }, h("th", { scope: "row", text: t("final_money") }),
      res.money.map((m) => h("td", { class: "num", text: signed(m) }))));
    return h("div", { class: "panel result-banner", dataset: { testid: "game-result" }, role: "status" },
      h("h3", { text: t("game_over") }),
      h("p", { class: "winner", text: winner }),
      res.ended_by_mushka ? h("p", { text: t("ended_by_mushka") }) : null,
      h("div", { class: "table-scroll" }, h("table", { class: "grid compact" }, h("thead", {}, head), h("tbody", {}, rows))),
      h("div", { class: "row" },
        this.seat !== null ? h("button", { type: "button", class: "btn primary", dataset: { key: "rematch" },
          text: t("rematch"), onclick: () => this.lobbyCommand({ type: "rematch" }) }) : null,
        this.seat === null && this.table.next ? h("a", { class: "btn primary", href: withLang(`./?table=${encodeURIComponent(this.table.next)}`),
          dataset: { key: "watch-rematch" }, text: t("watch_rematch") }) : null,
        this.seat !== null ? h("button", { type: "button", class: "btn", dataset: { key: "same-rules" },
          text: t("same_rules"), onclick: () => this.newGameSameRules() }) : null,
        h("a", { class: "btn", href: withLang(`./?replay=${encodeURIComponent(this.tableId)}`), text: t("watch_replay") }),
        // The review of one's own decisions against the expert's, in the replay (P11: now that it is over).
        this.seat !== null ? h("a", { class: "btn", dataset: { key: "review-game" }, href: withLang(
          `./?replay=${encodeURIComponent(this.tableId)}&review=${this.seat}`), text: t("review_my_game") }) : null,
        h("a", { class: "btn", href: withLang("./"), text: t("new_game") })),
      this.refusalBox());
  },

  /** K22: what each player but the one who went out pays after a kopilka game (the ante unless set). */
  gamePayment() {
    const value = this.optionValueOf("game_payment");
    const n = Number(value === null || value === undefined || value === "ante" ? this.optionValueOf("ante") : value);
    return Number.isFinite(n) ? n : undefined;
  },

  /** The value of option `name` at this table (its own, else the variant's default). */
  optionValueOf(name) {
    const set = this.table.options || {};
    return name in set ? set[name] : optionDefault(this.meta, this.table.variant, name);
  },
};
