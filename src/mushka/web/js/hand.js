// The table page's own seat: the hand, the action buttons, the hint and a refusal with its rule.
//
// Methods of TablePage (table.js), mixed into its prototype: `this` is the page.

import { cardElement, cardName, RANK_ORDER, short, sortHand } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { standAction, standIsLegal } from "./moves.js";
import { isGameRule } from "./rulesinfo.js";
import { prefs } from "./store.js";
import { seatLabel } from "./seats.js";
import { toast } from "./ui.js";
import { ruleNote } from "./ruleword.js";
import { normaliseOrder, optionDefault } from "./tableinfo.js";

/** The table page's own seat (methods of TablePage). */
export const handMethods = {
  myArea(deal, model) {
    const order = (this.table.options && this.table.options.rank_order) || RANK_ORDER[deal.variant] || RANK_ORDER.classic;
    const hand = sortHand(deal.hand || [], { order: normaliseOrder(order), trump: deal.trump || null });
    const active = model.myTurn && !this.view.result;
    const cards = hand.map((code, i) => this.handCard(code, i, model, active));
    const facts = this.seatFacts(deal, this.seat);
    return h("section", { class: `me${active ? " to-act" : ""}`, "aria-label": t("your_hand"),
      dataset: { testid: "me", anim: `me-${this.seat}` } },
      h("div", { class: "seat-line" }, h("strong", { text: seatLabel(this.table, this.seat, this.seat) }), ...facts,
        this.clock ? this.clock.bankElement(this.seat) : null),
      h("div", { class: "hand", role: "group", "aria-label": t("your_hand_n", { n: hand.length }),
        dataset: { testid: "hand" }, onkeydown: (e) => this.handKeys(e) }, cards),
      active ? this.actionBar(deal, model) : null,
      active ? h("p", { class: "hint", id: "armed-hint", dataset: { testid: "hand-hint" },
        text: this.armed && this.armedPly === this.ply && model.mode !== "declare"
          ? t("tap_again", { card: cardName(this.armed) }) : this.hint(deal, model) }) : null,
      this.refusalBox());
  },

  handCard(code, index, model, active) {
    let state = "";
    let extra = "";
    if (active) {
      const legal = model.mode === "declare" ? model.useful.has(code)
        : model.mode === "redistribute" ? model.discardCards.has(code) : model.playCards.has(code);
      state = legal ? "legal" : "illegal";
      extra = legal ? t(model.mode === "declare" ? "can_exchange" : "can_play") : t("not_allowed");
    }
    // The tutorial points at the card(s) of its lesson.
    if (this.lesson && active && this.lesson.pointed().has(code)) state += " pointed";
    const el = cardElement(code, { interactive: true, classes: state, extraLabel: extra, key: `hand-${code}` });
    el.dataset.anim = `hand-${code}`;
    el.tabIndex = index === 0 ? 0 : -1;
    if (model.mode === "declare" && active) el.setAttribute("aria-pressed", this.selected.has(code) ? "true" : "false");
    if (active && this.armed === code && this.armedPly === this.ply) {
      // Tapped once: the card stands out, and a second tap plays it.
      el.classList.add("armed");
      el.setAttribute("aria-describedby", "armed-hint");
    }
    if (!active) el.setAttribute("aria-disabled", "true");
    el.addEventListener("pointerdown", (e) => { this.lastPointer = e.pointerType; });
    if (state.startsWith("illegal")) el.setAttribute("aria-disabled", "true");
    el.addEventListener("click", () => this.cardClicked(code, model, active));
    return el;
  },

  handKeys(event) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight" && event.key !== "Home" && event.key !== "End") return;
    const cards = [...this.root.querySelectorAll(".hand button.card")];
    const at = cards.indexOf(document.activeElement);
    if (at < 0) return;
    let next = at;
    if (event.key === "ArrowLeft") next = Math.max(0, at - 1);
    if (event.key === "ArrowRight") next = Math.min(cards.length - 1, at + 1);
    if (event.key === "Home") next = 0;
    if (event.key === "End") next = cards.length - 1;
    cards.forEach((c, i) => { c.tabIndex = i === next ? 0 : -1; });
    cards[next].focus();
    event.preventDefault();
  },

  cardClicked(code, model, active) {
    if (!active) {
      toast(this.view.result ? t("game_over") : t("not_your_turn"));
      return;
    }
    if (this.pending !== null) return;
    if (model.mode === "declare") {
      if (this.selected.has(code)) this.selected.delete(code);
      else this.selected.add(code);
      this.refusal = null;
      this.render();
      return;
    }
    // A finger (or anybody who asked for it in the settings) plays a card in two taps:
    // the first raises it, the second plays it; a tap on another card moves the choice.
    const twoTaps = this.lastPointer === "touch" || !!prefs().confirmCard;
    this.lastPointer = null;
    if (twoTaps && (this.armed !== code || this.armedPly !== this.ply)) {
      this.armed = code;
      this.armedPly = this.ply;
      this.refusal = null;
      this.render();
      return;
    }
    this.armed = null;
    if (model.mode === "redistribute") {
      this.act(`discard ${code}`);
      return;
    }
    // Play: an illegal card is sent all the same so that the server says why.
    this.act(code);
  },

  actionBar(deal, model) {
    const buttons = [];
    const busy = this.pending !== null;
    const button = (name, label, action, legal, shortcut) => {
      const btn = h("button", { type: "button", class: `btn${legal ? " primary" : ""}`,
        dataset: { key: `act-${name}`, action }, "aria-disabled": legal ? null : "true", "aria-busy": busy ? "true" : null,
        "aria-keyshortcuts": shortcut },
      label, h("span", { class: "key", "aria-hidden": "true", text: shortcut }));
      btn.addEventListener("click", () => {
        if (this.pending !== null) return;
        if (action === "take") {
          // C6: the dealer names the card he discards; nothing to send without it.
          this.refusal = { message: t("select_discard_first"), rule: "C6" };
          this.render();
          return;
        }
        this.act(action);
      });
      return btn;
    };
    if (model.mode === "declare") {
      const sel = [...this.selected];
      // C6, MI8: when passing is not allowed it is not offered at all.
      if (model.canPass) buttons.push(button("pass", t("btn_pass"), "pass", true, "P"));
      buttons.push(button("stand", sel.length ? t("btn_stand_exchange", { n: sel.length }) : t("btn_stand"),
        standAction(sel), standIsLegal(model, sel), "S"));
      if (model.takeCards.size) {
        const discard = sel.length === 1 ? sel[0] : null;
        const label = discard ? t("btn_take_discard", { card: short(deal.turnup), discard: short(discard) })
          : t("btn_take", { card: short(deal.turnup) });
        buttons.push(button("take", label, discard ? `take ${discard}` : "take",
          discard !== null && model.takeCards.has(discard), "T"));
      }
    } else if (model.mode === "play" && deal.variant === "kopilka") {
      buttons.push(button("draw", t("btn_draw"), "draw", model.canDraw, "D"));
      const costly = this.holdsLedSuit(deal);
      if (costly) {
        // K12: a pass that costs a remiz is never the recommended move and asks once more.
        const armed = this.confirmPass === this.ply;
        const btn = h("button", { type: "button", class: `btn costly${armed ? " armed" : ""}`,
          dataset: { key: "act-pass", action: "pass" }, "aria-keyshortcuts": "P",
          "aria-disabled": model.canPass ? null : "true" },
        armed ? t("btn_pass_confirm", { n: this.remiz() }) : t("btn_pass_penalty", { n: this.remiz() }),
        h("span", { class: "key", "aria-hidden": "true", text: "P" }));
        btn.addEventListener("click", () => {
          if (this.pending !== null) return;
          if (!armed) {
            this.confirmPass = this.ply;
            this.render();
            return;
          }
          this.confirmPass = null;
          this.act("pass");
        });
        buttons.push(btn);
      } else {
        buttons.push(button("pass", t("btn_pass"), "pass", model.canPass, "P"));
      }
    }
    if (!buttons.length) return null;
    return h("div", { class: "actions", role: "group", "aria-label": t("your_actions") }, buttons);
  },

  holdsLedSuit(deal) {
    if (!deal.trick.length) return false;
    const led = deal.trick[0][1].slice(-1);
    return (deal.hand || []).some((c) => c.slice(-1) === led);
  },

  remiz() {
    const fromTable = this.table.options && this.table.options.remiz;
    return fromTable || optionDefault(this.meta, this.table.variant, "remiz") || "5";
  },

  hint(deal, model) {
    if (model.mode === "declare") {
      // C6, MI8: a dealer who took the trump card, or the holder of K♣, may not pass.
      const parts = [t(model.canPass ? "hint_declare" : "hint_declare_nopass")];
      if (model.takeCards.size) parts.push(t("hint_take", { card: cardName(deal.turnup) }));
      return parts.join(" ");
    }
    if (model.mode === "redistribute") return t("hint_discard");
    if (deal.variant === "kopilka") return t("hint_play_kopilka");
    return t("hint_play");
  },

  refusalBox() {
    if (!this.refusal) return null;
    const rule = this.refusal.rule;
    // A rule of the game opens its text; the protocol's own rules (P1 …) are explained in the message.
    const known = isGameRule(rule) && (!this.rules || this.rules.list.some((r) => r.id === rule));
    return h("div", { class: "refusal", role: "alert", dataset: { testid: "refusal" } },
      h("strong", { text: t("refused") }), " ", h("span", { text: this.refusal.message }), " ",
      known ? h("button", { type: "button", class: "btn small", dataset: { key: "see-rule" },
        text: t("see_rule", { rule }),
        onclick: () => { this.highlightRule = rule; this.highlightScrolled = null; this.showTab("rules"); } }) : ruleNote(rule));
  },
};
