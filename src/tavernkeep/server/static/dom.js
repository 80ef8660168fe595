// Small DOM helpers shared by the lobby, the table and the renderers.
//
// Everything that reaches the page goes through `h` (text children become text nodes),
// so a quest name or an error message from the server can never be read as markup.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Create an element. `attrs` keys: `class`, `text`, `on<Event>` (listeners), `dataset`,
 * `style` (object), properties that exist on the element (value, checked, disabled, ...)
 * and anything else as an attribute. Children may be nodes, strings, numbers, arrays,
 * or null/false (skipped), so optional parts read naturally inline.
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  applyAttrs(node, attrs);
  append(node, children);
  return node;
}

/** Same as `h` for SVG elements, which need their namespace and only take attributes. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

function applyAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key in node && typeof node[key] !== "function" && !key.includes("-")) {
      node[key] = value;
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

/** Append children (nested arrays flattened, strings as text nodes, falsy skipped). */
export function append(parent, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false || child === "") continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replace everything inside `parent` with `children`. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** A probability as people read it: 0.583 -> "58%", never a misleading 0% or 100%. */
export function percent(p) {
  if (typeof p !== "number" || Number.isNaN(p)) return "?";
  if (p > 0 && p < 0.005) return "<1%";
  if (p < 1 && p > 0.995) return ">99%";
  return `${Math.round(p * 100)}%`;
}

/**
 * Odds beside an action: {"success":0.58,"with rescue":0.81} -> "58% · 81% with rescue".
 * The plain chance of success needs no name; any other chance is named after its value.
 */
export function oddsText(odds) {
  if (!odds || typeof odds !== "object") return "";
  return Object.entries(odds)
    .map(([name, p]) => (name === "success" ? percent(p) : `${percent(p)} ${name}`))
    .join(" · ");
}

/** Number the parts of a How to play picture that its notes explain, in the notes' order:
 *  the first part `selectors` finds carries `data-note="1"`, and so on (rules.js puts a
 *  badge on each). Every game's `pictures` marks its drawings with this. */
export function notePictureParts(drawing, selectors) {
  selectors.forEach((selector, n) => {
    const part = drawing.querySelector(selector);
    if (part) part.dataset.note = String(n + 1);
  });
  return drawing;
}

/**
 * Make an element on the board offer one legal action: clicking it (or Enter/Space on
 * it) sends the action. Marked "playable" with the action in data-action, its label as
 * the tooltip. Every game's renderer uses this for its clickable cards and dice.
 */
export function makeClickable(node, entry, onAction) {
  node.classList.add("playable");
  // A node that already holds a control of its own (a room with its "Move here" chip, a
  // card that can be picked up) is a target for the pointer only: a control inside a
  // control is one no keyboard or screen reader can reach rightly, and the inner one
  // serves them.
  if (!node.querySelector("button, [role='button']")) {
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "0");
  }
  node.setAttribute("title", entry.label || entry.action);
  node.dataset.action = entry.action;
  const act = (event) => {
    event.stopPropagation();
    onAction(entry.action);
  };
  node.addEventListener("click", act);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      act(event);
    }
  });
  return node;
}

/** "Player 3" — the same words the game's own event texts use. */
export function playerName(seat) {
  return `Player ${Number(seat) + 1}`;
}

/** "bot:heuristic" -> "heuristic bot"; "human" stays "human". */
export function agentLabel(agent) {
  if (typeof agent !== "string") return "";
  if (agent.startsWith("bot:")) return `${agent.slice(4).replace(/[-_]/g, " ")} bot`;
  return agent;
}

/** A key of a view ("score_piles") as words ("score piles"). */
export function humanize(key) {
  return String(key).replace(/[_-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2");
}

/** A refused request: the server's one line as its message, its status (0: never
 *  reached) and its whole body (a pack the workbench will not save names its fields). */
export class ApiError extends Error {
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body || {};
  }
}

/** Read JSON from the API; a non-2xx answer becomes an ApiError with the server's one line. */
export async function api(path, options = {}) {
  const init = { headers: { Accept: "application/json" }, ...options };
  if (options.json !== undefined) {
    init.method = init.method || "POST";
    init.headers = { ...init.headers, "Content-Type": "application/json" };
    init.body = JSON.stringify(options.json);
    delete init.json;
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError("the server cannot be reached", 0);
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const message =
      (body && typeof body.error === "string" && body.error) ||
      (body && typeof body.detail === "string" && body.detail) ||
      `${response.status} ${response.statusText}`.trim();
    throw new ApiError(message, response.status, body);
  }
  return body;
}

/** Copy text; falls back to a hidden textarea where the Clipboard API is not allowed
 *  (plain http on a LAN address is not a secure context). */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the old way
  }
  const area = h("textarea", { value: text, readOnly: true, class: "offscreen" });
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** A link to hand to someone: the address in a read-only box (selected when focused) and
 *  a Copy button that says whether it copied. Returns [box, button]. */
export function copyField(url, label) {
  const input = h("input", { type: "text", readOnly: true, value: url, "aria-label": label });
  input.addEventListener("focus", () => input.select());
  const copy = h("button", { type: "button", class: "button secondary", text: "Copy" });
  copy.addEventListener("click", async () => {
    const ok = await copyText(url);
    copy.textContent = ok ? "Copied ✓" : "Select and copy";
    if (!ok) input.select();
    setTimeout(() => {
      copy.textContent = "Copy";
    }, 1800);
  });
  return [input, copy];
}

// -- seats this browser holds ------------------------------------------------------------
// Opening an invite claims its seat: the server hands this browser a credential of its
// own, kept in localStorage by table id, and the invite acts for nobody after that. The
// creator of a table is handed the credentials of the seats played on their device (hot
// seat) and keeps them the same way. Nothing else is kept: another person's invite never
// lands here unless this browser opened it.

const STORE_PREFIX = "tavernkeep:seats:";

function loadEntry(tableId) {
  try {
    const raw = localStorage.getItem(STORE_PREFIX + tableId);
    const entry = raw ? JSON.parse(raw) : null;
    if (entry && typeof entry === "object" && entry.credentials && typeof entry.credentials === "object") {
      return { credentials: entry.credentials, last: entry.last ?? null };
    }
  } catch {
    // storage disabled or corrupted: behave as if nothing was stored
  }
  return { credentials: {}, last: null };
}

function saveEntry(tableId, entry) {
  try {
    localStorage.setItem(STORE_PREFIX + tableId, JSON.stringify(entry));
  } catch {
    // private mode or full storage: the seat works until the tab is closed
  }
}

/** Keep a seat's credential for a table (and, with `last`, that this seat was used last). */
export function rememberSeat(tableId, seat, credential, { last = false } = {}) {
  const entry = loadEntry(tableId);
  entry.credentials[String(seat)] = credential;
  if (last) entry.last = Number(seat);
  saveEntry(tableId, entry);
}

/** Mark which held seat (or null: spectator) this browser used last at a table. */
export function rememberLast(tableId, seat) {
  const entry = loadEntry(tableId);
  entry.last = seat === null ? null : Number(seat);
  saveEntry(tableId, entry);
}

/** Forget a credential the server refused (a seat re-issued, a database reset). */
export function forgetSeat(tableId, seat) {
  const entry = loadEntry(tableId);
  delete entry.credentials[String(seat)];
  if (entry.last === Number(seat)) entry.last = null;
  saveEntry(tableId, entry);
}

/** {credentials: {"0": "..."}, last: 0 | null}: the seats this browser holds at a table. */
export function storedSeats(tableId) {
  return loadEntry(tableId);
}

/** Full URL of an invite link, from the path POST /api/tables returned for the seat. */
export function inviteUrl(invite) {
  return new URL(String(invite || ""), location.origin).href;
}

// -- the person at this browser ------------------------------------------------------------
// The name a person goes by is theirs, not a table's: one name for every table, offered
// when they join one and editable wherever it shows. The server checks it (1-24 plain
// characters); a page always sets it as text.

const NAME_KEY = "tavernkeep:name";
export const NAME_MAX = 24;

/** The name this browser's person gave, or "" if none yet. */
export function storedName() {
  try {
    return (localStorage.getItem(NAME_KEY) || "").slice(0, NAME_MAX);
  } catch {
    return "";
  }
}

/** Keep the name for every table this browser joins ("" forgets it). */
export function rememberName(name) {
  try {
    if (name) localStorage.setItem(NAME_KEY, name);
    else localStorage.removeItem(NAME_KEY);
  } catch {
    // storage disabled: the name lasts as long as the page
  }
}

/** "Bea" for a seat whose person gave a name, else "Player 2". `seats` are the seat
 *  entries the server sent; a name there is plain text, set as text by `h`. */
export function seatLabel(seat, seats) {
  const list = Array.isArray(seats) ? seats : [];
  return nameLabel(seat, named(list.find((s) => s && s.seat === seat)), seats);
}

const named = (s) => (s && typeof s.name === "string" && s.name ? s.name : "");

/** A seat called by `name` (a chat line keeps the name it was said under): the name alone,
 *  as everywhere on the page; the seat's number only where another seat has the same name,
 *  so that "Bea" is never two seats; "Player 2" for no name. */
export function nameLabel(seat, name, seats) {
  if (!name) return playerName(seat);
  const list = Array.isArray(seats) ? seats : [];
  const twin = list.some((s) => s && s.seat !== seat && named(s) === name);
  return twin ? `${name} (${playerName(seat)})` : name;
}

/** A game's text with each seat called as the page calls it (`seatLabel`): the game says
 *  "Player 2 rolls"; the page says "Bea rolls" where Bea named her seat. */
export function withSeatNames(text, seats) {
  return String(text).replace(/\bPlayer (\d+)\b/g, (words, number) => seatLabel(Number(number) - 1, seats));
}

// -- the tables this browser hosts -----------------------------------------------------------
// Opening a table hands its creator the host key: it acts for no seat, only for the table
// (hand a seat out again, start it with seats still open, close it). Kept like a credential.

const HOST_PREFIX = "tavernkeep:host:";

export function rememberHost(tableId, key) {
  try {
    localStorage.setItem(HOST_PREFIX + tableId, String(key));
  } catch {
    // private mode or full storage: the key is shown once and lost with the tab
  }
}

/** The host key this browser holds for a table, or null. */
export function storedHost(tableId) {
  try {
    return localStorage.getItem(HOST_PREFIX + tableId);
  } catch {
    return null;
  }
}
