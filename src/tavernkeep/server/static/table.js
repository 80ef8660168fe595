// The table: one frame for every game. It joins the table's WebSocket as a seat (with
// the credential this browser holds for it, claimed by opening the seat's invite) or as a
// spectator, then draws what the server sends: seats, the game (by the game's renderer),
// the legal actions, the log, the dice and the result. See server/PROTOCOL.md.

import {
  agentLabel,
  api,
  forgetSeat,
  h,
  humanize,
  oddsText,
  playerName,
  rememberLast,
  rememberSeat,
  replace,
  storedSeats,
} from "./dom.js";
import { DiceTray, dieFace } from "./dice.js";
import { generic, rendererFor } from "./renderers/index.js";

const $ = (id) => document.getElementById(id);

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 10000;
const PING_EVERY_MS = 25000;
const LOG_KEEP = 600;
// With this many messages waiting, the table is catching up (a slow tab, a burst of bot
// moves): dice land at once instead of tumbling, so the board is never far behind.
const CATCH_UP_AT = 6;

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
  } else if (message.type === "events" || message.type === "state" || message.type === "seats") {
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
}

/** Someone came or went: only the seats panel changes. */
function showSeats(seats) {
  if (!Array.isArray(seats)) return;
  if (app.table) app.table.seats = seats;
  if (app.state) app.state = { ...app.state, seats };
  renderSeats();
  renderActions();
}

async function showWelcome(message) {
  app.seat = message.seat ?? null;
  app.table = message.table || null;
  setStatus("online", "connected");
  clearInterval(app.pingTimer);
  app.pingTimer = setInterval(() => send({ type: "ping" }), PING_EVERY_MS);
  if (app.table) app.renderer = await loadRenderer(app.table.game);
  renderHeader();
  renderSeats();
  replace($("log"));
  const log = message.log || [];
  log.forEach(addLogLine);
  const lastRoll = [...log].reverse().find(hasDice);
  if (lastRoll) await tray.roll(lastRoll, { animate: false });
  scrollLog(true);
}

async function showEvents(events) {
  for (const event of events) {
    if (hasDice(event)) {
      const animate = !document.hidden && app.queue.length < CATCH_UP_AT;
      await tray.roll(event, { animate });
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
  renderHeader();
  renderSeats();
  renderGame();
  renderActions();
  renderBanner();
  if (message.actor !== before) followDecision(message);
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
  replace(
    cover,
    h(
      "div",
      { class: "panel dialog" },
      h("h2", { text: `Pass the device to ${playerName(seat)}` }),
      h("p", { text: "Their hand is hidden until they are ready." }),
      h("button", {
        type: "button",
        class: "button primary",
        text: `I am ${playerName(seat)}`,
        onclick: () => {
          cover.hidden = true;
          document.body.classList.remove("covered");
        },
      }),
    ),
  );
  cover.hidden = false;
  document.body.classList.add("covered");
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

function seatNames() {
  const seats = (app.table && app.table.seats) || [];
  const count = Math.max(seats.length, Number(app.state?.view?.players) || 0);
  return Array.from({ length: count }, (_, seat) => playerName(seat));
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
    replace(who, h("span", { class: "seat-swatch" }), `you are ${playerName(app.seat)}`);
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
  const seats = (state && state.seats) || (app.table && app.table.seats) || [];
  const result = state && state.result;
  replace(
    $("seats"),
    seats.map((entry) => {
      const seat = entry.seat;
      const classes = [`seat`, `seat-${seat % 6}`];
      if (state && state.actor === seat) classes.push("deciding");
      if (seat === app.seat) classes.push("mine");
      const human = entry.agent === "human";
      return h(
        "li",
        { class: classes.join(" ") },
        h("span", { class: "seat-swatch" }),
        h(
          "span",
          { class: "seat-name" },
          playerName(seat),
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
      );
    }),
  );
  renderTableRules();
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
    rank !== undefined ? `#${rank}` : "",
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
    legal.map((entry, index) => actionButton(entry, index, !online || app.pending)),
  );
}

function promptText(state, legal) {
  if (!state) return "Waiting for the table…";
  if (state.actor === null || state.actor === undefined) return "The game is over.";
  if (app.pending) return "Sent. Waiting for the table…";
  if (legal.length) return "Choose one (or press its number key).";
  if (state.passing) {
    // Said to this seat alone: the others see a seat deciding, for as long as a person
    // with a choice would take.
    return "Nothing to play here: you pass in a moment, after a pause like your own, so nobody can tell what you hold.";
  }
  const who = playerName(state.actor);
  const entry = (state.seats || []).find((s) => s.seat === state.actor);
  const what = entry && entry.agent !== "human" ? ` (${agentLabel(entry.agent)})` : "";
  return `Waiting for ${who}${what} to decide…`;
}

/** Long shots are shown in the failure colour, so a 0% choice never looks inviting. */
const LONG_SHOT = 0.2;

function actionButton(entry, index, disabled) {
  const odds = oddsText(entry.odds);
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
    h("p", { class: "result-reason", text: result.reason || "" }),
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
      h("a", { class: "button secondary", href: "/", text: "Back to the lobby" }),
    ),
  );
}

function headline(result) {
  // The game heads its own endings (Rage's "survived" is no defeat): the server says how.
  if (app.state && typeof app.state.headline === "string" && app.state.headline) {
    return app.state.headline;
  }
  const winners = result.winners || [];
  if (result.won === true) return "Victory!";
  if (result.won === false) return "Defeat.";
  if (app.seat !== null && winners.includes(app.seat)) {
    return winners.length > 1 ? "You share the victory!" : "You win!";
  }
  if (winners.length === 1) return `${playerName(winners[0])} wins`;
  if (winners.length > 1) return `${winners.map(playerName).join(" and ")} share the victory`;
  return "The game is over";
}

function scoreTable(result) {
  const scores = result.scores || [];
  if (!scores.length) return null;
  const order = scores.map((_, seat) => seat);
  order.sort((a, b) => (result.ranks?.[a] ?? 0) - (result.ranks?.[b] ?? 0) || a - b);
  return h(
    "table",
    { class: "score-table" },
    h("thead", {}, h("tr", {}, h("th", { text: "rank" }), h("th", { text: "player" }), h("th", { text: "score" }))),
    h(
      "tbody",
      {},
      order.map((seat) =>
        h(
          "tr",
          { class: `seat-${seat % 6}${seat === app.seat ? " mine" : ""}` },
          h("td", { text: result.ranks?.[seat] ?? "" }),
          h("td", {}, h("span", { class: "seat-swatch" }), playerName(seat)),
          h("td", { text: formatScore(scores[seat]) }),
        ),
      ),
    ),
  );
}

// -- the log ------------------------------------------------------------------------------

function addLogLine(event) {
  const log = $("log");
  const classes = ["log-line", `kind-${String(event.kind || "event").replace(/[^a-z0-9-]/gi, "")}`];
  if (event.data && event.data.success === true) classes.push("success");
  if (event.data && event.data.success === false) classes.push("failure");
  const seat = event.data && Number.isInteger(event.data.seat) ? event.data.seat : null;
  if (seat !== null) classes.push(`seat-${seat % 6}`);
  log.append(
    h(
      "li",
      { class: classes.join(" ") },
      hasDice(event)
        ? h("span", { class: "log-dice" }, event.data.dice.map((v) => dieFace(Number(v))))
        : null,
      h("span", { class: "log-text", text: event.text || event.kind || "" }),
    ),
  );
  while (log.childElementCount > LOG_KEEP) log.firstElementChild.remove();
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
