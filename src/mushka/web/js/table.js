// The table page: its state, the server's messages, sending, the keyboard and
// the page's frame (header, game area, side panels' tabs).  The parts of the
// page are drawn by methods mixed in from tablewait.js (waiting room), felt.js
// (the felt), hand.js (one's own seat), tableresults.js (deal and game ends)
// and panels.js (the side panels' bodies).
//
// Everything shown comes from the server's messages (docs/protocol.md): the
// `table` info, the seat's `view` (GameView.to_json of the engine; each
// `update` brings only what changed in it) and the events of the deal.  The
// page holds no rules: it marks what the view's `legal` list allows, sends
// what the player chooses, and shows the rules as the server words them.

import { ApiError, createTable, joinTable, meta } from "./api.js";
import { short } from "./cards.js";
import { TableConnection } from "./conn.js";
import { byId, h, preserveFocus, replace } from "./dom.js";
import { lang, onLangChange, t, withLang } from "./i18n.js";
import { partWords } from "./explain.js";
import { moveModel } from "./moves.js";
import { seatLabel } from "./seats.js";
import { forgetToken, prefs, savedName, saveName, saveToken, setPref, tokenFor } from "./store.js";
import { announce, toast } from "./ui.js";
import { isTutorial, Lesson } from "./tutorial.js";
import { capture, chime, finishAll, motionMode, play, SPEEDS, setSpeed, speedSetting, trickPauseMs } from "./motion.js";
import { variantTitle } from "./tableinfo.js";
import { plainMessage } from "./ruleword.js";
import { DECKS, FACES, setLook, THEMES } from "./looks.js";
import { playSound, soundFor } from "./sound.js";
import { feltMethods } from "./felt.js";
import { handMethods } from "./hand.js";
import { panelMethods } from "./panels.js";
import { resultMethods } from "./tableresults.js";
import { waitingMethods } from "./tablewait.js";
import { socialMethods } from "./social.js";
import { takeBackMethods } from "./takeback.js";

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
    this.held = null;
    this.shownWinner = null;
    this.lesson = isTutorial() ? new Lesson(this) : null;
    // The seats go round the felt on a wide screen and in a row on a narrow one (felt.js).
    if (window.matchMedia) window.matchMedia("(min-width: 900px)").addEventListener("change", () => this.render());
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
      name: savedName() || null,
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
      toast(error ? plainMessage(error.message, error.rule) : t("token_unknown"));
      this.connect();
      return;
    }
    this.fatal = { code: error ? error.code : null, message: error ? error.message : null };
    this.render();
  }

  // --- messages -----------------------------------------------------------------------------

  handle(msg) {
    // social.js: the turn clock, the chat and the suggested move.
    const social = this.socialHandle(msg);
    if (social === null || msg.type === "chat") return;
    if (social) {
      this.render();
      return;
    }
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
      case "taken_back":
        this.takenBack(msg);
        return; // the whole state of before the card follows at once
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
    // The sound of the change, from the two views (a card, a trick, a deal's end).
    const sound = prefs().effects ? soundFor(before, this.view) : null;
    if (sound) playSound(sound);
    this.log.push(...msg.events);
    if (msg.seat !== null && msg.seat === this.seat) {
      this.noteOwnUpdate(msg);
      this.pending = null;
      this.refusal = null;
      this.selected.clear();
    }
    for (const ev of msg.events) {
      if (ev.event === "TrickTaken") {
        this.lastTrick = { number: ev.data.number, winner: ev.data.seat, cards: ev.data.cards,
          deal: before ? before.number : null };
        this.holdTrick(this.lastTrick);
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

  /** Keep a completed trick in view for a moment, whatever comes meanwhile (the state itself moves on). */
  holdTrick(trick) {
    const ms = trickPauseMs();
    if (!ms) return;
    const held = { ...trick };
    this.held = held;
    setTimeout(() => {
      if (this.held !== held) return;
      this.held = null;
      this.render();
    }, ms);
  }

  /**
   * The move model as the player is shown it.  While a completed trick is still in view and
   * the next one has begun behind it, the player's turn waits for the pause to end (or for a
   * click on the trick): he answers a lead only once he sees it.
   */
  shownModel(deal) {
    const model = moveModel(deal);
    // B6: while a bot plays for this seat (its time ran out, or it was away), the turn is the
    // bot's: the hand waits and the page says so, until the player takes his seat back.
    const own = this.seat !== null && this.table && this.table.seats ? this.table.seats[this.seat] : null;
    if (own && own.substitute && model.myTurn) return { ...model, myTurn: false, standIn: true };
    if (this.held && model.myTurn && deal.phase === "play" && deal.trick && deal.trick.length) {
      return { ...model, myTurn: false, leadHidden: true };
    }
    return model;
  }

  /** End the pause on a completed trick now (a click on it): the next lead shows. */
  endHold() {
    if (!this.held) return;
    this.held = null;
    this.render();
  }

  applyError(msg) {
    if (msg.id !== undefined && msg.id !== null && msg.id === this.pending) this.pending = null;
    if (msg.fatal) return;
    this.refusal = { message: plainMessage(msg.message, msg.rule), rule: msg.rule, code: msg.code };
    announce(msg.message, true);
  }

  pruneSelection() {
    const hand = new Set(this.view && this.view.deal ? this.view.deal.hand || [] : []);
    for (const c of [...this.selected]) if (!hand.has(c)) this.selected.delete(c);
  }

  // --- sending ------------------------------------------------------------------------------

  act(action) {
    if (!this.conn) return;
    if (this.lesson && !this.lesson.allows(action)) return;
    this.refusal = null;
    // The player's own move ends the pause on the last trick: his card is the news.
    this.held = null;
    this.noteOwnAction(action);
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

  /** Seat `s` as the player reads it (his own seat is "you"). */
  seatLabelOf(s) {
    return seatLabel(this.table, s, this.seat);
  }

  /** A rule's id beside the words it explains; a click opens the rule in the rules panel. */
  ruleRef(id) {
    return h("button", { type: "button", class: "rule-id rule-ref", title: t("see_rule", { rule: id }),
      dataset: { ruleRef: id }, onclick: () => this.openRule(id), text: id });
  }

  /** Reasons as words, each with its rule's id to click: "+5 remiz: no trick (C18); …". */
  reasons(parts) {
    const out = [];
    parts.forEach((part, i) => {
      if (i) out.push("; ");
      out.push(`${partWords(part)} (`, this.ruleRef(part.rule), ")");
    });
    return out;
  }

  /** Open rule `id` in the rules panel, scrolled to it. */
  openRule(id) {
    this.highlightRule = id;
    this.highlightScrolled = null;
    this.showTab("rules");
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
    // A redraw finishes the movements still running: the newest state wins.
    finishAll();
    const before = capture(this.root);
    const collectTo = this.shownWinner;
    this.shownWinner = null;
    preserveFocus(this.root, () => replace(this.root, ...this.content()));
    play(this.root, before, { collectTo });
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
    const model = deal ? this.shownModel(deal) : null;
    const mine = !!(model && model.myTurn && !this.view.result);
    document.title = mine ? `● ${t("title_your_turn")} — ${t("brand")}` : t("brand");
    if (mine && this.turnAt !== this.ply) {
      this.turnAt = this.ply;
      if (prefs().sound) chime();
      this.focusHand();  // B12: the keyboard starts in the hand, not on the page's body
    } else if (!this.handSeen && deal && this.seat !== null) {
      this.focusHand();
    }
    if (deal && this.seat !== null && this.root.querySelector(".hand button.card")) this.handSeen = true;
    this.placeNotice();
    if (mine && prefs().autoplay && model.mode === "play" && this.pending === null && this.table.status === "playing"
        && model.playCards.size === 1 && !model.canDraw && !model.canPass && this.autoAt !== this.ply) {
      this.autoAt = this.ply;
      const [only] = [...model.playCards];
      setTimeout(() => { if (this.autoAt === this.ply && this.pending === null) this.act(only); }, 700);
    }
  }

  /** B13: the end-of-deal box lies over the middle of the felt (where the trick is), so that
   *  the other seats, above it or beside it, stay in view. */
  placeNotice() {
    const felt = this.root.querySelector(".felt");
    const notice = felt && felt.querySelector(":scope > .notice");
    const centre = felt && felt.querySelector(":scope > .centre");
    if (!notice || !centre) return;
    const f = felt.getBoundingClientRect();
    const c = centre.getBoundingClientRect();
    const top = Math.max(6, c.top - f.top);
    // Through the style object: the page's policy allows no inline style attributes.
    notice.style.top = `${top}px`;
    notice.style.left = `${Math.max(6, c.left - f.left)}px`;
    notice.style.right = `${Math.max(6, f.right - c.right)}px`;
    notice.style.maxHeight = `${Math.max(0, f.height - top - 8)}px`;
  }

  /** Put the focus on the hand (the first card that may be played, else the first card, else the
   *  first action) when nothing else has it: a keyboard player starts where the game is. */
  focusHand() {
    const now = document.activeElement;
    if (now && now !== document.body && now !== this.root && this.root.contains(now)) return;
    if (now && now !== document.body && !this.root.contains(now)) return;  // a dialog, the chat …
    const target = this.root.querySelector(".hand button.card.legal")
      || this.root.querySelector(".hand button.card") || this.root.querySelector(".me .actions button");
    if (!target) return;
    const cards = [...this.root.querySelectorAll(".hand button.card")];
    if (cards.includes(target)) cards.forEach((c) => { c.tabIndex = c === target ? 0 : -1; });
    target.focus({ preventScroll: true });
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
    if (this.table.status === "waiting" || !this.view) parts.push(this.waitingRoom(), this.chatBox());
    else parts.push(this.gameArea());
    return parts;
  }

  header() {
    const tbl = this.table;
    const badges = [h("span", { class: "badge status-badge", dataset: { status: tbl.status }, text: t(`status_${tbl.status}`) })];
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

  /** The player's table settings: the animation speed, a lone legal card plays itself, a sound on one's turn. */
  prefsBox() {
    const p = prefs();
    const box = (name, label) => h("label", { class: "pref" }, h("input", { type: "checkbox", checked: !!p[name],
      dataset: { key: `pref-${name}` }, onchange: (e) => { setPref(name, e.target.checked); this.render(); } }), " ", label);
    const speed = h("label", { class: "pref" }, t("pref_speed"), " ",
      h("select", { dataset: { key: "pref-speed" }, onchange: (e) => { setSpeed(e.target.value); this.render(); } },
        SPEEDS.map((v) => h("option", { value: v, text: t(`speed_${v}`), selected: v === speedSetting() }))));
    const reduced = motionMode() === "reduced"
      ? h("p", { class: "muted", dataset: { testid: "reduced-motion" }, text: t("pref_reduced_motion") }) : null;
    const choice = (name, label, values, current) => h("label", { class: "pref" }, label, " ",
      h("select", { dataset: { key: `pref-${name}` }, onchange: (e) => { setLook(name, e.target.value); this.render(); } },
        values.map((v) => h("option", { value: v, text: t(`${name}_${v}`), selected: v === current }))));
    const theme = choice("theme", t("pref_theme"), THEMES, THEMES.includes(p.theme) ? p.theme : "auto");
    const deck = choice("deck", t("pref_deck"), DECKS, p.deck === "four" ? "four" : "two");
    const face = choice("face", t("pref_face"), FACES, p.face === "russian" ? "russian" : "plain");
    return h("details", { class: "prefs", open: this.prefsOpen || null,
      ontoggle: (e) => { this.prefsOpen = e.target.open; } },
    h("summary", { class: "btn small", dataset: { key: "prefs" }, text: t("table_settings") }),
    h("div", { class: "prefs-body" }, speed, reduced, box("autoplay", t("pref_autoplay")), box("sound", t("pref_sound")),
      box("confirmCard", t("pref_confirm")), box("effects", t("pref_effects")), theme, deck, face));
  }

  // --- the game ---

  gameArea() {
    const view = this.view;
    const deal = view.deal;
    const model = this.shownModel(deal);
    // The data attributes say where the game stands (for styles and scripts).
    const felt = h("section", { class: "felt", "aria-label": t("table_area"), dataset: {
      testid: "felt", phase: deal.phase, toAct: deal.to_act ?? "", deal: view.number,
      over: view.result ? "true" : "false", tricks: deal.tricks.length, ply: this.ply } },
      this.opponents(deal),
      this.centre(deal),
      this.lastTrickStrip(deal),
      this.statusLine(deal, model),
      this.dealNotice ? this.dealNoticeBox() : null);
    // The hand and its actions right under the felt (B5: on a phone both are on the first
    // screen); the hint and the clock after them.
    const main = [felt];
    if (view.result) main.push(this.resultBanner(view));
    if (this.lesson) main.push(this.lesson.box());
    if (this.seat !== null) main.push(this.myArea(deal, model), this.takeBackButton());
    else main.push(h("p", { class: "hint", text: t("watching_hint") }));
    main.push(this.socialBar(!!(model.myTurn && !view.result)));
    return h("div", { class: "table-layout" },
      h("div", {}, ...main),
      this.sidePanels());
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
        tabIndex: 0, dataset: { testid: `panel-${this.tab}` } }, body), this.chatBox());
  }

  tabKeys(event) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const at = TABS.indexOf(this.tab);
    const next = (at + (event.key === "ArrowRight" ? 1 : TABS.length - 1)) % TABS.length;
    this.showTab(TABS[next]);
    event.preventDefault();
  }

  /** Stop the connection (leaving the page). */
  stop() {
    if (this.conn) this.conn.stop();
    if (this.clock) this.clock.stop();
  }
}

// The page's drawing is split by part of the page (each module adds its methods).
Object.assign(TablePage.prototype, feltMethods, handMethods, panelMethods, resultMethods, waitingMethods,
  socialMethods, takeBackMethods);

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

