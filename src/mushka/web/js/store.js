// What the page remembers: seat tokens per table and the player's name.
//
// A seat token is the only proof of a seat (protocol P4).  It lives in the
// link's fragment (#token=…, which never reaches the server's logs) and in
// localStorage, so that a reload, a lost connection or a closed tab brings
// the player back to his seat.

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
  } catch (_) {
    // Without storage the token still travels in the link's fragment.
  }
}

/** The token for `table`: from the fragment first (and then remembered), else from storage. */
export function tokenFor(table) {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromHash) {
    write(TOKEN_PREFIX + table, fromHash);
    return fromHash;
  }
  return read(TOKEN_PREFIX + table);
}

/** Remember the token of a seat just taken, and put it in the address bar's fragment. */
export function saveToken(table, token) {
  write(TOKEN_PREFIX + table, token);
  const url = new URL(location.href);
  url.hash = `token=${token}`;
  history.replaceState(null, "", url);
}

/** Forget the token of `table` (the seat was given up or the server does not know it). */
export function forgetToken(table) {
  write(TOKEN_PREFIX + table, null);
  if (location.hash.includes("token=")) {
    const url = new URL(location.href);
    url.hash = "";
    history.replaceState(null, "", url);
  }
}

/** The name the player gave last time. */
export function savedName() {
  return read(NAME_KEY) || "";
}

/** Remember the player's name for the next table. */
export function saveName(name) {
  write(NAME_KEY, name || null);
}
