// The first-game walkthrough ("Learn to play"): one classic deal for four with
// a stacked deck and scripted bots (server/tutorial.py, POST /api/tutorial).
//
// The table page runs it like any game; this module adds the lesson: a box
// above the hand that says, step by step and in plain words, what has just
// happened and what to do now, with the rules' ids one click away.  The
// player may do only the move of the lesson (any other click is answered
// with a reminder, nothing is sent), so the script holds.

import { createTutorial } from "./api.js";
import { short } from "./cards.js";
import { h } from "./dom.js";
import { t, withLang } from "./i18n.js";
import { savedName } from "./store.js";
import { toast } from "./ui.js";

/** The player's moves, one a turn (as server/tutorial.py has them). */
const MOVES = ["stand 6C 7C", "KH", "TD", "QH", "AS", "AH"];

/** The lesson's steps: its text and the rules it shows; `move` is the player's move at that step. */
const STEPS = [
  { key: "tut_intro", rules: ["C5", "C11", "C16"] },
  { key: "tut_declare", rules: ["C7", "C8"], move: 0 },
  { key: "tut_lead", rules: ["C6", "C13"], move: 1 },
  { key: "tut_trump", rules: ["C14", "C15"], move: 2 },
  { key: "tut_lead_again", rules: ["C13"], move: 3 },
  { key: "tut_mushka", rules: ["C11", "C12"], move: 4 },
  { key: "tut_last", rules: ["C15"], move: 5 },
  { key: "tut_end", rules: ["C17", "C18", "C19", "C20"] },
];

/** Start a tutorial table and go to it. */
export async function startTutorial() {
  try {
    const reply = await createTutorial({ name: savedName() || null });
    const url = new URL(reply.tokens[0].url, location.href);
    url.searchParams.set("tutorial", "1");
    location.assign(withLang(`${url.pathname}${url.search}${url.hash}`));
  } catch (err) {
    toast(err.message);
  }
}

/** Whether the page's address is a tutorial table's. */
export function isTutorial() {
  return new URLSearchParams(location.search).get("tutorial") === "1";
}

/** The lesson of one tutorial table (owned by its TablePage). */
export class Lesson {
  constructor(page) {
    this.page = page;
    this.introDone = false;
  }

  /** The step the game is at now. */
  step() {
    const page = this.page;
    const view = page.view;
    if (!view || !view.deal) return null;
    if ((view.history || []).length) return STEPS.length - 1;
    if (!this.introDone) return 0;
    const deal = view.deal;
    if (deal.phase === "declare") return 1;
    // One play of the player's a trick: trick k (1..5) is step k + 1.
    const mine = deal.trick.some(([s]) => s === page.seat);
    const trick = deal.tricks.length + 1;
    return Math.min(STEPS.length - 2, mine ? trick + 2 : trick + 1);
  }

  /** The move the lesson expects now (null: none, or not the player's turn). */
  expected() {
    const at = this.step();
    if (at === null) return null;
    const step = STEPS[at];
    return step.move === undefined ? null : MOVES[step.move];
  }

  /** Whether the player may send `action` now; if not, say what the lesson asks. */
  allows(action) {
    if (!this.introDone) {
      toast(t("tut_read_first"));
      return false;
    }
    const want = this.expected();
    if (want === null || same(action, want)) return true;
    toast(t("tut_not_now", { move: describe(want) }));
    return false;
  }

  /** The cards the lesson points at now (to mark them in the hand). */
  pointed() {
    const want = this.expected();
    if (!want) return new Set();
    const words = want.split(" ");
    return new Set(words[0] === "stand" ? words.slice(1) : words.filter((w) => /^[2-9TJQKA][CDHS]$/.test(w)));
  }

  /** The lesson's box. */
  box() {
    const page = this.page;
    const at = this.step();
    if (at === null) return null;
    const step = STEPS[at];
    // Short names ("Фёдор", not "Фёдор · сильный"): the lesson speaks of people.
    const name = (s) => page.seatLabelOf(s).split(" · ")[0];
    const text = t(step.key, { dealer: name(3), one: name(1), two: name(2) });
    const rules = h("span", { class: "tut-rules" }, t("tut_rules"), " ",
      step.rules.map((id) => h("button", { type: "button", class: "btn small rule-link", dataset: { key: `tut-rule-${id}` },
        text: id, onclick: () => page.openRule(id) })));
    const buttons = [];
    if (at === 0) {
      buttons.push(h("button", { type: "button", class: "btn primary", dataset: { key: "tut-next" }, text: t("tut_next"),
        onclick: () => { this.introDone = true; page.render(); } }));
    }
    if (at === STEPS.length - 1) {
      buttons.push(h("a", { class: "btn primary", dataset: { key: "tut-play" }, href: withLang("./"), text: t("tut_play_real") }),
        h("button", { type: "button", class: "btn", dataset: { key: "tut-again" }, text: t("tut_again"),
          onclick: () => startTutorial() }));
    }
    return h("div", { class: "panel lesson", role: "status", "aria-live": "polite",
      dataset: { testid: "lesson", step: String(at), of: String(STEPS.length - 1) } },
    h("strong", { class: "lesson-title", text: t("tut_step", { n: at + 1, of: STEPS.length }) }),
    h("p", { text }),
    rules,
    buttons.length ? h("div", { class: "row" }, buttons) : null);
  }
}

function same(action, want) {
  return action.split(" ").sort().join(" ") === want.split(" ").sort().join(" ");
}

function describe(move) {
  const words = move.split(" ");
  if (words[0] === "stand") return t("tut_move_exchange", { cards: words.slice(1).map(short).join(" ") });
  return short(words[0]);
}
