// What the table page knows of a variant: its title, its rank order, its options' defaults.

import { RANK_ORDER } from "./cards.js";
import { lang, t } from "./i18n.js";

/** The rank order option as a string of ranks, high to low. */
export function normaliseOrder(order) {
  if (order === "ace_high") return RANK_ORDER.classic;
  if (order === "mistigri") return RANK_ORDER.mistigri;
  return String(order).toUpperCase().replace(/10/g, "T");
}

/** The variant's title in the current language (from the option list when known). */
export function variantTitle(table, metaInfo) {
  const info = metaInfo && metaInfo.variants.find((v) => v.name === table.variant);
  if (info) return lang() === "ru" ? info.title_ru : info.title_en;
  return t(`variant_${table.variant}`) || table.variant_title;
}

/** The default value of option `name` of `variant` (null when unknown). */
export function optionDefault(metaInfo, variant, name) {
  const info = metaInfo && metaInfo.variants.find((v) => v.name === variant);
  const opt = info && info.options.find((o) => o.name === name);
  return opt ? opt.default : null;
}
