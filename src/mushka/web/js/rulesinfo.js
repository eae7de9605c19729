// The rules of a table, by id, as the server renders them for its options
// (GET /api/tables/{id}/rules, in the page's language).
//
// The ids are those of the project's rules specification, so that a refusal
// naming a rule ("C14: …") can open that very rule: the page keeps no rule
// texts of its own.

import { getRules } from "./api.js";
import { lang } from "./i18n.js";

const loaded = new Map();

/** Whether `id` names a rule of the game (N, C, MI, K, G), not one of the protocol (P). */
export function isGameRule(id) {
  return typeof id === "string" && /^(N|C|MI|K|G)\d+$/.test(id);
}

/**
 * The rules of table `tableId` in the current language: a promise of
 * `[{id, section, section_title, tags, text, options, modified_by, changed}]`,
 * fetched once per table and language.
 */
export function tableRules(tableId) {
  const key = `${tableId}/${lang()}`;
  let promise = loaded.get(key);
  if (!promise) {
    promise = getRules(tableId).then((reply) => reply.rules).catch((err) => {
      loaded.delete(key);
      throw err;
    });
    loaded.set(key, promise);
  }
  return promise;
}
