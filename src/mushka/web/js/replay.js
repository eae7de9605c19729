// The replay viewer: steps through a finished game, position by position.
//
// The positions come from the server (GET /api/records/{id}/replay), which
// replays the game record with the rules engine: for each deal, its opening
// and the position after every action, with every hand open (a record is
// served only once its game is over, protocol P11) and what happened, in
// sentences of the page's language.  This page only draws them: it knows
// nothing of dealing, turn order or who takes a trick.

import { getReplay, meta } from "./api.js";
import { cardElement, RANK_ORDER, sortHand, suitName, suitSymbol } from "./cards.js";
import { h, preserveFocus, replace } from "./dom.js";
import { lang, onLangChange, t, withLang } from "./i18n.js";
import { dealHeadline, explainSeat, partText, stateWord } from "./explain.js";
import { recordName, seatBadges, signed } from "./seats.js";
import { trickPauseMs } from "./motion.js";
import { ReviewPanel } from "./review.js";

const AUTOPLAY_MS = 1000;

/** The replay page (`/?replay=ID`). */
export class ReplayPage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.replay = null;
    this.error = null;
    this.dealIndex = 0;
    this.step = 0;
    this.timer = null;
    this.autoplaying = false;
    this.meta = null;
    this.loading = null;
    // The review of one seat's decisions: opened at once for the seat the address names
    // (the link at the end of a game), else when asked for.
    const wanted = new URLSearchParams(location.search).get("review");
    this.review = new ReviewPanel(this, wanted !== null && /^\d+$/.test(wanted) ? Number(wanted) : null);
    onLangChange(() => {
      this.load();
      if (this.review.review || this.review.loading) this.review.load(this.review.seat ?? 0);
    });
  }

  /** Fetch the positions and draw the first one. */
  start() {
    this.render();
    meta().then((m) => { this.meta = m; this.render(); }).catch(() => {});
    if (this.review.seat !== null) this.review.load(this.review.seat);
    return this.load();
  }

  /** Fetch the positions in the current language (the sentences change with it). */
  async load() {
    const wanted = lang();
    this.loading = wanted;
    try {
      const replay = await getReplay(this.id);
      if (this.loading !== wanted) return;
      this.replay = replay;
      this.error = null;
      this.dealIndex = Math.min(this.dealIndex, Math.max(0, this.deals().length - 1));
      this.step = Math.min(this.step, Math.max(0, this.steps().length - 1));
    } catch (err) {
      if (this.loading !== wanted) return;
      this.error = err.message;
    }
    this.render();
  }

  deals() {
    return this.replay ? this.replay.deals : [];
  }

  steps() {
    const deal = this.deals()[this.dealIndex];
    return deal ? deal.steps : [];
  }

  go(dealIndex, step) {
    const deals = this.deals();
    const d = Math.max(0, Math.min(deals.length - 1, dealIndex));
    const steps = deals[d] ? deals[d].steps : [];
    this.dealIndex = d;
    this.step = Math.max(0, Math.min(steps.length - 1, step));
    this.render();
  }

  forward() {
    if (this.step < this.steps().length - 1) this.go(this.dealIndex, this.step + 1);
    else if (this.dealIndex < this.deals().length - 1) this.go(this.dealIndex + 1, 0);
    else this.pause();
  }

  back() {
    if (this.step > 0) this.go(this.dealIndex, this.step - 1);
    else if (this.dealIndex > 0) this.go(this.dealIndex - 1, this.deals()[this.dealIndex - 1].steps.length - 1);
  }

  play() {
    if (this.autoplaying) return this.pause();
    this.autoplaying = true;
    this.schedule();
    this.render();
    return true;
  }

  /** The next autoplay step; a position that completes a trick stays the pause of the speed setting longer. */
  schedule() {
    const wait = AUTOPLAY_MS + (this.completesTrick() ? trickPauseMs() : 0);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.forward();
      if (this.autoplaying) this.schedule();
    }, wait);
  }

  /** Whether the position shown is the one right after a trick was taken. */
  completesTrick() {
    const steps = this.steps();
    const now = steps[this.step];
    const prev = steps[this.step - 1];
    return !!(now && prev && now.deal.tricks.length > prev.deal.tricks.length);
  }

  pause() {
    clearTimeout(this.timer);
    this.timer = null;
    this.autoplaying = false;
    this.render();
    return true;
  }

  /** Arrow keys step, Page Up/Down change the deal, Home/End jump within it. */
  onKey(event) {
    if (!this.deals().length) return false;
    switch (event.key) {
      case "ArrowRight": this.forward(); return true;
      case "ArrowLeft": this.back(); return true;
      case "PageDown": this.go(this.dealIndex + 1, 0); return true;
      case "PageUp": this.go(this.dealIndex - 1, 0); return true;
      case "Home": this.go(this.dealIndex, 0); return true;
      case "End": this.go(this.dealIndex, this.steps().length - 1); return true;
      case " ": return event.target === document.body ? this.play() : false;
      default: return false;
    }
  }

  /** Stop the autoplay (leaving the page). */
  stop() {
    this.pause();
  }

  render() {
    preserveFocus(this.root, () => replace(this.root, ...this.content()));
  }

  content() {
    const head = h("div", { class: "table-head" }, h("h2", { text: t("replay_title") }),
      h("a", { class: "btn small", href: withLang("./"), text: t("to_lobby") }));
    if (this.error) return [head, h("p", { class: "error-text", role: "alert", text: this.error })];
    if (!this.replay) return [head, h("p", { class: "muted", role: "status", text: t("loading") })];
    if (!this.deals().length) return [head, h("p", { class: "muted", text: t("replay_empty") })];
    const rp = this.replay;
    const deal = this.deals()[this.dealIndex];
    const step = deal.steps[this.step];
    const last = this.step === deal.steps.length - 1;
    return [
      head,
      h("p", { class: "muted", text: `${variantName(this.meta, rp)} · ${t("players_n", { n: rp.players })} · ${rp.seats.map(recordName).join(", ")}` }),
      this.controls(deal.steps),
      h("p", { class: "status-line", role: "status", dataset: { testid: "replay-caption" },
        text: step.texts.join(" ") }),
      this.review.note(this.dealIndex, this.step),
      this.board(deal, step),
      last && deal.result ? this.dealResult(deal) : null,
      last && this.dealIndex === this.deals().length - 1 && rp.result ? this.gameResult(rp.result) : null,
      this.review.element(this.dealIndex, this.step),
    ];
  }

  controls(steps) {
    const deals = this.deals();
    const dealSelect = h("select", { "aria-label": t("deal"), dataset: { key: "replay-deal" },
      onchange: (e) => this.go(Number(e.target.value), 0) },
    deals.map((_, i) => h("option", { value: i, selected: i === this.dealIndex,
      text: t("deal_n_of", { n: i + 1, of: deals.length }) })));
    const slider = h("input", { type: "range", min: 0, max: steps.length - 1, value: this.step,
      "aria-label": t("step"), dataset: { key: "replay-slider" },
      oninput: (e) => this.go(this.dealIndex, Number(e.target.value)) });
    const btn = (key, label, text, onclick) => h("button", { type: "button", class: "btn small", "aria-label": label,
      title: label, dataset: { key }, text, onclick });
    return h("div", { class: "panel replay-controls", role: "group", "aria-label": t("replay_controls") },
      dealSelect,
      btn("replay-first", t("to_deal_start"), "«", () => this.go(this.dealIndex, 0)),
      btn("replay-back", t("step_back"), "◀", () => this.back()),
      btn("replay-play", this.autoplaying ? t("pause") : t("autoplay"), this.autoplaying ? "||" : "▶▶",
        () => this.play()),
      btn("replay-forward", t("step_forward"), "▶", () => this.forward()),
      btn("replay-next-deal", t("next_deal"), "»", () => this.go(this.dealIndex + 1, 0)),
      slider,
      h("span", { class: "muted", dataset: { testid: "replay-step" }, text: t("step_n_of", { n: this.step, of: steps.length - 1 }) }));
  }

  seatName(s) {
    return recordName(this.replay.seats[s], s);
  }

  board(deal, step) {
    const rp = this.replay;
    const pos = step.deal;
    const order = normaliseOrder(rp.options && rp.options.rank_order, rp.variant);
    const seats = step.hands.map((hand, s) => {
      const facts = seatBadges(pos, s, deal.dealer);
      const sorted = sortHand(hand, { order, trump: pos.trump || null });
      return h("div", { class: `replay-seat${s === step.actor ? " actor" : ""}`, dataset: { seat: s, testid: `replay-seat-${s}` } },
        h("div", { class: "seat-name", text: this.seatName(s) }),
        h("div", { class: "seat-line" }, facts),
        h("div", { class: "cards", "aria-label": t("hand_of", { name: this.seatName(s) }) },
          sorted.map((c) => cardElement(c, { classes: "small" }))));
    });
    const centre = [];
    if (pos.turnup) {
      centre.push(h("div", { class: "centre-box" },
        h("span", { class: "label", text: pos.turnup_taken ? t("turnup_taken") : t("turnup") }),
        cardElement(pos.turnup, { classes: "small" }),
        h("span", { class: "label", text: t("trump_is", { suit: `${suitSymbol(pos.trump)} ${suitName(pos.trump)}` }) })));
    } else if (rp.variant === "kopilka") {
      centre.push(h("div", { class: "centre-box" }, h("span", { class: "label", text: t("pot") }),
        h("strong", { text: String(pos.pot) })));
    }
    centre.push(h("div", { class: "centre-box" }, h("span", { class: "label", text: t("talon") }),
      h("strong", { text: String(pos.talon_size) })));
    const done = pos.tricks.length ? pos.tricks[pos.tricks.length - 1] : null;
    const cards = pos.trick.length ? pos.trick : (done ? done.cards : []);
    const label = pos.trick.length ? t("current_trick") : (done ? t("last_trick") : t("no_cards_on_table"));
    const taken = this.completesTrick();
    centre.push(h("div", { class: "centre-box", dataset: { testid: "replay-trick", complete: taken ? "true" : "false" } },
      h("span", { class: "label", text: taken && done ? t("trick_taken_by", { n: pos.tricks.length,
        name: this.seatName(done.winner) }) : label }),
      h("div", { class: `trick${pos.trick.length ? "" : " done"}` }, cards.map(([s, c]) => h("div", {
        class: `trick-card${!pos.trick.length && done && s === done.winner ? " winner" : ""}` },
      cardElement(c, { classes: "small" }), h("span", { class: "who", text: this.seatName(s) }))))));
    return h("section", { class: "felt", "aria-label": t("table_area") },
      h("div", { class: "replay-seats" }, seats),
      h("div", { class: "centre" }, centre));
  }

  dealResult(deal) {
    const rp = this.replay;
    const end = deal.result;
    const names = rp.seats.map((_, s) => this.seatName(s));
    const kopilka = rp.variant === "kopilka";
    const rows = names.map((name, s) => {
      const e = explainSeat(end, s, rp.variant, { gamePayment: replayGamePayment(rp) });
      const word = stateWord(e.state);
      return h("tr", { dataset: { seat: s } }, h("td", { text: name }),
        h("td", { class: "num", text: word || String(e.tricks) }),
        h("td", { class: "num", text: word ? "" : signed(e.change) }),
        kopilka ? null : h("td", { class: "num", text: deal.records.length ? String(deal.records[s]) : "" }),
        h("td", { class: "why", text: e.parts.map(partText).join("; ") }));
    });
    rows.unshift(h("tr", {}, h("th", { text: t("player") }), h("th", { class: "num", text: t("tricks") }),
      h("th", { class: "num", text: kopilka ? t("money") : t("record") }),
      kopilka ? null : h("th", { class: "num", text: t("record_after") }), h("th", { text: t("why") })));
    const headline = dealHeadline(end, rp.variant, (s) => names[s]);
    return h("div", { class: "panel notice", dataset: { testid: "replay-deal-result" } },
      h("h3", { text: t("deal_result") }), headline ? h("p", { text: headline }) : null,
      h("div", { class: "table-scroll" }, h("table", { class: "grid compact" }, h("tbody", {}, rows))));
  }

  gameResult(game) {
    const rp = this.replay;
    const winner = game.winner === null || game.winner === undefined
      ? t("pot_shared") : t("winner_is", { name: this.seatName(game.winner) });
    return h("div", { class: "panel result-banner", dataset: { testid: "replay-game-result" } },
      h("h3", { text: t("game_over") }), h("p", { text: winner }),
      h("p", { text: game.money.map((m, s) => `${this.seatName(s)}: ${signed(m)}`).join(" · ") }));
  }
}

function variantName(metaInfo, replay) {
  const info = metaInfo && metaInfo.variants.find((v) => v.name === replay.variant);
  if (info) return lang() === "ru" ? info.title_ru : info.title_en;
  return replay.variant_title || t(`variant_${replay.variant}`);
}

function normaliseOrder(order, variant) {
  if (!order) return RANK_ORDER[variant] || RANK_ORDER.classic;
  if (order === "ace_high") return RANK_ORDER.classic;
  if (order === "mistigri") return RANK_ORDER.mistigri;
  return String(order).toUpperCase().replace(/10/g, "T");
}


/** K22: a replay's game payment after each kopilka game, when its options say it (else unknown). */
function replayGamePayment(rp) {
  const options = rp.options || {};
  const value = options.game_payment === undefined || options.game_payment === "ante" ? options.ante : options.game_payment;
  const n = value === undefined || value === null ? NaN : Number(value);
  return Number.isFinite(n) ? n : undefined;
}
