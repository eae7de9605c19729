// How seats, money and records read on the page.
//
// Bots get a person's name and a level in words ("Фёдор · сильный"): a
// player sits down with opponents, not with algorithms.  The name follows
// the seat, so the same table always shows the same names; the level comes
// from the bot the seat runs.  The names and the levels' words are the
// server's (texts.js), as it names a bot in its own messages.

import { h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { BOT_LEVELS, BOT_NAMES } from "./texts.js";

/** The bots a player chooses from, weakest first: the levels, and the random player. */
export const BOT_CHOICES = ["random", "beginner", "casual", "club", "strong", "expert"];

/** The level of bot `bot` in words ("strong", "сильный"). */
export function botLevel(bot) {
  // A bot the page does not know yet (GET /api/meta, `bots`) reads as a plain "bot".
  return t(`server.level.${BOT_LEVELS[bot] || "bot"}`);
}

/** The person's name a bot plays under at seat `seat`. */
export function botName(seat) {
  const names = BOT_NAMES[lang() === "ru" ? "ru" : "en"];
  return names[((seat % names.length) + names.length) % names.length];
}

/** A bot as a choice in a list: "Strong (search)" is not shown; only the level. */
export function botChoice(bot) {
  const word = botLevel(bot);
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * A seat's name from a game record as players see it: a bot's record name ("bot heuristic")
 * and the server's stand-in for a person who gave no name ("seat 0", counted from 0) in the
 * reader's language, the person counted from 1 as at the table ("player 1").
 */
export function recordName(name, seat) {
  const bot = /^bot (\S+)$/.exec(name || "");
  if (bot) return `${botName(seat)} · ${botLevel(bot[1])}`;
  if (!name || name === `seat ${seat}`) return t("player_n", { n: seat + 1 });
  return name;
}

/** The display name of a seat from the table's seat list. */
export function seatName(table, seat) {
  const info = (table && table.seats && table.seats[seat]) || {};
  if (info.kind === "human") return info.name || t("player_n", { n: seat + 1 });
  if (info.kind === "bot") return `${botName(seat)} · ${botLevel(info.bot || "")}`;
  if (info.kind === "open") return t("open_seat");
  return t("seat_n", { n: seat + 1 });
}

/** "Anna (you)": a seat by name, with "you" for the player's own seat. */
export function seatLabel(table, seat, mySeat = null) {
  if (seat === null || seat === undefined) return "—";
  const name = seatName(table, seat);
  return seat === mySeat ? `${name} (${t("you")})` : name;
}

/** A signed number: +5, −3, 0. */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${Math.abs(n)}`;
  return "0";
}

/**
 * The badges a seat's line starts with, at the table and in a replay: the dealer, the seat's
 * declaration (a pass, or a stand with the cards it exchanged) and the tricks it won.
 * `pos` is the deal as the page has it (`declarations`, `exchanged`, `tricks_won`).
 */
export function seatBadges(pos, s, dealer) {
  const badges = [];
  const badge = (text) => badges.push(h("span", { class: "badge", text }));
  if (s === dealer) badge(t("dealer"));
  const decl = pos.declarations ? pos.declarations[s] : null;
  if (decl === "pass") badge(t("decl_pass"));
  if (decl === "stand") {
    const k = pos.exchanged ? pos.exchanged[s] : 0;
    badge(k > 0 ? t("decl_stand_k", { k }) : t("decl_stand"));
  }
  badge(t("tricks_n", { n: pos.tricks_won[s] || 0 }));
  return badges;
}
