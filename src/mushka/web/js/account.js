// The player's account (docs/accounts.md): a button in the top bar ("Sign in"
// for a guest, the name once signed in) opens a dialog to sign in with a
// password or a passkey, to claim the name one plays under (with a password
// or a passkey), and, signed in, to see one's unfinished games (taken back on
// this device through the session), add a passkey, sign out or delete the
// account.
//
// The session lives in an HttpOnly cookie the page never sees; what the page
// keeps is the session's CSRF token, which every state-changing request of a
// signed-in page must carry (P19).  So that no module can forget it, the page's
// fetch is wrapped once: a same-origin request that is not GET/HEAD gets the
// X-CSRF-Token header while signed in.

import { jsonCall } from "./api.js";
import { h, navButton, replace } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { saveName, savedName, saveToken, tokenFor } from "./store.js";
import { announce, toast } from "./ui.js";

let me = null; // { id, name, password, passkeys } while signed in
let csrf = null;
let button = null;
let dialog = null;
let mode = "signin"; // the guest's tab: "signin" or "claim"
let busy = false;
const listeners = new Set();

// --- the CSRF header on every change ---------------------------------------------------

const plainFetch = window.fetch.bind(window);

function sameOrigin(input) {
  try {
    const url = new URL(typeof input === "string" ? input : input.url, location.href);
    return url.origin === location.origin;
  } catch (_) {
    return false;
  }
}

// A change asked for before the page knows whether it is signed in waits for that answer.
let known = null;
let settle = null;
known = new Promise((resolve) => { settle = resolve; });

window.fetch = async (input, init = {}) => {
  const method = ((init && init.method) || (input && input.method) || "GET").toUpperCase();
  if (method !== "GET" && method !== "HEAD" && sameOrigin(input)) {
    await known;
    if (csrf) {
      const headers = new Headers((init && init.headers) || {});
      if (!headers.has("X-CSRF-Token")) headers.set("X-CSRF-Token", csrf);
      init = { ...init, headers, credentials: "same-origin" };
    }
  }
  return plainFetch(input, init);
};

// --- calls -------------------------------------------------------------------------------

/** A call of the accounts' API (api.js's, so that refusals read alike everywhere). */
const call = jsonCall;

function signedInAs(reply) {
  const was = me ? me.id : null;
  me = reply && reply.account ? reply.account : null;
  csrf = reply && reply.csrf ? reply.csrf : null;
  if (me) {
    saveName(me.name);
    // Signed in, a player sits under his account's name (P18): the lobby's name field says so.
    const field = document.querySelector("input[data-key=name]");
    if (field && field.value !== me.name) {
      field.value = me.name;
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
  drawButton();
  if ((me ? me.id : null) !== was) for (const fn of listeners) fn(me);
}

/** The signed-in account ({ id, name, password, passkeys }) or null. */
export function account() {
  return me;
}

/** Call `fn(account)` whenever the player signs in or out. */
export function onAccountChange(fn) {
  listeners.add(fn);
}

/** Ask the server who is signed in (at load, and after the page comes back). */
export async function refreshAccount() {
  try {
    signedInAs(await call("GET", "api/account"));
  } catch (_) {
    // offline: keep what we knew
  } finally {
    settle();
  }
}

// --- passkeys ----------------------------------------------------------------------------

function fromB64(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
}

function toB64(buffer) {
  let text = "";
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Whether this browser can use passkeys here: a secure page under a name (browsers refuse
 *  passkeys on a bare IP address such as 192.168.1.20; the server's name or localhost works). */
export function passkeysAvailable() {
  const host = location.hostname;
  const ip = /^[\d.]+$/.test(host) || host.includes(":") || host.startsWith("[");
  return !!(window.PublicKeyCredential && navigator.credentials && window.isSecureContext) && !ip;
}

// The browser's credential calls take and give binary fields; the server reads them in base64url.
function withIds(credentials) {
  return (credentials || []).map((c) => ({ ...c, id: fromB64(c.id) }));
}

function credentialJSON(cred, response) {
  return {
    id: cred.id, rawId: toB64(cred.rawId), type: cred.type, response,
    clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
  };
}

async function makePasskey(name) {
  const { challenge, options } = await call("POST", "api/account/passkey/register/options", me ? {} : { name });
  const publicKey = {
    ...options,
    challenge: fromB64(options.challenge),
    user: { ...options.user, id: fromB64(options.user.id) },
    excludeCredentials: withIds(options.excludeCredentials),
  };
  const made = await navigator.credentials.create({ publicKey });
  const credential = credentialJSON(made, {
    clientDataJSON: toB64(made.response.clientDataJSON),
    attestationObject: toB64(made.response.attestationObject),
    transports: made.response.getTransports ? made.response.getTransports() : [],
  });
  return call("POST", "api/account/passkey/register", { challenge, credential });
}

async function usePasskey() {
  const { challenge, options } = await call("POST", "api/account/passkey/signin/options", {});
  const publicKey = { ...options, challenge: fromB64(options.challenge), allowCredentials: withIds(options.allowCredentials) };
  const got = await navigator.credentials.get({ publicKey });
  const credential = credentialJSON(got, {
    clientDataJSON: toB64(got.response.clientDataJSON),
    authenticatorData: toB64(got.response.authenticatorData),
    signature: toB64(got.response.signature),
    userHandle: got.response.userHandle ? toB64(got.response.userHandle) : null,
  });
  return call("POST", "api/account/passkey/signin", { challenge, credential });
}

// --- the button and the dialog ----------------------------------------------------------------

function drawButton() {
  const made = navButton(button, { type: "button", class: "btn small account-btn", dataset: { testid: "account-button" },
    "aria-haspopup": "dialog", onclick: () => openDialog() });
  if (!made) return;
  button = made;
  replace(button, me ? h("span", { class: "account-name", text: me.name }) : t("acct_sign_in"));
  button.title = me ? t("acct_signed_in_as", { name: me.name }) : t("acct_sign_in_title");
}

function openDialog(tab) {
  if (!dialog) {
    dialog = h("dialog", { class: "account-dialog", dataset: { testid: "account-dialog" },
      "aria-labelledby": "account-title" });
    document.body.appendChild(dialog);
  }
  if (tab) mode = tab;
  drawDialog();
  if (!dialog.open) dialog.showModal();
}

function field(label, input) {
  return h("label", { class: "account-field" }, h("span", { text: label }), input);
}

function errorLine() {
  return h("p", { class: "account-error", role: "alert", dataset: { testid: "account-error" }, hidden: true });
}

function showError(box, err) {
  box.textContent = err && err.message ? err.message : String(err);
  box.hidden = false;
  announce(box.textContent, true);
}

async function act(box, work) {
  if (busy) return;
  busy = true;
  box.hidden = true;
  for (const b of dialog.querySelectorAll("button")) b.disabled = true;
  try {
    await work();
  } catch (err) {
    if (err && err.name === "NotAllowedError") showError(box, { message: t("acct_passkey_cancelled") });
    else showError(box, err);
  } finally {
    busy = false;
    for (const b of dialog.querySelectorAll("button")) b.disabled = false;
  }
}

function drawDialog() {
  if (!dialog) return;
  const close = h("button", { type: "button", class: "btn small", text: t("close"), onclick: () => dialog.close() });
  if (me) drawSignedIn(close);
  else drawGuest(close);
}

function drawGuest(close) {
  const box = errorLine();
  const name = h("input", { type: "text", name: "account-name", autocomplete: "username", maxlength: "32",
    required: true, value: mode === "claim" ? (savedName() || "") : "", dataset: { testid: "account-name" } });
  const password = h("input", { type: "password", name: "account-password", maxlength: "256",
    autocomplete: mode === "claim" ? "new-password" : "current-password", dataset: { testid: "account-password" } });
  const tabs = h("div", { class: "account-tabs", role: "group" },
    h("button", { type: "button", class: "btn small", "aria-pressed": mode === "signin" ? "true" : "false",
      text: t("acct_tab_signin"), dataset: { testid: "account-tab-signin" }, onclick: () => { mode = "signin"; drawDialog(); } }),
    h("button", { type: "button", class: "btn small", "aria-pressed": mode === "claim" ? "true" : "false",
      text: t("acct_tab_claim"), dataset: { testid: "account-tab-claim" }, onclick: () => { mode = "claim"; drawDialog(); } }));
  const passkeyOk = passkeysAvailable();
  let body;
  if (mode === "signin") {
    const form = h("form", { class: "account-form", onsubmit: (ev) => {
      ev.preventDefault();
      act(box, async () => {
        signedInAs(await call("POST", "api/account/signin", { name: name.value, password: password.value }));
        done(t("acct_welcome", { name: me.name }));
      });
    } },
    field(t("acct_name"), name), field(t("acct_password"), password),
    h("button", { type: "submit", class: "btn primary", text: t("acct_sign_in"), dataset: { testid: "account-signin" } }));
    body = [form, passkeyOk ? h("button", { type: "button", class: "btn", text: t("acct_passkey_signin"),
      dataset: { testid: "account-passkey-signin" },
      onclick: () => act(box, async () => { signedInAs(await usePasskey()); done(t("acct_welcome", { name: me.name })); }) }) : null];
  } else {
    const form = h("form", { class: "account-form", onsubmit: (ev) => {
      ev.preventDefault();
      act(box, async () => {
        signedInAs(await call("POST", "api/account/claim", { name: name.value, password: password.value }));
        done(t("acct_claimed", { name: me.name }));
      });
    } },
    h("p", { class: "muted", text: t("acct_claim_why") }),
    field(t("acct_name"), name), field(t("acct_new_password"), password),
    h("button", { type: "submit", class: "btn primary", text: t("acct_claim_password"), dataset: { testid: "account-claim" } }));
    body = [form, passkeyOk ? h("div", { class: "account-or" },
      h("p", { class: "muted", text: t("acct_or_passkey") }),
      h("button", { type: "button", class: "btn", text: t("acct_claim_passkey"), dataset: { testid: "account-claim-passkey" },
        onclick: () => act(box, async () => {
          if (!name.value.trim()) throw new Error(t("acct_name_first"));
          signedInAs(await makePasskey(name.value));
          done(t("acct_claimed", { name: me.name }));
        }) })) : null];
  }
  replace(dialog,
    h("div", { class: "account-head" }, h("h2", { id: "account-title", text: t("acct_title") }), close),
    tabs, ...body, box,
    h("p", { class: "muted small", text: t("acct_no_email") }));
  (mode === "claim" && name.value ? password : name).focus();
}

function drawSignedIn(close) {
  const box = errorLine();
  const games = h("ul", { class: "account-games", dataset: { testid: "account-games" } },
    h("li", { class: "muted", text: t("loading") }));
  const confirmInput = h("input", { type: "text", autocomplete: "off", maxlength: "32", dataset: { testid: "account-delete-name" } });
  const how = [me.password ? t("acct_has_password") : null,
    me.passkeys ? t("acct_has_passkeys", { n: me.passkeys }) : null].filter(Boolean).join(" · ");
  replace(dialog,
    h("div", { class: "account-head" }, h("h2", { id: "account-title", text: t("acct_title") }), close),
    h("p", { dataset: { testid: "account-who" } }, t("acct_signed_in_as", { name: me.name })),
    h("p", { class: "muted", text: how }),
    h("h3", { text: t("acct_games") }), games,
    h("div", { class: "account-actions" },
      passkeysAvailable() ? h("button", { type: "button", class: "btn", text: t("acct_add_passkey"), dataset: { testid: "account-add-passkey" },
        onclick: () => act(box, async () => { signedInAs(await makePasskey()); drawDialog(); toast(t("acct_passkey_added")); }) }) : null,
      h("button", { type: "button", class: "btn", text: t("acct_sign_out"), dataset: { testid: "account-signout" },
        onclick: () => act(box, async () => {
          await call("POST", "api/account/signout", {});
          mode = "signin";
          signedInAs(null);
          done(t("acct_signed_out"));
        }) })),
    passwordForm(box),
    h("details", { class: "account-delete" },
      h("summary", { text: t("acct_delete") }),
      h("p", { class: "muted", text: t("acct_delete_what") }),
      field(t("acct_delete_type", { name: me.name }), confirmInput),
      h("button", { type: "button", class: "btn danger", text: t("acct_delete_button"), dataset: { testid: "account-delete" },
        onclick: () => act(box, async () => {
          if (!window.confirm(t("acct_delete_confirm", { name: me.name }))) return;
          await call("DELETE", "api/account", { name: confirmInput.value });
          mode = "signin";
          signedInAs(null);
          done(t("acct_deleted"));
        }) })),
    box);
  loadGames(games);
}

function passwordForm(box) {
  const current = h("input", { type: "password", autocomplete: "current-password", maxlength: "256",
    dataset: { testid: "account-current-password" } });
  const fresh = h("input", { type: "password", autocomplete: "new-password", maxlength: "256",
    dataset: { testid: "account-new-password" } });
  return h("details", { class: "account-password" },
    h("summary", { text: me.password ? t("acct_change_password") : t("acct_set_password") }),
    h("form", { class: "account-form", onsubmit: (ev) => {
      ev.preventDefault();
      act(box, async () => {
        const body = { password: fresh.value };
        if (me.password) body.current = current.value;
        signedInAs(await call("POST", "api/account/password", body));
        done(t("acct_password_set"));
      });
    } },
    me.password ? field(t("acct_current_password"), current) : null,
    field(t("acct_new_password"), fresh),
    h("p", { class: "muted small", text: t("acct_password_others") }),
    h("button", { type: "submit", class: "btn", text: t("acct_save_password"), dataset: { testid: "account-save-password" } })));
}

async function loadGames(list) {
  try {
    const reply = await call("GET", "api/account/seats");
    replace(list, ...(reply.seats.length ? reply.seats.map((s) => h("li", {},
      h("a", { href: s.url, text: t("acct_game_link", { table: s.table, seat: s.seat + 1 }),
        onclick: () => { if (dialog) dialog.close(); } }))) : [h("li", { class: "muted", text: t("acct_no_games") })]));
  } catch (err) {
    replace(list, h("li", { class: "muted", text: err.message }));
  }
}

function done(text) {
  if (dialog && dialog.open) dialog.close();
  toast(text);
  announce(text);
}

/** A signed-in player who opens a table of his without its token (another device, another
 *  browser) takes his seat back: the session stands for the token (P18). */
async function reclaimSeatHere() {
  const table = new URLSearchParams(location.search).get("table");
  if (!me || !table || tokenFor(table)) return;
  try {
    const reply = await call("GET", "api/account/seats");
    const mine = reply.seats.find((s) => s.table === table);
    if (mine) {
      saveToken(table, `seat:${mine.seat}`);
      location.reload();
    }
  } catch (_) {
    // the page goes on as a spectator's
  }
}

/** Start the account side of the page (once, at load). */
export async function startAccount() {
  drawButton();
  onLangChange(() => { drawButton(); if (dialog && dialog.open) drawDialog(); });
  await refreshAccount();
  await reclaimSeatHere();
  // Another tab may have signed in or out: look again when the page comes back.
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshAccount(); });
}
