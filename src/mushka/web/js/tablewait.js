// The table page's waiting room: the invitation, the seats, the host's controls.
//
// Methods of TablePage (table.js), mixed into its prototype: `this` is the page.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { offeredBots } from "./lobby.js";
import { botChoice, seatLabel } from "./seats.js";
import { toast } from "./ui.js";

/** The table page's waiting room (methods of TablePage). */
export const waitingMethods = {
  waitingRoom() {
    const tbl = this.table;
    const invite = this.inviteUrl();
    const inviteInput = h("input", { type: "text", readonly: true, value: invite, "aria-label": t("invite_link"),
      dataset: { testid: "invite-link" }, onfocus: (e) => e.target.select() });
    const copy = () => this.copyInvite(inviteInput);
    const seats = h("ul", { class: "list", "aria-label": t("seats") },
      tbl.seats.map((s) => this.waitingSeat(s)));
    const controls = [];
    if (this.host) {
      controls.push(h("button", { type: "button", class: "btn primary", dataset: { key: "start" },
        text: t("start_game"), onclick: () => this.lobbyCommand({ type: "start" }) }));
    } else if (this.seat !== null) {
      controls.push(h("button", { type: "button", class: "btn", dataset: { key: "leave" },
        text: t("leave_seat"), onclick: () => this.leaveSeat() }));
    }
    const hasOpen = tbl.seats.some((s) => s.kind === "open");
    const nameField = this.seat === null && hasOpen
      ? h("label", { class: "field" }, t("your_name"),
        h("input", { type: "text", maxlength: 32, value: this.joinName, autocomplete: "nickname",
          oninput: (e) => { this.joinName = e.target.value; } }))
      : null;
    return h("div", { class: "panel" },
      h("h3", { text: t("waiting_room") }),
      h("p", { text: this.host ? t("waiting_host_hint") : (this.seat === null ? t("waiting_guest_hint") : t("waiting_player_hint")) }),
      this.timerBadge(),
      this.takeBackBadge(),
      h("div", { class: "invite" }, h("span", { text: t("invite_link") }), inviteInput,
        h("button", { type: "button", class: "btn small", text: t("copy"), onclick: copy })),
      isLoopback(new URL(invite).hostname) ? h("p", { class: "hint", dataset: { testid: "localhost-hint" },
        text: t("localhost_hint") }) : null,
      nameField,
      seats,
      h("div", { class: "row" }, ...controls),
      this.refusalBox());
  },

  /** The table's invitation link: it brings a friend to the table, never to one's own seat. */
  inviteUrl() {
    // The host's --public-url when he gave one: "localhost" means nothing on a friend's machine.
    const base = (this.meta && this.meta.public_url) || location.href;
    const url = new URL(`.${this.table.invite}`, base);
    url.hash = "";
    return url.href;
  },

  async copyInvite(input = null) {
    const invite = this.inviteUrl();
    try {
      await navigator.clipboard.writeText(invite);
    } catch (_) {
      const field = input || h("input", { type: "text", value: invite });
      if (!input) document.body.append(field);
      field.select();
      document.execCommand("copy");
      if (!input) field.remove();
    }
    toast(t("link_copied"));
  },

  waitingSeat(s) {
    const tbl = this.table;
    const parts = [h("span", { class: "grow", text: seatLabel(tbl, s.seat, this.seat) })];
    if (s.seat === tbl.host) parts.push(h("span", { class: "badge", text: t("host") }));
    if (s.kind === "human") parts.push(h("span", { class: "badge", text: s.connected ? t("online") : t("offline") }));
    if (this.host && s.kind === "open") {
      const bots = this.meta ? offeredBots(this.meta) : ["random"];
      const select = h("select", { "aria-label": t("bot_for_seat", { n: s.seat }) },
        bots.map((b) => h("option", { value: b, text: botChoice(b), selected: this.meta && b === this.meta.default_bot })));
      parts.push(select, h("button", { type: "button", class: "btn small", dataset: { key: `bot-${s.seat}` },
        text: t("seat_bot"), onclick: () => this.lobbyCommand({ type: "set_seat", seat: s.seat, bot: select.value }) }));
    }
    if (this.host && s.kind === "bot") {
      parts.push(h("button", { type: "button", class: "btn small", dataset: { key: `open-${s.seat}` },
        text: t("open_again"), onclick: () => this.lobbyCommand({ type: "set_seat", seat: s.seat, bot: null }) }));
    }
    if (this.seat === null && s.kind === "open") {
      parts.push(h("button", { type: "button", class: "btn small primary", dataset: { key: `take-${s.seat}` },
        text: t("take_seat"), onclick: () => this.takeSeat(s.seat) }));
    }
    return h("li", { dataset: { seat: s.seat } }, ...parts);
  },
};

function isLoopback(hostname) {
  return hostname === "localhost" || hostname === "::1" || hostname === "[::1]" || hostname.startsWith("127.");
}
