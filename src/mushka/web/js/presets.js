// The new-game form's "Length": the full game or a shorter one, each with about how long it
// takes a person at the chosen table size and level (server/durations.py measured it by bot
// self-play; the minutes include a person's thinking time, see bench/lobby_durations.py).
//
// A preset only sets options of the form (the record a partie starts from, C16); changing
// that option by hand among the house rules shows the length as "house rules".

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The preset the form's options match now ("" when the house rules set something else). */
export function currentPreset(info, values) {
  const presets = info.presets || [];
  for (const p of presets) {
    const keys = new Set([...Object.keys(p.options), ...presets.flatMap((q) => Object.keys(q.options))]);
    if ([...keys].every((k) => (values[k] ?? "") === (p.options[k] ?? ""))) return p.id;
  }
  return "";
}

/** About how many minutes a game of `preset` takes at this size and level (null: not measured). */
export function presetMinutes(preset, players, level) {
  const byLevel = preset.minutes && preset.minutes[level];
  const m = byLevel && byLevel[String(players)];
  return typeof m === "number" && m > 0 ? m : null;
}

/** "≈ 12 min" (rounded to whole minutes, at least 1; to 5 past half an hour). */
export function minutesWords(m) {
  const rounded = m >= 30 ? Math.round(m / 5) * 5 : Math.max(1, Math.round(m));
  return t("about_minutes", { n: rounded });
}

/** The length choice of the form; `choose(options)` replaces the preset options of the form's values. */
export function lengthField(info, values, players, level, choose) {
  const presets = info.presets || [];
  if (!presets.length) return null;
  const current = currentPreset(info, values);
  const label = (p) => {
    const m = presetMinutes(p, players, level);
    const name = t(`preset_${info.name === "kopilka" && p.id === "full" ? "session" : p.id}`);
    return m === null ? name : `${name} — ${minutesWords(m)}`;
  };
  const select = h("select", { id: "length", dataset: { key: "length", testid: "length" },
    disabled: presets.length === 1 && current !== "", "aria-describedby": "length-note",
    onchange: (e) => {
      const chosen = presets.find((p) => p.id === e.target.value);
      if (chosen) choose(chosen.options, presets.flatMap((p) => Object.keys(p.options)));
    } },
  presets.map((p) => h("option", { value: p.id, selected: p.id === current, text: label(p),
    dataset: { minutes: String(presetMinutes(p, players, level) ?? "") } })),
  current === "" ? h("option", { value: "", selected: true, text: t("preset_custom") }) : null);
  return h("label", { class: "field" }, t("game_length"), select,
    h("span", { id: "length-note", class: "muted small", text: t("length_note") }));
}
