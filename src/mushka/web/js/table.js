// The table page: waiting room, the game, the score sheet and the side panels.
//
// Everything shown comes from the server's messages (docs/protocol.md): the
// `table` info, the seat's `view` (GameView.to_json of the engine; each
// `update` brings only what changed in it) and the events of the deal.  The
// page holds no rules: it marks what the view's `legal` list allows, sends
// what the player chooses, and shows the rules as the server words them.

import { ApiError, createTable, joinTable, meta } from "./api.js";
import { backElement, cardElement, cardName, RANK_ORDER, short, sortHand, suitName, suitSymbol } from "./cards.js";
import { TableConnection } from "./conn.js";
import { byId, h, preserveFocus, replace } from "./dom.js";
import { lang, onLangChange, t, withLang } from "./i18n.js";
import { moveModel, standAction, standIsLegal } from "./moves.js";
import { dealHeadline, explainSeat, moneyItems, partText, stateWord } from "./explain.js";
import { offeredBots } from "./lobby.js";
import { optionTitle, optionValue } from "./optionwords.js";
import { isGameRule, tableRules } from "./rulesinfo.js";
import { botChoice, seatLabel, seatName, signed } from "./seats.js";
import { forgetToken, prefs, savedName, saveName, saveToken, setPref, tokenFor } from "./store.js";
import { announce, toast } from "./ui.js";

const TABS = ["score", "last", "log", "rules"];

/** The page of one table (`/?table=ID`). */
export class TablePage {
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    this.token = tokenFor(tableId);
    this.seat = null;
    this.host = false;
    this.table = null;
    this.view = null;
    this.log = [];
    this.selected = new Set();
    this.refusal = null;
    this.pending = null;
    this.dealNotice = null;
    this.tab = "score";
    this.highlightRule = null;
    this.rules = null;
    this.rulesError = null;
    this.rulesLoading = null;
    this.meta = null;
    this.fatal = null;
    this.conn = null;
    this.joinName = savedName();
    this.ply = 0;
    this.lastTrick = null;
    onLangChange(() => {
      if (this.conn) this.conn.send({ type: "lang", lang: lang() });
      this.rules = null;
      if (this.tab === "rules") this.loadRules();
      this.render();
    });
  }

  /** Connect and start drawing. */
  start() {
    meta().then((m) => {
      this.meta = m;
      this.render();
    }).catch(() => {
      // The rules panel then shows the rules without the option help.
    });
    this.connect();
    this.render();
  }

  connect() {
    if (this.conn) this.conn.stop();
    this.conn = new TableConnection(this.tableId, {
      token: this.token,
      onMessage: (msg) => this.handle(msg),
      onStatus: (status) => this.connectionStatus(status),
    });
    this.conn.onFinalClose = (code, error) => this.finalClose(code, error);
    this.conn.connect();
  }

  connectionStatus(status) {
    const el = byId("conn-status");
    el.textContent = t(`conn_${status}`);
    el.classList.toggle("bad", status !== "open");
    el.dataset.status = status;
  }

  finalClose(code, error) {
    if (code === 4401 && this.token) {
      // P4: the server does not know this token (the seat was given up or
      // the table is gone); forget it and watch instead.
      forgetToken(this.tableId);
      this.token = null;
      toast(error ? error.message : t("token_unknown"));
      this.connect();
      return;
    }
    this.fatal = { code: error ? error.code : null, message: error ? error.message : null };
    this.render();
  }

  // --- messages -----------------------------------------------------------------------------

  handle(msg) {
    switch (msg.type) {
      case "welcome":
        this.seat = msg.seat;
        this.host = !!msg.host;
        break;
      case "state":
        this.table = msg.table;
        this.view = msg.view;
        this.log = msg.log.slice();
        this.ply = msg.ply;
        this.pending = null;
        this.pruneSelection();
        break;
      case "update":
        this.applyUpdate(msg);
        break;
      case "table":
        this.table = msg.table;
        break;
      case "presence":
        if (this.table) {
          const bySeat = new Map(msg.seats.map((s) => [s.seat, s]));
          this.table = { ...this.table, seats: this.table.seats.map((s) => bySeat.get(s.seat) || s),
            spectators: msg.spectators };
        }
        break;
      case "error":
        this.applyError(msg);
        break;
      default:
        return;
    }
    if (this.followRematch()) return;
    this.render();
  }

  /** A player follows the rematch to its table, with the same seat (his token holds it there too). */
  followRematch() {
    const next = this.table && this.table.next;
    if (!next || this.seat === null || !this.token || this.moved) return false;
    this.moved = true;
    saveToken(next, this.token);
    if (this.conn) this.conn.stop();
    location.assign(withLang(`./?table=${encodeURIComponent(next)}`));
    return true;
  }

  /** "New game with these rules": a new table with the same variant and options, bots on the other seats. */
  async newGameSameRules() {
    const bots = this.table.seats.filter((s) => s.kind === "bot").map((s) => s.bot);
    const bot = bots[0] || (this.meta && this.meta.default_bot) || "random";
    const seats = this.table.seats.map((s) => (s.seat === this.seat ? "me" : `bot:${s.kind === "bot" ? s.bot : bot}`));
    try {
      const reply = await createTable({ variant: this.table.variant, players: this.table.players,
        options: { ...(this.table.options || {}) }, seats, name: savedName() || null, start: true, listed: false });
      location.assign(withLang(reply.tokens[0].url));
    } catch (err) {
      this.refusal = { message: err.message, rule: err.rule || null };
      this.render();
    }
  }

  applyUpdate(msg) {
    const before = this.view;
    this.view = applyChanges(before, msg.view);
    this.ply = msg.ply;
    this.log.push(...msg.events);
    if (msg.seat !== null && msg.seat === this.seat) {
      this.pending = null;
      this.refusal = null;
      this.selected.clear();
    }
    for (const ev of msg.events) {
      if (ev.event === "TrickTaken") {
        this.lastTrick = { number: ev.data.number, winner: ev.data.seat, cards: ev.data.cards,
          deal: before ? before.number : null };
      }
      if (ev.event === "DealEnded") {
        this.dealNotice = { number: before ? before.number : null, trick: this.lastTrick };
      }
      if (ev.event === "PlayStarted" || ev.event === "GameEnded") this.dealNotice = null;
    }
    if (msg.seat !== this.seat) announce(msg.events.map((e) => e.text).join(" "));
    if (!before || (before.deal && msg.view.deal && before.number !== msg.view.number)) this.selected.clear();
    this.pruneSelection();
  }

  applyError(msg) {
    if (msg.id !== undefined && msg.id !== null && msg.id === this.pending) this.pending = null;
    if (msg.fatal) return;
    this.refusal = { message: msg.message, rule: msg.rule, code: msg.code };
    announce(msg.message, true);
  }

  pruneSelection() {
    const hand = new Set(this.view && this.view.deal ? this.view.deal.hand || [] : []);
    for (const c of [...this.selected]) if (!hand.has(c)) this.selected.delete(c);
  }

  // --- sending ------------------------------------------------------------------------------

  act(action) {
    if (!this.conn) return;
    this.refusal = null;
    this.pending = this.conn.act(action);
    if (this.pending === null) toast(t("not_connected"));
    this.render();
  }

  lobbyCommand(msg) {
    if (this.conn) this.conn.send(msg);
  }

  async takeSeat(seat) {
    const name = (this.joinName || "").trim();
    saveName(name);
    try {
      const reply = await joinTable(this.tableId, { seat, name: name || null });
      this.token = reply.token.token;
      saveToken(this.tableId, this.token);
      this.connect();
    } catch (err) {
      this.refusal = { message: err instanceof ApiError ? err.message : String(err), rule: err.rule || null };
      this.render();
    }
  }

  leaveSeat() {
    this.lobbyCommand({ type: "leave" });
    forgetToken(this.tableId);
    this.token = null;
    // The server keeps the connection as a spectator; reconnect plainly so
    // that a reload shows the same thing.
    setTimeout(() => this.connect(), 50);
  }

  // --- keyboard -------------------------------------------------------------------------------

  /** Page shortcuts (see the help dialog); returns true when the key was used. */
  onKey(event) {
    if (!this.view || !this.view.deal) return false;
    const key = event.key;
    if (/^[1-9]$/.test(key)) {
      const cards = this.root.querySelectorAll(".hand button.card");
      const card = cards[Number(key) - 1];
      if (card) {
        card.focus();
        card.click();
        return true;
      }
      return false;
    }
    const lower = key.toLowerCase();
    const press = (name) => {
      const btn = this.root.querySelector(`[data-key="act-${name}"]`);
      if (btn) {
        btn.click();
        return true;
      }
      return false;
    };
    if (lower === "p" || lower === "з") return press("pass");
    if (lower === "s" || lower === "ы") return press("stand");
    if (lower === "t" || lower === "е") return press("take");
    if (lower === "d" || lower === "в") return press("draw");
    if (lower === "l" || lower === "д") return this.showTab("last");
    if (lower === "r" || lower === "к") return this.showTab("rules");
    if (key === "Escape" && this.selected.size) {
      this.selected.clear();
      this.render();
      return true;
    }
    return false;
  }

  showTab(tab) {
    this.tab = tab;
    if (tab === "rules") this.loadRules();
    this.render();
    const el = this.root.querySelector(`[data-key="tab-${tab}"]`);
    if (el) el.focus();
    return true;
  }

  // --- drawing --------------------------------------------------------------------------------

  render() {
    // Focus on a card of the hand stays in the hand: on the same card if it is
    // still there, else on the card that took its place (a played card is
    // gone after the update), never on the page's body.
    const active = document.activeElement;
    const cards = [...this.root.querySelectorAll(".hand button.card")];
    const at = cards.indexOf(active);
    if (at >= 0) this.handFocus = at;
    preserveFocus(this.root, () => replace(this.root, ...this.content()));
    if (this.tab === "log") {
      const panel = this.root.querySelector(".tabpanel");
      if (panel) panel.scrollTop = panel.scrollHeight;
    }
    this.afterRender();
    const now = document.activeElement;
    if (this.handFocus !== null && this.handFocus !== undefined && (!now || now === document.body)) {
      const again = [...this.root.querySelectorAll(".hand button.card")];
      const target = again[Math.min(this.handFocus, again.length - 1)];
      if (target) {
        again.forEach((c) => { c.tabIndex = c === target ? 0 : -1; });
        target.focus({ preventScroll: true });
      } else {
        this.handFocus = null;
      }
    } else if (at < 0 && now && !now.closest(".hand")) {
      this.handFocus = null;
    }
  }

  /** The tab's title says when it is the player's turn; a lone legal card plays itself if asked. */
  afterRender() {
    const deal = this.view && this.view.deal;
    const model = deal ? moveModel(deal) : null;
    const mine = !!(model && model.myTurn && !this.view.result);
    document.title = mine ? `● ${t("title_your_turn")} — ${t("brand")}` : t("brand");
    if (mine && this.turnAt !== this.ply) {
      this.turnAt = this.ply;
      if (prefs().sound) beep();
    }
    if (mine && prefs().autoplay && model.mode === "play" && this.pending === null && this.table.status === "playing"
        && model.playCards.size === 1 && !model.canDraw && !model.canPass && this.autoAt !== this.ply) {
      this.autoAt = this.ply;
      const [only] = [...model.playCards];
      setTimeout(() => { if (this.autoAt === this.ply && this.pending === null) this.act(only); }, 700);
    }
  }

  content() {
    if (this.fatal) {
      return [h("div", { class: "panel" },
        h("h2", { text: t("table_unavailable") }),
        h("p", { class: "error-text", dataset: { testid: "fatal" }, text: this.fatal.code === "no_table"
          ? t("no_such_table", { id: this.tableId }) : (this.fatal.message || t("connection_closed")) }),
        h("a", { class: "btn", href: withLang("./"), text: t("to_lobby") }))];
    }
    if (!this.table) {
      return [h("p", { class: "muted", role: "status", text: t("loading_table") })];
    }
    const parts = [this.header()];
    if (this.table.status === "waiting" || !this.view) parts.push(this.waitingRoom());
    else parts.push(this.gameArea());
    return parts;
  }

  header() {
    const tbl = this.table;
    const badges = [h("span", { class: "badge", text: t(`status_${tbl.status}`) })];
    if (this.view && this.table.status !== "waiting") {
      const games = this.view.games;
      badges.push(h("span", { class: "badge", dataset: { testid: "deal-number" },
        text: games ? t("game_of", { n: this.view.number, of: games }) : t("deal_n", { n: this.view.number }) }));
    }
    badges.push(h("span", { class: "badge strong", dataset: { testid: "who-am-i" },
      text: this.seat === null ? t("spectator") : t("you_are_seat", { seat: seatLabel(tbl, this.seat) }) }));
    if (tbl.spectators) badges.push(h("span", { class: "badge", text: t("spectators_n", { n: tbl.spectators }) }));
    const title = tbl.title ? `${variantTitle(tbl, this.meta)} — ${tbl.title}` : variantTitle(tbl, this.meta);
    return h("div", { class: "table-head" },
      h("h2", { text: title }),
      ...badges,
      this.prefsBox(),
      tbl.status !== "waiting" ? h("button", { type: "button", class: "btn small", dataset: { key: "share", testid: "share" },
        title: this.inviteUrl(), text: t("share_link"), onclick: () => this.copyInvite() }) : null,
      h("a", { class: "btn small", href: withLang("./"), text: t("to_lobby") }));
  }

  // --- waiting room ---

  waitingRoom() {
    const tbl = this.table;
    const invite = this.inviteUrl();
    const inviteInput = h("input", { type: "text", readonly: true, value: invite, "aria-label": t("invite_link"),
      dataset: { testid: "invite-link" }, onfocus: (e) => e.target.select() });
    const copy = () => this.copyInvite(inviteInput);
    const seats = h("ul", { class: "list", "aria-label": t("seats") },
      tbl.seats.map((s) => this.waitingSeat(s)));
    const controls = [];
    if (this.host) {
      controls.push(h("button", { type: "button", class: "btn primary", dataset: { key: "start" },
        text: t("start_game"), onclick: () => this.lobbyCommand({ type: "start" }) }));
    } else if (this.seat !== null) {
      controls.push(h("button", { type: "button", class: "btn", dataset: { key: "leave" },
        text: t("leave_seat"), onclick: () => this.leaveSeat() }));
    }
    const hasOpen = tbl.seats.some((s) => s.kind === "open");
    const nameField = this.seat === null && hasOpen
      ? h("label", { class: "field" }, t("your_name"),
        h("input", { type: "text", maxlength: 32, value: this.joinName, autocomplete: "nickname",
          oninput: (e) => { this.joinName = e.target.value; } }))
      : null;
    return h("div", { class: "panel" },
      h("h3", { text: t("waiting_room") }),
      h("p", { text: this.host ? t("waiting_host_hint") : (this.seat === null ? t("waiting_guest_hint") : t("waiting_player_hint")) }),
      h("div", { class: "invite" }, h("span", { text: t("invite_link") }), inviteInput,
        h("button", { type: "button", class: "btn small", text: t("copy"), onclick: copy })),
      isLoopback(new URL(invite).hostname) ? h("p", { class: "hint", dataset: { testid: "localhost-hint" },
        text: t("localhost_hint") }) : null,
      nameField,
      seats,
      h("div", { class: "row" }, ...controls),
      this.refusalBox());
  }

  /** The player's table settings: a lone legal card plays itself, a sound on one's turn. */
  prefsBox() {
    const p = prefs();
    const box = (name, label) => h("label", { class: "pref" }, h("input", { type: "checkbox", checked: !!p[name],
      dataset: { key: `pref-${name}` }, onchange: (e) => { setPref(name, e.target.checked); this.render(); } }), " ", label);
    return h("details", { class: "prefs" }, h("summary", { class: "btn small", text: t("table_settings") }),
      h("div", { class: "prefs-body" }, box("autoplay", t("pref_autoplay")), box("sound", t("pref_sound"))));
  }

  /** The table's invitation link: it brings a friend to the table, never to one's own seat. */
  inviteUrl() {
    // The host's --public-url when he gave one: "localhost" means nothing on a friend's machine.
    const base = (this.meta && this.meta.public_url) || location.href;
    const url = new URL(`.${this.table.invite}`, base);
    url.hash = "";
    return url.href;
  }

  async copyInvite(input = null) {
    const invite = this.inviteUrl();
    try {
      await navigator.clipboard.writeText(invite);
    } catch (_) {
      const field = input || h("input", { type: "text", value: invite });
      if (!input) document.body.append(field);
      field.select();
      document.execCommand("copy");
      if (!input) field.remove();
    }
    toast(t("link_copied"));
  }

  waitingSeat(s) {
    const tbl = this.table;
    const parts = [h("span", { class: "grow", text: seatLabel(tbl, s.seat, this.seat) })];
    if (s.seat === tbl.host) parts.push(h("span", { class: "badge", text: t("host") }));
    if (s.kind === "human") parts.push(h("span", { class: "badge", text: s.connected ? t("online") : t("offline") }));
    if (this.host && s.kind === "open") {
      const bots = this.meta ? offeredBots(this.meta) : ["random"];
      const select = h("select", { "aria-label": t("bot_for_seat", { n: s.seat }) },
        bots.map((b) => h("option", { value: b, text: botChoice(b), selected: this.meta && b === this.meta.default_bot })));
      parts.push(select, h("button", { type: "button", class: "btn small", dataset: { key: `bot-${s.seat}` },
        text: t("seat_bot"), onclick: () => this.lobbyCommand({ type: "set_seat", seat: s.seat, bot: select.value }) }));
    }
    if (this.host && s.kind === "bot") {
      parts.push(h("button", { type: "button", class: "btn small", dataset: { key: `open-${s.seat}` },
        text: t("open_again"), onclick: () => this.lobbyCommand({ type: "set_seat", seat: s.seat, bot: null }) }));
    }
    if (this.seat === null && s.kind === "open") {
      parts.push(h("button", { type: "button", class: "btn small primary", dataset: { key: `take-${s.seat}` },
        text: t("take_seat"), onclick: () => this.takeSeat(s.seat) }));
    }
    return h("li", { dataset: { seat: s.seat } }, ...parts);
  }

  // --- the game ---

  gameArea() {
    const view = this.view;
    const deal = view.deal;
    const model = moveModel(deal);
    // The data attributes say where the game stands (for styles and scripts).
    const felt = h("section", { class: "felt", "aria-label": t("table_area"), dataset: {
      testid: "felt", phase: deal.phase, toAct: deal.to_act ?? "", deal: view.number,
      over: view.result ? "true" : "false", tricks: deal.tricks.length, ply: this.ply } },
      this.opponents(deal),
      this.centre(deal),
      this.statusLine(deal, model),
      this.dealNotice ? this.dealNoticeBox() : null);
    const main = [felt];
    if (view.result) main.push(this.resultBanner(view));
    if (this.seat !== null) main.push(this.myArea(deal, model));
    else main.push(h("p", { class: "hint", text: t("watching_hint") }));
    return h("div", { class: "table-layout" },
      h("div", {}, ...main),
      this.sidePanels());
  }

  otherSeats() {
    const n = this.table.players;
    const first = this.seat === null ? 0 : this.seat + 1;
    const out = [];
    for (let k = 0; k < n; k++) {
      const s = (first + k) % n;
      if (s !== this.seat) out.push(s);
    }
    return out;
  }

  opponents(deal) {
    return h("div", { class: "opponents" }, this.otherSeats().map((s) => this.seatBox(deal, s)));
  }

  seatFacts(deal, s) {
    const facts = [];
    if (s === deal.dealer) facts.push(h("span", { class: "badge", text: t("dealer") }));
    const decl = deal.declarations ? deal.declarations[s] : null;
    if (decl === "pass") facts.push(h("span", { class: "badge", text: t("decl_pass") }));
    if (decl === "stand") {
      const k = deal.exchanged ? deal.exchanged[s] : 0;
      facts.push(h("span", { class: "badge", text: k > 0 ? t("decl_stand_k", { k }) : t("decl_stand") }));
    }
    facts.push(h("span", { class: "badge", text: t("tricks_n", { n: deal.tricks_won[s] || 0 }) }));
    if (this.view.records && this.view.records.length) {
      facts.push(h("span", { class: "badge", text: t("record_n", { n: this.view.records[s] }) }));
    } else if (deal.variant === "kopilka") {
      facts.push(h("span", { class: "badge", text: t("balance_n", { n: signed(this.view.money[s] || 0) }) }));
    }
    return facts;
  }

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
      class: `seat${toAct ? " to-act" : ""}${passed ? " passed" : ""}${open ? " open" : ""}`, dataset: { seat: s, testid: `seat-${s}` },
      "aria-label": `${seatLabel(this.table, s)}${toAct ? `, ${t("to_act")}` : ""}`, role: "group",
    },
    h("div", { class: "seat-name", text: seatLabel(this.table, s) }),
    open ? null : h("div", { class: "seat-line" },
      h("span", { class: "backs", role: "img", "aria-label": t("cards_in_hand", { n: count }) },
        Array.from({ length: Math.min(count, 8) }, () => h("span", { class: "card back tiny", "aria-hidden": "true" }))),
      h("span", { class: "muted", "aria-hidden": "true", text: `×${count}` })),
    h("div", { class: "seat-line" }, ...this.seatFacts(deal, s), ...state),
    open ? h("div", { class: "open-hand", "aria-label": t("shown_hand") },
      open.map((c) => cardElement(c, { classes: "small" }))) : null);
  }

  centre(deal) {
    const boxes = [];
    if (deal.turnup) {
      const label = deal.turnup_taken ? t("turnup_taken") : t("turnup");
      boxes.push(h("div", { class: "centre-box", dataset: { testid: "trump" } },
        h("span", { class: "label", text: label }),
        cardElement(deal.turnup, { extraLabel: label, classes: deal.turnup_taken ? "small" : "" }),
        h("span", { class: "label", text: t("trump_is", { suit: `${suitSymbol(deal.trump)} ${suitName(deal.trump)}` }) })));
    } else if (deal.variant === "kopilka") {
      boxes.push(h("div", { class: "centre-box", dataset: { testid: "pot" } },
        h("span", { class: "label", text: t("pot") }),
        h("strong", { text: String(this.view.pot) }),
        h("span", { class: "label", text: t("no_trumps") })));
    }
    boxes.push(h("div", { class: "centre-box" },
      h("span", { class: "label", text: t("talon") }),
      backElement(t("talon_n", { n: deal.talon_size })),
      h("span", { class: "label", dataset: { testid: "talon" }, text: String(deal.talon_size) })));
    if (deal.banned_suit && !this.view.result && deal.phase === "play") {
      boxes.push(h("div", { class: "centre-box" }, h("span", { class: "label",
        text: t("banned_suit", { suit: `${suitSymbol(deal.banned_suit)} ${suitName(deal.banned_suit)}` }) })));
    }
    boxes.push(this.trickBox(deal));
    return h("div", { class: "centre" }, ...boxes, this.factsBox(deal));
  }

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
        h("span", { class: "rule-id", text: ` ${privRule}` })),
      h("span", { class: "fact", dataset: { testid: "rank-order" } }, t("rank_order", { ranks: `${ranks} …` }),
        h("span", { class: "rule-id", text: ` ${orderRule}` })));
  }

  trickBox(deal) {
    let cards = deal.trick;
    let done = null;
    if (!cards.length && deal.tricks.length) {
      // The trick just taken stays in view until the next lead, so that the
      // last card of a trick is not gone before anyone could see it.
      done = deal.tricks[deal.tricks.length - 1];
      cards = done.cards;
    }
    const title = done
      ? t("trick_taken_by", { n: deal.tricks.length, name: seatLabel(this.table, done.winner, this.seat) })
      : (cards.length ? t("current_trick") : t("no_cards_on_table"));
    return h("div", { class: "centre-box", dataset: { testid: "trick" } },
      h("span", { class: "label", text: title }),
      h("div", { class: `trick${done ? " done" : ""}`, role: "list", "aria-label": title },
        cards.map(([s, c]) => h("div", { class: `trick-card${done && s === done.winner ? " winner" : ""}`, role: "listitem" },
          cardElement(c, { extraLabel: seatName(this.table, s) }),
          h("span", { class: "who", text: seatLabel(this.table, s, this.seat) })))));
  }

  statusLine(deal, model) {
    let text;
    let mine = false;
    if (this.view.result) text = t("game_over");
    else if (deal.to_act === null || deal.to_act === undefined) text = t(`phase_${deal.phase}`);
    else if (model.myTurn) {
      mine = true;
      const noPass = deal.phase === "declare" && !model.canPass;
      text = t("your_turn", { what: noPass ? t("todo_declare_nopass") : t(`todo_${deal.phase}`) });
    } else {
      text = t("waiting_for", { name: seatLabel(this.table, deal.to_act, this.seat), phase: t(`phase_${deal.phase}`) });
    }
    return h("p", { class: `status-line${mine ? " mine" : ""}`, role: "status", dataset: { testid: "status" }, text });
  }

  /** The finished deal the notice is about (from the score sheet, so it follows the language). */
  noticeResult() {
    const n = this.dealNotice && this.dealNotice.number;
    const history = this.view.history || [];
    return n && history.length >= n ? history[n - 1] : null;
  }

  dealNoticeBox() {
    const result = this.noticeResult();
    if (!result) return null;
    const variant = this.table.variant;
    const name = (s) => seatLabel(this.table, s, this.seat);
    const headline = dealHeadline(result, variant, name);
    const rows = [...Array(this.table.players).keys()].map((s) => {
      const e = explainSeat(result, s, variant);
      const word = stateWord(e.state);
      return h("tr", { dataset: { seat: s } },
        h("th", { scope: "row", text: name(s) }),
        h("td", { class: "num", text: word || String(e.tricks) }),
        h("td", { class: "num strong", text: word ? "" : signed(e.change) }),
        h("td", { class: "why", text: e.parts.map(partText).join("; ") }));
    });
    const trick = this.dealNotice.trick;
    const title = variant === "kopilka" ? t("game_over_n", { n: this.dealNotice.number }) : t("deal_over_n", { n: this.dealNotice.number });
    return h("div", { class: "panel notice", dataset: { testid: "deal-notice" }, role: "status" },
      h("div", { class: "notice-head" }, h("strong", { text: title }),
        h("button", { type: "button", class: "btn small", dataset: { key: "dismiss-notice" }, text: t("dismiss"),
          onclick: () => { this.dealNotice = null; this.render(); } })),
      headline ? h("p", { text: headline }) : null,
      h("div", { class: "table-scroll" }, h("table", { class: "grid compact", dataset: { testid: "deal-summary" } },
        h("thead", {}, h("tr", {}, h("th", { text: t("player") }), h("th", { class: "num", text: t("tricks") }),
          h("th", { class: "num", text: t("change") }), h("th", { text: t("why") }))),
        h("tbody", {}, rows))),
      trick ? h("details", {}, h("summary", { text: t("trick_taken_by", {
        n: trick.number, name: seatLabel(this.table, trick.winner, this.seat) }) }),
      this.trickCards(trick.cards, trick.winner, { small: true })) : null);
  }

  resultBanner(view) {
    const res = view.result;
    const winner = res.winner === null || res.winner === undefined
      ? t("pot_shared") : t("winner_is", { name: seatLabel(this.table, res.winner, this.seat) });
    const variant = this.table.variant;
    const items = moneyItems(view, variant, Number(this.optionValueOf("ante")) || 0);
    const seats = [...Array(this.table.players).keys()];
    const head = h("tr", {}, h("th", { text: "" }), seats.map((s) => h("th", { class: "num", scope: "col",
      text: seatLabel(this.table, s, this.seat) })));
    const rows = items.map((it) => h("tr", {}, h("th", { scope: "row" }, it.label, h("span", { class: "rule-id", text: ` ${it.rule}` })),
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
        h("a", { class: "btn", href: withLang("./"), text: t("new_game") })),
      this.refusalBox());
  }

  /** The value of option `name` at this table (its own, else the variant's default). */
  optionValueOf(name) {
    const set = this.table.options || {};
    return name in set ? set[name] : optionDefault(this.meta, this.table.variant, name);
  }

  // --- my hand and my actions ---

  myArea(deal, model) {
    const order = (this.table.options && this.table.options.rank_order) || RANK_ORDER[deal.variant] || RANK_ORDER.classic;
    const hand = sortHand(deal.hand || [], { order: normaliseOrder(order), trump: deal.trump || null });
    const active = model.myTurn && !this.view.result;
    const cards = hand.map((code, i) => this.handCard(code, i, model, active));
    const facts = this.seatFacts(deal, this.seat);
    return h("section", { class: `me${active ? " to-act" : ""}`, "aria-label": t("your_hand"), dataset: { testid: "me" } },
      h("div", { class: "seat-line" }, h("strong", { text: seatLabel(this.table, this.seat, this.seat) }), ...facts),
      h("div", { class: "hand", role: "group", "aria-label": t("your_hand_n", { n: hand.length }),
        dataset: { testid: "hand" }, onkeydown: (e) => this.handKeys(e) }, cards),
      active ? this.actionBar(deal, model) : null,
      active ? h("p", { class: "hint", text: this.hint(deal, model) }) : null,
      this.refusalBox());
  }

  handCard(code, index, model, active) {
    let state = "";
    let extra = "";
    if (active) {
      const legal = model.mode === "declare" ? model.useful.has(code)
        : model.mode === "redistribute" ? model.discardCards.has(code) : model.playCards.has(code);
      state = legal ? "legal" : "illegal";
      extra = legal ? t(model.mode === "declare" ? "can_exchange" : "can_play") : t("not_allowed");
    }
    const el = cardElement(code, { interactive: true, classes: state, extraLabel: extra, key: `hand-${code}` });
    el.tabIndex = index === 0 ? 0 : -1;
    if (model.mode === "declare" && active) el.setAttribute("aria-pressed", this.selected.has(code) ? "true" : "false");
    if (!active) el.setAttribute("aria-disabled", "true");
    if (state === "illegal") el.setAttribute("aria-disabled", "true");
    el.addEventListener("click", () => this.cardClicked(code, model, active));
    return el;
  }

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
  }

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
    if (model.mode === "redistribute") {
      this.act(`discard ${code}`);
      return;
    }
    // Play: an illegal card is sent all the same so that the server says why.
    this.act(code);
  }

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
  }

  holdsLedSuit(deal) {
    if (!deal.trick.length) return false;
    const led = deal.trick[0][1].slice(-1);
    return (deal.hand || []).some((c) => c.slice(-1) === led);
  }

  remiz() {
    const fromTable = this.table.options && this.table.options.remiz;
    return fromTable || optionDefault(this.meta, this.table.variant, "remiz") || "5";
  }

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
  }

  refusalBox() {
    if (!this.refusal) return null;
    const rule = this.refusal.rule;
    // A rule of the game opens its text; the protocol's own rules (P1 …) are explained in the message.
    const known = isGameRule(rule) && (!this.rules || this.rules.list.some((r) => r.id === rule));
    return h("div", { class: "refusal", role: "alert", dataset: { testid: "refusal" } },
      h("strong", { text: t("refused") }), " ", h("span", { text: this.refusal.message }), " ",
      known ? h("button", { type: "button", class: "btn small", dataset: { key: "see-rule" },
        text: t("see_rule", { rule }),
        onclick: () => { this.highlightRule = rule; this.highlightScrolled = null; this.showTab("rules"); } }) : null);
  }

  // --- side panels ---

  sidePanels() {
    const tabs = h("div", { class: "tabs", role: "tablist", "aria-label": t("panels"),
      onkeydown: (e) => this.tabKeys(e) },
    TABS.map((name) => h("button", { type: "button", role: "tab", id: `tab-${name}`,
      "aria-selected": this.tab === name ? "true" : "false", "aria-controls": `panel-${name}`,
      tabIndex: this.tab === name ? 0 : -1, dataset: { key: `tab-${name}` }, text: t(`tab_${name}`),
      onclick: () => { this.tab = name; if (name === "rules") this.loadRules(); this.render(); } })));
    const body = { score: () => this.scorePanel(), last: () => this.lastTrickPanel(),
      log: () => this.logPanel(), rules: () => this.rulesPanel() }[this.tab]();
    return h("aside", { class: "side", "aria-label": t("panels") }, tabs,
      h("div", { class: "tabpanel", role: "tabpanel", id: `panel-${this.tab}`, "aria-labelledby": `tab-${this.tab}`,
        tabIndex: 0, dataset: { testid: `panel-${this.tab}` } }, body));
  }

  tabKeys(event) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const at = TABS.indexOf(this.tab);
    const next = (at + (event.key === "ArrowRight" ? 1 : TABS.length - 1)) % TABS.length;
    this.showTab(TABS[next]);
    event.preventDefault();
  }

  scorePanel() {
    const view = this.view;
    const deal = view.deal;
    const variant = deal.variant;
    const n = this.table.players;
    const seats = [...Array(n).keys()];
    const head = h("tr", {}, h("th", { text: "" }),
      seats.map((s) => h("th", { class: "num", scope: "col", title: seatLabel(this.table, s, this.seat),
        text: seatHead(this.table, s, this.seat) })));
    const row = (label, cells, cls = "") => h("tr", { class: cls }, h("th", { scope: "row", text: label }),
      cells.map((c) => (c instanceof Node ? c : h("td", { class: "num", text: c }))));
    const why = (result, s) => {
      const e = explainSeat(result, s, variant);
      const word = stateWord(e.state);
      let text = word || signed(e.change);
      if (isSetSeat(result.mushka)) text = result.mushka === s ? t("mushka_short") : (word || "—");
      if (variant === "kopilka" && result.out === s) text += " ✓";
      return h("td", { class: "num", title: e.parts.map(partText).join("; "), text });
    };
    const rows = [];
    if (variant === "kopilka") {
      rows.push(row(t("balance"), view.money.map(signed), "strong"));
      rows.push(row(t("tricks_now"), deal.tricks_won.map(String)));
      const ante = Number(this.optionValueOf("ante")) || 0;
      if (ante) rows.push(row(t("item_ante"), seats.map(() => signed(-ante))));
      view.history.forEach((r, i) => rows.push(row(t("game_n", { n: i + 1 }), seats.map((s) => why(r, s)))));
      // K23: the pot taken at the end is part of the final money.
      if (view.result) rows.push(row(t("item_pot"), (view.result.settlement || []).map(signed)));
    } else {
      rows.push(row(t("record"), view.records.map(String), "strong"));
      if (view.side && view.side.some((x) => x !== 0)) rows.push(row(t("side_account"), view.side.map(signed)));
      rows.push(row(t("tricks_now"), deal.tricks_won.map(String)));
      view.history.forEach((r, i) => rows.push(row(t("deal_n", { n: i + 1 }), seats.map((s) => why(r, s)))));
      if (view.result) rows.push(row(t("item_records"), (view.result.settlement || []).map(signed)));
    }
    const caption = variant === "kopilka" ? t("score_caption_kopilka", { pot: view.pot })
      : t("score_caption_records");
    return h("div", {},
      h("p", { class: "muted legend", text: caption }),
      h("div", { class: "table-scroll" }, h("table", { class: `grid compact${n >= 6 ? " many" : ""}`, dataset: { testid: "score-sheet" } },
        h("thead", {}, head), h("tbody", {}, rows))),
      h("p", { class: "muted legend", text: variant === "kopilka" ? t("score_legend_kopilka") : t("score_legend") }));
  }

  trickCards(cards, winner, { small = false } = {}) {
    return h("div", { class: "trick" }, cards.map(([s, c]) => h("div", { class: `trick-card${s === winner ? " winner" : ""}` },
      cardElement(c, { extraLabel: seatName(this.table, s), classes: small ? "small" : "" }),
      h("span", { class: "who", text: seatLabel(this.table, s, this.seat) }))));
  }

  lastTrickPanel() {
    const tricks = this.view.deal.tricks;
    if (!tricks.length) {
      // Right after a deal ends, its last trick is still the one people ask about.
      const prev = this.lastTrick;
      if (!prev || prev.deal === this.view.number) return h("p", { class: "muted", text: t("no_trick_yet") });
      return h("div", {},
        h("p", { text: t("prev_deal_trick", { deal: prev.deal, n: prev.number,
          name: seatLabel(this.table, prev.winner, this.seat) }) }),
        this.trickCards(prev.cards, prev.winner));
    }
    const last = tricks[tricks.length - 1];
    return h("div", {},
      h("p", { text: t("trick_taken_by", { n: tricks.length, name: seatLabel(this.table, last.winner, this.seat) }) }),
      this.trickCards(last.cards, last.winner),
      h("h4", { text: t("tricks_this_deal") }),
      h("ol", { class: "log" }, tricks.map((tr) => h("li", {},
        `${tr.cards.map(([, c]) => short(c)).join(" ")} → ${seatLabel(this.table, tr.winner, this.seat)}`
        + (tr.value ? ` (${tr.value})` : "")))));
  }

  logPanel() {
    if (!this.log.length) return h("p", { class: "muted", text: t("log_empty") });
    return h("ol", { class: "log", dataset: { testid: "log" } }, this.log.map((e) =>
      h("li", { class: e.event === "DealStarted" ? "deal-start" : "", text: e.text })));
  }

  /** Fetch the table's rules in the current language (once; the panel draws them when they come). */
  loadRules() {
    const wanted = lang();
    if ((this.rules && this.rules.lang === wanted) || this.rulesLoading === wanted) return;
    this.rulesLoading = wanted;
    tableRules(this.tableId).then((list) => {
      if (lang() !== wanted) return;
      this.rules = { lang: wanted, list };
      this.rulesError = null;
      this.render();
    }).catch((err) => {
      this.rulesError = err.message;
      this.render();
    }).finally(() => {
      if (this.rulesLoading === wanted) this.rulesLoading = null;
    });
  }

  rulesPanel() {
    const title = h("h4", { text: t("rules_of", { variant: variantTitle(this.table, this.meta) }) });
    const options = [h("h4", { text: t("table_options") }), this.optionsList()];
    if (!this.rules || this.rules.lang !== lang()) {
      return h("div", {}, title,
        h("p", { class: this.rulesError ? "error-text" : "muted", role: "status",
          text: this.rulesError ? t("rules_unavailable", { problem: this.rulesError }) : t("loading") }),
        ...options);
    }
    const list = h("dl", { class: "rule-list", dataset: { testid: "rule-list" } }, this.rules.list.map((r) => {
      const cls = r.id === this.highlightRule ? "highlight" : "";
      return [
        h("dt", { id: `rule-${r.id}`, class: cls, dataset: { rule: r.id } }, r.id,
          h("span", { class: "muted", text: ` ${r.section_title} · ${r.tags.join(", ")}` }),
          r.changed ? h("strong", { text: ` (${t("changed")})` }) : null),
        h("dd", { class: cls, dataset: { rule: r.id }, text: r.text }),
      ];
    }));
    if (this.highlightRule && this.highlightScrolled !== this.highlightRule) {
      const id = this.highlightRule;
      requestAnimationFrame(() => {
        // The rule's id and its whole text in view, at the top of the panel.
        const el = document.getElementById(`rule-${id}`);
        if (el) el.scrollIntoView({ block: "start" });
        this.highlightScrolled = id;
      });
    }
    return h("div", {}, title, list, ...options);
  }

  optionsList() {
    const info = this.meta && this.meta.variants.find((v) => v.name === this.table.variant);
    const set = this.table.options || {};
    if (!info) {
      const names = Object.keys(set);
      return names.length ? h("ul", {}, names.map((k) => h("li", { text: `${optionTitle(k)}: ${optionValue(set[k])}` })))
        : h("p", { class: "muted", text: t("default_options") });
    }
    return h("ul", { class: "log options-list" }, info.options.map((o) => {
      const value = o.name in set ? set[o.name] : o.default;
      return h("li", { class: o.name in set ? "changed" : "", dataset: { option: o.name } },
        h("strong", { title: `${o.name} = ${value}`, text: `${optionTitle(o.name)}: ` }),
        h("span", { class: "option-value", text: optionValue(value) }),
        o.name in set ? h("strong", { text: ` (${t("changed")})` }) : null,
        h("span", { class: "muted", text: ` — ${lang() === "ru" ? o.help_ru : o.help_en} ` }),
        h("span", { class: "rule-id", text: o.rules.join(", ") }));
    }));
  }

  /** Stop the connection (leaving the page). */
  stop() {
    if (this.conn) this.conn.stop();
  }
}

/**
 * The view after an `update`: its `view` holds only what changed (protocol 2):
 * changed top-level keys, the changed keys of `deal`, and under `history` the
 * deals finished since, to append.  Without a view yet, it is the whole view.
 */
export function applyChanges(view, changes) {
  if (!view) return changes;
  const out = { ...view };
  for (const [key, value] of Object.entries(changes)) {
    if (key === "deal") out.deal = { ...view.deal, ...value };
    else if (key === "history") out.history = [...(view.history || []), ...value];
    else out[key] = value;
  }
  return out;
}

function seatHead(table, s, mySeat) {
  // A short name keeps the columns narrow (seven of them fit the side panel
  // and a phone); the cell's title gives the whole name.
  if (s === mySeat) return t("you");
  const name = seatName(table, s).split(" · ")[0];
  const room = table.players >= 6 ? 5 : 7;
  return name.length > room ? `${name.slice(0, room - 1)}…` : name;
}

/** A short, quiet tone (only when the player turned the sound on). */
function beep() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.05;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.12);
    osc.onended = () => ctx.close();
  } catch (_) {
    // No sound then; the tab title and the status still say it.
  }
}

function isLoopback(hostname) {
  return hostname === "localhost" || hostname === "::1" || hostname === "[::1]" || hostname.startsWith("127.");
}

function isSetSeat(value) {
  return value !== null && value !== undefined;
}

function normaliseOrder(order) {
  if (order === "ace_high") return RANK_ORDER.classic;
  if (order === "mistigri") return RANK_ORDER.mistigri;
  return String(order).toUpperCase().replace(/10/g, "T");
}

/** The variant's title in the current language (from the option list when known). */
export function variantTitle(table, metaInfo) {
  const info = metaInfo && metaInfo.variants.find((v) => v.name === table.variant);
  if (info) return lang() === "ru" ? info.title_ru : info.title_en;
  return t(`variant_${table.variant}`) || table.variant_title;
}

function optionDefault(metaInfo, variant, name) {
  const info = metaInfo && metaInfo.variants.find((v) => v.name === variant);
  const opt = info && info.options.find((o) => o.name === name);
  return opt ? opt.default : null;
}
