// The replay viewer: steps through a finished game from its record
// (docs/records.md): every deal's stacked deck (N4), chance picks and actions.
//
// A record is served only once its game is over (protocol P11), so every card
// may be shown: all hands are open here.  The viewer decides nothing the
// record does not say: a card played belongs to the hand that holds it, and
// a trick's winner is the player who leads the next one (or, for the last
// trick of a deal, the one the recorded result credits with it).  Only the
// order of turns and the dealing follow the rules (N4, C7, K7/K8, K11).

import { getRecord, meta } from "./api.js";
import { cardElement, parse, RANK_ORDER, short, sortHand, suitName, suitSymbol } from "./cards.js";
import { h, preserveFocus, replace } from "./dom.js";
import { lang, onLangChange, t } from "./i18n.js";
import { signed } from "./seats.js";

const AUTOPLAY_MS = 1000;

/** The replay page (`/?replay=ID`). */
export class ReplayPage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.record = null;
    this.error = null;
    this.deals = [];
    this.dealIndex = 0;
    this.step = 0;
    this.timer = null;
    this.meta = null;
    onLangChange(() => this.rebuild());
  }

  /** Fetch the record and draw the first position. */
  async start() {
    this.render();
    meta().then((m) => { this.meta = m; this.render(); }).catch(() => {});
    try {
      this.record = await getRecord(this.id);
      this.rebuild();
    } catch (err) {
      this.error = err.message;
      this.render();
    }
  }

  rebuild() {
    if (!this.record) {
      this.render();
      return;
    }
    try {
      this.deals = buildFrames(this.record);
    } catch (err) {
      this.error = t("replay_broken", { problem: err.message });
    }
    this.dealIndex = Math.min(this.dealIndex, Math.max(0, this.deals.length - 1));
    this.step = Math.min(this.step, this.frames().length - 1);
    this.render();
  }

  frames() {
    return this.deals[this.dealIndex] || [];
  }

  go(dealIndex, step) {
    const d = Math.max(0, Math.min(this.deals.length - 1, dealIndex));
    const frames = this.deals[d] || [];
    this.dealIndex = d;
    this.step = Math.max(0, Math.min(frames.length - 1, step));
    this.render();
  }

  forward() {
    const frames = this.frames();
    if (this.step < frames.length - 1) this.go(this.dealIndex, this.step + 1);
    else if (this.dealIndex < this.deals.length - 1) this.go(this.dealIndex + 1, 0);
    else this.pause();
  }

  back() {
    if (this.step > 0) this.go(this.dealIndex, this.step - 1);
    else if (this.dealIndex > 0) this.go(this.dealIndex - 1, (this.deals[this.dealIndex - 1] || []).length - 1);
  }

  play() {
    if (this.timer) return this.pause();
    this.timer = setInterval(() => this.forward(), AUTOPLAY_MS);
    this.render();
    return true;
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    this.render();
    return true;
  }

  /** Arrow keys step, Page Up/Down change the deal, Home/End jump within it. */
  onKey(event) {
    if (!this.deals.length) return false;
    switch (event.key) {
      case "ArrowRight": this.forward(); return true;
      case "ArrowLeft": this.back(); return true;
      case "PageDown": this.go(this.dealIndex + 1, 0); return true;
      case "PageUp": this.go(this.dealIndex - 1, 0); return true;
      case "Home": this.go(this.dealIndex, 0); return true;
      case "End": this.go(this.dealIndex, this.frames().length - 1); return true;
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
      h("a", { class: "btn small", href: "./", text: t("to_lobby") }));
    if (this.error) return [head, h("p", { class: "error-text", role: "alert", text: this.error })];
    if (!this.record) return [head, h("p", { class: "muted", role: "status", text: t("loading") })];
    if (!this.deals.length) return [head, h("p", { class: "muted", text: t("replay_empty") })];
    const rec = this.record;
    const frames = this.frames();
    const frame = frames[this.step];
    return [
      head,
      h("p", { class: "muted", text: `${variantName(this.meta, rec.variant)} · ${t("players_n", { n: rec.players })} · ${rec.seats.join(", ")}` }),
      this.controls(frames),
      h("p", { class: "status-line", role: "status", dataset: { testid: "replay-caption" }, text: frame.caption }),
      this.board(frame),
      frame.end ? this.dealResult(frame.end) : null,
      this.isLast() && rec.result && rec.result.game ? this.gameResult(rec.result.game) : null,
    ];
  }

  isLast() {
    return this.dealIndex === this.deals.length - 1 && this.step === this.frames().length - 1;
  }

  controls(frames) {
    const dealSelect = h("select", { "aria-label": t("deal"), dataset: { key: "replay-deal" },
      onchange: (e) => this.go(Number(e.target.value), 0) },
    this.deals.map((_, i) => h("option", { value: i, selected: i === this.dealIndex,
      text: t("deal_n_of", { n: i + 1, of: this.deals.length }) })));
    const slider = h("input", { type: "range", min: 0, max: frames.length - 1, value: this.step,
      "aria-label": t("step"), dataset: { key: "replay-slider" },
      oninput: (e) => this.go(this.dealIndex, Number(e.target.value)) });
    const btn = (key, label, text, onclick) => h("button", { type: "button", class: "btn small", "aria-label": label,
      title: label, dataset: { key }, text, onclick });
    return h("div", { class: "panel replay-controls", role: "group", "aria-label": t("replay_controls") },
      dealSelect,
      btn("replay-first", t("to_deal_start"), "«", () => this.go(this.dealIndex, 0)),
      btn("replay-back", t("step_back"), "◀", () => this.back()),
      btn("replay-play", this.timer ? t("pause") : t("autoplay"), this.timer ? "||" : "▶▶", () => this.play()),
      btn("replay-forward", t("step_forward"), "▶", () => this.forward()),
      btn("replay-next-deal", t("next_deal"), "»", () => this.go(this.dealIndex + 1, 0)),
      slider,
      h("span", { class: "muted", dataset: { testid: "replay-step" }, text: t("step_n_of", { n: this.step, of: frames.length - 1 }) }));
  }

  board(f) {
    const rec = this.record;
    const order = normaliseOrder(rec.options && rec.options.rank_order, rec.variant);
    const seats = f.hands.map((hand, s) => {
      const facts = [];
      if (s === f.dealer) facts.push(h("span", { class: "badge", text: t("dealer") }));
      if (f.decl[s] === "pass") facts.push(h("span", { class: "badge", text: t("decl_pass") }));
      if (f.decl[s] === "stand") {
        facts.push(h("span", { class: "badge", text: f.exch[s] > 0 ? t("decl_stand_k", { k: f.exch[s] }) : t("decl_stand") }));
      }
      facts.push(h("span", { class: "badge", text: t("tricks_n", { n: f.won[s] }) }));
      const sorted = sortHand(hand, { order, trump: f.trump });
      return h("div", { class: `replay-seat${s === f.actor ? " actor" : ""}`, dataset: { seat: s, testid: `replay-seat-${s}` } },
        h("div", { class: "seat-name", text: `${s} · ${rec.seats[s] || t("seat_n", { n: s })}` }),
        h("div", { class: "seat-line" }, facts),
        h("div", { class: "cards", "aria-label": t("hand_of", { name: rec.seats[s] || s }) },
          sorted.map((c) => cardElement(c, { classes: "small" }))));
    });
    const centre = [];
    if (f.turnup) {
      centre.push(h("div", { class: "centre-box" },
        h("span", { class: "label", text: f.turnupTaken ? t("turnup_taken") : t("turnup") }),
        cardElement(f.turnup, { classes: "small" }),
        h("span", { class: "label", text: t("trump_is", { suit: `${suitSymbol(f.trump)} ${suitName(f.trump)}` }) })));
    }
    centre.push(h("div", { class: "centre-box" }, h("span", { class: "label", text: t("talon") }),
      h("strong", { text: String(f.talon) })));
    const trick = f.trick.length ? f.trick : f.lastTrick;
    centre.push(h("div", { class: "centre-box", dataset: { testid: "replay-trick" } },
      h("span", { class: "label", text: f.trick.length ? t("current_trick") : (f.lastTrick.length ? t("last_trick") : t("no_cards_on_table")) }),
      h("div", { class: `trick${f.trick.length ? "" : " done"}` }, trick.map(([s, c]) => h("div", { class: "trick-card" },
        cardElement(c, { classes: "small" }), h("span", { class: "who", text: `${s} · ${rec.seats[s] || s}` }))))));
    return h("section", { class: "felt", "aria-label": t("table_area") },
      h("div", { class: "replay-seats" }, seats),
      h("div", { class: "centre" }, centre));
  }

  dealResult(end) {
    const rec = this.record;
    const seats = rec.seats.map((name, s) => `${s} · ${name}`);
    let rows;
    if (rec.variant === "kopilka") {
      rows = seats.map((name, s) => h("tr", {}, h("td", { text: name }), h("td", { class: "num", text: String(end.tricks[s]) }),
        h("td", { class: "num", text: signed(end.money[s]) }), h("td", { text: end.out === s ? t("went_out") : "" })));
      rows.unshift(h("tr", {}, h("th", { text: t("player") }), h("th", { class: "num", text: t("tricks") }),
        h("th", { class: "num", text: t("money") }), h("th", { text: "" })));
    } else {
      rows = seats.map((name, s) => h("tr", {}, h("td", { text: name }), h("td", { class: "num", text: String(end.tricks[s]) }),
        h("td", { class: "num", text: end.standing && end.standing[s] ? signed(end.record_delta[s]) : t("decl_pass") })));
      rows.unshift(h("tr", {}, h("th", { text: t("player") }), h("th", { class: "num", text: t("tricks") }),
        h("th", { class: "num", text: t("record") })));
    }
    const notes = [];
    if (end.mushka !== null && end.mushka !== undefined) notes.push(t("mushka_won_by", { name: seats[end.mushka] }));
    if (end.all_passed) notes.push(t("all_passed"));
    if (end.lone !== null && end.lone !== undefined) notes.push(t("lone_takes_all", { name: seats[end.lone] }));
    if (end.deadlock) notes.push(t("deadlock"));
    return h("div", { class: "panel notice", dataset: { testid: "replay-deal-result" } },
      h("h3", { text: t("deal_result") }), notes.length ? h("p", { text: notes.join(" ") }) : null,
      h("table", { class: "grid" }, h("tbody", {}, rows)));
  }

  gameResult(game) {
    const rec = this.record;
    const winner = game.winner === null || game.winner === undefined
      ? t("pot_shared") : t("winner_is", { name: `${game.winner} · ${rec.seats[game.winner] || ""}` });
    return h("div", { class: "panel result-banner", dataset: { testid: "replay-game-result" } },
      h("h3", { text: t("game_over") }), h("p", { text: winner }),
      h("p", { text: game.money.map((m, s) => `${rec.seats[s] || s}: ${signed(m)}`).join(" · ") }));
  }
}

function variantName(metaInfo, variant) {
  const info = metaInfo && metaInfo.variants.find((v) => v.name === variant);
  if (info) return lang() === "ru" ? info.title_ru : info.title_en;
  return t(`variant_${variant}`);
}

function normaliseOrder(order, variant) {
  if (!order) return RANK_ORDER[variant] || RANK_ORDER.classic;
  if (order === "ace_high") return RANK_ORDER.classic;
  if (order === "mistigri") return RANK_ORDER.mistigri;
  return String(order).toUpperCase().replace(/10/g, "T");
}

// --- building the positions -----------------------------------------------------------

function cardsOf(text) {
  const list = Array.isArray(text) ? text : String(text || "").split(/[\s,]+/);
  return list.filter(Boolean).map((c) => {
    const card = parse(c);
    if (!card) throw new Error(`${c}?`);
    return card.code;
  });
}

function seatOf(record, s) {
  return `${s} · ${record.seats[s] || t("seat_n", { n: s })}`;
}

/** Every deal of the record as a list of frames (positions with a caption). */
export function buildFrames(record) {
  const results = (record.result && record.result.deals) || [];
  return record.deals.map((deal, i) => (record.variant === "kopilka"
    ? kopilkaFrames(record, deal, results[i] || null, i)
    : trumpFrames(record, deal, results[i] || null, i)));
}

function startPosition(record, deal, withTurnup) {
  const n = record.players;
  const deck = cardsOf(deal.deck);
  const eldest = (deal.dealer + 1) % n;
  const hands = Array.from({ length: n }, () => []);
  // N4: one card at a time from the eldest, until everybody has five.
  for (let i = 0; i < 5 * n; i++) hands[(eldest + i) % n].push(deck[i]);
  const turnup = withTurnup ? deck[5 * n] : null;
  const talon = deck.slice(5 * n + (withTurnup ? 1 : 0));
  return {
    n, eldest, dealer: deal.dealer, hands, talon, turnup,
    trump: turnup ? turnup.slice(-1) : null, turnupTaken: false,
    decl: Array(n).fill(null), exch: Array(n).fill(-1), won: Array(n).fill(0),
    trick: [], lastTrick: [], actor: null,
  };
}

function snapshot(p, caption, extra = {}) {
  return {
    hands: p.hands.map((x) => x.slice()), talon: p.talon.length, turnup: p.turnup, trump: p.trump,
    turnupTaken: p.turnupTaken, decl: p.decl.slice(), exch: p.exch.slice(), won: p.won.slice(),
    trick: p.trick.map((x) => x.slice()), lastTrick: p.lastTrick.map((x) => x.slice()), actor: p.actor,
    dealer: p.dealer, caption, end: null, ...extra,
  };
}

function take(hand, code, what) {
  const i = hand.indexOf(code);
  if (i < 0) throw new Error(`${what}: ${code}`);
  hand.splice(i, 1);
}

function holder(p, code) {
  return p.hands.findIndex((hand) => hand.includes(code));
}

function words(action) {
  return String(action).trim().split(/\s+/);
}

function trumpFrames(record, deal, result, index) {
  const p = startPosition(record, deal, true);
  const frames = [snapshot(p, t("rp_dealt", { n: index + 1, dealer: seatOf(record, p.dealer), card: short(p.turnup) }),
    { applied: 0 })];
  const actions = deal.actions || [];
  let declaring = p.eldest;
  let playing = 0;
  actions.forEach((action, k) => {
    const [head, ...rest] = words(action);
    const verb = head.toLowerCase();
    let caption;
    if (verb === "pass" || verb === "stand" || verb === "take") {
      const seat = verb === "take" ? p.dealer : declaring;
      p.actor = seat;
      if (verb === "take") {
        const discard = cardsOf(rest)[0];
        p.hands[seat].push(p.turnup);
        take(p.hands[seat], discard, action);
        p.turnupTaken = true;
        caption = t("rp_take", { who: seatOf(record, seat), card: short(p.turnup), discard: short(discard) });
      } else {
        if (verb === "pass") {
          p.decl[seat] = "pass";
          caption = t("rp_pass", { who: seatOf(record, seat) });
        } else {
          const discards = cardsOf(rest);
          for (const c of discards) take(p.hands[seat], c, action);
          const drawn = p.talon.splice(0, discards.length);
          p.hands[seat].push(...drawn);
          p.decl[seat] = "stand";
          p.exch[seat] = discards.length;
          caption = discards.length
            ? t("rp_exchange", { who: seatOf(record, seat), k: discards.length,
              out: discards.map(short).join(" "), in: drawn.map(short).join(" ") })
            : t("rp_stand", { who: seatOf(record, seat) });
        }
        declaring = (seat + 1) % p.n;
      }
    } else {
      const card = cardsOf([head])[0];
      const seat = holder(p, card);
      if (seat < 0) throw new Error(`${action}?`);
      if (!playing) playing = p.decl.filter((d) => d === "stand").length;
      p.actor = seat;
      take(p.hands[seat], card, action);
      p.trick.push([seat, card]);
      caption = t("rp_play", { who: seatOf(record, seat), card: short(card) });
      if (p.trick.length >= playing) {
        const winner = trickWinner(p, actions[k + 1], result);
        if (winner !== null) p.won[winner] += 1;
        p.lastTrick = p.trick;
        p.trick = [];
        caption += ` ${t("rp_trick_to", { who: winner === null ? "?" : seatOf(record, winner) })}`;
      }
    }
    frames.push(snapshot(p, caption, { applied: k + 1 }));
  });
  finishDeal(record, p, frames, result);
  return frames;
}

/** The winner of a trick just completed: who leads next, or whom the result credits. */
function trickWinner(p, nextAction, result) {
  if (nextAction !== undefined) {
    const card = parse(words(nextAction)[0]);
    if (card) {
      const seat = holder(p, card.code);
      if (seat >= 0) return seat;
    }
  }
  if (result && result.tricks) {
    const s = result.tricks.findIndex((n, seat) => n > p.won[seat]);
    if (s >= 0) return s;
  }
  return null;
}

function finishDeal(record, p, frames, result) {
  if (!result) return;
  const last = frames[frames.length - 1];
  if (result.tricks) last.won = result.tricks.slice();
  last.end = result;
  last.caption = `${last.caption} ${t("rp_deal_over")}`;
}

function kopilkaFrames(record, deal, result, index) {
  const p = startPosition(record, deal, false);
  const frames = [snapshot(p, t("rp_dealt_kopilka", { n: index + 1, dealer: seatOf(record, p.dealer) }), { applied: 0 })];
  let applied = 0;
  const picks = cardsOf(deal.picks || "");
  const old = record.options && record.options.redistribution === "old";
  const tricks = (result && result.trick_log) || [];
  let pickAt = 0;
  let checked = 0;
  let pending = [];
  let phase = "redistribute";
  let toAct = null;
  let acted = 0;
  let leader = null;
  let led = null;
  let counted = 0;

  // K6-K8: seats are checked in playing order from the eldest, each once.
  const redistribute = () => {
    while (!pending.length && checked < p.n) {
      const owner = (p.eldest + checked) % p.n;
      checked += 1;
      for (const suit of "SCDH") {
        const group = p.hands[owner].filter((c) => c.endsWith(suit));
        if (group.length >= 3) {
          share(owner, group, suit);
          break;
        }
      }
    }
    if (!pending.length) {
      phase = "play";
      toAct = p.eldest;
    }
  };
  const share = (owner, group, suit) => {
    for (const c of group) take(p.hands[owner], c, "group");
    const takers = old ? [(owner + 1) % p.n, (owner + 2) % p.n] : [1, 2, 3].map((k) => (owner + k) % p.n);
    const got = [];
    for (const taker of takers) {
      const card = picks[pickAt++];
      if (!card || !group.includes(card)) throw new Error(t("replay_bad_pick"));
      take(group, card, "pick");
      p.hands[taker].push(card);
      got.push(`${seatOf(record, taker)}: ${short(card)}`);
    }
    p.hands[owner].push(...group);
    const drawn = p.talon.splice(0, Math.min(takers.length, p.talon.length));
    p.hands[owner].push(...drawn);
    p.actor = owner;
    frames.push(snapshot(p, t("rp_group", { who: seatOf(record, owner), suit: suitSymbol(suit),
      taken: got.join(", "), k: drawn.length }), { applied }));
    pending = takers;
  };
  const followerDone = () => {
    acted += 1;
    if (acted < p.n - 1) {
      toAct = (toAct + 1) % p.n;
      return "";
    }
    acted = 0;
    if (p.trick.length === 1) {
      // K15: nobody covered the lead; it goes back and the next player leads.
      const [seat, card] = p.trick[0];
      p.hands[seat].push(card);
      p.trick = [];
      toAct = (leader + 1) % p.n;
      return ` ${t("rp_taken_back", { who: seatOf(record, seat), card: short(card) })}`;
    }
    const entry = tricks[counted++];
    const winner = entry ? entry.winner : null;
    if (winner !== null) p.won[winner] += 1;
    p.lastTrick = p.trick;
    p.trick = [];
    toAct = winner;
    return ` ${t("rp_trick_to", { who: winner === null ? "?" : seatOf(record, winner) })}`;
  };

  redistribute();
  for (const action of deal.actions || []) {
    applied += 1;
    const [head, ...rest] = words(action);
    const verb = head.toLowerCase();
    let caption;
    if (phase === "redistribute") {
      const seat = pending.shift();
      const card = cardsOf(rest)[0];
      p.actor = seat;
      take(p.hands[seat], card, action);
      frames.push(snapshot(p, t("rp_discard", { who: seatOf(record, seat), card: short(card) }), { applied }));
      redistribute();
      continue;
    }
    const seat = toAct;
    p.actor = seat;
    if (verb === "draw") {
      const card = p.talon.shift();
      if (card.endsWith(led)) {
        p.trick.push([seat, card]);
        caption = t("rp_draw_play", { who: seatOf(record, seat), card: short(card) });
      } else {
        p.hands[seat].push(card);
        caption = t("rp_draw_keep", { who: seatOf(record, seat), card: short(card) });
      }
      caption += followerDone();
    } else if (verb === "pass") {
      const penalty = p.hands[seat].some((c) => c.endsWith(led));
      caption = t(penalty ? "rp_pass_penalty" : "rp_pass", { who: seatOf(record, seat) }) + followerDone();
    } else {
      const card = cardsOf([head])[0];
      const leading = p.trick.length === 0;
      take(p.hands[seat], card, action);
      p.trick.push([seat, card]);
      caption = t("rp_play", { who: seatOf(record, seat), card: short(card) });
      if (leading) {
        leader = seat;
        led = card.slice(-1);
        toAct = (seat + 1) % p.n;
      } else {
        caption += followerDone();
      }
    }
    frames.push(snapshot(p, caption, { applied }));
  }
  finishDeal(record, p, frames, result);
  return frames;
}
