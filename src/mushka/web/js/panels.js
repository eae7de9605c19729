// The table page's side panels' bodies: the score sheet, the last trick, the log and the rules.
//
// Methods of TablePage (table.js), mixed into its prototype: `this` is the page.

import { cardElement, short } from "./cards.js";
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { explainSeat, partText, stateWord } from "./explain.js";
import { optionTitle, optionValue, plainRule } from "./optionwords.js";
import { tableRules } from "./rulesinfo.js";
import { seatLabel, seatName, signed } from "./seats.js";
import { variantTitle } from "./tableinfo.js";

/** The table page's side panels' bodies (methods of TablePage). */
export const panelMethods = {
  scorePanel() {
    const view = this.view;
    const deal = view.deal;
    const variant = deal.variant;
    const n = this.table.players;
    const seats = [...Array(n).keys()];
    const head = h("tr", {}, h("th", { text: "" }),
      seats.map((s) => h("th", { class: "num", scope: "col", title: seatLabel(this.table, s, this.seat),
        text: seatHead(this.table, s, this.seat) })));
    const row = (label, cells, cls = "") => h("tr", { class: cls }, h("th", { scope: "row", text: label }),
      cells.map((c) => (c instanceof Node ? c : h("td", { class: "num", text: c }))));
    const why = (result, s) => {
      const e = explainSeat(result, s, variant, { gamePayment: this.gamePayment() });
      const word = stateWord(e.state);
      let text = word || signed(e.change);
      if (isSetSeat(result.mushka)) text = result.mushka === s ? t("mushka_short") : (word || "—");
      if (variant === "kopilka" && result.out === s) text += " ✓";
      return h("td", { class: "num", title: e.parts.map(partText).join("; "), text });
    };
    const rows = [];
    if (variant === "kopilka") {
      rows.push(row(t("balance"), view.money.map(signed), "strong"));
      rows.push(row(t("tricks_now"), deal.tricks_won.map(String)));
      const ante = Number(this.optionValueOf("ante")) || 0;
      if (ante) rows.push(row(t("item_ante"), seats.map(() => signed(-ante))));
      view.history.forEach((r, i) => rows.push(row(t("game_n", { n: i + 1 }), seats.map((s) => why(r, s)))));
      // K23: the pot taken at the end is part of the final money.
      if (view.result) rows.push(row(t("item_pot"), (view.result.settlement || []).map(signed)));
    } else {
      rows.push(row(t("record"), view.records.map(String), "strong"));
      if (view.side && view.side.some((x) => x !== 0)) rows.push(row(t("side_account"), view.side.map(signed)));
      rows.push(row(t("tricks_now"), deal.tricks_won.map(String)));
      view.history.forEach((r, i) => rows.push(row(t("deal_n", { n: i + 1 }), seats.map((s) => why(r, s)))));
      if (view.result) rows.push(row(t("item_records"), (view.result.settlement || []).map(signed)));
    }
    const caption = variant === "kopilka" ? t("score_caption_kopilka", { pot: view.pot })
      : t("score_caption_records");
    return h("div", {},
      h("p", { class: "muted legend", text: caption }),
      h("div", { class: "table-scroll" }, h("table", { class: `grid compact${n >= 6 ? " many" : ""}`, dataset: { testid: "score-sheet" } },
        h("thead", {}, head), h("tbody", {}, rows))),
      h("p", { class: "muted legend", text: variant === "kopilka" ? t("score_legend_kopilka") : t("score_legend") }));
  },

  trickCards(cards, winner, { small = false } = {}) {
    return h("div", { class: "trick" }, cards.map(([s, c]) => h("div", { class: `trick-card${s === winner ? " winner" : ""}` },
      cardElement(c, { extraLabel: seatName(this.table, s), classes: small ? "small" : "" }),
      h("span", { class: "who", text: seatLabel(this.table, s, this.seat) }))));
  },

  lastTrickPanel() {
    const tricks = this.view.deal.tricks;
    if (!tricks.length) {
      // Right after a deal ends, its last trick is still the one people ask about.
      const prev = this.lastTrick;
      if (!prev || prev.deal === this.view.number) return h("p", { class: "muted", text: t("no_trick_yet") });
      return h("div", {},
        h("p", { text: t("prev_deal_trick", { deal: prev.deal, n: prev.number,
          name: seatLabel(this.table, prev.winner, this.seat) }) }),
        this.trickCards(prev.cards, prev.winner));
    }
    const last = tricks[tricks.length - 1];
    return h("div", {},
      h("p", { text: t("trick_taken_by", { n: tricks.length, name: seatLabel(this.table, last.winner, this.seat) }) }),
      this.trickCards(last.cards, last.winner),
      h("h4", { text: t("tricks_this_deal") }),
      h("ol", { class: "log" }, tricks.map((tr) => h("li", {},
        `${tr.cards.map(([, c]) => short(c)).join(" ")} → ${seatLabel(this.table, tr.winner, this.seat)}`
        + (tr.value ? ` (${tr.value})` : "")))));
  },

  logPanel() {
    if (!this.log.length) return h("p", { class: "muted", text: t("log_empty") });
    return h("ol", { class: "log", dataset: { testid: "log" } }, this.log.map((e) =>
      h("li", { class: e.event === "DealStarted" ? "deal-start" : "", text: e.text })));
  },

  /** Fetch the table's rules in the current language (once; the panel draws them when they come). */
  loadRules() {
    const wanted = lang();
    if ((this.rules && this.rules.lang === wanted) || this.rulesLoading === wanted) return;
    this.rulesLoading = wanted;
    tableRules(this.tableId).then((list) => {
      if (lang() !== wanted) return;
      this.rules = { lang: wanted, list };
      this.rulesError = null;
      this.render();
    }).catch((err) => {
      this.rulesError = err.message;
      this.render();
    }).finally(() => {
      if (this.rulesLoading === wanted) this.rulesLoading = null;
    });
  },

  rulesPanel() {
    const title = h("h4", { text: t("rules_of", { variant: variantTitle(this.table, this.meta) }) });
    const options = [h("h4", { text: t("table_options") }), this.optionsList()];
    if (!this.rules || this.rules.lang !== lang()) {
      return h("div", {}, title,
        h("p", { class: this.rulesError ? "error-text" : "muted", role: "status",
          text: this.rulesError ? t("rules_unavailable", { problem: this.rulesError }) : t("loading") }),
        ...options);
    }
    // The players' rules only: the notation (N) and the implementation's guarantees (G) are for developers.
    const playerRules = this.rules.list.filter((r) => !/^(N|G)\d+$/.test(r.id));
    const list = h("dl", { class: "rule-list", dataset: { testid: "rule-list" } }, playerRules.map((r) => {
      const cls = r.id === this.highlightRule ? "highlight" : "";
      // The rule in plain words first; its id, section and exact text after it.
      const plain = plainRule(r.id);
      return [
        h("dt", { id: `rule-${r.id}`, class: cls, dataset: { rule: r.id } },
          plain ? h("span", { class: "plain", dataset: { plain: r.id }, text: `${plain} ` }) : null,
          h("span", { class: "rule-id", text: r.id }),
          h("span", { class: "muted", title: r.tags.join(", "), text: ` ${r.section_title} · ${r.tags.map(tagWord).join(", ")}` }),
          r.changed ? h("strong", { text: ` (${t("changed")})` }) : null),
        h("dd", { class: `${cls} exact`.trim(), dataset: { rule: r.id }, text: r.text }),
      ];
    }));
    if (this.highlightRule && this.highlightScrolled !== this.highlightRule) {
      const id = this.highlightRule;
      requestAnimationFrame(() => {
        // The rule's id and its whole text in view, at the top of the panel.
        const el = document.getElementById(`rule-${id}`);
        if (el) el.scrollIntoView({ block: "start" });
        this.highlightScrolled = id;
      });
    }
    return h("div", {}, title, list, ...options);
  },

  optionsList() {
    const info = this.meta && this.meta.variants.find((v) => v.name === this.table.variant);
    const set = this.table.options || {};
    if (!info) {
      const names = Object.keys(set);
      return names.length ? h("ul", {}, names.map((k) => h("li", { text: `${optionTitle(k)}: ${optionValue(set[k], k)}` })))
        : h("p", { class: "muted", text: t("default_options") });
    }
    return h("ul", { class: "log options-list" }, info.options.map((o) => {
      const value = o.name in set ? set[o.name] : o.default;
      return h("li", { class: o.name in set ? "changed" : "", dataset: { option: o.name } },
        h("strong", { title: `${o.name} = ${value}`, text: `${optionTitle(o.name)}: ` }),
        h("span", { class: "option-value", text: optionValue(value, o.name) }),
        o.name in set ? h("strong", { text: ` (${t("changed")})` }) : null,
        h("span", { class: "muted", text: ` — ${lang() === "ru" ? o.help_ru : o.help_en} ` }),
        h("span", { class: "rule-id", text: o.rules.join(", ") }));
    }));
  },
};

/** A rule's source tag in words (RULES: SEED, RU, XC, DEC); the tag itself stays in the title. */
function tagWord(tag) {
  const key = `rule_tag_${String(tag).toLowerCase()}`;
  return ["rule_tag_seed", "rule_tag_ru", "rule_tag_xc", "rule_tag_dec"].includes(key) ? t(key) : tag;
}

function seatHead(table, s, mySeat) {
  // A short name keeps the columns narrow (seven of them fit the side panel
  // and a phone); the cell's title gives the whole name.
  if (s === mySeat) return t("you");
  const name = seatName(table, s).split(" · ")[0];
  const room = table.players >= 6 ? 5 : 7;
  return name.length > room ? `${name.slice(0, room - 1)}…` : name;
}

function isSetSeat(value) {
  return value !== null && value !== undefined;
}
