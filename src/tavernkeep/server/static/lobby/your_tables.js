// Your tables: every table this browser sits at, at the top of the lobby: the ones where it
// is this person's turn first, then the others under way, then the latest finished with
// their result, replay and rematch. One socket for all of them (`/ws/lobby`,
// server/PROTOCOL.md): it sends the credentials this browser holds, and the server answers
// with each of their tables, then with each change. Signed in with a passkey, the socket
// (its handshake carries the session cookie) lists the account's tables too, those it
// took on other devices among them: a seat this browser holds no credential for is taken
// (`.../take`) as it is opened. While the page is hidden its title counts the tables
// waiting on this person, and a table that becomes theirs is a notification, if they
// allowed it (turns.js).

import { agentLabel, api, h, playerName, rememberSeat, replace, seatLabel, storedSeats, withSeatNames } from "../dom.js";
import { askToNotify, notifyPermission, notifyTurn } from "../turns.js";

const $ = (id) => document.getElementById(id);

const SEATS_PREFIX = "tavernkeep:seats:"; // where dom.js keeps each table's seats
const SEEN_KEY = "tavernkeep:your-tables"; // {id: [rank, at]}: which tables to send first
// Written by the account page (account.js) as this browser signs in or out: {signed_in, at}.
const ACCOUNT_KEY = "tavernkeep:account";
const MAX_FOLLOWED = 200; // the server's bound on one follow (server/lobby_socket.py)
const FINISHED_SHOWN = 5;
const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 30000;
const PING_EVERY_MS = 25000;
const FOLLOW_AGAIN_MS = 300; // a burst of seats stored at once is one follow
const BASE_TITLE = document.title;

// How a table ranks for the 200 sent: under way (or not heard of yet) first, then over,
// then ones the server said nothing of (a stale credential, a database reset).
const UNDER_WAY = 0;
const OVER = 1;
const SILENT = 2;

const your = {
  ws: null,
  generation: 0, // bumps on every new socket, so a stale one's messages are ignored
  backoff: BACKOFF_FIRST_MS,
  reconnectTimer: null,
  pingTimer: null,
  followTimer: null,
  clockTimer: null,
  sent: [], // the table ids of the last follow
  tables: new Map(), // id -> the server's entry, with `receivedAt` (performance.now())
  yours: new Set(), // ids where it is this person's turn, as last heard
  heard: false, // a first answer came: turns that were already theirs are not news
  // Signed in (account_link.js says, or the account page in another tab): a socket is
  // opened for the account's tables even when this browser holds no seat.
  signedIn: false,
};

// -- the seats this browser holds ------------------------------------------------------

function loadSeen() {
  try {
    const seen = JSON.parse(localStorage.getItem(SEEN_KEY) || "{}");
    return seen && typeof seen === "object" ? seen : {};
  } catch {
    return {};
  }
}

function saveSeen(seen) {
  try {
    localStorage.setItem(SEEN_KEY, JSON.stringify(seen));
  } catch {
    // storage full or disabled: the order is a nicety
  }
}

/** Every table id this browser holds a credential at. */
function heldTables() {
  const ids = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith(SEATS_PREFIX)) ids.push(key.slice(SEATS_PREFIX.length));
    }
  } catch {
    // storage disabled: this browser holds nothing it can show
  }
  return ids;
}

/** The (table, seat, credential) this page follows: at most the server's bound, the
 *  tables under way and the latest moved first. */
function seatsToFollow() {
  const seen = loadSeen();
  const rank = (id) => (Array.isArray(seen[id]) ? Number(seen[id][0]) || 0 : UNDER_WAY);
  const at = (id) => (Array.isArray(seen[id]) ? Number(seen[id][1]) || 0 : Infinity);
  const ids = heldTables().sort((a, b) => rank(a) - rank(b) || at(b) - at(a));
  const seats = [];
  for (const id of ids) {
    for (const [seat, token] of Object.entries(storedSeats(id).credentials)) {
      if (/^\d+$/.test(seat) && typeof token === "string" && token && seats.length < MAX_FOLLOWED) {
        seats.push({ table: id, seat: Number(seat), token });
      }
    }
  }
  return seats;
}

/** Keep, for the next follow's order, what the server said of each table; forget what
 *  this browser no longer holds. */
function noteSeen(answered) {
  const held = new Set(heldTables());
  const seen = {};
  const old = loadSeen();
  for (const id of held) if (Array.isArray(old[id])) seen[id] = old[id];
  for (const id of answered ? your.sent : []) {
    if (!your.tables.has(id)) seen[id] = [SILENT, 0];
  }
  for (const [id, entry] of your.tables) {
    if (held.has(id)) seen[id] = [entry.status === "playing" || entry.status === "waiting" ? UNDER_WAY : OVER, entry.at];
  }
  saveSeen(seen);
}

// -- the socket ----------------------------------------------------------------------------

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/lobby`;
}

function connect() {
  clearTimeout(your.reconnectTimer);
  if (seatsToFollow().length === 0 && !your.signedIn) {
    // Nothing held, nobody signed in: no socket. A seat stored later (a claim in another
    // tab) or a sign-in opens one.
    your.tables = new Map();
    your.yours = new Set();
    render();
    showTitle();
    return;
  }
  const generation = ++your.generation;
  const ws = new WebSocket(socketUrl());
  your.ws = ws;
  ws.addEventListener("open", () => {
    if (generation !== your.generation) return;
    // Read now, not when the socket was asked for: a seat stored meanwhile is in it.
    follow(seatsToFollow());
    clearInterval(your.pingTimer);
    your.pingTimer = setInterval(() => send({ type: "ping" }), PING_EVERY_MS);
  });
  ws.addEventListener("message", (event) => {
    if (generation === your.generation) onMessage(event.data);
  });
  ws.addEventListener("close", () => {
    if (generation !== your.generation) return;
    clearInterval(your.pingTimer);
    your.ws = null;
    // Back off, with a little jitter, so a server that is down is not hammered.
    const wait = Math.min(your.backoff, BACKOFF_MAX_MS) * (0.8 + Math.random() * 0.4);
    your.backoff = Math.min(your.backoff * 2, BACKOFF_MAX_MS);
    your.reconnectTimer = setTimeout(connect, wait);
  });
}

function send(message) {
  if (!your.ws || your.ws.readyState !== WebSocket.OPEN) return false;
  your.ws.send(JSON.stringify(message));
  return true;
}

function follow(seats) {
  your.sent = [...new Set(seats.map((s) => s.table))];
  send({ type: "follow", seats });
}

/** Signed in or out (in this page's header, or in another tab): a new socket, whose
 *  handshake carries the cookie as it is now, follows again; the old one is let go. */
function connectAnew() {
  const old = your.ws;
  your.generation += 1; // the old socket's messages and close are no longer heard
  your.ws = null;
  clearInterval(your.pingTimer);
  if (old) old.close();
  your.backoff = BACKOFF_FIRST_MS;
  your.heard = false; // the account's turns in the next answer were theirs already
  connect();
}

/** The seats this browser holds changed (a table opened, a seat claimed in another tab, a
 *  rematch carried over): follow them all again, once for a burst. */
export function followAgain() {
  clearTimeout(your.followTimer);
  your.followTimer = setTimeout(() => {
    if (your.ws && your.ws.readyState === WebSocket.OPEN) follow(seatsToFollow());
    else if (!your.ws) {
      your.backoff = BACKOFF_FIRST_MS;
      connect();
    }
  }, FOLLOW_AGAIN_MS);
}

function onMessage(raw) {
  let message;
  try {
    message = JSON.parse(raw);
  } catch {
    return;
  }
  if (!message || typeof message.type !== "string") return;
  if (message.type === "tables" && Array.isArray(message.tables)) {
    your.backoff = BACKOFF_FIRST_MS;
    your.tables = new Map();
    for (const entry of message.tables) keep(entry);
    noteSeen(true);
  } else if (message.type === "table" && message.table) {
    keep(message.table);
    noteSeen(false);
  } else if (message.type === "gone") {
    your.tables.delete(message.table);
  } else if (message.type === "error") {
    console.warn(`your tables: ${message.message}`);
    return;
  } else {
    return; // "pong": the connection is alive
  }
  render();
  noteTurns();
}

function keep(entry) {
  if (!entry || typeof entry.id !== "string") return;
  your.tables.set(entry.id, { ...entry, receivedAt: performance.now() });
  carryRematch(entry);
}

/** A finished table's rematch keeps its seats' credentials: this browser holds them there
 *  too, as the table page's "Go to the rematch" would carry them (table/rematch.js). */
function carryRematch(entry) {
  if (typeof entry.rematch !== "string" || !entry.rematch) return;
  const here = storedSeats(entry.id).credentials;
  const there = storedSeats(entry.rematch).credentials;
  let carried = false;
  for (const seat of entry.mine || []) {
    const credential = here[String(seat)];
    if (credential && !there[String(seat)]) {
      rememberSeat(entry.rematch, seat, credential);
      carried = true;
    }
  }
  if (carried) followAgain();
}

// -- while the page is hidden ------------------------------------------------------------

/** The tables that became this person's since the last message, told while the page is
 *  hidden; the title counts every table waiting on them. */
function noteTurns() {
  const now = new Set([...your.tables.values()].filter((t) => t.your_turn).map((t) => t.id));
  if (your.heard && document.hidden) {
    for (const id of now) {
      if (!your.yours.has(id)) tell(your.tables.get(id));
    }
  }
  your.heard = true;
  your.yours = now;
  showTitle();
}

function tell(entry) {
  const others = (entry.seats || [])
    .filter((s) => !(entry.mine || []).includes(s.seat) && s.agent === "human")
    .map((s) => seatLabel(s.seat, entry.seats));
  notifyTurn({
    title: `Your turn: ${entry.title}`,
    body: others.length ? `with ${others.join(", ")} · table ${entry.id}` : `table ${entry.id}`,
    tag: `tavernkeep:turn:${entry.id}`,
    url: seatUrl(entry.id, mySeat(entry)),
  });
}

function showTitle() {
  const count = your.yours.size;
  document.title = document.hidden && count > 0 ? `(${count}) Your turn — tavernkeep` : BASE_TITLE;
}

// -- drawing ---------------------------------------------------------------------------------

function seatUrl(id, seat) {
  return `/table/${encodeURIComponent(id)}#seat=${seat}`;
}

/** The seat to open a table as: the deciding one of this browser's, else its first. */
function mySeat(entry) {
  const mine = entry.mine || [];
  return mine.includes(entry.actor) ? entry.actor : mine[0];
}

function underWay(entry) {
  return entry.status === "playing" || entry.status === "waiting";
}

function render() {
  const section = $("your-tables");
  if (!section) return;
  const all = [...your.tables.values()];
  section.hidden = all.length === 0;
  renderNotify();
  if (all.length === 0) {
    replace($("your-tables-list")); // nothing left to show (signed out, a seat gone)
    return;
  }
  const clockLeft = (t) => (t.clock ? t.clock.left : Infinity);
  // Theirs first, the least time left (then the longest waiting) first.
  const turns = all.filter((t) => t.your_turn).sort((a, b) => clockLeft(a) - clockLeft(b) || a.at - b.at);
  const waiting = all.filter((t) => !t.your_turn && underWay(t)).sort((a, b) => b.at - a.at);
  const over = all.filter((t) => !underWay(t)).sort((a, b) => b.at - a.at);
  const shown = over.slice(0, FINISHED_SHOWN);
  const more = over.length - shown.length;
  replace(
    $("your-tables-list"),
    group("your-turn", "Your turn", turns),
    group("waiting-on-others", "Waiting on others", waiting),
    group(
      "finished",
      "Finished",
      shown,
      more > 0 ? h("p", { class: "hint", text: `and ${more} more finished` }) : null,
    ),
  );
  tickClocks();
}

function group(name, title, entries, extra = null) {
  if (entries.length === 0) return null;
  return h(
    "div",
    { class: `your-tables-group ${name}` },
    h("h3", { text: title }),
    h("ul", { class: "table-list" }, entries.map(tableRow)),
    extra,
  );
}

function tableRow(entry) {
  const seats = Array.isArray(entry.seats) ? entry.seats : [];
  const mine = Array.isArray(entry.mine) ? entry.mine : [];
  return h(
    "li",
    { class: `table-item${entry.your_turn ? " your-turn" : ""}`, dataset: { table: entry.id } },
    h(
      "div",
      { class: "table-item-head" },
      h("strong", { text: entry.title || entry.game }),
      h("code", { class: "muted", text: entry.id }),
      whoDecides(entry, seats, mine),
      entry.clock ? h("span", { class: "turn-clock", title: "the deciding seat's clock" }) : null,
    ),
    h("ul", { class: "seat-chips chip-row" }, seats.map((seat) => seatChip(seat, entry, mine))),
    entry.headline ? resultLine(entry, seats) : null,
    h("div", { class: "table-item-links" }, links(entry, mine)),
  );
}

function whoDecides(entry, seats, mine) {
  if (entry.your_turn) return h("span", { class: "badge your-turn", text: "Your turn" });
  if (entry.status === "waiting") {
    const open = seats.filter((s) => s.open).length;
    const text = open ? `Waiting for players · ${open} open seat${open === 1 ? "" : "s"}` : "Waiting for everyone to arrive";
    return h("span", { class: "badge looking", text });
  }
  if (entry.status === "finished") return h("span", { class: "badge over", text: "Finished" });
  if (entry.status === "closed") return h("span", { class: "badge over", text: "Closed by its host" });
  if (entry.status === "archived") return h("span", { class: "badge over", text: "Archived" });
  if (entry.actor === null || entry.actor === undefined) return null;
  const deciding = seats.find((s) => s.seat === entry.actor);
  if (mine.includes(entry.actor)) {
    const text = entry.passing ? "the table passes for you" : "a bot plays your seat until you are back";
    return h("span", { class: "muted", text });
  }
  const who = seatLabel(entry.actor, seats);
  if (deciding && deciding.agent !== "human") return h("span", { class: "muted", text: `${who} (${agentLabel(deciding.agent)}) decides` });
  return h("span", { class: "muted", text: `${who} decides` });
}

function seatChip(seat, entry, mine) {
  const yours = mine.includes(seat.seat);
  const person = seat.agent === "human";
  let label = seatLabel(seat.seat, entry.seats);
  if (!person) label = `${playerName(seat.seat)} · ${agentLabel(seat.agent)}`;
  else if (seat.open) label = `${playerName(seat.seat)} · open`;
  const classes = ["seat-chip", `seat-${seat.seat % 6}`];
  if (yours) classes.push("mine");
  if (entry.actor === seat.seat) classes.push("deciding");
  if (!person) classes.push("bot");
  return h(
    "li",
    { class: classes.join(" "), title: entry.actor === seat.seat ? "deciding now" : "" },
    h("span", { class: "seat-swatch" }),
    label,
    yours ? h("span", { class: "seat-chip-name", text: " · you" }) : null,
  );
}

function resultLine(entry, seats) {
  const winners = (entry.result && entry.result.winners) || [];
  const mine = entry.mine || [];
  const won = entry.result && (entry.result.won === true || winners.some((s) => mine.includes(s)));
  return h(
    "p",
    { class: "table-result" },
    won ? h("span", { class: "crown", "aria-hidden": "true", text: "♛ " }) : null,
    withSeatNames(entry.headline, seats),
    entry.result && entry.result.reason ? h("span", { class: "muted", text: ` — ${withSeatNames(entry.result.reason, seats)}` }) : null,
  );
}

/** Whether this browser holds a credential for the seat (else it is its account's alone,
 *  claimed on another device: taken here as it is opened). */
function held(entry, seat) {
  return Boolean(storedSeats(entry.id).credentials[String(seat)]);
}

/** The way to a seat's table: a link where this browser holds the seat, else a button
 *  that takes the account's seat for this browser first. */
function seatLink(entry, seat, text, kind) {
  if (held(entry, seat)) return h("a", { class: `button ${kind}`, href: seatUrl(entry.id, seat), text });
  return h("button", {
    type: "button",
    class: `button ${kind} take-seat`,
    text,
    title: `${playerName(seat)}'s seat is your account's: this browser takes it (signed in), then opens the table`,
    onclick: async (event) => {
      const button = event.currentTarget;
      button.disabled = true;
      try {
        await takeSeat(entry, seat);
        location.assign(seatUrl(entry.id, seat));
      } catch (error) {
        button.disabled = false;
        button.title = `Not taken: ${error.message}`;
        button.textContent = `${text} (failed: try again)`;
      }
    },
  });
}

/** A credential of this browser's own for one of its account's seats (server/accounts.py). */
async function takeSeat(entry, seat) {
  const taken = await api(`/api/tables/${encodeURIComponent(entry.id)}/seats/${seat}/take`, { json: {} });
  rememberSeat(entry.id, seat, taken.token, { last: true });
  return taken.token;
}

function links(entry, mine) {
  const out = [];
  if (underWay(entry)) {
    for (const seat of mine.length > 1 ? mine : [mySeat(entry)]) {
      const text = mine.length > 1 ? `Play ${playerName(seat)}` : entry.your_turn ? "Play" : "Open";
      out.push(seatLink(entry, seat, text, entry.your_turn ? "primary" : "secondary"));
    }
    return out;
  }
  out.push(seatLink(entry, mySeat(entry), "Open", "secondary"));
  out.push(h("a", { class: "button secondary", href: `/replay#table=${encodeURIComponent(entry.id)}`, text: "Replay" }));
  if (entry.rematch) {
    out.push(seatLink({ ...entry, id: entry.rematch }, mySeat(entry), "Go to the rematch", "primary"));
  } else if (entry.status === "finished") {
    out.push(
      h("button", {
        type: "button",
        class: "button primary",
        text: "Rematch",
        title: "The same seats and options, a new deal; everyone at the table is invited back.",
        onclick: (event) => openRematch(entry, event.currentTarget),
      }),
    );
  }
  return out;
}

/** Open the rematch as this seat (its credential carries over), then go there. */
async function openRematch(entry, button) {
  const seat = mySeat(entry);
  button.disabled = true;
  try {
    // An account's seat this browser holds no credential for is taken first.
    const token = storedSeats(entry.id).credentials[String(seat)] || (await takeSeat(entry, seat));
    const made = await api(`/api/tables/${encodeURIComponent(entry.id)}/rematch`, { json: { seat, token } });
    carryRematch({ ...entry, rematch: made.id });
    location.assign(seatUrl(made.id, seat));
  } catch (error) {
    button.disabled = false;
    button.title = `No rematch: ${error.message}`;
    button.textContent = "Rematch (failed: try again)";
  }
}

// -- the deciding seats' clocks ------------------------------------------------------------

function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Count each running clock down from when its entry came, once a second. */
function tickClocks() {
  clearTimeout(your.clockTimer);
  let running = false;
  for (const node of document.querySelectorAll("#your-tables .turn-clock")) {
    const entry = your.tables.get(node.closest("[data-table]").dataset.table);
    if (!entry || !entry.clock) continue;
    const spent = entry.clock.running ? (performance.now() - entry.receivedAt) / 1000 : 0;
    node.textContent = `${clockText(entry.clock.left - spent)} left`;
    running = running || entry.clock.running;
  }
  if (running) your.clockTimer = setTimeout(tickClocks, 1000);
}

// -- being told ------------------------------------------------------------------------------

function renderNotify() {
  const button = $("notify-button");
  const note = $("notify-state");
  if (!button || !note) return;
  const permission = notifyPermission();
  button.hidden = permission !== "default";
  note.hidden = permission !== "granted" && permission !== "denied";
  if (permission === "granted") note.textContent = "This browser tells you when it is your turn.";
  if (permission === "denied") note.textContent = "Notifications are off for this site in the browser's settings.";
}

// -- start -------------------------------------------------------------------------------------

export function startYourTables() {
  const button = $("notify-button");
  if (button) {
    // Asked on this click alone, never as the page loads.
    button.addEventListener("click", async () => {
      await askToNotify();
      renderNotify();
    });
  }
  document.addEventListener("visibilitychange", showTitle);
  // A seat claimed or a table opened in another tab of this browser; or a sign-in or
  // sign-out there, which a new socket's handshake carries.
  window.addEventListener("storage", (event) => {
    if (event.key === ACCOUNT_KEY) {
      your.signedIn = signedInSaid(event.newValue, your.signedIn);
      connectAnew();
    } else if (event.key === null || event.key.startsWith(SEATS_PREFIX)) followAgain();
  });
  // The lobby's header found who is signed in (account_link.js): said as an event, and
  // on the page for a header that answered before this started.
  your.signedIn = document.documentElement.dataset.account === "signed-in";
  document.addEventListener("tavernkeep:account", (event) => {
    const signedIn = Boolean(event.detail && event.detail.signedIn);
    if (signedIn === your.signedIn) return;
    your.signedIn = signedIn;
    if (signedIn && !your.ws) connectAnew();
  });
  connect();
}

/** Whether the account page's note (ACCOUNT_KEY) says this browser is signed in. */
function signedInSaid(raw, otherwise) {
  try {
    const said = JSON.parse(raw || "null");
    return said && typeof said.signed_in === "boolean" ? said.signed_in : otherwise;
  } catch {
    return otherwise;
  }
}
