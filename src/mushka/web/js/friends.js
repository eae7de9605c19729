// Friends, notices and invitations (docs/friends.md): a Friends button in the
// top bar opens a panel with my friends (a green dot when online, a link to
// the table they are at, an Invite button when I am at a table), the requests
// either way, my friend link, whom I muted or blocked, and the switch for
// browser notifications.  Invitations and friend requests arrive as notices:
// the page asks for them every few seconds (GET /api/notices, which also keeps
// me online for my friends) and shows each with its buttons ("Join" for an
// invitation).  A browser notification is shown only if the player turned the
// switch on, which is when the browser asks for the permission (never on load).
//
// Everything here is for a signed-in player; a guest sees no Friends button.
// A friend link (/?friend=CODE) opened by a guest is kept until he signs in.

import { account, onAccountChange } from "./account.js";
import { h, navButton, replace } from "./dom.js";
import { hideAccount, onHidesChange, social } from "./friendcalls.js";
import { onLangChange, t, withLang } from "./i18n.js";
import { openProfile } from "./profile.js";
import { prefs, setPref } from "./store.js";
import { announce, toast } from "./ui.js";

const POLL_MS = 4000;
const CODE_KEY = "mushka.friendCode";

let me = null; // { name } while signed in
let friends = [];
let hides = [];
let lastNotice = 0;
const shown = new Map(); // notice id -> element
let pollTimer = null;
let panel = null;
let button = null;
let noticeBox = null;
let linkUrl = null;
let formError = null;

/** The table this page shows, if any. */
function tableHere() {
  return new URLSearchParams(location.search).get("table");
}

/** Whether a player is signed in, and his name. */
export function signedIn() {
  return me ? me.name : null;
}

async function whoAmI() {
  try {
    const reply = await social("GET", "api/account");
    return reply && reply.account ? reply.account : null;
  } catch (_) {
    return null;
  }
}

/** Start the social side of the page (once, at load). */
export async function startFriends() {
  const params = new URLSearchParams(location.search);
  const code = params.get("friend");
  if (code) {
    try { sessionStorage.setItem(CODE_KEY, code); } catch (_) { /* kept for this page only */ }
    params.delete("friend");
    const rest = params.toString();
    history.replaceState(null, "", `${location.pathname}${rest ? `?${rest}` : ""}${location.hash}`);
  }
  const profile = params.get("profile");
  onLangChange(() => { drawButton(); drawPanel(); redrawNotices(); });
  // The account's part of the page signs the player in and out: follow it.
  onAccountChange((who) => accountIs(who));
  await accountIs(account() || await whoAmI());
  if (!me && pendingCode()) toast(t("friend_link_sign_in"));
  if (profile) openProfile(profile);
}

async function accountIs(who) {
  const was = me ? me.name : null;
  me = who ? { name: who.name } : null;
  const now = me ? me.name : null;
  if (was === now) return;
  drawButton();
  clearInterval(pollTimer);
  pollTimer = null;
  if (!me) {
    for (const el of shown.values()) el.remove();
    shown.clear();
    if (panel) panel.hidden = true;
    return;
  }
  await usePendingCode();
  await poll();
  pollTimer = setInterval(poll, POLL_MS);
  loadFriends();
}

function pendingCode() {
  try { return sessionStorage.getItem(CODE_KEY); } catch (_) { return null; }
}

async function usePendingCode() {
  const code = pendingCode();
  if (!code) return;
  try { sessionStorage.removeItem(CODE_KEY); } catch (_) { /* gone with the page */ }
  try {
    const reply = await social("POST", "api/friends/link", { code });
    toast(reply.status === "friends" ? t("friend_already", { name: reply.name }) : t("friend_added", { name: reply.name }));
  } catch (err) {
    toast(err.message);
  }
}

// --- notices ---------------------------------------------------------------------------

async function poll() {
  if (!me) return;
  let reply;
  try {
    const table = tableHere() || "";
    reply = await social("GET", `api/notices?after=${lastNotice}&table=${encodeURIComponent(table)}`);
  } catch (_) {
    return; // the next poll tries again
  }
  for (const notice of reply.notices) {
    lastNotice = Math.max(lastNotice, notice.id);
    if (!shown.has(notice.id)) showNotice(notice);
  }
  // The open panel follows who is online and where; a friendship's notice changes the list.
  if ((panel && !panel.hidden) || reply.notices.some((n) => n.kind !== "invite")) loadFriends();
}

function box() {
  if (!noticeBox) {
    noticeBox = h("div", { class: "notices", dataset: { testid: "notices" }, "aria-live": "polite" });
    document.body.appendChild(noticeBox);
  }
  return noticeBox;
}

function noticeText(notice) {
  return t(`notice_${notice.kind}`, { name: notice.name });
}

function showNotice(notice) {
  const el = h("div", { class: "notice panel", role: "status", dataset: { testid: "notice", kind: notice.kind } });
  el.notice = notice;
  shown.set(notice.id, el);
  drawNotice(el);
  box().appendChild(el);
  announce(noticeText(notice));
  browserNotice(notice);
  if (notice.kind === "friend_accepted") {
    // Nothing to answer: told once, not again on the next page.
    social("POST", `api/notices/${notice.id}/seen`).catch(() => {});
  }
}

function drawNotice(el) {
  const notice = el.notice;
  const buttons = [];
  if (notice.kind === "invite" && notice.table) {
    buttons.push(h("button", { type: "button", class: "btn small primary", dataset: { testid: "notice-join" },
      text: t("notice_join"), onclick: () => { seen(notice); location.assign(withLang(`./?table=${encodeURIComponent(notice.table)}`)); } }));
  }
  if (notice.kind === "friend_request") {
    buttons.push(h("button", { type: "button", class: "btn small primary", dataset: { testid: "notice-accept" },
      text: t("friend_accept"), onclick: () => answer(notice, true) }));
    buttons.push(h("button", { type: "button", class: "btn small", dataset: { testid: "notice-decline" },
      text: t("friend_decline"), onclick: () => answer(notice, false) }));
  }
  buttons.push(h("button", { type: "button", class: "btn small", dataset: { testid: "notice-dismiss" },
    text: t("notice_dismiss"), "aria-label": t("notice_dismiss"), onclick: () => seen(notice) }));
  replace(el, h("p", { class: "notice-text", text: noticeText(notice) }), h("div", { class: "notice-actions" }, buttons));
}

function redrawNotices() {
  for (const el of shown.values()) drawNotice(el);
}

async function seen(notice) {
  const el = shown.get(notice.id);
  if (el) el.remove();
  shown.delete(notice.id);
  try { await social("POST", `api/notices/${notice.id}/seen`); } catch (_) { /* shown again at most */ }
}

async function answer(notice, accept) {
  try {
    if (accept) await social("POST", "api/friends", { name: notice.name });
    else await social("POST", "api/friends/remove", { name: notice.name });
  } catch (err) {
    toast(err.message);
  }
  await seen(notice);
  loadFriends();
}

function browserNotice(notice) {
  if (!prefs().notify || typeof Notification === "undefined" || Notification.permission !== "granted") return;
  if (document.visibilityState === "visible" && document.hasFocus()) return; // the page shows it already
  try {
    const shownNote = new Notification(t("brand"), { body: noticeText(notice), tag: `mushka-${notice.id}` });
    shownNote.onclick = () => {
      window.focus();
      if (notice.kind === "invite" && notice.table) location.assign(withLang(`./?table=${encodeURIComponent(notice.table)}`));
    };
  } catch (_) {
    // Some browsers allow notifications only from a service worker: the page's notice is there.
  }
}

// --- the Friends button and panel ------------------------------------------------------------

function drawButton() {
  const made = navButton(button, { type: "button", class: "btn small friends-btn", dataset: { testid: "friends-button" },
    "aria-expanded": "false", onclick: () => togglePanel() });
  if (!made) return;
  button = made;
  button.hidden = !me;
  const incoming = friends.filter((f) => f.status === "incoming").length;
  const online = friends.filter((f) => f.status === "accepted" && f.online).length;
  button.setAttribute("aria-label", t("friends"));
  button.title = t("friends");
  // On a phone the top bar is one row: the label gives way to a small picture of two people.
  replace(button, peopleIcon(), h("span", { class: "friends-label", text: t("friends") }),
    online ? h("span", { class: "friends-online", text: ` ${online}`, title: t("friends_online_count", { n: online }) }) : null,
    incoming ? h("span", { class: "badge", text: String(incoming), title: t("friend_requests") }) : null);
}

function peopleIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const icon = document.createElementNS(ns, "svg");
  icon.setAttribute("viewBox", "0 0 24 16");
  icon.setAttribute("class", "friends-icon");
  icon.setAttribute("aria-hidden", "true");
  for (const [cx, cy, r] of [[8, 4.5, 3.5], [17, 5, 3]]) {
    const head = document.createElementNS(ns, "circle");
    head.setAttribute("cx", cx);
    head.setAttribute("cy", cy);
    head.setAttribute("r", r);
    icon.appendChild(head);
  }
  for (const d of ["M1 16c0-4 3-6.5 7-6.5s7 2.5 7 6.5z", "M14.5 10.2c1-.5 1.8-.7 2.5-.7 3.5 0 6 2.3 6 6.5h-6.2"]) {
    const body = document.createElementNS(ns, "path");
    body.setAttribute("d", d);
    icon.appendChild(body);
  }
  return icon;
}

function togglePanel(open) {
  if (!panel) {
    panel = h("aside", { class: "friends-panel panel", dataset: { testid: "friends-panel" }, "aria-label": t("friends") });
    panel.hidden = true;
    document.body.appendChild(panel);
  }
  panel.hidden = open === undefined ? !panel.hidden : !open;
  if (button) button.setAttribute("aria-expanded", panel.hidden ? "false" : "true");
  if (!panel.hidden) {
    drawPanel();
    loadFriends();
    loadHides();
  }
}

/** Open the Friends panel (from elsewhere on the page). */
export function openFriends() {
  togglePanel(true);
}

// The signed-in player's list `name` (GET api/friends: its `friends`), or null while signed out
// or when it could not be had: the panel then keeps what it shows.
async function myList(name) {
  if (!me) return null;
  try {
    return (await social("GET", `api/${name}`))[name];
  } catch (_) {
    return null;
  }
}

async function loadFriends() {
  const list = await myList("friends");
  if (list === null) return;
  friends = list;
  drawButton();
  drawPanel();
}

// A mute or block made here or in a profile: the lists show it.
onHidesChange(async () => {
  await loadHides();
  await loadFriends();
});

async function loadHides() {
  const list = await myList("hides");
  if (list === null) return;
  hides = list;
  drawPanel();
}

async function addByName(name) {
  formError = null;
  try {
    const reply = await social("POST", "api/friends", { name });
    toast(reply.status === "asked" ? t("friend_asked", { name: reply.name })
      : reply.status === "accepted" ? t("friend_added", { name: reply.name }) : t("friend_already", { name: reply.name }));
  } catch (err) {
    formError = err.message;
  }
  await loadFriends();
  drawPanel();
}

async function invite(friend) {
  const table = tableHere();
  if (!table) return;
  try {
    const reply = await social("POST", "api/invitations", { name: friend.name, table });
    toast(reply.changed ? t("invite_sent", { name: friend.name }) : t("invite_pending", { name: friend.name }));
  } catch (err) {
    toast(err.message);
  }
}

async function showLink(fresh) {
  try {
    const reply = await social("GET", `api/friends/link${fresh ? "?new=1" : ""}`);
    linkUrl = new URL(reply.url, location.origin).href;
  } catch (err) {
    toast(err.message);
    return;
  }
  drawPanel();
  try {
    await navigator.clipboard.writeText(linkUrl);
    toast(t("friend_link_copied"));
  } catch (_) {
    // Not allowed here: the link is shown to copy by hand.
  }
}

async function notifySwitch(on) {
  if (on && typeof Notification !== "undefined" && Notification.permission !== "granted") {
    const answer = await Notification.requestPermission();
    if (answer !== "granted") {
      toast(t("notify_denied"));
      on = false;
    }
  }
  setPref("notify", on);
  drawPanel();
}

function friendRow(f) {
  const here = tableHere();
  const online = f.status === "accepted" && f.online;
  const state = f.status === "incoming" ? t("friend_incoming") : f.status === "outgoing" ? t("friend_outgoing")
    : online ? (f.table ? t("friend_at_table") : t("friend_online")) : t("friend_offline");
  const actions = [];
  if (f.status === "incoming") {
    actions.push(h("button", { type: "button", class: "btn small primary", dataset: { testid: "friend-accept" },
      text: t("friend_accept"), onclick: () => addByName(f.name) }));
  }
  if (f.status === "accepted" && f.table && f.table !== here) {
    actions.push(h("a", { class: "btn small", href: withLang(`./?table=${encodeURIComponent(f.table)}`), dataset: { testid: "friend-table" },
      text: t("friend_to_table") }));
  }
  if (f.status === "accepted" && here && f.table !== here) {
    actions.push(h("button", { type: "button", class: "btn small primary", dataset: { testid: "friend-invite" },
      text: t("friend_invite"), "aria-label": t("friend_invite_name", { name: f.name }), onclick: () => invite(f) }));
  }
  actions.push(h("button", { type: "button", class: "btn small", dataset: { testid: "friend-remove" },
    text: f.status === "accepted" ? t("friend_remove") : f.status === "incoming" ? t("friend_decline") : t("friend_withdraw"),
    onclick: async () => { try { await social("POST", "api/friends/remove", { name: f.name }); } catch (err) { toast(err.message); } loadFriends(); } }));
  return h("li", { class: "friend", dataset: { testid: "friend", name: f.name, status: f.status, online: online ? "yes" : "no" } },
    h("span", { class: `dot ${online ? "on" : "off"}`, "aria-hidden": "true" }),
    h("button", { type: "button", class: "linkish friend-name", text: f.name, title: t("profile_open", { name: f.name }),
      onclick: () => openProfile(f.name) }),
    h("span", { class: "muted friend-state", text: state }),
    h("span", { class: "friend-actions" }, actions));
}

function drawPanel() {
  if (!panel || panel.hidden) return;
  const input = h("input", { type: "text", maxlength: 32, class: "friend-input", dataset: { key: "friend-name", testid: "friend-name" },
    placeholder: t("friend_name_placeholder"), "aria-label": t("friend_name_placeholder"), autocomplete: "off" });
  const form = h("form", { class: "friend-add", onsubmit: (e) => { e.preventDefault(); const v = input.value.trim(); if (v) addByName(v); } },
    input, h("button", { type: "submit", class: "btn small primary", dataset: { testid: "friend-add" }, text: t("friend_add") }));
  const accepted = friends.filter((f) => f.status === "accepted");
  const requests = friends.filter((f) => f.status !== "accepted");
  const notifyOn = !!prefs().notify && typeof Notification !== "undefined" && Notification.permission === "granted";
  replace(panel,
    h("div", { class: "friends-head" },
      h("h2", { text: t("friends") }),
      h("button", { type: "button", class: "icon-btn", "aria-label": t("close"), title: t("close"), text: "✕",
        onclick: () => togglePanel(false) })),
    me ? h("p", { class: "muted" }, t("friends_signed_in_as", { name: me.name }), " ",
      h("button", { type: "button", class: "linkish", dataset: { testid: "my-profile" }, text: t("profile_mine"), onclick: () => openProfile(me.name) })) : null,
    accepted.length ? h("ul", { class: "friend-list", dataset: { testid: "friend-list" } }, accepted.map(friendRow))
      : h("p", { class: "muted", text: t("friends_none") }),
    requests.length ? [h("h3", { text: t("friend_requests") }), h("ul", { class: "friend-list" }, requests.map(friendRow))] : null,
    h("h3", { text: t("friend_add_title") }),
    form,
    formError ? h("p", { class: "error-text", role: "alert", text: formError }) : null,
    h("div", { class: "friend-link" },
      h("button", { type: "button", class: "btn small", dataset: { testid: "friend-link" }, text: t("friend_link_get"), onclick: () => showLink(false) }),
      linkUrl ? [h("input", { type: "text", readonly: true, class: "friend-link-url", value: linkUrl, dataset: { testid: "friend-link-url" },
        "aria-label": t("friend_link_label"), onfocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "btn small", text: t("friend_link_new"), title: t("friend_link_new_help"), onclick: () => showLink(true) })] : null),
    h("p", { class: "muted small", text: t("friend_link_help") }),
    hides.length ? [h("h3", { text: t("hides_title") }), h("ul", { class: "friend-list", dataset: { testid: "hide-list" } }, hides.map((x) =>
      h("li", { class: "friend" },
        h("span", { class: "friend-name", text: x.name }),
        h("span", { class: "muted", text: x.kind === "block" ? t("hide_blocked") : t("hide_muted") }),
        h("button", { type: "button", class: "btn small", dataset: { testid: "unhide" }, text: x.kind === "block" ? t("hide_unblock") : t("hide_unmute"),
          onclick: () => hideAccount(x.name, "none") }))))] : null,
    h("label", { class: "pref" },
      h("input", { type: "checkbox", checked: notifyOn, dataset: { testid: "notify-switch" }, onchange: (e) => notifySwitch(e.target.checked) }),
      " ", t("notify_switch")));
}

// --- chat: reports and mutes of accounts ---------------------------------------------------

/** Report a chat line of the table on this page (F5); whether it is reported now. */
export async function reportLine(line) {
  const table = tableHere();
  if (!table) return false;
  try {
    const reply = await social("POST", "api/reports", { table, at: line.at, seat: line.seat, name: line.name, text: line.text });
    toast(reply.changed ? t("report_sent") : t("report_again"));
    return true;
  } catch (err) {
    toast(err.message);
    return false;
  }
}

/** Mute a speaker for this account at every table, if signed in and he has an account. */
export async function muteEverywhere(name) {
  if (!me || name === me.name) return false;
  return hideAccount(name, "mute");
}
