// The table: one frame for every game. It joins the table's WebSocket as a seat (with
// the credential this browser holds for it, claimed by opening the seat's invite) or as a
// spectator, then draws what the server sends: seats, the game (by the game's renderer),
// the legal actions, the log, the dice and the result. See server/PROTOCOL.md.
//
// This module is the page's entry: it keeps the way a message goes from the socket to the
// page's parts (read top to bottom: onMessage, the queue, then each kind of message shown)
// and starts the page. The parts are modules in table/:
//   state.js     the page's state (`app`), the table's id, what the page reads of the state
//   socket.js    the connection: joining, reconnecting, `send`, the status in the top bar
//   identity.js  who the page is: the seat from the address, the top bar, switching seats,
//                the hot seat
//   board.js     the game's renderer and the board it draws
//   decision.js  the decision bar: the prompt, the choices, the number keys, `act`
//   takeback.js  the take-back button below the choices
//   advice.js    the tutor: each choice's chance to win, for those who ask
//   seats.js     the seats panel and the name form
//   pack.js      the pack the table plays, where it is a designer's, and what it changes
//   clocks.js    the seats' clocks, counted down between messages
//   host.js      the host's tools
//   log.js       the game log
//   chat.js      the table's talk
//   result.js    the result banner
//   rematch.js   the rematch
//   notices.js   the notice bar and toasts
//   turn_alert.js  the notification of a turn, while the page is hidden

import { forgetSeat, h, playerName, replace, storedHost, storedName } from "./dom.js";
import { DiceTray } from "./dice.js";
import { askAdvice, onAdvice } from "./table/advice.js";
import { loadRenderer, renderGame } from "./table/board.js";
import { onChatSubmit, renderChatForm, showChatLine } from "./table/chat.js";
import { onKey, renderActions } from "./table/decision.js";
import { followDecision, onHashChange, renderHeader, resolveIdentity, switchSeat, watchBecause } from "./table/identity.js";
import { addLogLine, addNoticeLine, scrollLog, watchLogScroll } from "./table/log.js";
import { toast } from "./table/notices.js";
import { renderPack } from "./table/pack.js";
import { onRematch } from "./table/rematch.js";
import { renderBanner } from "./table/result.js";
import { onNameSubmit, renderSeats } from "./table/seats.js";
import { connect, receiveWith, reconnectSoon, send, setStatus } from "./table/socket.js";
import { $, app, BACKOFF_FIRST_MS, named, PING_EVERY_MS, tableId } from "./table/state.js";
import { alertTurn } from "./table/turn_alert.js";

// With this many messages waiting, the table is catching up (a slow tab, a burst of bot
// moves): dice land at once instead of tumbling, so the board is never far behind.
const CATCH_UP_AT = 6;

const tray = new DiceTray($("dice-tray"));

// -- a message from the socket ------------------------------------------------------------

function onMessage(raw) {
  let message;
  try {
    message = JSON.parse(raw);
  } catch {
    return;
  }
  if (!message || typeof message.type !== "string") return;
  if (message.type === "error") {
    onError(message);
  } else if (message.type === "welcome") {
    // A welcome starts the table afresh: anything still queued is already in its log.
    app.queue.length = 0;
    app.welcomed = true;
    app.backoff = BACKOFF_FIRST_MS;
    enqueue(message);
  } else if (message.type === "undone") {
    // A decision was taken back: what is queued was shown from a table that no longer
    // is; the welcome and state that follow show the table as it stands.
    app.queue.length = 0;
    app.pending = false;
  } else if (message.type === "advice") {
    onAdvice(message);
  } else if (message.type === "rematch") {
    onRematch(message.table);
  } else if (["events", "state", "seats", "chat"].includes(message.type)) {
    enqueue(message);
  }
  // "pong" needs nothing: it kept the connection alive.
}

/** A refused message, or (before the welcome) a refused join. */
function onError(message) {
  const text = String(message.message || "the server refused that");
  if (app.welcomed) {
    app.pending = false;
    renderActions();
    toast(text);
    return;
  }
  if (app.identity) {
    // The seat's credential was refused: watch instead, and stop offering it.
    forgetSeat(tableId, app.identity.seat);
    watchBecause(`${playerName(app.identity.seat)}'s seat refused this browser: ${text}`);
    app.identity = null;
    app.backoff = BACKOFF_FIRST_MS;
    return; // the server closes the socket; onClose reconnects as a spectator
  }
  // Even a spectator was refused: the table does not exist.
  app.fatal = true;
  $("game-title").textContent = "No such table";
  replace(
    $("game"),
    h(
      "div",
      { class: "panel notice" },
      h("p", { text: `The server says: ${text}.` }),
      h("p", {}, h("a", { href: "/", text: "Back to the lobby" })),
    ),
  );
  $("prompt").textContent = "";
}

// -- showing messages in order ------------------------------------------------------------
// Messages are shown one after another; a roll holds back what it decided (the log line,
// the next board) until its dice have landed, so nobody reads the result before seeing it.

function enqueue(message) {
  app.queue.push(message);
  if (!app.draining) drain();
}

async function drain() {
  app.draining = true;
  try {
    while (app.queue.length > 0) {
      const message = app.queue.shift();
      try {
        await show(message);
      } catch (error) {
        console.error("could not show", message.type, error);
      }
    }
  } finally {
    app.draining = false;
  }
}

async function show(message) {
  if (message.type === "welcome") await showWelcome(message);
  else if (message.type === "events") await showEvents(message.events || []);
  else if (message.type === "state") showState(message);
  else if (message.type === "seats") showSeats(message.seats);
  else if (message.type === "chat") showChatLine(message.line, { live: true });
}

/** Someone came or went: only the seats panel changes. */
function showSeats(seats) {
  if (!Array.isArray(seats)) return;
  if (app.table) app.table.seats = seats;
  if (app.state) app.state = { ...app.state, seats };
  app.seatsAt = performance.now();
  renderHeader();
  renderSeats();
  renderActions();
}

async function showWelcome(message) {
  app.seat = message.seat ?? null;
  app.table = message.table || null;
  // A page back at a finished table whose rematch is open: "Go to the rematch".
  if (typeof message.rematch === "string" && message.rematch) app.rematch = message.rematch;
  setStatus("online", "connected");
  clearInterval(app.pingTimer);
  app.pingTimer = setInterval(() => send({ type: "ping" }), PING_EVERY_MS);
  if (app.table) app.renderer = await loadRenderer(app.table.game);
  app.seatsAt = performance.now();
  renderHeader();
  renderSeats();
  renderPack();
  replace($("log"));
  const log = message.log || [];
  log.forEach(addLogLine);
  for (const text of app.noticesLogged) addNoticeLine(text, { keep: false });
  // The first welcome's notices are history, in the chat; a table sent again (a decision
  // taken back, a reconnect) also logs the notices this page has not shown yet.
  const again = app.welcomes > 0;
  app.welcomes += 1;
  if (!again) replace($("chat"));
  for (const line of message.chat || []) showChatLine(line, { live: again });
  renderChatForm();
  const lastRoll = [...log].reverse().find(hasDice);
  if (lastRoll) await tray.roll(named(lastRoll), { animate: false });
  scrollLog(true);
}

async function showEvents(events) {
  for (const event of events) {
    if (hasDice(event)) {
      const animate = !document.hidden && app.queue.length < CATCH_UP_AT;
      await tray.roll(named(event), { animate });
    }
    addLogLine(event);
    scrollLog(false);
  }
}

function showState(message) {
  const before = app.state ? app.state.actor : undefined;
  app.state = message;
  app.version = message.version;
  app.pending = false;
  if (app.table && Array.isArray(message.seats)) app.table.seats = message.seats;
  if (app.table && typeof message.status === "string") app.table.status = message.status;
  app.seatsAt = performance.now();
  renderHeader();
  renderSeats();
  renderGame();
  renderActions();
  renderBanner();
  askAdvice();
  alertTurn(message);
  if (message.actor !== before) followDecision(message);
}

function hasDice(event) {
  return Boolean(event && event.data && Array.isArray(event.data.dice) && event.data.dice.length);
}

// -- start ----------------------------------------------------------------------------------

async function start() {
  $("table-id").textContent = `table ${tableId}`;
  app.host = storedHost(tableId);
  $("my-name").value = storedName();
  $("name-form").addEventListener("submit", onNameSubmit);
  $("chat-form").addEventListener("submit", onChatSubmit);
  renderChatForm();
  app.identity = await resolveIdentity();
  watchLogScroll();
  document.addEventListener("keydown", onKey);
  $("seat-switch").addEventListener("change", (event) => switchSeat(event.target.value));
  window.addEventListener("hashchange", onHashChange);
  window.addEventListener("online", reconnectSoon);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) reconnectSoon();
  });
  receiveWith(onMessage);
  connect();
}

start();
