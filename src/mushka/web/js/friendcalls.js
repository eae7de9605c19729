// The social API's calls that both the Friends panel (friends.js) and a player's
// profile (profile.js) make: any call of it, and muting, blocking or neither, after
// which whoever follows the hides (the Friends panel, which lists them and the
// friends) reads them again.

import { jsonCall } from "./api.js";
import { toast } from "./ui.js";

const hideFollowers = [];

/** A JSON call of the social API (the page's fetch adds the session's CSRF token to changes, P19). */
export function social(method, path, body) {
  return jsonCall(method, path, method === "GET" ? undefined : (body || {}));
}

/** Have `follow` called (and awaited) after every change of the hides made here. */
export function onHidesChange(follow) {
  hideFollowers.push(follow);
}

/** Mute, block, or neither (`none`) an account; returns whether it was done. */
export async function hideAccount(name, kind) {
  try {
    await social("POST", "api/hides", { name, kind });
  } catch (err) {
    if (err.code !== "no_player") toast(err.message);
    return false;
  }
  for (const follow of hideFollowers) await follow();
  return true;
}
