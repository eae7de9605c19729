// A server's refusal as a player reads it: the words first, the rule's id one click away.
//
// The server words each refusal with the id of the rule it enforces in front ("P16: too
// many chat lines …", docs/protocol.md) so that a log or a program can cite it.  A player
// is shown the words alone; the id is behind a small "which rule?" that opens in place
// (a rule of the game also opens in the Rules tab where the page offers that).

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** `message` without the rule's id the server put in front of it ("P16: text" -> "text"). */
export function plainMessage(message, rule) {
  const text = String(message ?? "");
  if (!rule) return text;
  const prefix = `${rule}: `;
  if (!text.startsWith(prefix)) return text;
  return text.slice(prefix.length) || text;
}

/** The rule's id behind one click: "Which rule?" opens to "Rule P16 of the table server". */
export function ruleNote(rule) {
  if (!rule) return null;
  const game = !/^P\d+$/.test(rule);
  return h("details", { class: "rule-note", dataset: { testid: "rule-note", rule } },
    h("summary", { class: "rule-ref", text: t("which_rule") }),
    h("span", { class: "rule-id", text: t(game ? "rule_of_game" : "rule_of_server", { rule }) }));
}
