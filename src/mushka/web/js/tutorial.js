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
import { hideToast, toast } from "./ui.js";

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
    this.reminded = null;
  }

  /**
   * The step the game is at now.  A step's text tells what the others have just done, so it is
   * shown only when they have done it: when it is the player's turn (as the page shows it, after
   * the pause on a completed trick).  While the others play, the step of the player's last move
   * stays, marked as done (`watching()`), and its text is replaced by "watch".
   */
  step() {
    const view = this.page.view;
    if (!view || !view.deal) return null;
    if ((view.history || []).length) return STEPS.length - 1;
    if (!this.introDone) return 0;
    const done = this.movesDone();
    return Math.min(STEPS.length - 2, this.myTurnNow() ? done + 1 : Math.max(1, done));
  }

  /** How many of the lesson's moves the player has made: the declaration, then one card a trick. */
  movesDone() {
    const page = this.page;
    const deal = page.view.deal;
    if (deal.phase === "play") return 1 + Math.max(0, 5 - (deal.hand || []).length);
    return deal.phase === "declare" && deal.to_act === page.seat ? 0 : 1;
  }

  /** Whether the player is to move now, as the page shows it. */
  myTurnNow() {
    const page = this.page;
    const deal = page.view && page.view.deal;
    return !!(deal && page.shownModel(deal).myTurn && !page.view.result);
  }

  /** Whether the others are playing (the player's move of the step is made; the next waits). */
  watching() {
    const at = this.step();
    return at !== null && at > 0 && at < STEPS.length - 1 && !this.myTurnNow();
  }

  /** The move the lesson expects now (null: none, or not the player's turn). */
  expected() {
    const at = this.step();
    if (at === null || this.watching()) return null;
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
    if (want === null || same(action, want)) {
      // The reminder was about this move: once it is made, the reminder goes (B3).
      if (this.reminded) hideToast();
      this.reminded = null;
      return true;
    }
    this.reminded = want;
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
    // A reminder of a move no longer expected (made, or the turn passed) is gone too.
    if (this.reminded && this.reminded !== this.expected()) {
      hideToast();
      this.reminded = null;
    }
    // Short names ("Фёдор", not "Фёдор · сильный"): the lesson speaks of people.
    const name = (s) => page.seatLabelOf(s).split(" · ")[0];
    const watching = this.watching();
    const deal = page.view.deal;
    const who = deal.to_act !== null && deal.to_act !== undefined && deal.to_act !== page.seat ? name(deal.to_act) : null;
    const text = !watching ? t(step.key, { dealer: name(3), one: name(1), two: name(2) })
      : who ? t("tut_watch", { who }) : t("tut_watch_trick");
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
      dataset: { testid: "lesson", step: String(at), of: String(STEPS.length - 1), watching: String(watching) } },
    h("strong", { class: "lesson-title", text: t(watching ? "tut_step_done" : "tut_step", { n: at + 1, of: STEPS.length }) }),
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
