// The table page's state: the one `app` object every part of the page reads and writes,
// the table's id (from the address), the connection's timings, and what the page reads
// from the state it was sent (the seats, the table's status, the seats' names in a game's
// text). It imports none of the page's parts, so any of them may import it.

import { seatLabel, withSeatNames } from "../dom.js";
import { generic } from "../renderers/index.js";

export const $ = (id) => document.getElementById(id);

export const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
export const BACKOFF_FIRST_MS = 500;
export const BACKOFF_MAX_MS = 10000;
export const PING_EVERY_MS = 25000;

function storedFlag(key) {
  try {
    return localStorage.getItem(key) === "1";
  } catch {
    return false;
  }
}

export const app = {
  identity: null, // {seat, token} to act for a seat, null to watch
  ws: null,
  generation: 0, // bumps on every new socket, so a stale socket's events are ignored
  backoff: BACKOFF_FIRST_MS,
  reconnectTimer: null,
  pingTimer: null,
  fatal: false,
  welcomed: false,
  seat: null, // the seat the server accepted (null: spectator)
  table: null, // the table summary from welcome
  state: null, // the last state message
  version: null,
  pending: false, // an action was sent and its state has not come back yet
  queue: [], // server messages waiting to be shown, in order
  draining: false,
  renderer: generic,
  gamesMeta: null,
  kind: null, // competitive, cooperative or solo, from the lobby API
  host: null, // the table's host key, if this browser opened the table
  welcomes: 0, // welcomes shown on this page: after the first, the table was sent again
  chatShown: new Set(), // indices of the chat lines shown, so a resent table adds only news
  noticesLogged: [], // the notices this page put in its log, in order
  seatsAt: 0, // performance.now() when the seats (and their clocks) last came
  clockTimer: null,
  rematch: null, // the rematch's table id, once one is open
  reissued: null, // {seat, url}: the invite the host just made, shown until replaced
  adviceOn: storedFlag("tavernkeep:advice"), // the person's choice, kept by this browser
  advice: null, // {version, byAction: {action: {win, tried}}}: the tutor's last answer
  choiceRules: null, // {kind: {id, title}}: the rules' section for each kind of choice
  adviceAsked: null, // the version the tutor was last asked about
};

/** The seat entries as last sent: names, presence, stand-ins and clocks. */
export function currentSeats() {
  return (app.state && app.state.seats) || (app.table && app.table.seats) || [];
}

/** The table's status as last sent: waiting, playing, finished, closed or archived. */
export function tableStatus() {
  return (app.state && app.state.status) || (app.table && app.table.status) || "playing";
}

/** A game's text with each named seat called as the seats panel calls it: "Bea rolls".
 *  The game says "Player 2"; the name is the person's, put in by the page. */
export function withNames(text) {
  return withSeatNames(text, currentSeats());
}

/** An event whose text calls each seat as the page does (for the dice tray's caption). */
export function named(event) {
  return event.text ? { ...event, text: withNames(event.text) } : event;
}

/** Every seat as the page names it, for the game's renderer: one way of naming a seat on
 *  the board, in the log, the seats and the result (`seatLabel`). */
export function seatNames() {
  const seats = currentSeats();
  const count = Math.max(seats.length, Number(app.state?.view?.players) || 0);
  return Array.from({ length: count }, (_, seat) => seatLabel(seat, seats));
}

export function competitive() {
  return app.kind === "competitive";
}
