// The lobby's leaderboard (GET /api/ratings?variant=): one board per variant,
// people by nickname and the bots by level, with games, wins, the average
// record of classic and mistigri parties, kopilka money and the variant's
// rating (1500 for a newcomer; "?" while it rests on fewer than ten games;
// docs/play.md, "Statistics and ratings").  The player's own line is shown
// apart when he is not among the best.

import { h } from "./dom.js";
import { t, withLang } from "./i18n.js";
import { botChoice, signed } from "./seats.js";

function cell(text, cls = "num") {
  return h("td", { class: cls, text: text === null || text === undefined ? "—" : String(text) });
}

/** A rating as shown: "1543", or "1543?" while it is provisional (its title says so). */
function ratingCell(line) {
  const td = cell(line.provisional ? `${line.rating}?` : line.rating);
  if (line.provisional) td.title = t("board_provisional");
  return td;
}

/** A person's name, opening his profile (docs/friends.md). */
function profileCell(name) {
  return h("td", { class: "name" }, h("a", { href: withLang(`./?profile=${encodeURIComponent(name)}`), text: name,
    title: t("profile_open", { name }), dataset: { testid: "profile-link" } }));
}

function row(line, you) {
  const name = line.bot ? botChoice(line.name) : line.name;
  return h("tr", { class: you ? "you" : "", dataset: { testid: line.bot ? "bot-line" : you ? "my-line" : "player-line" } },
    // The rating first after the name: on a narrow screen the board scrolls, and it must stay in view.
    cell(line.rank || "—"), line.bot ? cell(name, "name") : profileCell(name), ratingCell(line), cell(line.variant_games), cell(line.wins),
    cell(line.classic_record), cell(line.mistigri_record),
    cell(line.kopilka_games ? signed(line.kopilka_money) : null));
}

function board(lines, me, testid) {
  return h("div", { class: "board-scroll" }, h("table", { class: "board", dataset: { testid } },
    h("thead", {}, h("tr", {},
      ["board_rank", "board_name", "board_rating", "board_games", "board_wins", "board_classic", "board_mistigri",
        "board_kopilka"].map((k) => h("th", { scope: "col", text: t(k) })))),
    h("tbody", {}, lines.map((l) => row(l, !l.bot && me && l.name.toLocaleLowerCase() === me.toLocaleLowerCase())))));
}

/** The leaderboard panel from a `RatingsReply` (or its loading or error state). */
export function leaderboard(reply, error, me, { variant = "classic", choose = null } = {}) {
  const parts = [h("h2", { id: "board-title", text: t("board_title") })];
  if (choose) {
    // One rating per variant: a switch between the three boards.
    parts.push(h("div", { class: "board-variants", role: "group", "aria-label": t("board_variant") },
      ["classic", "mistigri", "kopilka"].map((v) => h("button", {
        type: "button", class: v === variant ? "chip on" : "chip", text: t(`board_variant_${v}`),
        "aria-pressed": v === variant ? "true" : "false", dataset: { key: `board-${v}` },
        onclick: () => choose(v),
      }))));
  }
  if (error) parts.push(h("p", { class: "error-text", text: error }));
  else if (!reply) parts.push(h("p", { class: "muted", text: t("loading") }));
  else {
    // The player's line on this variant's board (none before his first rated game of it).
    const you = reply.you && reply.you.variant_games ? reply.you : null;
    if (you) {
      parts.push(h("p", { class: "board-you", dataset: { testid: "board-you" } },
        t(you.provisional ? "board_you_provisional" : "board_you", { name: you.name, rank: you.rank || "—",
          games: you.variant_games, wins: you.wins, rating: you.rating, forfeits: you.forfeits })));
    } else if (me) {
      parts.push(h("p", { class: "muted", text: t("board_you_none", { name: me }) }));
    } else {
      parts.push(h("p", { class: "muted", text: t("board_no_name") }));
    }
    if (reply.players.length) {
      const shown = [...reply.players];
      if (you && !shown.some((l) => l.rank === you.rank)) shown.push(you);
      parts.push(board(shown, me, "board-players"));
    } else {
      parts.push(h("p", { class: "muted", text: t("board_empty") }));
    }
    if (reply.bots.length) {
      parts.push(h("h3", { text: t("board_bots") }), board(reply.bots, null, "board-bots"));
    }
    parts.push(h("p", { class: "muted small", text: t("board_note") }));
  }
  return h("section", { class: "panel leaderboard", "aria-labelledby": "board-title", dataset: { testid: "leaderboard" } },
    ...parts);
}
