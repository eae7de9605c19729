// Scores in words: why each record or balance changed in a deal, and how a
// game's final money was made up.
//
// Everything is computed from the deal results of the view (DealResult.to_json
// of the engine) and the game result (GameResult.to_json), in the current
// language, each line with the rule that makes it (C17, MI7, K22 …), so that
// a player reads "+5 remiz: no trick (C18)" instead of a dump of numbers.

import { t } from "./i18n.js";
import { signed } from "./seats.js";

function isSet(value) {
  return value !== null && value !== undefined;
}

/**
 * How one seat came out of a finished deal.
 *
 * Returns `{seat, state, tricks, change, parts}`: `state` is `stood`,
 * `passed`, `not_declared` (a мушка stopped the deal first) or `played`
 * (kopilka); `change` the record change (classic, mistigri) or the money
 * change (kopilka); `parts` the reasons, each `{amount, text, rule}`.
 * A five of a suit's side payment (C22 in classic, MI9 in mistigri) is a part
 * of its own, marked `side: true`: it is money in the side account, not part
 * of the record's change.  `opts.gamePayment` (kopilka) is the table's game
 * payment, so that it and penalty passes are told apart (K22, K12).
 */
export function explainSeat(result, seat, variant, opts = {}) {
  if (variant === "kopilka") return kopilkaSeat(result, seat, opts.gamePayment);
  const out = trumpSeat(result, seat, variant);
  const side = (result.side && result.side[seat]) || 0;
  if (side && isSet(result.flush_seat)) {
    const rule = variant === "mistigri" ? "MI9" : "C22";
    const others = Math.max(1, result.side.length - 1);
    const text = result.flush_seat === seat ? t("why_flush_holder", { each: Math.round(side / others) }) : t("why_flush_payer");
    out.parts.push({ amount: side, text, rule, side: true });
  }
  return out;
}

function trumpSeat(result, seat, variant) {
  const tricks = result.tricks[seat] || 0;
  const standing = !!(result.standing && result.standing[seat]);
  const parts = [];
  if (isSet(result.mushka)) {
    // C22/MI13: the deal stopped before it was played; nobody writes anything.
    const rule = variant === "mistigri" ? "MI13" : "C22";
    if (result.mushka === seat) parts.push({ amount: 0, text: t("why_won_mushka"), rule });
    else parts.push({ amount: 0, text: t("why_stopped"), rule });
    return { seat, state: standing ? "stood" : "not_declared", tricks, change: 0, parts };
  }
  if (result.all_passed) {
    return { seat, state: "passed", tricks: 0, change: 0, parts: [{ amount: 0, text: t("why_all_passed"), rule: "C9" }] };
  }
  if (!standing) {
    return { seat, state: "passed", tricks: 0, change: 0, parts: [{ amount: 0, text: t("why_passed"), rule: "C19" }] };
  }
  const delta = result.record_delta[seat] || 0;
  const remiz = (result.remiz && result.remiz[seat]) || 0;
  const bonus = (result.bonus && result.bonus[seat]) || 0;
  const holder = result.privileged_holder === seat;
  if (remiz) {
    const rule = variant === "mistigri" && holder ? "MI6" : "C18";
    parts.push({ amount: remiz, text: holder && variant === "mistigri" ? t("why_remiz_privileged") : t("why_remiz"), rule });
  } else {
    const fromTricks = delta + bonus;
    parts.push({ amount: fromTricks, text: t(result.lone === seat ? "why_lone_tricks" : (tricks === 1 ? "why_tricks_one" : "why_tricks"), { n: tricks }),
      rule: result.lone === seat ? "C10" : "C17" });
    if (bonus) parts.push({ amount: -bonus, text: t("why_bonus"), rule: "MI7" });
  }
  return { seat, state: "stood", tricks, change: delta, parts };
}

function kopilkaSeat(result, seat, gamePayment) {
  const tricks = result.tricks[seat] || 0;
  const money = (result.money && result.money[seat]) || 0;
  const remiz = (result.remiz && result.remiz[seat]) || 0;
  let won = 0;
  for (const trick of result.trick_log || []) if (trick.winner === seat) won += trick.value || 0;
  const parts = [];
  if (won) parts.push({ amount: won, text: t(tricks === 1 ? "why_k_tricks_one" : "why_k_tricks", { n: tricks }), rule: "K21" });
  if (remiz) parts.push({ amount: -remiz, text: t("why_k_remiz"), rule: "K22" });
  // The rest went into the pot: the game payment (K22), penalty passes (K12),
  // or it is a trick payment a short pot cut (K22).  Each is its own line when
  // the table's game payment is known.
  const exempt = result.out === seat && !result.deadlock;
  let rest = money - won + remiz;
  if (!exempt && Number.isFinite(gamePayment) && gamePayment > 0) {
    parts.push({ amount: -gamePayment, text: t("why_k_game_payment"), rule: "K22" });
    rest += gamePayment;
  }
  if (rest < 0) {
    const known = exempt || Number.isFinite(gamePayment);
    parts.push({ amount: rest, text: known ? t("why_k_penalty") : t("why_k_payment"), rule: known ? "K12" : "K22" });
  } else if (rest > 0) {
    parts.push({ amount: rest, text: t("why_k_other"), rule: "K22" });
  }
  if (result.out === seat) parts.push({ amount: 0, text: t("why_k_out"), rule: "K18" });
  return { seat, state: "played", tricks, change: money, parts };
}

/** The headline of a finished deal: what decided it, in one sentence (or none). */
export function dealHeadline(result, variant, name) {
  if (variant === "kopilka") {
    if (result.deadlock) return t("deadlock");
    if (isSet(result.out)) return t("went_out_first", { name: name(result.out) });
    return "";
  }
  if (isSet(result.mushka)) return t("mushka_won_by", { name: name(result.mushka) });
  if (result.all_passed) return t("all_passed");
  if (isSet(result.lone)) return t("lone_takes_all", { name: name(result.lone) });
  return "";
}

/** One reason in words, without its rule: "+5 remiz: no trick" (the amount left out when it is zero). */
export function partWords(part) {
  const amount = part.amount ? `${signed(part.amount)} ` : "";
  return `${amount}${part.text}`;
}

/** One reason as text: "+5 remiz: no trick (C18)". */
export function partText(part) {
  return `${partWords(part)} (${part.rule})`;
}

/** What a seat's declaration was, in words, for a score sheet cell. */
export function stateWord(state) {
  if (state === "passed") return t("decl_pass");
  if (state === "not_declared") return t("not_declared");
  return "";
}

/**
 * The final money of a game, item by item, per seat: `[{label, rule, values}]`.
 * The items add up to `result.money` (a test checks it).
 *
 * Kopilka: the ante (K3), every game's money (K22) and the pot taken at the
 * end (K23).  Classic and mistigri: the side account (C22, MI9) and the records
 * taken by the winner (C21).
 */
export function moneyItems(view, variant, ante) {
  const res = view.result;
  const n = res.money.length;
  const items = [];
  if (variant === "kopilka") {
    items.push({ label: t("item_ante"), rule: "K3", values: Array(n).fill(-ante) });
    view.history.forEach((r, i) => items.push({ label: t("game_n", { n: i + 1 }), rule: "K22", values: r.money.slice() }));
    items.push({ label: t("item_pot"), rule: "K23", values: (res.settlement || []).slice() });
  } else {
    // Five of a suit: C22 in classic, MI9 in mistigri.
    const sideRule = variant === "mistigri" ? "MI9" : "C22";
    if (res.side && res.side.some((x) => x !== 0)) items.push({ label: t("side_account"), rule: sideRule, values: res.side.slice() });
    items.push({ label: t("item_records"), rule: "C21", values: (res.settlement || Array(n).fill(0)).slice() });
  }
  return items;
}
