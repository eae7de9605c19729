// The HTTP side of the server's protocol (docs/protocol.md): tables, seats,
// the option list for the new-table form, and finished games' records.

import { lang } from "./i18n.js";
import { plainMessage } from "./ruleword.js";

/** An HTTP refusal: `code`, `rule` and `message` come from the server's ErrorReply (the message in
 *  words, without the rule's id the server put in front: that stays in `rule`). */
export class ApiError extends Error {
  constructor(status, code, rule, message) {
    super(plainMessage(message, rule));
    this.status = status;
    this.code = code;
    this.rule = rule;
  }
}

/** A JSON call of the server's HTTP API in the page's language; a refusal throws an ApiError.
 *  Every part of the page (tables, accounts, friends) calls through here; the page's fetch adds
 *  a signed-in session's CSRF token to changes (P19). */
export async function jsonCall(method, path, body) {
  const sep = path.includes("?") ? "&" : "?";
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify({ ...body, lang: lang() });
  }
  let response;
  try {
    response = await fetch(`${path}${sep}lang=${lang()}`, init);
  } catch (err) {
    throw new ApiError(0, "network", null, String(err && err.message ? err.message : err));
  }
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    // An empty or non-JSON body is reported below through the status.
  }
  if (!response.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(response.status, e.code || "http", e.rule || null, e.message || `HTTP ${response.status}`);
  }
  return data;
}

let metaPromise = null;

/** GET /api/meta, fetched once: variants, options with defaults and help, bots, limits. */
export function meta() {
  if (!metaPromise) {
    metaPromise = jsonCall("GET", "api/meta").catch((err) => {
      metaPromise = null;
      throw err;
    });
  }
  return metaPromise;
}

/** POST /api/tables. */
export function createTable(request) {
  return jsonCall("POST", "api/tables", request);
}

/** POST /api/quickmatch: a place in the quick match's queue (or, if it filled a table, the seat). */
export function quickMatch(request) {
  return jsonCall("POST", "api/quickmatch", request);
}

/** GET /api/quickmatch/{ticket}: still waiting (and how long), or seated (the seat's address). */
export function quickMatchStatus(ticket) {
  return jsonCall("GET", `api/quickmatch/${encodeURIComponent(ticket)}`);
}

/** DELETE /api/quickmatch/{ticket}: leave the queue. */
export function quickMatchCancel(ticket) {
  return jsonCall("DELETE", `api/quickmatch/${encodeURIComponent(ticket)}`);
}

/** POST /api/tutorial: a tutorial table, started, with the caller at seat 0. */
export function createTutorial(request) {
  return jsonCall("POST", "api/tutorial", request);
}

/** POST /api/tables/{id}/join. */
export function joinTable(id, request) {
  return jsonCall("POST", `api/tables/${encodeURIComponent(id)}/join`, request);
}

/** GET /api/tables/{id}. */
export function getTable(id) {
  return jsonCall("GET", `api/tables/${encodeURIComponent(id)}`);
}

/** GET /api/tables, optionally filtered by status. */
export function listTables(status) {
  return jsonCall("GET", status ? `api/tables?status=${status}` : "api/tables");
}

/** GET /api/records (finished games, newest first). */
export function listRecords(limit = 30) {
  return jsonCall("GET", `api/records?limit=${limit}`);
}

/** GET /api/records/{id}: the game record (docs/records.md). */
export function getRecord(id) {
  return jsonCall("GET", `api/records/${encodeURIComponent(id)}`);
}

/** GET /api/records/{id}/replay: every position of a finished game, computed by the server's engine. */
export function getReplay(id) {
  return jsonCall("GET", `api/records/${encodeURIComponent(id)}/replay`);
}

/** GET /api/records/{id}/review?seat=: one seat's decisions in a finished game against the expert's. */
export function getReview(id, seat) {
  return jsonCall("GET", `api/records/${encodeURIComponent(id)}/review?seat=${encodeURIComponent(seat)}`);
}

/** GET /api/tables/{id}/rules: every rule of the table's variant by id, filled from its options. */
export function getRules(id) {
  return jsonCall("GET", `api/tables/${encodeURIComponent(id)}/rules`);
}

/** GET /api/ratings: the leaderboard of `variant`, and the line of nickname `name` if given. */
export function ratings(name, limit = 10, variant = "classic") {
  const who = name ? `&name=${encodeURIComponent(name)}` : "";
  return jsonCall("GET", `api/ratings?variant=${encodeURIComponent(variant)}&limit=${limit}${who}`);
}
