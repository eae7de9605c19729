// Small DOM functions: the page is built with plain elements, no framework.

/**
 * Create an element.  `attrs` keys: `class`, `text`, `on<Event>` handlers,
 * `dataset` (object), `aria` / `data-` / other attributes as strings; a value
 * of `false`, `null` or `undefined` leaves the attribute out.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key in el && typeof value !== "string") el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace every child of `el` with `children`. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * A button first in the page's top bar (`.topnav`): `button` if it is made already, else one made
 * from `attrs` and put there; null on a page without the bar.
 */
export function navButton(button, attrs) {
  const nav = document.querySelector(".topnav");
  if (!nav) return null;
  if (button) return button;
  const made = h("button", attrs);
  nav.insertBefore(made, nav.firstChild);
  return made;
}

/** The element with `id` (throws if it is missing, which is a page bug). */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no element #${id}`);
  return el;
}

/** Keep focus on the element with the same `data-key` after a re-render. */
export function preserveFocus(container, render) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.key : null;
  render();
  if (key) {
    const again = container.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && typeof again.focus === "function") again.focus({ preventScroll: true });
  }
}
