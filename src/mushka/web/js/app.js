// Entry point: picks the page from the address, wires the language switch,
// the shortcut help and the keyboard.
//
//   /                      the lobby
//   /?table=ID             a table (watching, or taking an open seat)
//   /?table=ID#token=TOK   a table from one's own seat (the token is kept)
//   /?replay=ID            the replay of a finished game
//   ?lang=ru|en            forces the language (otherwise remembered)

import { meta } from "./api.js";
import { byId, h, replace } from "./dom.js";
import { lang, onLangChange, setLang, t, translateStatic } from "./i18n.js";
import { LobbyPage } from "./lobby.js";
import { applyLooks } from "./looks.js";
import { startAccount } from "./account.js";
import { startFriends } from "./friends.js";
import { ReplayPage } from "./replay.js";
import { TablePage } from "./table.js";
import { tokenFor } from "./store.js";
import { startTutorial } from "./tutorial.js";

const SHORTCUTS = [
  ["← →", "sc_arrows"], ["Enter / Space", "sc_activate"], ["1 … 9", "sc_number"],
  ["P", "sc_pass"], ["S", "sc_stand"], ["T", "sc_take"], ["D", "sc_draw"], ["Esc", "sc_escape"],
  ["L", "sc_last"], ["R", "sc_rules"], ["?", "sc_help"],
  ["← → (replay)", "sc_replay_step"], ["PgUp PgDn (replay)", "sc_replay_deal"],
];

let page = null;

function route() {
  const params = new URLSearchParams(location.search);
  const table = params.get("table");
  const replay = params.get("replay");
  for (const id of ["view-lobby", "view-table", "view-replay"]) byId(id).hidden = true;
  // The walkthrough is offered in the lobby itself (and in the top bar everywhere).
  byId("learn-banner").hidden = !!(table || replay);
  if (table) {
    const root = byId("view-table");
    root.hidden = false;
    page = new TablePage(root, table);
  } else if (replay) {
    const root = byId("view-replay");
    root.hidden = false;
    page = new ReplayPage(root, replay);
  } else {
    const root = byId("view-lobby");
    root.hidden = false;
    page = new LobbyPage(root);
  }
  page.start();
}

function setupLanguage() {
  const mark = () => {
    for (const btn of document.querySelectorAll(".lang-btn")) {
      btn.setAttribute("aria-pressed", btn.dataset.lang === lang() ? "true" : "false");
    }
    renderHelp();
  };
  for (const btn of document.querySelectorAll(".lang-btn")) {
    btn.addEventListener("click", () => setLang(btn.dataset.lang));
  }
  onLangChange(mark);
  translateStatic(document);
  mark();
}

function renderHelp() {
  replace(byId("help-list"), SHORTCUTS.map(([keys, text]) => [
    h("dt", {}, h("kbd", { text: keys })), h("dd", { text: t(text) })]));
}

function openHelp() {
  const dialog = byId("help-dialog");
  if (!dialog.open) dialog.showModal();
}

function isTyping(target) {
  return target instanceof HTMLElement
    && (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName));
}

function setupKeys() {
  byId("help-btn").addEventListener("click", openHelp);
  byId("howto-btn").addEventListener("click", () => byId("howto-dialog").showModal());
  for (const btn of document.querySelectorAll("[data-learn]")) btn.addEventListener("click", () => startTutorial());
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
    if (byId("help-dialog").open || byId("howto-dialog").open) return;
    if (event.key === "?") {
      openHelp();
      event.preventDefault();
      return;
    }
    if (page && typeof page.onKey === "function" && page.onKey(event)) event.preventDefault();
  });
}

/**
 * B14: a browser remembers a seat per address (localStorage is per origin), so the same table
 * opened by another address of the server would be watched, not played.  A server announced
 * under one address (`--public-url`) is therefore always used under that one: a page opened by
 * any other is moved there, taking this table's seat token along in the fragment (which never
 * reaches the server's logs; the table page puts it into that address's storage at once).
 */
function keepOneAddress() {
  meta().then((m) => {
    if (!m || !m.public_url) return;
    let target;
    try {
      target = new URL(location.search || "./", m.public_url);
    } catch (_) {
      return;
    }
    if (target.origin === location.origin) return;
    const table = new URLSearchParams(location.search).get("table");
    const token = table ? tokenFor(table) : null;
    target.hash = token ? `token=${encodeURIComponent(token)}` : location.hash;
    location.replace(target.href);
  }).catch(() => {
    // Without the server's settings the page stays where it is.
  });
}

applyLooks();
setupLanguage();
setupKeys();
keepOneAddress();
route();
startAccount();
startFriends();
