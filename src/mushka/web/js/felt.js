// The table page's felt: the other seats, the trump and talon, the trick, the key facts, the status line.
//
// Methods of TablePage (table.js), mixed into its prototype: `this` is the page.

import { backElement, cardElement, cardName, RANK_ORDER, short, suitName, suitSymbol } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatBadges, seatLabel, seatName, signed } from "./seats.js";
import { normaliseOrder } from "./tableinfo.js";

/** The table page's felt (methods of TablePage). */
export const feltMethods = {
  otherSeats() {
    const n = this.table.players;
    const first = this.seat === null ? 0 : this.seat + 1;
    const out = [];
    for (let k = 0; k < n; k++) {
      const s = (first + k) % n;
      if (s !== this.seat) out.push(s);
    }
    return out;
  },

  /**
   * The other seats round the felt: the next player on one's left, then across the top,
   * the last on one's right, as people sit at a card table (one's own seat is the hand
   * below).  A wide screen puts the three groups beside and above the trick; a narrow one
   * lines them up in one row in the same order.
   */
  opponents(deal) {
    const row = this.otherSeats();
    const side = seatSides(row.length);
    const round = roundFelt();
    // On a wide felt the turned-up card and the talon lie at the dealer's place.
    const seatAndPile = (s) => (round && s === deal.dealer ? [this.seatBox(deal, s), this.dealerPile(deal)]
      : [this.seatBox(deal, s)]);
    const group = (name) => h("div", { class: `seats-${name}`, dataset: { side: name } },
      row.filter((_, k) => side[k] === name).map(seatAndPile));
    const mine = round && !row.includes(deal.dealer)
      ? h("div", { class: "seats-mine", dataset: { side: "mine" } }, this.dealerPile(deal)) : null;
    return h("div", { class: "opponents" }, group("left"), group("top"), group("right"), mine);
  },

  seatFacts(deal, s) {
    const facts = seatBadges(deal, s, deal.dealer);
    if (this.view.records && this.view.records.length) {
      facts.push(h("span", { class: "badge", text: t("record_n", { n: this.view.records[s] }) }));
    } else if (deal.variant === "kopilka") {
      facts.push(h("span", { class: "badge", text: t("balance_n", { n: signed(this.view.money[s] || 0) }) }));
    }
    return facts;
  },

  seatBox(deal, s) {
    const info = this.table.seats[s] || {};
    const count = deal.hand_sizes[s] || 0;
    const passed = deal.declarations && deal.declarations[s] === "pass";
    const toAct = deal.to_act === s && !this.view.result;
    const state = [];
    if (info.kind === "human" && !info.connected) state.push(h("span", { class: "badge", text: t("offline") }));
    if (info.substitute) state.push(h("span", { class: "badge", text: t("bot_stands_in") }));
    const open = deal.open_hands && deal.open_hands[s] && deal.open_hands[s].length ? deal.open_hands[s] : null;
    return h("div", {
      class: `seat${toAct ? " to-act" : ""}${passed ? " passed" : ""}${open ? " open" : ""}`,
      dataset: { seat: s, testid: `seat-${s}`, anim: `seat-${s}` },
      "aria-label": `${seatLabel(this.table, s)}${toAct ? `, ${t("to_act")}` : ""}`, role: "group",
    },
    h("div", { class: "seat-name", text: seatLabel(this.table, s) }),
    open ? null : h("div", { class: "seat-line" },
      h("span", { class: "backs", role: "img", "aria-label": t("cards_in_hand", { n: count }) },
        Array.from({ length: Math.min(count, 8) }, () => h("span", { class: "card back tiny", "aria-hidden": "true" }))),
      h("span", { class: "muted", "aria-hidden": "true", text: `×${count}` })),
    h("div", { class: "seat-line" }, ...this.seatFacts(deal, s), ...state, this.clock ? this.clock.bankElement(s) : null),
    open ? h("div", { class: "open-hand", "aria-label": t("shown_hand") },
      open.map((c) => cardElement(c, { classes: "small" }))) : null);
  },

  /** The dealer's things: the turned-up card (classic, mistigri) and the talon. */
  dealerBoxes(deal) {
    const boxes = [];
    if (deal.turnup) {
      const label = deal.turnup_taken ? t("turnup_taken") : t("turnup");
      boxes.push(h("div", { class: "centre-box", dataset: { testid: "trump" } },
        h("span", { class: "label", text: label }),
        cardElement(deal.turnup, { extraLabel: label, classes: deal.turnup_taken ? "small" : "" }),
        h("span", { class: "label", text: t("trump_is", { suit: `${suitSymbol(deal.trump)} ${suitName(deal.trump)}` }) })));
    }
    boxes.push(h("div", { class: "centre-box", dataset: { anim: "talon" } },
      h("span", { class: "label", text: t("talon") }),
      backElement(t("talon_n", { n: deal.talon_size })),
      h("span", { class: "label", dataset: { testid: "talon" }, text: String(deal.talon_size) })));
    return boxes;
  },

  /** What belongs to the whole table: kopilka's pot and the suit the leader may not lead. */
  tableBoxes(deal) {
    const boxes = [];
    if (!deal.turnup && deal.variant === "kopilka") {
      boxes.push(h("div", { class: "centre-box", dataset: { testid: "pot" } },
        h("span", { class: "label", text: t("pot") }),
        h("strong", { text: String(this.view.pot) }),
        h("span", { class: "label", text: t("no_trumps") })));
    }
    if (deal.banned_suit && !this.view.result && deal.phase === "play") {
      boxes.push(h("div", { class: "centre-box" }, h("span", { class: "label",
        text: t("banned_suit", { suit: `${suitSymbol(deal.banned_suit)} ${suitName(deal.banned_suit)}` }) })));
    }
    return boxes;
  },

  /** The turned-up card and the talon at the dealer's place (a wide felt), as on a card table. */
  dealerPile(deal) {
    return h("div", { class: "pile dealer-pile", dataset: { testid: "dealer-pile" } }, ...this.dealerBoxes(deal));
  },

  centre(deal) {
    // A wide felt puts the dealer's things at his place (opponents()); a narrow one beside the trick.
    const boxes = roundFelt() ? this.tableBoxes(deal) : [...this.dealerBoxes(deal), ...this.tableBoxes(deal)];
    return h("div", { class: `centre${boxes.length ? "" : " solo"}` },
      boxes.length ? h("div", { class: "pile" }, ...boxes) : null, this.trickBox(deal), this.factsBox(deal));
  },

  /** The game's key facts: the privileged card and its rule, the rank order, a banned lead. */
  factsBox(deal) {
    const order = normaliseOrder((this.table.options && this.table.options.rank_order) || RANK_ORDER[deal.variant]
      || RANK_ORDER.classic);
    const ranks = [...order].slice(0, 6).map((r) => short(`${r}S`).slice(0, -1)).join(" ");
    const privRule = deal.variant === "mistigri" ? "MI3" : deal.variant === "kopilka" ? "K9" : "C11";
    const orderRule = deal.variant === "mistigri" ? "MI2" : deal.variant === "kopilka" ? "K2" : "C3";
    return h("div", { class: "facts", dataset: { testid: "facts" } },
      h("span", { class: "fact" }, t("privileged_card"), " ",
        // A rule, not a card on the table: text, so that it is never taken for somebody's card.
        h("strong", { class: `suit-${deal.privileged.slice(-1)}`, title: cardName(deal.privileged),
          text: short(deal.privileged) }),
        " ", this.ruleRef(privRule)),
      h("span", { class: "fact", dataset: { testid: "rank-order" } }, t("rank_order", { ranks: `${ranks} …` }),
        " ", this.ruleRef(orderRule)));
  },

  /**
   * The trick on the table, each card in front of the seat that played it
   * (one's own at the bottom, the others across the top in the order of their
   * boxes), the leader's card marked and, once the trick is complete, the
   * winner's.  A completed trick stays in view for the pause of the speed
   * setting even when the next lead has come (the state itself moves on), and
   * until the next lead otherwise.
   */
  trickBox(deal) {
    let cards = deal.trick;
    let done = null;
    if (this.held) {
      done = { winner: this.held.winner, number: this.held.number, cards: this.held.cards };
      cards = done.cards;
    } else if (!cards.length && deal.tricks.length) {
      const last = deal.tricks[deal.tricks.length - 1];
      done = { winner: last.winner, number: deal.tricks.length, cards: last.cards };
      cards = done.cards;
    }
    this.shownWinner = done ? done.winner : null;
    const title = done
      ? t("trick_taken_by", { n: done.number, name: seatLabel(this.table, done.winner, this.seat) })
      : (cards.length ? t("current_trick") : t("no_cards_on_table"));
    const place = this.trickPlaces();
    return h("div", { class: `centre-box trick-box${this.held ? " held" : ""}`,
      dataset: { testid: "trick", held: this.held ? "true" : "false" },
      title: this.held ? t("trick_hold_skip") : null, onclick: this.held ? () => this.endHold() : null },
      h("span", { class: "label", text: cards.length ? title : "\u00a0" }),
      h("div", { class: `trick ring${done ? " done" : ""}${this.table.players >= 6 ? " many" : ""}`, role: "list",
        "aria-label": title, dataset: { empty: cards.length ? "" : title } },
        cards.map(([s, c], i) => {
          const [x, y] = place(s);
          const leader = i === 0;
          const winner = done && s === done.winner;
          const role = winner ? t("trick_takes") : (leader ? t("trick_leads") : "");
          const el = h("div", { class: `trick-card${winner ? " winner" : ""}${leader ? " leader" : ""}`, role: "listitem",
            dataset: { seat: s, testid: "trick-card", anim: `trick-${s}-${c}` } },
          cardElement(c, { extraLabel: [seatName(this.table, s), role].filter(Boolean).join(", ") }),
          // The short name (without the bot's level): the seat's box has the whole of it.
          h("span", { class: "who", title: seatLabel(this.table, s, this.seat),
            text: seatLabel(this.table, s, this.seat).split(" · ")[0] }),
          role ? h("span", { class: `trick-role${winner ? " takes" : ""}`, text: role }) : null);
          // Through the style object: the page's policy allows no inline style attributes.
          el.style.left = `${x}%`;
          el.style.top = `${y}%`;
          return el;
        })));
  },

  /** Where on the trick's ring seat `s` puts its card: [left %, top %] of the card's centre,
   *  in front of its seat: beside the ring for the seats at the sides of a wide felt, across
   *  its top for the others (and for every seat when they sit in one row, on a phone). */
  trickPlaces() {
    const row = this.otherSeats();
    const m = row.length;
    const round = roundFelt();
    const side = seatSides(m);
    const count = (name) => side.filter((x) => x === name).length;
    return (s) => {
      const k = row.indexOf(s);
      if (k < 0) return [50, 77];
      if (!round) {
        // The others across the top half, left to right as their boxes are.
        const angle = Math.PI + ((k + 1) * Math.PI) / (m + 1);
        return [50 + 40 * Math.cos(angle), 50 + 27 * Math.sin(angle)];
      }
      const name = side[k];
      const at = side.slice(0, k).filter((x) => x === name).length;  // place within its group
      const n = count(name);
      const spread = (i, from, to) => (n === 1 ? (from + to) / 2 : from + ((to - from) * i) / (n - 1));
      if (name === "left") return [14, spread(at, 60, 30)];
      if (name === "right") return [86, spread(at, 30, 60)];
      return [spread(at, n > 2 ? 28 : 36, n > 2 ? 72 : 64), 22];
    };
  },

  /** The last trick, small, in a corner of the felt while the next one is played: seen at a glance. */
  lastTrickStrip(deal) {
    if (this.held || !deal.trick.length || !deal.tricks.length) return null;
    const last = deal.tricks[deal.tricks.length - 1];
    const title = t("trick_taken_by", { n: deal.tricks.length, name: seatLabel(this.table, last.winner, this.seat) });
    return h("button", { type: "button", class: "last-strip", dataset: { testid: "last-strip", key: "last-strip" },
      title, "aria-label": title, onclick: () => this.showTab("last") },
    h("span", { class: "label", text: t("tab_last") }),
    h("span", { class: "last-cards" }, last.cards.map(([s, c]) => cardElement(c, {
      classes: `mini${s === last.winner ? " winner" : ""}`, extraLabel: seatName(this.table, s) }))));
  },


  statusLine(deal, model) {
    let text;
    let mine = false;
    if (this.view.result) text = t("game_over");
    else if (deal.to_act === null || deal.to_act === undefined) text = t(`phase_${deal.phase}`);
    else if (model.leadHidden) {
      // The pause on the last trick: the next lead is on the table once it ends.
      text = t("next_lead_comes", { name: seatLabel(this.table, deal.trick[0][0], this.seat) });
    } else if (model.standIn) {
      text = t("bot_plays_your_turn");
    } else if (model.myTurn) {
      mine = true;
      const noPass = deal.phase === "declare" && !model.canPass;
      text = t("your_turn", { what: noPass ? t("todo_declare_nopass") : t(`todo_${deal.phase}`) });
    } else {
      text = t("waiting_for", { name: seatLabel(this.table, deal.to_act, this.seat), phase: t(`phase_${deal.phase}`) });
    }
    return h("p", { class: `status-line${mine ? " mine" : ""}`, role: "status", dataset: { testid: "status" }, text });
  },
};

/** Whether the felt seats the others round the trick (a wide screen) rather than in one row. */
export function roundFelt() {
  return typeof window !== "undefined" && !!window.matchMedia && window.matchMedia("(min-width: 900px)").matches;
}

/**
 * Where each of `m` other seats sits, in the order of play from one's left: "left",
 * "top" or "right".  One opponent sits across; two at the sides; more fill the sides
 * (a third of them each, at least one) and the rest sit across the top.
 */
export function seatSides(m) {
  if (m === 1) return ["top"];
  if (m === 2) return ["left", "right"];
  const side = Math.max(1, Math.floor(m / 3));
  return Array.from({ length: m }, (_, k) => (k < side ? "left" : k >= m - side ? "right" : "top"));
}
