// The table chat (docs/protocol.md, `chat`, P16): quick phrases, short free
// text, players and spectators apart, and muting kept in the browser.
//
// Every line is shown with textContent, never as markup: whatever a person
// types stays text.  The server cleans and limits the lines and keeps the
// players' talk apart from the spectators' (a player hears the spectators
// only after ticking "hear spectators").  Muting a name hides its lines in
// this browser (the names are kept in localStorage; hidden, not deleted, so
// unmuting shows them again); a signed-in player's mute of an account also
// goes to the server, which then sends him none of its lines at any table
// (docs/friends.md).  Every line of somebody else has a flag to report it.
//
// The box is one element kept across the table's renders, so that a line
// being typed, the scroll position and the focus survive every update.

import { h, replace } from "./dom.js";
import { muteEverywhere, reportLine } from "./friends.js";
import { t } from "./i18n.js";
import { ruleNote } from "./ruleword.js";

export const PHRASES = ["hello", "good_luck", "good_game", "well_played", "nice_trick", "thanks", "sorry",
  "oops", "one_moment", "bye"];
const MAX_LINES = 100;
const MUTE_KEY = "mushka.muted";

/** The names whose lines this browser hides (case-folded). */
export function mutedNames() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTE_KEY) || "[]");
    return new Set(Array.isArray(list) ? list.filter((n) => typeof n === "string") : []);
  } catch (_) {
    return new Set();
  }
}

function saveMuted(names) {
  try {
    localStorage.setItem(MUTE_KEY, JSON.stringify([...names]));
  } catch (_) {
    // Not remembered then; the mute holds for this page.
  }
}

const fold = (name) => name.trim().toLocaleLowerCase();

/** One table's chat box. */
export class ChatBox {
  constructor(send) {
    this.send = send;
    this.lines = [];
    this.muted = mutedNames();
    this.hearSpectators = false;
    this.seat = null;
    this.error = null;
    this.list = h("ol", { class: "chat-lines", dataset: { testid: "chat-lines" }, "aria-live": "polite" });
    this.input = h("input", { type: "text", maxlength: 200, class: "chat-input", dataset: { key: "chat-input", testid: "chat-input" },
      autocomplete: "off", onkeydown: (e) => { if (e.key === "Enter") { e.preventDefault(); this.sendText(); } } });
    this.el = h("section", { class: "chat panel", dataset: { testid: "chat" } });
    this.built = null;
  }

  /** A `chat` message from the server.  A recent line sent again (`past`: on arrival, or the
   *  spectators' lines when the player starts to hear them, B7) takes its place by time, once. */
  add(line) {
    if (line.past) {
      const same = (l) => l.at === line.at && l.name === line.name && l.text === line.text && l.channel === line.channel;
      if (this.lines.some(same)) return;
      // Within the same second a line said before counts as earlier than one that came live.
      const at = this.lines.findIndex((l) => l.at > line.at || (l.at === line.at && !l.past));
      this.lines.splice(at < 0 ? this.lines.length : at, 0, line);
    } else {
      this.lines.push(line);
    }
    if (this.lines.length > MAX_LINES) this.lines.shift();
    this.drawLines();
  }

  /** A refusal of a line (P16): its words shown under the box, the rule's id one click away. */
  refused(message, rule = null) {
    this.error = message;
    this.errorRule = rule;
    this.drawFrame(true);
  }

  sendText() {
    const text = this.input.value.trim();
    if (!text) return;
    if (this.send({ type: "chat", text }) !== false) this.input.value = "";
  }

  /** The element, for the seat `seat` (null: a spectator). */
  element(seat) {
    if (this.seat !== seat || !this.built) {
      this.seat = seat;
      this.drawFrame(true);
    }
    return this.el;
  }

  /** Redraw after a language change. */
  relabel() {
    this.drawFrame(true);
  }

  drawFrame() {
    const listen = this.seat === null ? null : h("label", { class: "pref" },
      h("input", { type: "checkbox", checked: this.hearSpectators, dataset: { key: "chat-listen", testid: "chat-listen" },
        onchange: (e) => { this.hearSpectators = e.target.checked; this.send({ type: "listen", spectators: this.hearSpectators }); this.drawLines(); } }),
      " ", t("chat_hear_spectators"));
    const phrases = h("div", { class: "chat-phrases", role: "group", "aria-label": t("chat_quick") },
      PHRASES.map((p) => h("button", { type: "button", class: "btn small", dataset: { key: `phrase-${p}`, testid: `phrase-${p}` },
        text: t(`chat.phrase.${p}`), onclick: () => this.send({ type: "chat", phrase: p }) })));
    this.input.placeholder = this.seat === null ? t("chat_placeholder_spectator") : t("chat_placeholder");
    this.input.setAttribute("aria-label", this.input.placeholder);
    const muted = [...this.muted];
    replace(this.el,
      h("h3", { text: this.seat === null ? t("chat_title_spectators") : t("chat_title") }),
      this.list,
      h("div", { class: "chat-send" }, this.input,
        h("button", { type: "button", class: "btn small primary", dataset: { key: "chat-send", testid: "chat-send" },
          text: t("chat_send"), onclick: () => this.sendText() })),
      phrases,
      listen,
      this.error ? h("p", { class: "error-text", role: "alert", dataset: { testid: "chat-error" } },
        this.error, " ", ruleNote(this.errorRule)) : null,
      muted.length ? h("p", { class: "muted chat-muted" }, t("chat_muted"), " ",
        muted.map((n) => h("button", { type: "button", class: "btn small", dataset: { testid: "unmute" },
          title: t("chat_unmute"), text: `${n} ✕`, onclick: () => this.unmute(n) }))) : null);
    this.built = true;
    this.drawLines();
  }

  mute(name) {
    this.muted.add(fold(name));
    saveMuted(this.muted);
    this.drawFrame();
    muteEverywhere(name);
  }

  unmute(name) {
    this.muted.delete(fold(name));
    saveMuted(this.muted);
    this.drawFrame();
  }

  drawLines() {
    const shown = this.lines.filter((l) => !this.muted.has(fold(l.name))
      && (l.channel === "players" || this.seat === null || this.hearSpectators));
    const atEnd = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    replace(this.list, shown.length ? shown.map((l) => {
      const mine = l.seat !== null && l.seat === this.seat;
      return h("li", { class: `chat-line ${l.channel}${l.past ? " past" : ""}`, dataset: { testid: "chat-line", channel: l.channel } },
        h("span", { class: "chat-time muted", text: clockTime(l.at) }),
        h("strong", { class: "chat-name", text: l.name }),
        h("span", { class: "chat-text", text: l.text }),
        mine ? null : h("button", { type: "button", class: "chat-mute", dataset: { testid: "mute" },
          title: t("chat_mute_name", { name: l.name }), "aria-label": t("chat_mute_name", { name: l.name }), text: t("chat_mute"),
          onclick: () => this.mute(l.name) }),
        mine ? null : h("button", { type: "button", class: `chat-report${l.reported ? " done" : ""}`, dataset: { testid: "report" },
          disabled: !!l.reported, title: l.reported ? t("chat_reported") : t("chat_report_line", { name: l.name }),
          "aria-label": l.reported ? t("chat_reported") : t("chat_report_line", { name: l.name }), text: t("chat_report"),
          onclick: async () => { if (await reportLine(l)) { l.reported = true; this.drawLines(); } } }));
    }) : h("li", { class: "muted", text: t("chat_empty") }));
    if (atEnd) this.list.scrollTop = this.list.scrollHeight;
  }
}

function clockTime(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}
