// The review of a finished game in the replay page: one seat's decisions against the expert's.
//
// The server makes it (GET /api/records/{id}/review, docs/protocol.md; the same review as
// `mushka review RECORD`): every decision of the seat, what the expert level would have
// played, and how much money the difference is worth on average with its standard error.
// This panel lists them, puts the three costliest first, and a click on one shows its
// position in the replay (the position the seat decided in: the step before its action).

import { getReview } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { recordName } from "./seats.js";

/** Money with two decimals and its sign as the page writes amounts. */
function money(value) {
  return value.toFixed(2);
}

/** One seat's review, fetched when asked for (it takes the server a few seconds). */
export class ReviewPanel {
  /** `page` is the replay page: it has `id`, `replay`, `go(dealIndex, step)` and `render()`. */
  constructor(page, seat = null) {
    this.page = page;
    this.seat = seat;
    this.review = null;
    this.error = null;
    this.loading = false;
    this.asked = null;
  }

  /** Ask the server for the review of `seat` (again if the language changed). */
  async load(seat) {
    this.seat = seat;
    const asked = `${seat}`;
    this.asked = asked;
    this.loading = true;
    this.error = null;
    this.review = null;
    this.page.render();
    try {
      const review = await getReview(this.page.id, seat);
      if (this.asked !== asked) return;
      this.review = review;
    } catch (err) {
      if (this.asked !== asked) return;
      this.error = err.message;
    }
    this.loading = false;
    this.page.render();
  }

  /** The decision made in the position the replay shows now, if the review has one there. */
  decisionHere(dealIndex, step) {
    if (!this.review) return null;
    return this.review.decisions.find((d) => d.deal === dealIndex + 1 && d.index - 1 === step) || null;
  }

  /** Show the position of decision `d` (the step before its action). */
  show(d) {
    this.page.go(d.deal - 1, d.index - 1);
    // On a phone the list is under the board: bring the position into view.
    const note = document.querySelector("[data-testid=review-here]");
    if (note && note.scrollIntoView) note.scrollIntoView({ block: "start" });
  }

  name(seat) {
    return recordName(this.page.replay.seats[seat], seat);
  }

  /** The panel: the seat to review, then its decisions, the costliest first. */
  element(dealIndex, step) {
    const rp = this.page.replay;
    const choose = h("select", { "aria-label": t("review_seat"), dataset: { key: "review-seat" },
      onchange: (e) => { this.seat = Number(e.target.value); } },
    rp.seats.map((_, s) => h("option", { value: s, selected: s === (this.seat ?? 0), text: this.name(s) })));
    const ask = h("button", { type: "button", class: "btn small primary", dataset: { key: "review-start" },
      disabled: this.loading, text: t("review_start"), onclick: () => this.load(this.seat ?? 0) });
    const parts = [h("h3", { text: t("review_title") }),
      h("p", { class: "muted small", text: t("review_blurb") }),
      h("div", { class: "row" }, h("label", { class: "field" }, t("review_seat"), choose), ask)];
    if (this.loading) {
      parts.push(h("p", { class: "muted", role: "status", dataset: { testid: "review-loading" },
        text: t("review_loading", { name: this.name(this.seat) }) }));
    }
    if (this.error) parts.push(h("p", { class: "error-text", role: "alert", text: this.error }));
    if (this.review) parts.push(...this.body(dealIndex, step));
    return h("section", { class: "panel review", "aria-label": t("review_title"), dataset: { testid: "review" } },
      ...parts);
  }

  body(dealIndex, step) {
    const rv = this.review;
    const count = rv.decisions.length;
    const summary = h("p", { dataset: { testid: "review-summary" }, text: t("review_summary", {
      name: this.name(rv.seat), n: count, differ: rv.differ, total: money(rv.total) }) });
    const byKey = new Map(rv.decisions.map((d) => [`${d.deal}.${d.index}`, d]));
    const costly = rv.costliest.map(([deal, index]) => byKey.get(`${deal}.${index}`)).filter(Boolean);
    const top = costly.length
      ? h("div", {}, h("h4", { text: t("review_costliest") }),
        h("ol", { class: "review-list costly", dataset: { testid: "review-costliest" } },
          costly.map((d) => this.row(d, dealIndex, step))))
      : h("p", { dataset: { testid: "review-clean" }, text: t("review_none_costly") });
    const all = h("details", { class: "review-all" },
      h("summary", { text: t("review_all", { n: count }) }),
      h("ol", { class: "review-list", dataset: { testid: "review-all" } },
        rv.decisions.map((d) => this.row(d, dealIndex, step))));
    return [summary, top, all];
  }

  /** One decision: where, what was played, the expert's move, what it cost; a click shows it. */
  row(d, dealIndex, step) {
    const here = d.deal === dealIndex + 1 && d.index - 1 === step;
    const agrees = d.choice === d.best;
    const verdict = agrees ? t("review_agrees")
      : t("review_cost", { loss: money(d.loss), error: money(d.error) });
    return h("li", { class: `review-item${d.costly ? " costly" : ""}${agrees ? " agrees" : ""}${here ? " here" : ""}` },
      h("button", { type: "button", class: "link", dataset: { key: `review-${d.deal}-${d.index}`, testid: "review-item",
        deal: d.deal, index: d.index }, "aria-current": here ? "step" : null,
        onclick: () => this.show(d) },
      h("span", { class: "where", text: t("review_where", { deal: d.deal, move: d.index, phase: t(`phase_${d.phase}`) }) }),
      " ",
      h("span", { text: agrees ? t("review_played", { move: d.choice_words })
        : t("review_played_vs", { move: d.choice_words, best: d.best_words }) }),
      " ",
      h("span", { class: "verdict", text: verdict })));
  }

  /** Under the board: what the review says about the position shown, if the seat decided there. */
  note(dealIndex, step) {
    const d = this.decisionHere(dealIndex, step);
    if (!d) return null;
    const agrees = d.choice === d.best;
    return h("p", { class: `notice review-here${d.costly ? " costly" : ""}`, role: "status", dataset: { testid: "review-here" },
      text: agrees ? t("review_here_agrees", { name: this.name(d.seat), move: d.choice_words })
        : t("review_here", { name: this.name(d.seat), move: d.choice_words, best: d.best_words,
          loss: money(d.loss), error: money(d.error) }) });
  }
}
