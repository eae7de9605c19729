// How seats, money and records read on the page.

import { t } from "./i18n.js";

/** The display name of a seat from the table's seat list. */
export function seatName(table, seat) {
  const info = (table && table.seats && table.seats[seat]) || {};
  if (info.kind === "human") return info.name || t("player_n", { n: seat });
  if (info.kind === "bot") return t("bot_named", { bot: info.bot || "" });
  if (info.kind === "open") return t("open_seat");
  return t("seat_n", { n: seat });
}

/** "2 · Anna" (seat numbers as the server's event texts use them). */
export function seatLabel(table, seat, mySeat = null) {
  if (seat === null || seat === undefined) return "—";
  const name = seatName(table, seat);
  const you = seat === mySeat ? ` (${t("you")})` : "";
  return `${seat} · ${name}${you}`;
}

/** A signed number: +5, −3, 0. */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${Math.abs(n)}`;
  return "0";
}
