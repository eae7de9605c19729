// "Suggest a move" (docs/protocol.md, `hint`, P17): at a practice table (the
// player against bots only) the heuristic bot's move for the player's seat,
// with its reason in words and the rule it rests on.  Never offered where
// other people play (the server refuses it there too).  The suggestion is
// advice: the player plays it with one click or plays something else.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Whether the table is a practice table for `seat`: every other seat is a bot. */
export function isPractice(table, seat) {
  return seat !== null && table.seats.every((s) => s.seat === seat || s.kind === "bot");
}

/** The hint button and, once asked, the suggestion (for the version it was made at). */
export function hintBox(page, myTurn) {
  const table = page.table;
  if (!table || table.status !== "playing" || !isPractice(table, page.seat)) return null;
  const hint = page.suggestion && page.suggestion.version === page.conn?.version ? page.suggestion : null;
  if (!myTurn && !hint) return null;
  const ask = h("button", { type: "button", class: "btn small", dataset: { key: "ask-hint", testid: "ask-hint" },
    disabled: !myTurn || page.suggestionAsked === page.ply, text: t("hint_ask"),
    onclick: () => { page.suggestionAsked = page.ply; page.lobbyCommand({ type: "hint" }); page.render(); } });
  if (!hint) return h("div", { class: "hint-box" }, ask);
  return h("div", { class: "hint-box", role: "status", dataset: { testid: "hint" } },
    h("strong", { text: t("hint_suggested", { move: hint.words }) }), " ",
    h("span", { dataset: { testid: "hint-reason" }, text: hint.reason }),
    hint.rule ? h("span", { class: "muted", text: ` [${hint.rule}]` }) : null, " ",
    myTurn ? h("button", { type: "button", class: "btn small primary", dataset: { key: "play-hint", testid: "play-hint" },
      text: t("hint_play_it"), onclick: () => page.act(hint.action) }) : null);
}
