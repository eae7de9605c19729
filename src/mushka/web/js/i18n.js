// The page's texts in English and Russian, and the language switch.
//
// Every text the page shows comes from TEXTS by key.  The server makes
// texts.js from its one text catalogue (mushka.server.pagetexts), so that a
// text is written once, in Python, whichever interface shows it.  The language is
// remembered in localStorage and can be forced with ?lang=ru in the URL; a
// forced language is remembered too, and every link the page makes carries
// it (withLang), so that it sticks from the lobby to the table and back.
// Server messages (errors, rule texts, event sentences) arrive already in
// the language the connection asked for.

import { TEXTS } from "./texts.js";

export const LANGS = ["en", "ru"];
const STORE_KEY = "mushka.lang";
const listeners = new Set();
let current = initialLang();

function initialLang() {
  const forced = new URLSearchParams(location.search).get("lang");
  if (LANGS.includes(forced)) {
    remember(forced);
    return forced;
  }
  try {
    const stored = localStorage.getItem(STORE_KEY);
    if (LANGS.includes(stored)) return stored;
  } catch (_) {
    // Storage may be disabled (private mode); fall back to the browser's language.
  }
  return (navigator.language || "en").toLowerCase().startsWith("ru") ? "ru" : "en";
}

function remember(value) {
  try {
    localStorage.setItem(STORE_KEY, value);
  } catch (_) {
    // Not remembered across visits then; links still carry it.
  }
}

/** `href` (a path of this site) with the current language in its query. */
export function withLang(href) {
  const url = new URL(href, location.href);
  url.searchParams.set("lang", current);
  return url.origin === location.origin ? `${url.pathname}${url.search}${url.hash}` : url.href;
}

/** The current language, `en` or `ru`. */
export function lang() {
  return current;
}

/** Switch the language, remember it and tell every listener. */
export function setLang(next) {
  if (!LANGS.includes(next) || next === current) return;
  current = next;
  remember(next);
  if (new URLSearchParams(location.search).has("lang")) {
    // The address keeps saying the language shown, so a reload keeps it.
    const url = new URL(location.href);
    url.searchParams.set("lang", next);
    history.replaceState(history.state, "", url);
  }
  document.documentElement.lang = next;
  translateStatic(document);
  for (const fn of listeners) fn(next);
}

/** Call `fn(lang)` after every language change. */
export function onLangChange(fn) {
  listeners.add(fn);
}

/** Whether the catalogue has a text for `key`. */
export function has(key) {
  return Object.hasOwn(TEXTS, key);
}

/**
 * The text for `key` with `{name}` placeholders filled from `params`.
 * A missing key shows itself, so that a gap is visible rather than silent.
 */
export function t(key, params = {}) {
  if (!has(key)) return key;
  const pair = TEXTS[key];
  const template = pair[current === "ru" ? 1 : 0];
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Russian plural form: one (1, 21), few (2-4, 22-24) or many. */
export function plural(n, one, few, many) {
  const a = Math.abs(n) % 100;
  const b = a % 10;
  if (a > 10 && a < 20) return many;
  if (b === 1) return one;
  if (b >= 2 && b <= 4) return few;
  return many;
}

/** Fill elements marked `data-i18n` (text), `data-i18n-label` (aria-label), `data-i18n-title`. */
export function translateStatic(root) {
  document.documentElement.lang = current;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}
