// A player's profile (GET /api/profiles/{name}), in a dialog: rated games and the
// rating per variant with a small line plot of its history (plain SVG, no
// library), recent games with their replays, results against each friend, and,
// for a signed-in reader, the friend / mute / block buttons.

import { h, replace } from "./dom.js";
import { hideAccount, social } from "./friendcalls.js";
import { lang, onLangChange, t, withLang } from "./i18n.js";
import { plainMessage } from "./ruleword.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 260;
const H = 70;
const PAD = 4;

let dialog = null;
let current = null; // the profile shown
let error = null;

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(c);
  return el;
}

/** The rating history of one variant as a small SVG line plot (points after each rated game). */
export function ratingPlot(points, label) {
  const values = points.map((p) => p.rating);
  const low = Math.min(...values, 1500);
  const high = Math.max(...values, 1500);
  const span = Math.max(high - low, 20);
  const x = (i) => PAD + (values.length > 1 ? (i * (W - 2 * PAD)) / (values.length - 1) : (W - 2 * PAD) / 2);
  const y = (v) => PAD + ((high - v) * (H - 2 * PAD)) / span;
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const base = y(1500).toFixed(1);
  const last = values.length - 1;
  return svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-plot", role: "img", "aria-label": label, "data-testid": "rating-plot",
    preserveAspectRatio: "none" },
  svg("title", {}, document.createTextNode(label)),
  svg("line", { x1: PAD, x2: W - PAD, y1: base, y2: base, class: "plot-base" }),
  svg("polyline", { points: line, class: "plot-line", fill: "none" }),
  svg("circle", { cx: x(last).toFixed(1), cy: y(values[last]).toFixed(1), r: 3, class: "plot-dot" }));
}

function variantName(v) {
  return t(`variant_${v}`);
}

async function load(name) {
  const response = await fetch(`api/profiles/${encodeURIComponent(name)}?lang=${lang()}`, { headers: { Accept: "application/json" } });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const e = (data && data.error) || {};
    throw new Error(plainMessage(e.message || `HTTP ${response.status}`, e.rule));
  }
  return data;
}

/** Open the profile of `name`. */
export async function openProfile(name) {
  if (!dialog) {
    dialog = h("dialog", { class: "profile-dialog", dataset: { testid: "profile" }, "aria-labelledby": "profile-title" });
    document.body.appendChild(dialog);
    onLangChange(() => { if (dialog.open) draw(); });
    dialog.addEventListener("close", () => {
      // A profile opened by its address (/?profile=NAME): closing it leaves the page it was on.
      const params = new URLSearchParams(location.search);
      if (!params.has("profile")) return;
      params.delete("profile");
      const rest = params.toString();
      history.replaceState(null, "", `${location.pathname}${rest ? `?${rest}` : ""}${location.hash}`);
    });
  }
  current = { name, loading: true };
  error = null;
  draw();
  if (!dialog.open) dialog.showModal();
  try {
    current = await load(name);
  } catch (err) {
    error = err.message;
  }
  draw();
}

async function act(change) {
  try {
    if (change === "ask") await social("POST", "api/friends", { name: current.name });
    else if (change === "remove") await social("POST", "api/friends/remove", { name: current.name });
    else await hideAccount(current.name, change);
  } catch (err) {
    error = err.message;
  }
  await openProfile(current.name);
}

function readerButtons(p) {
  if (p.friend === null || p.friend === undefined || p.friend === "self") return null;
  const b = (key, testid, change, primary = false) => h("button", { type: "button", class: `btn small${primary ? " primary" : ""}`,
    dataset: { testid }, text: t(key), onclick: () => act(change) });
  const out = [];
  if (p.friend === "none") out.push(b("friend_add", "profile-add", "ask", true));
  else if (p.friend === "incoming") out.push(b("friend_accept", "profile-add", "ask", true));
  else out.push(b(p.friend === "accepted" ? "profile_unfriend" : "friend_withdraw", "profile-remove", "remove"));
  if (p.hidden === "none") {
    out.push(b("hide_mute", "profile-mute", "mute"));
    out.push(b("hide_block", "profile-block", "block"));
  } else {
    out.push(b(p.hidden === "block" ? "hide_unblock" : "hide_unmute", "profile-unhide", "none"));
  }
  return h("div", { class: "profile-actions" }, out);
}

function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleDateString(lang() === "ru" ? "ru-RU" : "en-GB");
}

function draw() {
  const p = current;
  const close = h("form", { method: "dialog" }, h("button", { type: "submit", class: "btn", text: t("close") }));
  if (error) {
    replace(dialog, h("h2", { id: "profile-title", text: p ? p.name : "" }), h("p", { class: "error-text", role: "alert", text: error }), close);
    return;
  }
  if (!p || p.loading) {
    replace(dialog, h("h2", { id: "profile-title", text: p ? p.name : "" }), h("p", { class: "muted", text: t("loading") }), close);
    return;
  }
  const variants = p.variants.length ? h("div", { class: "profile-variants" }, p.variants.map((v) => h("section", { class: "profile-variant", dataset: { testid: "profile-variant", variant: v.variant } },
    h("h3", { text: variantName(v.variant) }),
    h("p", {}, h("strong", { class: "profile-rating", text: `${v.rating}${v.provisional ? "?" : ""}` }), " ",
      h("span", { class: "muted", text: t("profile_rated_games", { n: v.games }) })),
    v.history.length ? ratingPlot(v.history, t("profile_plot_label", { variant: variantName(v.variant), n: v.history.length })) : null,
    v.history.length ? h("p", { class: "muted small plot-range", text: t("profile_plot_range", {
      low: Math.min(...v.history.map((x) => x.rating)), high: Math.max(...v.history.map((x) => x.rating)) }) }) : null)))
    : h("p", { class: "muted", text: t("profile_no_rated") });
  const recent = p.recent.length ? h("ul", { class: "profile-games", dataset: { testid: "profile-games" } }, p.recent.map((g) => h("li", {},
    h("span", { class: "muted", text: when(g.finished) }), " ",
    h("span", { text: `${variantName(g.variant)}: ${g.names.join(", ")}` }), " ",
    g.won ? h("strong", { text: t("profile_won") }) : null, " ",
    h("a", { href: withLang(g.replay), text: t("profile_replay"), dataset: { testid: "profile-replay" } }),
    g.review ? [" ", h("a", { href: withLang(g.review), text: t("profile_review"), dataset: { testid: "profile-review" } })] : null)))
    : h("p", { class: "muted", text: t("profile_no_games") });
  const versus = p.friends.length ? h("table", { class: "profile-versus", dataset: { testid: "profile-versus" } },
    h("thead", {}, h("tr", {}, h("th", { text: t("profile_friend") }), h("th", { text: t("profile_together") }),
      h("th", { text: t("profile_ahead") }), h("th", { text: t("profile_behind") }))),
    h("tbody", {}, p.friends.map((f) => h("tr", {}, h("td", { text: f.name }), h("td", { text: String(f.games) }),
      h("td", { text: String(f.ahead) }), h("td", { text: String(f.behind) }))))) : null;
  replace(dialog,
    h("h2", { id: "profile-title", text: p.name }),
    h("p", { class: "muted", text: `${p.account ? t("profile_account") : t("profile_guest")} · ${t("profile_games_wins", { games: p.games, wins: p.wins })}` }),
    readerButtons(p),
    variants,
    h("h3", { text: t("profile_recent") }),
    recent,
    versus ? [h("h3", { text: t("profile_versus") }), versus] : null,
    close);
}
