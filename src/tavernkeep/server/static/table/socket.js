// The table page's connection: the table's WebSocket, joined as a seat (with the
// credential this browser holds for it) or as a spectator; the status shown in the top
// bar; reconnecting with a back-off after a blip; and `send`. Each message the server
// sends is handed, as it came, to the handler table.js gives `receiveWith`.

import { storedName } from "../dom.js";
import { renderActions } from "./decision.js";
import { $, app, BACKOFF_FIRST_MS, BACKOFF_MAX_MS, tableId } from "./state.js";

/** Where each message goes (table.js's onMessage), set once before the first connect. */
let receive = null;

export function receiveWith(handler) {
  receive = handler;
}

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
}

export function connect() {
  clearTimeout(app.reconnectTimer);
  if (app.fatal) return;
  const generation = ++app.generation;
  const ws = new WebSocket(socketUrl());
  app.ws = ws;
  app.welcomed = false;
  setStatus("connecting", "connecting…");

  ws.addEventListener("open", () => {
    if (generation !== app.generation) return;
    const join = app.identity
      ? { type: "join", seat: app.identity.seat, token: app.identity.token }
      : { type: "join" };
    // The name goes with the join, so the seat is named before anyone sees it.
    const name = storedName();
    if (name) join.name = name;
    ws.send(JSON.stringify(join));
    setStatus("connecting", "joining…");
  });
  ws.addEventListener("message", (event) => {
    if (generation !== app.generation) return;
    receive(event.data);
  });
  ws.addEventListener("close", () => {
    if (generation !== app.generation) return;
    onClose();
  });
}

/** Close the current socket on purpose (switching seats): its close is not a blip. */
export function disconnect() {
  app.generation++;
  clearInterval(app.pingTimer);
  if (app.ws) app.ws.close(1000);
  app.ws = null;
}

function onClose() {
  clearInterval(app.pingTimer);
  app.pending = false;
  // Nothing can be sent until the server is back: cards stop looking clickable.
  $("game").classList.add("busy");
  if (app.fatal) {
    setStatus("closed", "closed");
    return;
  }
  // Back off so a server that is down is not hammered; a little jitter keeps a whole
  // table of browsers from reconnecting in the same instant after a restart.
  const wait = Math.min(app.backoff, BACKOFF_MAX_MS) * (0.8 + Math.random() * 0.4);
  app.backoff = Math.min(app.backoff * 2, BACKOFF_MAX_MS);
  setStatus("offline", `reconnecting in ${Math.max(1, Math.round(wait / 1000))} s`);
  renderActions();
  app.reconnectTimer = setTimeout(connect, wait);
}

/** Reconnect now rather than at the end of the back-off (network is back, tab is shown). */
export function reconnectSoon() {
  if (app.fatal) return;
  if (!app.ws || app.ws.readyState === WebSocket.CLOSED) {
    app.backoff = BACKOFF_FIRST_MS;
    connect();
  }
}

export function send(message) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) return false;
  app.ws.send(JSON.stringify(message));
  return true;
}

export function setStatus(kind, text) {
  const node = $("conn");
  node.className = `conn ${kind}`;
  node.textContent = text;
}
