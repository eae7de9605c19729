// The lobby: a new game (against bots at once, or a table for friends with an
// invitation link), the open tables, the games being played, and the finished
// games to replay.  The new-table form is built from the server's option
// list (GET /api/meta), so every house rule of RULES can be set here.

import { ApiError, createTable, joinTable, listRecords, listTables, meta, ratings } from "./api.js";
import { h, preserveFocus, replace } from "./dom.js";
import { lang, onLangChange, t, withLang } from "./i18n.js";
import { optionTitle, optionValue } from "./optionwords.js";
import { BOT_CHOICES, botChoice, botLevel, botName, recordName } from "./seats.js";
import { savedName, saveName } from "./store.js";
import { QuickMatch } from "./quickmatch.js";
import { leaderboard } from "./stats.js";
import { bankWords, timerWords } from "./timer.js";
import { ruleNote } from "./ruleword.js";
import { lengthField } from "./presets.js";

// P15: the timer a table for friends proposes (practice tables have none unless asked).
const FRIENDS_TIMER = 60;

const REFRESH_MS = 15000;

/** The lobby page (`/`). */
export class LobbyPage {
  constructor(root) {
    this.root = root;
    this.meta = null;
    this.metaError = null;
    this.variant = "classic";
    this.players = null;
    this.name = savedName();
    this.bot = null;
    this.listed = true;
    this.takeback = false;
    this.values = {};
    this.formError = null;
    this.busy = false;
    this.tables = { waiting: [], playing: [] };
    this.records = [];
    this.listError = null;
    this.timer = null;
    this.turnSeconds = null;
    this.bankSeconds = 0;
    this.board = null;
    this.boardError = null;
    this.boardVariant = "classic";
    this.quick = new QuickMatch({
      onChange: () => this.render(),
      onSeated: (url) => location.assign(withLang(url)),
      onError: (message) => { this.formError = message; this.render(); },
    });
    onLangChange(() => this.render());
  }

  /** Load the option list and the lists of tables, then draw. */
  start() {
    this.render();
    meta().then((m) => {
      this.meta = m;
      this.bot = m.default_bot;
      this.render();
    }).catch((err) => {
      this.metaError = err.message;
      this.render();
    });
    this.refresh();
    this.timer = setInterval(() => {
      if (!document.hidden) this.refresh();
    }, REFRESH_MS);
  }

  /** Stop refreshing (leaving the page). */
  stop() {
    clearInterval(this.timer);
  }

  async refresh() {
    try {
      const [waiting, playing, records] = await Promise.all([
        listTables("waiting"), listTables("playing"), listRecords(30)]);
      this.tables = { waiting: waiting.tables, playing: playing.tables };
      this.records = records.records;
      this.listError = null;
    } catch (err) {
      this.listError = err.message;
    }
    await this.loadBoard();
    this.render();
  }

  async loadBoard() {
    try {
      this.board = await ratings(savedName().trim() || null, 10, this.boardVariant);
      this.boardError = null;
    } catch (err) {
      this.boardError = err.message;
    }
  }

  /** Show the board of another variant (one rating per variant). */
  async showBoard(variant) {
    this.boardVariant = variant;
    this.board = null;
    this.render();
    await this.loadBoard();
    this.render();
  }

  variantInfo() {
    return this.meta ? this.meta.variants.find((v) => v.name === this.variant) : null;
  }

  render() {
    preserveFocus(this.root, () => replace(this.root,
      h("h1", { class: "sr-only", text: t("lobby_title") }),
      h("div", { class: "lobby-grid" },
        this.newGameForm(),
        h("div", { class: "lobby-lists" }, this.tableLists(), leaderboard(this.board, this.boardError, savedName().trim(),
          { variant: this.boardVariant, choose: (v) => this.showBoard(v) })))));
  }

  // --- the new game form ---

  newGameForm() {
    if (this.metaError) {
      return h("section", { class: "panel" }, h("h2", { text: t("new_game") }),
        h("p", { class: "error-text", role: "alert", text: this.metaError }));
    }
    if (!this.meta) return h("section", { class: "panel" }, h("p", { class: "muted", text: t("loading") }));
    const info = this.variantInfo();
    const players = this.players && info.players.includes(this.players) ? this.players : info.default_players;
    const variants = h("fieldset", {}, h("legend", { text: t("variant") }),
      h("div", { class: "variant-choice" }, this.meta.variants.map((v) => h("label", {},
        h("input", { type: "radio", name: "variant", value: v.name, checked: v.name === this.variant,
          dataset: { key: `variant-${v.name}` },
          onchange: () => { this.variant = v.name; this.values = {}; this.formError = null; this.render(); } }),
        h("span", {}, h("strong", { text: lang() === "ru" ? v.title_ru : v.title_en }), " ",
          h("span", { class: "muted", text: t(`variant_blurb_${v.name}`) }))))));
    const playerSelect = h("select", { id: "players", dataset: { key: "players" },
      disabled: info.players.length === 1,
      onchange: (e) => { this.players = Number(e.target.value); this.render(); } },
    info.players.map((p) => h("option", { value: p, text: String(p), selected: p === players })));
    const botSelect = h("select", { id: "bot", dataset: { key: "bot" }, "aria-describedby": "level-blurb",
      onchange: (e) => { this.bot = e.target.value; this.render(); } },
      offeredBots(this.meta).map((b) => h("option", { value: b, text: botChoice(b), selected: b === this.bot })));
    const choices = (this.meta.limits && this.meta.limits.turn_choices) || [0];
    const timerSelect = h("select", { id: "turn-seconds", dataset: { key: "turn-seconds" },
      title: t("timer_default_title", { n: FRIENDS_TIMER }),
      onchange: (e) => { this.turnSeconds = e.target.value === "" ? null : Number(e.target.value); } },
    h("option", { value: "", selected: this.turnSeconds === null, text: t("timer_default", { n: FRIENDS_TIMER }) }),
    choices.map((n) => h("option", { value: n, selected: n === this.turnSeconds, text: timerWords(n) })));
    // P15: a bank for the whole game on top of the time per move (a chess clock's "15 s + 3 min").
    const banks = (this.meta.limits && this.meta.limits.bank_choices) || [0];
    const bankSelect = h("select", { id: "bank-seconds", dataset: { key: "bank-seconds" }, title: t("bank_title"),
      onchange: (e) => { this.bankSeconds = Number(e.target.value); this.formError = null; } },
    banks.map((n) => h("option", { value: n, selected: n === this.bankSeconds,
      text: n ? t("bank_option", { bank: bankWords(n) }) : t("bank_none") })));
    const strongest = this.meta.default_bot;
    const nameInput = h("input", { id: "player-name", type: "text", maxlength: 32, autocomplete: "nickname",
      value: this.name, dataset: { key: "name" }, oninput: (e) => { this.name = e.target.value; } });
    return h("section", { class: "panel", "aria-labelledby": "new-game-title" },
      h("h2", { id: "new-game-title", text: t("new_game") }),
      h("form", { onsubmit: (e) => { e.preventDefault(); this.create(true); } },
        variants,
        h("div", { class: "row" },
          h("label", { class: "field" }, t("players"), playerSelect),
          h("label", { class: "field" }, t("opponents_level"), botSelect),
          h("label", { class: "field" }, t("your_name"), nameInput),
          lengthField(info, this.values, players, this.bot || this.meta.default_bot, (options, keys) => {
            for (const k of keys) delete this.values[k];
            Object.assign(this.values, options);
            this.formError = null;
            this.render();
          }),
          h("label", { class: "field" }, t("turn_timer"), timerSelect),
          banks.length > 1 ? h("label", { class: "field" }, t("time_bank"), bankSelect) : null),
        h("p", { id: "level-blurb", class: "small", "aria-live": "polite", dataset: { testid: "level-blurb" },
          text: this.levelBlurb() }),
        strongest ? h("p", { class: "muted small", dataset: { testid: "default-level" },
          text: t("default_level_note", { level: botChoice(strongest) }) }) : null,
        this.optionsBlock(info),
        h("p", { class: "form-error", role: "alert", dataset: { testid: "form-error" } }, this.formError || "",
          this.formError && this.formRule ? [" ", ruleNote(this.formRule)] : null),
        h("div", { class: "row" },
          h("button", { type: "submit", class: "btn primary", disabled: this.busy, dataset: { key: "play-now" },
            text: t("play_now") }),
          h("button", { type: "button", class: "btn", disabled: this.busy, dataset: { key: "create-table" },
            text: t("create_for_friends"), onclick: () => this.create(false) }),
          h("label", {}, h("input", { type: "checkbox", checked: this.listed,
            onchange: (e) => { this.listed = e.target.checked; } }), " ", t("list_in_lobby")),
          // P21: with friends a card once played stays played unless the table allows taking it back
          // (against bots a player always may).
          h("label", { title: t("allow_takeback_title") }, h("input", { type: "checkbox", checked: this.takeback,
            dataset: { key: "allow-takeback" }, onchange: (e) => { this.takeback = e.target.checked; } }),
          " ", t("allow_takeback"))),
        h("div", { class: "row quick-row" },
          h("button", { type: "button", class: "btn primary", disabled: this.busy || this.quick.active,
            dataset: { key: "quick-match" }, text: t("quick_match"), onclick: () => this.quickMatch(info, players) }),
          h("span", { class: "muted small", text: t("quick_match_note", { s: 4 }) })),
        this.quick.view(lang() === "ru" ? info.title_ru : info.title_en)));
  }

  /** Quick match: sit with strangers who ask for the same variant and size now, bots elsewhere. */
  quickMatch(info, players) {
    const name = this.name.trim();
    saveName(name);
    this.formError = null;
    this.quick.start({ variant: info.name, players, level: this.bot || this.meta.default_bot, name: name || null });
  }

  /** How the chosen opponents play, in words: the level's description from the server. */
  levelBlurb() {
    const bot = this.bot || this.meta.default_bot;
    const found = (this.meta.levels || []).find((l) => l.id === bot);
    if (found) return t("level_blurb", { level: botChoice(bot), blurb: lang() === "ru" ? found.blurb_ru : found.blurb_en });
    return bot === "random" ? t("level_blurb", { level: botChoice(bot), blurb: t("random_blurb") }) : "";
  }

  optionsBlock(info) {
    const changed = Object.keys(this.values).length;
    return h("details", { class: "options", open: changed > 0 },
      h("summary", { dataset: { key: "options-summary" },
        text: changed ? t("house_rules_changed", { n: changed }) : t("house_rules") }),
      h("p", { class: "muted", text: t("house_rules_hint") }),
      h("div", { class: "option-list" }, info.options.map((o) => this.optionField(o))),
      changed ? h("button", { type: "button", class: "btn small", text: t("reset_options"),
        onclick: () => { this.values = {}; this.render(); } }) : null);
  }

  optionField(o) {
    const id = `opt-${o.name}`;
    const current = o.name in this.values ? this.values[o.name] : o.default;
    const set = (value) => {
      if (value === o.default || value === "") delete this.values[o.name];
      else this.values[o.name] = value;
      this.formError = null;
    };
    let control;
    if (isClosed(o)) {
      control = h("select", { id, name: o.name, dataset: { key: id, option: o.name }, "aria-describedby": `${id}-help`,
        onchange: (e) => { set(e.target.value); this.render(); } },
      o.values.map((w) => h("option", { value: w, selected: w === current, text: valueLabel(w, o) })));
    } else {
      // Open values (numbers, rank orders, suit values): free text, with the
      // accepted words offered as suggestions; the server checks the value.
      const listId = o.values.length ? `${id}-words` : null;
      control = [h("input", { id, name: o.name, type: "text", value: o.name in this.values ? this.values[o.name] : "",
        placeholder: o.default, dataset: { key: id, option: o.name }, "aria-describedby": `${id}-help`,
        list: listId, onchange: (e) => { set(e.target.value.trim()); this.render(); } }),
      listId ? h("datalist", { id: listId }, o.values.map((w) => h("option", { value: w }))) : null];
    }
    const help = lang() === "ru" ? o.help_ru : o.help_en;
    return h("div", { class: `option${o.name in this.values ? " changed" : ""}` },
      h("label", { for: id, class: "name", title: o.name, text: optionTitle(o.name) }),
      h("div", {}, control),
      h("div", { class: "help", id: `${id}-help` }, `${help} `, h("span", { class: "muted", text: `[${o.rules.join(", ")}]` })));
  }

  async create(now) {
    if (this.busy) return;
    const info = this.variantInfo();
    const players = this.players && info.players.includes(this.players) ? this.players : info.default_players;
    const name = this.name.trim();
    saveName(name);
    const others = Array.from({ length: players - 1 }, () => (now ? `bot:${this.bot}` : "open"));
    const request = {
      variant: this.variant, players, options: { ...this.values }, seats: ["me", ...others],
      // Listed unless the player unticks it: a game against bots is one others may watch too.
      name: name || null, start: now, listed: this.listed,
    };
    if (this.turnSeconds !== null) request.turn_seconds = this.turnSeconds;
    if (this.bankSeconds) request.bank_seconds = this.bankSeconds;
    if (this.takeback && !now) request.takeback = true;
    this.busy = true;
    this.formError = null;
    this.render();
    try {
      const reply = await createTable(request);
      const token = reply.tokens[0];
      location.assign(withLang(token.url));
    } catch (err) {
      this.busy = false;
      this.formError = err instanceof ApiError ? err.message : String(err);
      this.formRule = err instanceof ApiError ? err.rule : null;
      this.render();
      const box = this.root.querySelector("[data-testid=form-error]");
      if (box) box.scrollIntoView({ block: "nearest" });
    }
  }

  // --- the lists ---

  tableLists() {
    return [
      h("section", { class: "panel", "aria-labelledby": "open-tables-title" },
        h("div", { class: "row" }, h("h2", { id: "open-tables-title", text: t("open_tables") }),
          h("button", { type: "button", class: "btn small", dataset: { key: "refresh" }, text: t("refresh"),
            onclick: () => this.refresh() })),
        this.listError ? h("p", { class: "error-text", text: this.listError }) : null,
        this.tableList(this.tables.waiting, true)),
      h("section", { class: "panel", "aria-labelledby": "playing-title" },
        h("h2", { id: "playing-title", text: t("games_in_progress") }),
        this.tableList(this.tables.playing, false)),
      h("section", { class: "panel", "aria-labelledby": "finished-title" },
        h("h2", { id: "finished-title", text: t("finished_games") }),
        this.recordList()),
    ];
  }

  tableList(tables, joinable) {
    if (!tables.length) return h("p", { class: "muted", text: joinable ? t("no_open_tables") : t("no_games_playing") });
    return h("ul", { class: "list", dataset: { testid: joinable ? "open-tables" : "playing-tables" } }, tables.map((tbl) => {
      const open = tbl.seats.filter((s) => s.kind === "open").length;
      const who = tbl.seats.map((s) => (s.kind === "human" ? s.name || "?" : s.kind === "bot" ? `${botName(s.seat)} · ${botLevel(s.bot || "")}` : t("open_seat")))
        .join(", ");
      const title = `${variantName(this.meta, tbl)}${tbl.title ? ` — ${tbl.title}` : ""}`;
      const href = withLang(`./?table=${encodeURIComponent(tbl.id)}`);
      return h("li", { dataset: { table: tbl.id } },
        h("span", { class: "grow" }, h("strong", { text: title }), " ",
          h("span", { class: "muted", text: `${t("players_n", { n: tbl.players })}; ${who}` }),
          joinable ? h("span", { class: "badge", text: t("open_seats_n", { n: open }) }) : null),
        joinable && open ? h("button", { type: "button", class: "btn small primary", text: t("join"),
          dataset: { key: `join-${tbl.id}` }, onclick: () => this.join(tbl.id) }) : null,
        h("a", { class: "btn small", href, text: t("watch") }));
    }));
  }

  async join(id) {
    const name = this.name.trim();
    saveName(name);
    try {
      const reply = await joinTable(id, { name: name || null });
      location.assign(withLang(reply.token.url));
    } catch (err) {
      this.listError = err.message;
      this.render();
      this.refresh();
    }
  }

  recordList() {
    if (!this.records.length) return h("p", { class: "muted", text: t("no_finished_games") });
    return h("ul", { class: "list", dataset: { testid: "records" } }, this.records.map((r) => h("li", { dataset: { record: r.id } },
      h("span", { class: "grow" }, h("strong", { text: variantName(this.meta, r) }), " ",
        h("span", { class: "muted", text: `${r.seats.map(recordName).join(", ")}; ${formatTime(r.finished)}` }),
        r.winner !== null && r.winner !== undefined
          ? h("span", { class: "badge", text: t("won_by", { name: recordName(r.seats[r.winner], r.winner) }) }) : null),
      h("a", { class: "btn small", href: withLang(`./?replay=${encodeURIComponent(r.id)}`), text: t("replay") }))));
  }
}

/** The bots offered to a player: the levels (weakest first) and the random player; others by name only. */
export function offeredBots(metaInfo) {
  const known = BOT_CHOICES.filter((b) => metaInfo.bots.includes(b));
  if (metaInfo.default_bot && !known.includes(metaInfo.default_bot)) known.push(metaInfo.default_bot);
  return known.length ? known : metaInfo.bots;
}

/** A closed set of words that includes the default: offered as a choice. */
function isClosed(o) {
  return o.values.length >= 2 && o.values.includes(o.default);
}

function isBoolean(o) {
  return o.values.length === 2 && o.values.includes("true") && o.values.includes("false");
}

function valueLabel(word, o) {
  if (isBoolean(o)) return word === "true" ? t("yes") : t("no");
  return optionValue(word, o.name);
}

function variantName(metaInfo, item) {
  const info = metaInfo && metaInfo.variants.find((v) => v.name === item.variant);
  if (info) return lang() === "ru" ? info.title_ru : info.title_en;
  return item.variant_title || item.variant;
}

function formatTime(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso || "";
  return d.toLocaleString(lang() === "ru" ? "ru-RU" : "en-GB", { dateStyle: "short", timeStyle: "short" });
}
