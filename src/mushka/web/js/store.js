// What the page remembers: seat tokens per table and the player's name.
//
// A seat token is the only proof of a seat (protocol P4).  It arrives in the
// fragment of the link the server gives the seat's taker (#token=…, which
// never reaches the server's logs); the page moves it into localStorage at
// once and takes it out of the address bar, so that a player who copies the
// address to invite a friend does not give his seat away.  A reload, a lost
// connection or a closed tab still bring him back to his seat.

const TOKEN_PREFIX = "mushka.token.";
const NAME_KEY = "mushka.name";

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch (_) {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
    return true;
  } catch (_) {
    // Without storage the token stays in the link's fragment.
    return false;
  }
}

/** The token for `table`: from the fragment first (and then remembered), else from storage. */
export function tokenFor(table) {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromHash) {
    if (write(TOKEN_PREFIX + table, fromHash)) hideToken();
    return fromHash;
  }
  return read(TOKEN_PREFIX + table);
}

/** Take the token out of the address bar (it stays in storage). */
function hideToken() {
  const url = new URL(location.href);
  url.hash = "";
  history.replaceState(null, "", url.href.replace(/#$/, ""));
}

/** Remember the token of a seat just taken (in storage only, never in the address). */
export function saveToken(table, token) {
  write(TOKEN_PREFIX + table, token);
}

/** Forget the token of `table` (the seat was given up or the server does not know it). */
export function forgetToken(table) {
  write(TOKEN_PREFIX + table, null);
  if (location.hash.includes("token=")) hideToken();
}

/** The name the player gave last time. */
export function savedName() {
  return read(NAME_KEY) || "";
}

/** Remember the player's name for the next table. */
export function saveName(name) {
  write(NAME_KEY, name || null);
}

const PREFS_KEY = "mushka.prefs";

/** The player's table settings: `{autoplay, sound}` (both off unless turned on). */
export function prefs() {
  try {
    const value = JSON.parse(read(PREFS_KEY) || "{}");
    return value && typeof value === "object" ? value : {};
  } catch (_) {
    return {};
  }
}

/** Change one table setting and remember it. */
export function setPref(name, value) {
  write(PREFS_KEY, JSON.stringify({ ...prefs(), [name]: value }));
}
