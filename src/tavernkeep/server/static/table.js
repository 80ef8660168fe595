// The table: one frame for every game. It joins the table's WebSocket as a seat (with
// the credential this browser holds for it, claimed by opening the seat's invite) or as a
// spectator, then draws what the server sends: seats, the game (by the game's renderer),
// the legal actions, the log, the dice and the result. See server/PROTOCOL.md.

import {
  agentLabel,
  api,
  copyField,
  forgetSeat,
  h,
  humanize,
  nameLabel,
  oddsText,
  percent,
  playerName,
  rememberHost,
  rememberLast,
  rememberName,
  rememberSeat,
  replace,
  seatLabel,
  storedHost,
  storedName,
  storedSeats,
  withSeatNames,
} from "./dom.js";
import { DiceTray, logLine } from "./dice.js";
import { choiceRules, openRules, ruleTips } from "./rules.js";
import { generic, rendererFor } from "./renderers/index.js";

const $ = (id) => document.getElementById(id);

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 10000;
const PING_EVERY_MS = 25000;
// A seat scrolls back through everything it saw this game (the server sends its whole log):
// a six-seat Here to Slay can run to two thousand lines; this bounds only a runaway page.
const LOG_KEEP = 5000;
// With this many messages waiting, the table is catching up (a slow tab, a burst of bot
// moves): dice land at once instead of tumbling, so the board is never far behind.
const CATCH_UP_AT = 6;
const CHAT_KEEP = 300;
// A running clock under this many seconds is drawn as urgent.
const CLOCK_LOW_S = 30;

function storedFlag(key) {
  try {
    return localStorage.getItem(key) === "1";
  } catch {
    return false;
  }
}

const app = {
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

const tray = new DiceTray($("dice-tray"));

// -- who am I? --------------------------------------------------------------------------

/**
 * The seat to join as, from the fragment: `#seat=N&invite=...` (an invite: claimed now,
 * once, for this browser), `#seat=N` (a seat this browser holds), `#watch`, or nothing
 * (the seat used here last, else watch). An invite someone else claimed first, or one
 * that is not valid, leaves the page watching, with a notice that says why.
 */
async function resolveIdentity() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.has("watch") || params.has("spectate")) {
    rememberLast(tableId, null);
    return null;
  }
  const stored = storedSeats(tableId);
  const seatText = params.get("seat");
  // `token` is what invite links said before seats were claimed: still an invite.
  const invite = params.get("invite") || params.get("token");
  if (seatText !== null && /^\d+$/.test(seatText)) {
    const seat = Number(seatText);
    const held = stored.credentials[seatText];
    if (held) {
      rememberLast(tableId, seat);
      showSeatInAddress(seat);
      return { seat, token: held };
    }
    if (invite) {
      try {
        const claimed = await api(`/api/tables/${encodeURIComponent(tableId)}/claim`, {
          json: { seat, invite },
        });
        rememberSeat(tableId, seat, claimed.token, { last: true });
        // The spent invite leaves the address bar: a reload uses the credential.
        showSeatInAddress(seat);
        return { seat, token: claimed.token };
      } catch (error) {
        watchBecause(error.message);
        return null;
      }
    }
    watchBecause(`this browser does not hold ${playerName(seat)}'s seat`);
    return null;
  }
  const last = stored.last;
  if (last !== null && stored.credentials[String(last)]) {
    return { seat: last, token: stored.credentials[String(last)] };
  }
  return null;
}

function showSeatInAddress(seat) {
  // Replaced, not pushed: the Back button should not step through seats.
  history.replaceState(null, "", `${location.pathname}#seat=${seat}`);
}

/** Watch, and say why in a notice that stays (a toast would go before it is read). */
function watchBecause(reason) {
  const text = String(reason || "").replace(/[.\s]+$/, "");
  setNotice(/watching/.test(text) ? `${capitalize(text)}.` : `${capitalize(text)}: you are watching.`);
  history.replaceState(null, "", `${location.pathname}#watch`);
}

function capitalize(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function setNotice(text) {
  const node = $("notice");
  node.hidden = !text;
  node.textContent = text || "";
}

// -- the connection ---------------------------------------------------------------------

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
}

function connect() {
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
    onMessage(event.data);
  });
  ws.addEventListener("close", () => {
    if (generation !== app.generation) return;
    onClose();
  });
}

/** Close the current socket on purpose (switching seats): its close is not a blip. */
function disconnect() {
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
function reconnectSoon() {
  if (app.fatal) return;
  if (!app.ws || app.ws.readyState === WebSocket.CLOSED) {
    app.backoff = BACKOFF_FIRST_MS;
    connect();
  }
}

function send(message) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) return false;
  app.ws.send(JSON.stringify(message));
  return true;
}

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
  if (message.actor !== before) followDecision(message);
}

// -- the tutor ------------------------------------------------------------------------------
// Opt-in, per browser: with "Advice" on, each decision of this seat asks the server's
// search for every choice's chance to win, worked out from this seat's view alone (the
// table may not allow it: by default a table with clocks does not).

function adviceAllowed() {
  const settings = (app.table && app.table.settings) || {};
  if (typeof settings.advice === "boolean") return settings.advice;
  return !settings.clock;
}

function askAdvice() {
  const state = app.state;
  if (!app.adviceOn || !adviceAllowed() || app.seat === null || !state) return;
  if (!(state.legal || []).length || app.adviceAsked === state.version) return;
  if (app.advice && app.advice.version === state.version) return;
  if (send({ type: "advice" })) app.adviceAsked = state.version;
}

function onAdvice(message) {
  if (!app.state || message.version !== app.state.version || !Array.isArray(message.options)) return;
  const byAction = {};
  for (const option of message.options) {
    if (option && typeof option.action === "string") byAction[option.action] = option;
  }
  app.advice = { version: message.version, byAction };
  renderActions();
}

/** The tutor's word on one choice, if it has given it for this decision. */
function adviceFor(action) {
  if (!app.adviceOn || !app.advice || !app.state || app.advice.version !== app.state.version) return null;
  return app.advice.byAction[action] || null;
}

/**
 * "Pass on Modifiers until my turn": in a window that asks every seat in turn (the game's
 * `reaction_kinds`), the person may stop being asked. The server passes for them after
 * the same pause as for a seat with nothing to play, so the table cannot tell the two
 * apart; it asks them again from their turn on. Said to this seat alone.
 */
function passOnToggle(state, legal, disabled) {
  const reactions = (app.table && app.table.reactions) || {};
  const passingOn = state && state.passing_on;
  if (passingOn && reactions[passingOn]) {
    return h(
      "p",
      { class: "hint passing-on" },
      `You pass on ${reactions[passingOn]} until your turn. `,
      h("button", {
        type: "button",
        class: "button secondary",
        id: "ask-again",
        text: "Ask me again",
        disabled,
        onclick: () => send({ type: "pass_on", kind: null }),
      }),
    );
  }
  const kind = state && state.decision;
  if (!kind || !reactions[kind] || !legal.some((entry) => entry.action === "pass")) return null;
  return h(
    "label",
    { class: "advice-toggle pass-on-toggle" },
    h("input", {
      type: "checkbox",
      id: "pass-on",
      disabled,
      onchange: (event) => {
        if (event.target.checked && send({ type: "pass_on", kind })) {
          app.pending = true;
          renderActions();
        }
      },
    }),
    ` Pass on ${reactions[kind]} until my turn`,
  );
}

function adviceToggle(legal) {
  if (app.seat === null || !adviceAllowed()) return null;
  const waiting = app.adviceOn && legal.length && !adviceFor(legal[0].action);
  return h(
    "label",
    { class: "advice-toggle", title: "The search's estimate of each choice's chance to win, from what your seat can see." },
    h("input", {
      type: "checkbox",
      id: "advice-toggle",
      checked: app.adviceOn,
      onchange: (event) => {
        app.adviceOn = event.target.checked;
        try {
          localStorage.setItem("tavernkeep:advice", app.adviceOn ? "1" : "0");
        } catch {
          // storage disabled: the choice lasts as long as the page
        }
        askAdvice();
        renderActions();
      },
    }),
    " Advice",
    waiting ? h("span", { class: "muted", text: " · thinking…" }) : null,
  );
}

/**
 * Hot seat: seats the table's creator marked at setup as played on their device (a
 * co-operative party, a pass-and-play table) need no switching by hand. When the
 * decision passes to another such seat this browser holds, the page moves to it. Only
 * those seats: a seat claimed by someone else's browser is never followed, and every
 * seat is shown which seats share a device. In a competitive game the board is covered
 * until the next player says they have the device, so nobody sees a hand not theirs.
 */
function followDecision(state) {
  const actor = state.actor;
  if (app.seat === null || actor === null || actor === undefined || actor === app.seat) return;
  const seats = state.seats || [];
  const target = seats.find((s) => s.seat === actor);
  const mine = seats.find((s) => s.seat === app.seat);
  const credential = storedSeats(tableId).credentials[String(actor)];
  if (!credential || !target || !target.device || !mine || !mine.device) return;
  showSeatInAddress(actor);
  rejoin({ cover: competitive() });
}

function competitive() {
  return app.kind === "competitive";
}

/** Cover the table until the person whose seat it now is says they hold the device. */
function coverFor(seat) {
  const cover = $("pass-cover");
  const ready = h("button", {
    type: "button",
    class: "button primary",
    text: `I am ${playerName(seat)}`,
    onclick: () => {
      cover.hidden = true;
      document.body.classList.remove("covered");
      // On to the decision: the keyboard goes where the choices are.
      $("decision-title").focus({ preventScroll: true });
    },
  });
  replace(
    cover,
    h(
      "div",
      { class: "panel dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "pass-cover-title" },
      h("h2", { id: "pass-cover-title", text: `Pass the device to ${playerName(seat)}` }),
      h("p", { text: "Their hand is hidden until they are ready." }),
      ready,
    ),
  );
  cover.hidden = false;
  document.body.classList.add("covered");
  // The cover is all there is to do: a keyboard (or a screen reader) starts on its button.
  ready.focus();
}

function hasDice(event) {
  return Boolean(event && event.data && Array.isArray(event.data.dice) && event.data.dice.length);
}

/** The game's renderer and look, knowing from the lobby API which of them it has. */
async function loadRenderer(gameName) {
  if (!app.gamesMeta) {
    app.gamesMeta = api("/api/games").catch(() => []);
  }
  const games = await app.gamesMeta;
  const meta = Array.isArray(games) ? games.find((g) => g.name === gameName) : null;
  if (meta && app.table && !app.table.title) app.table.title = meta.title;
  if (meta) app.kind = meta.kind;
  // The rules open beside the board: a person mid-game reads them and plays on.
  const rules = $("rules-button");
  rules.disabled = !(meta && meta.rules);
  rules.onclick = () => openRules(gameName);
  // A card, a suit, a hex on the board shows its rule when pointed at.
  if (meta && meta.rules) ruleTips($("game"), gameName);
  if (meta && meta.rules && !app.choiceRules) {
    // Each choice links to the rule that explains it, once the rules have come.
    choiceRules(gameName)
      .then((found) => {
        app.choiceRules = found;
        renderActions();
      })
      .catch(() => {});
  }
  return rendererFor(gameName, {
    renderer: meta ? meta.renderer !== false : true,
    stylesheet: meta ? meta.stylesheet !== false : true,
  });
}

// -- actions ----------------------------------------------------------------------------

/** Send an action against the version shown; buttons stay off until the next state. */
function act(action) {
  if (app.pending || app.version === null || !app.state) return;
  const legal = (app.state.legal || []).some((entry) => entry.action === action);
  if (!legal) return;
  if (!send({ type: "action", action, version: app.version })) {
    toast("Not connected: the action was not sent.");
    return;
  }
  app.pending = true;
  renderActions();
  $("game").classList.add("busy");
}

function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  // Under the pass-and-play cover, a number key must not decide for the next player.
  if (document.body.classList.contains("covered")) return;
  const target = event.target;
  if (target && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
  if (target && target.isContentEditable) return;
  if (event.key === "Escape") {
    document.querySelectorAll(".toast").forEach((node) => node.remove());
    return;
  }
  if (!/^[1-9]$/.test(event.key)) return;
  const legal = (app.state && app.state.legal) || [];
  const entry = legal[Number(event.key) - 1];
  if (entry) {
    event.preventDefault();
    act(entry.action);
  }
}

// -- drawing ------------------------------------------------------------------------------

/** The seat entries as last sent: names, presence, stand-ins and clocks. */
function currentSeats() {
  return (app.state && app.state.seats) || (app.table && app.table.seats) || [];
}

/** The table's status as last sent: waiting, playing, finished, closed or archived. */
function tableStatus() {
  return (app.state && app.state.status) || (app.table && app.table.status) || "playing";
}

/** A game's text with each named seat called as the seats panel calls it: "Bea rolls".
 *  The game says "Player 2"; the name is the person's, put in by the page. */
function withNames(text) {
  return withSeatNames(text, currentSeats());
}

/** Every seat as the page names it, for the game's renderer: one way of naming a seat on
 *  the board, in the log, the seats and the result (`seatLabel`). */
/** An event whose text calls each seat as the page does (for the dice tray's caption). */
function named(event) {
  return event.text ? { ...event, text: withNames(event.text) } : event;
}

function seatNames() {
  const seats = currentSeats();
  const count = Math.max(seats.length, Number(app.state?.view?.players) || 0);
  return Array.from({ length: count }, (_, seat) => seatLabel(seat, seats));
}

function setStatus(kind, text) {
  const node = $("conn");
  node.className = `conn ${kind}`;
  node.textContent = text;
}

function renderHeader() {
  const title = (app.table && app.table.title) || "Table";
  $("game-title").textContent = title;
  $("table-id").textContent = `table ${tableId}`;
  const who = $("who");
  if (app.seat === null) {
    who.className = "who spectator";
    who.textContent = "spectator";
  } else {
    who.className = `who seat-${app.seat % 6}`;
    replace(who, h("span", { class: "seat-swatch" }), `you are ${seatLabel(app.seat, currentSeats())}`);
  }
  const mine = app.state && app.seat !== null && app.state.actor === app.seat;
  document.title = `${mine ? "▶ Your turn · " : ""}${title} · table ${tableId} · tavernkeep`;
  renderSeatSwitch();
}

/** A browser holding several seats (the creator's hot seats) can switch between them. */
function renderSeatSwitch() {
  const stored = storedSeats(tableId);
  const seats = Object.keys(stored.credentials).map(Number).sort((a, b) => a - b);
  const label = $("seat-switch-label");
  // Nothing to switch to when the only seat this browser holds is the one it plays.
  if (seats.length === 0 || (seats.length === 1 && app.seat === seats[0])) {
    label.hidden = true;
    return;
  }
  label.hidden = false;
  const select = $("seat-switch");
  const current = app.seat === null ? "watch" : String(app.seat);
  replace(
    select,
    seats.map((seat) =>
      h("option", { value: String(seat), text: `play as ${playerName(seat)}`, selected: current === String(seat) }),
    ),
    h("option", { value: "watch", text: "watch as spectator", selected: current === "watch" }),
  );
}

/** Join again as the seat the URL fragment (or the seat last used here) names. */
async function rejoin({ cover = false } = {}) {
  app.fatal = false;
  app.backoff = BACKOFF_FIRST_MS;
  disconnect();
  // The choices shown were the old seat's: nothing is offered until the new seat's state.
  if (app.state && (app.state.legal || []).length) {
    app.state = { ...app.state, legal: [] };
    renderGame();
    renderActions();
  }
  setNotice("");
  app.identity = await resolveIdentity();
  if (cover && app.identity) coverFor(app.identity.seat);
  connect();
}

function switchSeat(value) {
  const stored = storedSeats(tableId);
  if (value === "watch") {
    location.hash = "watch";
  } else if (stored.credentials[value]) {
    // Another person's hand is about to show: in a competitive game, cover it first.
    if (competitive() && Number(value) !== app.seat) pendingCover = true;
    location.hash = `seat=${value}`;
  }
  // The hashchange handler reconnects as the chosen seat.
}

let pendingCover = false;

function renderSeats() {
  const state = app.state;
  const seats = currentSeats();
  const result = state && state.result;
  replace(
    $("seats"),
    seats.map((entry) => {
      const seat = entry.seat;
      const classes = [`seat`, `seat-${seat % 6}`];
      if (state && state.actor === seat) classes.push("deciding");
      if (seat === app.seat) classes.push("mine");
      const human = entry.agent === "human";
      if (entry.stand_in) classes.push("stood-in");
      return h(
        "li",
        { class: classes.join(" "), dataset: { seat: String(seat) } },
        h("span", { class: "seat-swatch" }),
        h(
          "span",
          { class: "seat-name", title: seatLabel(seat, seats) },
          seatLabel(seat, seats),
          seat === app.seat ? h("span", { class: "you-tag", text: "you" }) : null,
        ),
        // Your own seat already says "you"; another person's says so in a word that fits.
        h("span", {
          class: "seat-agent",
          text: human ? (seat === app.seat ? "" : "person") : agentLabel(entry.agent),
        }),
        // Every seat sees which seats one device plays, whoever holds it.
        human && entry.device
          ? h("span", {
              class: "badge device-tag",
              text: "on the host's device",
              title: "The table's creator plays this seat on their own device (hot seat).",
            })
          : null,
        result ? seatResult(result, seat) : seatPresence(state, entry, human),
        seatDetail(entry, Boolean(result)),
      );
    }),
  );
  renderTableRules();
  renderHostTools();
  tickClocks();
}

/**
 * The seat's second line, when it has one: its clock, the bot standing in for its person
 * and why, how many of its decisions bots made. Everyone sees the same of every seat.
 */
function seatDetail(entry, over) {
  const parts = [];
  if (entry.clock && !over) {
    parts.push(
      h("span", {
        class: "seat-clock",
        dataset: { left: String(Number(entry.clock.left) || 0), running: entry.clock.running ? "1" : "" },
        title: entry.clock.running ? "time left, running" : "time left",
      }),
    );
  }
  if (entry.stand_in) {
    const why = entry.away === "out of time" ? "out of time" : "left";
    parts.push(
      h("span", {
        class: "stand-in-tag",
        text: `${agentLabel(entry.stand_in)} plays for them (${why})`,
      }),
    );
  }
  if (entry.stood_in) {
    const n = Number(entry.stood_in);
    parts.push(h("span", { class: "stood-in-tag", text: `a bot made ${n} decision${n === 1 ? "" : "s"}` }));
  }
  return parts.length ? h("span", { class: "seat-detail" }, parts) : null;
}

/** Count the running clocks down from the last seats the server sent; it sends them again
 *  at every decision, so the page never drifts far. */
function tickClocks() {
  const since = (performance.now() - app.seatsAt) / 1000;
  let running = false;
  for (const node of document.querySelectorAll("#seats .seat-clock")) {
    const left = Number(node.dataset.left) - (node.dataset.running ? since : 0);
    node.textContent = `${clockText(left)} left`;
    node.classList.toggle("running", Boolean(node.dataset.running));
    node.classList.toggle("low", Boolean(node.dataset.running) && left < CLOCK_LOW_S);
    running = running || Boolean(node.dataset.running);
  }
  clearTimeout(app.clockTimer);
  if (running) app.clockTimer = setTimeout(tickClocks, 250);
}

/** Seconds as a clock reads: "2:05", "1:02:05", "3 d 4 h". */
function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const pad = (n) => String(n).padStart(2, "0");
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

/** What every seat should know about how this table was set up: who chose the deal,
 *  and the variants it is played with. */
function renderTableRules() {
  const table = app.table || {};
  const lines = [];
  if (table.deal === "chosen") {
    lines.push(
      h("li", {
        class: "deal-chosen",
        text: "Deal chosen by the table's creator",
        title: "The creator typed in the seed, which decides every shuffle and die.",
      }),
    );
  } else if (table.deal === "known") {
    lines.push(
      h("li", {
        class: "deal-chosen",
        text: "Deal known to the table's creator",
        title: "This table was opened before seeds were kept secret: its creator was shown the seed.",
      }),
    );
  }
  const options = table.options && typeof table.options === "object" ? table.options : {};
  for (const [name, value] of Object.entries(options)) {
    const shown = Array.isArray(value) ? value.join(", ") : String(value);
    lines.push(h("li", { class: "table-option", text: `${humanize(name)}: ${shown}` }));
  }
  const node = $("table-rules");
  node.hidden = lines.length === 0;
  replace(node, lines);
}

function seatPresence(state, entry, human) {
  const deciding = state && state.actor === entry.seat;
  if (human && entry.open && !entry.claimed) {
    return h("span", { class: "seat-state open-seat", text: "open seat" });
  }
  if (!human) {
    return h("span", { class: `seat-state${deciding ? " deciding-tag" : ""}`, text: deciding ? "deciding…" : "" });
  }
  // A person may be deciding while away (a closed tab): say both, so nobody waits blindly.
  return h(
    "span",
    { class: `seat-state ${entry.connected ? "present" : "away"}` },
    h("span", { class: "dot", "aria-hidden": "true" }),
    entry.connected ? "here" : "away",
    deciding ? h("span", { class: "deciding-tag", text: " · deciding…" }) : null,
  );
}

function seatResult(result, seat) {
  const rank = (result.ranks || [])[seat];
  const score = (result.scores || [])[seat];
  const winner = (result.winners || []).includes(seat);
  return h(
    "span",
    { class: `seat-state ${winner ? "winner" : ""}` },
    winner ? "♛ " : "",
    rank !== undefined && ranksTell(result) ? `#${rank}` : "",
    score !== undefined ? ` · ${formatScore(score)}` : "",
  );
}

function formatScore(score) {
  return Number.isInteger(score) ? String(score) : String(Number(score).toFixed(2));
}

function renderGame() {
  const state = app.state;
  const container = $("game");
  container.classList.remove("busy");
  if (!state) return;
  if (!state.view) {
    // A table waiting for its people shows nothing of a game: the deal is made, and the
    // first die rolled, when it begins.
    replace(
      container,
      h(
        "div",
        { class: "card framed waiting-board" },
        h("h2", { text: "The game has not begun" }),
        h("p", { text: "The cards are dealt and the dice rolled when everyone is seated. Until then, say hello in the chat." }),
      ),
    );
    return;
  }
  const ctx = {
    seat: app.seat,
    seatNames: seatNames(),
    legal: app.pending ? [] : state.legal || [],
    onAction: act,
  };
  try {
    app.renderer.render(container, state.view, ctx);
  } catch (error) {
    // A renderer bug must not cost the table: show the readable generic view instead.
    console.error("renderer failed; using the generic view", error);
    generic.render(container, state.view, ctx);
  }
}

function renderActions() {
  const state = app.state;
  const legal = (state && state.legal) || [];
  const panel = $("actions");
  const online = app.ws && app.ws.readyState === WebSocket.OPEN;
  $("decision-title").textContent = legal.length ? "Your decision" : "Decision";
  document.querySelector(".decision-panel").classList.toggle("yours", legal.length > 0);
  $("prompt").textContent = promptText(state, legal);
  replace(
    panel,
    legal.map((entry, index) => withRule(entry, actionButton(entry, index, !online || app.pending))),
  );
  renderDecisionExtra(state, !online || app.pending);
}

/**
 * Below the choices, what only this seat's person may do about their own turn: take back
 * the decision the server offers back (never one that rolled or showed a hidden card), and
 * say they are back after their clock ran out and a bot began playing for them.
 */
function renderDecisionExtra(state, disabled) {
  const node = $("decision-extra");
  const mine = currentSeats().find((s) => s.seat === app.seat);
  const parts = [];
  const legal = (state && state.legal) || [];
  if (legal.length) parts.push(adviceToggle(legal));
  parts.push(passOnToggle(state, legal, disabled));
  if (mine && mine.stand_in && mine.away === "out of time") {
    parts.push(
      h("p", { class: "hint stand-in-note", text: `Your time ran out: the ${agentLabel(mine.stand_in)} plays for you.` }),
      h("button", {
        type: "button",
        class: "button primary",
        id: "back-button",
        text: "I'm back",
        disabled,
        onclick: () => send({ type: "back" }),
      }),
    );
  }
  if (state && typeof state.take_back === "string" && state.take_back) {
    parts.push(
      h("button", {
        type: "button",
        class: "button secondary wraps",
        id: "take-back",
        text: `Take back: ${state.take_back}`,
        title: "Undo your last decision: allowed while it is your turn, if no die was rolled and no hidden card was shown to you.",
        disabled,
        onclick: () => {
          if (send({ type: "take_back" })) {
            app.pending = true;
            renderActions();
          }
        },
      }),
    );
  }
  node.hidden = parts.filter(Boolean).length === 0;
  replace(node, parts);
}

/** Whether a keyboard is the likely way in: a fine pointer that hovers (a phone has
 *  neither, and no number keys to press). */
function hasKeys() {
  return window.matchMedia("(hover: hover) and (pointer: fine)").matches;
}

function promptText(state, legal) {
  if (!state) return "Waiting for the table…";
  if (state.status === "waiting") {
    const seats = currentSeats();
    const open = seats.filter((s) => s.open && !s.claimed).length;
    const host = app.host ? ", or when you start it (below the seats)" : "";
    if (!open) {
      // A rematch: its people are seated already and it waits for their pages.
      const away = seats.filter((s) => s.agent === "human" && !s.connected).map((s) => seatLabel(s.seat, seats));
      const who = away.length ? away.join(", ") : "everyone";
      return `Waiting for ${who} to come. The game begins when everyone is here${host}.`;
    }
    const words = open === 1 ? "1 open seat" : `${open} open seats`;
    return `Waiting for players: ${words}. The game begins when every seat is taken${host}.`;
  }
  if (state.status === "closed" || state.status === "archived") {
    return state.status === "closed" ? "The table's host closed the table." : "This table was archived.";
  }
  if (state.actor === null || state.actor === undefined) return "The game is over.";
  if (app.pending) return "Sent. Waiting for the table…";
  if (legal.length) return hasKeys() ? "Choose one (or press its number key)." : "Choose one.";
  const reactions = (app.table && app.table.reactions) || {};
  if (state.passing && state.passing_on && state.passing_on === state.decision) {
    return `You pass on ${reactions[state.passing_on] || state.passing_on} until your turn: in a moment, after a pause like your own, so nobody can tell what you hold.`;
  }
  if (state.passing) {
    // Said to this seat alone: the others see a seat deciding, for as long as a person
    // with a choice would take.
    return "Nothing to play here: you pass in a moment, after a pause like your own, so nobody can tell what you hold.";
  }
  const who = seatLabel(state.actor, state.seats);
  const entry = (state.seats || []).find((s) => s.seat === state.actor);
  const bot = entry && (entry.agent !== "human" ? entry.agent : entry.stand_in);
  const what = bot ? ` (${agentLabel(bot)})` : "";
  return `Waiting for ${who}${what} to decide…`;
}

/** A choice with the rule that explains it beside it (a "?" that opens the rules there). */
function withRule(entry, button) {
  const kind = String(entry.action).split(":")[0];
  const rule = app.choiceRules && app.choiceRules[kind];
  if (!rule || !app.table) return button;
  const game = app.table.game;
  return h(
    "div",
    { class: "action-row" },
    button,
    h("button", {
      type: "button",
      class: "action-rule",
      text: "?",
      title: `How to play: ${rule.title}`,
      "aria-label": `Rules: ${rule.title}`,
      onclick: () => openRules(game, rule.id),
    }),
  );
}

/** Long shots are shown in the failure colour, so a 0% choice never looks inviting. */
const LONG_SHOT = 0.2;

function actionButton(entry, index, disabled) {
  const odds = oddsText(entry.odds);
  const advised = adviceFor(entry.action);
  const chances = Object.values(entry.odds || {}).filter((p) => typeof p === "number");
  const longShot = chances.length > 0 && Math.max(...chances) < LONG_SHOT;
  return h(
    "button",
    {
      type: "button",
      class: "action",
      disabled,
      dataset: { action: entry.action },
      onclick: () => act(entry.action),
    },
    index < 9 ? h("kbd", { text: String(index + 1) }) : h("span", { class: "kbd-gap" }),
    h("span", { class: "action-label", text: entry.label || entry.action }),
    odds ? h("span", { class: `action-odds${longShot ? " long-shot" : ""}`, text: odds }) : null,
    advised ? h("span", { class: "action-advice", text: `win ${percent(advised.win)}` }) : null,
    // The tutor's line of why, where the game's heuristic gives one (its text, as sent).
    advised && advised.reason ? h("span", { class: "action-why", text: String(advised.reason) }) : null,
  );
}

function renderBanner() {
  const banner = $("banner");
  const result = app.state && app.state.result;
  if (!result) {
    banner.hidden = true;
    replace(banner);
    return;
  }
  banner.hidden = false;
  replace(
    banner,
    h("h2", { text: headline(result) }),
    h("p", { class: "result-reason", text: withNames(result.reason || "") }),
    scoreTable(result),
    h(
      "p",
      { class: "result-links" },
      h("a", {
        class: "button",
        href: `/api/tables/${encodeURIComponent(tableId)}/record`,
        download: "",
        text: "Download the game record",
      }),
      h("a", {
        class: "button secondary",
        href: `/replay#table=${encodeURIComponent(tableId)}`,
        text: "Watch the replay",
      }),
      h("a", { class: "button secondary", href: "/", text: "Back to the lobby" }),
    ),
    rematchOffer(),
  );
}

/**
 * A finished table offers its people a rematch: the same game, seats and options with a
 * new deal, every seat's credential carried over. Whoever opens it goes there; everyone
 * else at the table is told and offered the way in.
 */
function rematchOffer() {
  if (app.rematch) {
    return h(
      "p",
      { class: "rematch-offer" },
      h("span", { class: "pill", text: "A rematch is open" }),
      h("button", {
        type: "button",
        class: "button primary",
        id: "rematch-go",
        text: app.seat === null && !app.host ? "Watch the rematch" : "Go to the rematch",
        onclick: () => goToRematch(app.rematch),
      }),
    );
  }
  const credential = app.identity && app.seat !== null ? app.identity.token : null;
  if (!credential && !app.host) return null;
  return h(
    "p",
    { class: "rematch-offer" },
    h("button", {
      type: "button",
      class: "button primary",
      id: "rematch",
      text: "Rematch",
      title: "The same seats and options, a new deal; everyone here is invited back.",
      onclick: async (event) => {
        event.target.disabled = true;
        const body = credential ? { seat: app.seat, token: credential } : { host: app.host };
        try {
          const made = await api(`/api/tables/${encodeURIComponent(tableId)}/rematch`, { json: body });
          goToRematch(made.id);
        } catch (error) {
          event.target.disabled = false;
          toast(`No rematch: ${error.message}`);
        }
      },
    }),
  );
}

function onRematch(id) {
  if (typeof id !== "string" || !id) return;
  app.rematch = id;
  renderBanner();
}

/** Carry this browser's seats and host key over to the rematch (the server carried the
 *  credentials), then open it as the same seat. */
function goToRematch(id) {
  const stored = storedSeats(tableId);
  for (const [seat, credential] of Object.entries(stored.credentials)) {
    rememberSeat(id, Number(seat), credential, { last: Number(seat) === app.seat });
  }
  if (app.host) rememberHost(id, app.host);
  const fragment = app.seat === null ? "#watch" : `#seat=${app.seat}`;
  location.href = `/table/${encodeURIComponent(id)}${fragment}`;
}

function headline(result) {
  // The game heads its own endings (Rage's "survived" is no defeat): the server says how.
  if (app.state && typeof app.state.headline === "string" && app.state.headline) {
    return withNames(app.state.headline);
  }
  const winners = result.winners || [];
  if (result.won === true) return "Victory!";
  if (result.won === false) return "Defeat.";
  if (app.seat !== null && winners.includes(app.seat)) {
    return winners.length > 1 ? "You share the victory!" : "You win!";
  }
  const label = (seat) => seatLabel(seat, currentSeats());
  if (winners.length === 1) return `${label(winners[0])} wins`;
  if (winners.length > 1) return `${winners.map(label).join(" and ")} share the victory`;
  return "The game is over";
}

/** Whether the ranks say anything: a co-operative game (everyone won or lost together) or
 *  a tie all round ranks every seat 1, and "1 / 1 / 1" tells nobody anything. */
function ranksTell(result) {
  const ranks = Array.isArray(result.ranks) ? result.ranks : [];
  return ranks.length > 1 && ranks.some((rank) => rank !== ranks[0]);
}

function scoreTable(result) {
  const scores = result.scores || [];
  if (!scores.length) return null;
  const ranked = ranksTell(result);
  const order = scores.map((_, seat) => seat);
  order.sort((a, b) => (result.ranks?.[a] ?? 0) - (result.ranks?.[b] ?? 0) || a - b);
  const seats = currentSeats();
  // Which decisions a bot made for a person who left or ran out of time: the result says.
  const stood = (seat) => Number(seats.find((s) => s.seat === seat)?.stood_in) || 0;
  const anyStood = order.some((seat) => stood(seat) > 0);
  return h(
    "table",
    { class: "score-table" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ranked ? h("th", { text: "rank" }) : null,
        h("th", { text: "player" }),
        h("th", { text: "score" }),
        anyStood ? h("th", { text: "decided by a bot" }) : null,
      ),
    ),
    h(
      "tbody",
      {},
      order.map((seat) =>
        h(
          "tr",
          { class: `seat-${seat % 6}${seat === app.seat ? " mine" : ""}` },
          ranked ? h("td", { text: result.ranks?.[seat] ?? "" }) : null,
          h("td", {}, h("span", { class: "seat-swatch" }), seatLabel(seat, seats)),
          h("td", { text: formatScore(scores[seat]) }),
          anyStood ? h("td", { text: stood(seat) ? String(stood(seat)) : "" }) : null,
        ),
      ),
    ),
  );
}

// -- the log ------------------------------------------------------------------------------

function addLogLine(event) {
  const log = $("log");
  log.append(logLine(event, withNames(event.text || event.kind || "")));
  while (log.childElementCount > LOG_KEEP) log.firstElementChild.remove();
}

/** What the table did (a seat handed out again, a bot standing in, a take-back), in the log.
 *  The page keeps the notices it logged: a table sent again (a seat switched, a decision
 *  taken back) rebuilds the log from the game's events, and puts them back after. */
function addNoticeLine(text, { keep = true } = {}) {
  if (keep) {
    app.noticesLogged.push(text);
    if (app.noticesLogged.length > LOG_KEEP) app.noticesLogged.shift();
  }
  const log = $("log");
  log.append(h("li", { class: "log-line kind-notice" }, h("span", { class: "log-text", text })));
  while (log.childElementCount > LOG_KEEP) log.firstElementChild.remove();
  scrollLog(false);
}

/** Where scrollLog last put the log: a scroll event that lands there is our own. */
let autoScrollTop = -1;

/** Keep the newest line in sight, unless the reader has scrolled up to read history. */
function scrollLog(force) {
  const log = $("log");
  if (force || log.dataset.follow !== "no") {
    log.scrollTop = log.scrollHeight;
    autoScrollTop = log.scrollTop;
  }
}

function watchLogScroll() {
  const log = $("log");
  log.addEventListener("scroll", () => {
    // Scroll events arrive late: by then more lines may have been added below, so our own
    // scroll would look like the reader scrolling up. Only the reader's scrolls decide.
    if (Math.abs(log.scrollTop - autoScrollTop) < 2) return;
    const nearBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    log.dataset.follow = nearBottom ? "yes" : "no";
  });
}

// -- the table's talk -----------------------------------------------------------------------
// People's lines and the table's notices, in the order the table kept them. Every line is
// set as text: a name or a line that looks like markup shows as the characters typed.

function showChatLine(line, { live }) {
  if (!line || typeof line.text !== "string") return;
  const key = Number.isInteger(line.index) ? line.index : `${line.at}|${line.text}`;
  if (app.chatShown.has(key)) return;
  app.chatShown.add(key);
  const chat = $("chat");
  const notice = line.kind === "notice";
  const seat = Number.isInteger(line.seat) ? line.seat : null;
  const classes = ["chat-line", notice ? "kind-notice" : "kind-say"];
  if (seat !== null) classes.push(`seat-${seat % 6}`);
  let who = null;
  if (!notice) {
    const name = typeof line.name === "string" && line.name ? line.name : "";
    const label = seat === null ? `${name || "someone"} (watching)` : nameLabel(seat, name, currentSeats());
    who = h("span", { class: "chat-who" }, seat !== null ? h("span", { class: "seat-swatch" }) : null, label);
  }
  const nearBottom = chat.scrollHeight - chat.scrollTop - chat.clientHeight < 40;
  chat.append(h("li", { class: classes.join(" ") }, who, h("span", { class: "chat-text", text: line.text })));
  while (chat.childElementCount > CHAT_KEEP) chat.firstElementChild.remove();
  if (nearBottom || live) chat.scrollTop = chat.scrollHeight;
  if (notice && live) addNoticeLine(line.text);
}

/** Who may write: the people seated, and spectators where the creator allowed it and
 *  once they have a name (the server checks both; the page only says so first). */
function renderChatForm() {
  const settings = (app.table && app.table.settings) || {};
  let why = "";
  if (app.seat === null && !settings.spectator_chat) {
    why = "Spectators read the table talk; only the people seated write in it.";
  } else if (app.seat === null && !storedName()) {
    why = "Give yourself a name (under the seats) to join the talk.";
  }
  $("chat-text").disabled = Boolean(why);
  $("chat-form").querySelector("button").disabled = Boolean(why);
  $("chat-hint").hidden = !why;
  $("chat-hint").textContent = why;
}

function onChatSubmit(event) {
  event.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (!text) return;
  if (send({ type: "chat", text })) input.value = "";
  else toast("Not connected: the line was not sent.");
}

function onNameSubmit(event) {
  event.preventDefault();
  const input = $("my-name");
  const name = input.value.trim().replace(/\s+/g, " ");
  input.value = name;
  rememberName(name);
  // The server keeps the seat's name; a blank one is only forgotten here.
  if (name) send({ type: "name", name });
  renderChatForm();
}

// -- the host's tools ---------------------------------------------------------------------
// The browser that opened the table holds its host key: it hands a seat to a new invite
// (its person on a new device), starts a table whose open seats are not all taken, and
// closes a table nobody will finish. None of these acts for a seat.

let hostToolsKey = "";

function renderHostTools() {
  const node = $("host-tools");
  const status = tableStatus();
  const open = status === "waiting" || status === "playing";
  if (!app.host || !open) {
    node.hidden = true;
    replace(node);
    hostToolsKey = "";
    return;
  }
  const seats = currentSeats().filter((s) => s.agent === "human" && !s.device && (s.claimed || !s.open));
  // A seat nobody has taken (the host left the lobby before taking their own): take it
  // in this browser, or hand its invite on.
  const untaken = seats.filter((s) => !s.claimed && app.seat === null);
  // Drawn again only when what it offers changes: a link being copied is not redrawn away.
  const key = JSON.stringify([status, seats.map((s) => seatLabel(s.seat, currentSeats())), untaken.map((s) => s.seat), app.reissued]);
  if (key === hostToolsKey) return;
  hostToolsKey = key;
  node.hidden = false;
  replace(
    node,
    h("h3", { text: "You host this table" }),
    status === "waiting"
      ? h("button", {
          type: "button",
          class: "button primary",
          id: "host-start",
          text: "Start now",
          title: "Begin with the seats taken so far: the stand-in bot plays every seat still open, and a person not here yet has the table's grace to come.",
          onclick: () => hostAction("start"),
        })
      : null,
    seats.length
      ? h(
          "div",
          { class: "host-reissue" },
          h("p", { class: "hint", text: "Someone lost their seat (a new device, a cleared browser)? Hand it to a new invite; their old link and browser stop working." }),
          seats.map((entry) =>
            h("button", {
              type: "button",
              class: "button secondary",
              dataset: { reissue: String(entry.seat) },
              text: `New invite for ${seatLabel(entry.seat, currentSeats())}`,
              onclick: () => reissue(entry.seat),
            }),
          ),
        )
      : null,
    untaken.length
      ? h(
          "div",
          { class: "host-take" },
          h("p", { class: "hint", text: "Nobody has taken this seat yet. Is it yours? Take it in this browser." }),
          untaken.map((entry) =>
            h("button", {
              type: "button",
              class: "button primary",
              dataset: { take: String(entry.seat) },
              text: `Take ${seatLabel(entry.seat, currentSeats())}'s seat here`,
              onclick: () => takeHere(entry.seat),
            }),
          ),
        )
      : null,
    app.reissued ? reissuedRow(app.reissued) : null,
    h("button", {
      type: "button",
      class: "button danger",
      id: "host-close",
      text: "Close the table",
      title: "End the game here for everyone, with no result.",
      onclick: () => {
        if (window.confirm("Close this table for everyone? The game ends here, with no result.")) hostAction("close");
      },
    }),
  );
}

function reissuedRow({ seat, url }) {
  const label = `${playerName(seat)}'s new invite`;
  return h(
    "div",
    { class: "link-row reissued" },
    h("span", { class: "link-label", text: label }),
    copyField(url, label),
  );
}

async function reissue(seat) {
  try {
    const made = await api(`/api/tables/${encodeURIComponent(tableId)}/reissue`, { json: { host: app.host, seat } });
    app.reissued = { seat, url: new URL(made.invite, location.origin).href };
    renderHostTools();
  } catch (error) {
    toast(`No new invite: ${error.message}`);
  }
}

/** The host takes an untaken seat in this browser: a new invite, claimed here at once (the
 *  page opens the invite as a person following it would). */
async function takeHere(seat) {
  try {
    const made = await api(`/api/tables/${encodeURIComponent(tableId)}/reissue`, { json: { host: app.host, seat } });
    // The hashchange handler claims the invite and joins as the seat.
    app.reissued = null;
    location.hash = new URL(made.invite, location.origin).hash;
  } catch (error) {
    toast(`Could not take the seat: ${error.message}`);
  }
}

async function hostAction(what) {
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/${what}`, { json: { host: app.host } });
  } catch (error) {
    toast(`The table was not ${what === "start" ? "started" : "closed"}: ${error.message}`);
  }
}

// -- toasts -------------------------------------------------------------------------------

function toast(text) {
  const node = h(
    "div",
    { class: "toast", role: "alert" },
    h("span", { class: "toast-text", text }),
    h("button", {
      type: "button",
      class: "toast-close",
      "aria-label": "Dismiss",
      text: "×",
      onclick: () => node.remove(),
    }),
  );
  $("toasts").append(node);
  setTimeout(() => node.remove(), 9000);
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
  window.addEventListener("hashchange", () => {
    const cover = pendingCover;
    pendingCover = false;
    rejoin({ cover });
  });
  window.addEventListener("online", reconnectSoon);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) reconnectSoon();
  });
  connect();
}

start();
