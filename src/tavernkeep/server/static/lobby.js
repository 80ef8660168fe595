// The lobby: the games on the shelf, a form that opens a table, the invite links of a
// table just opened, and the tables still being played (or waiting for players to join).
// The tables this browser sits at are a part of their own (lobby/your_tables.js). See
// server/PROTOCOL.md.

import {
  NAME_MAX,
  agentLabel,
  api,
  copyField,
  h,
  humanize,
  inviteUrl,
  playerName,
  rememberHost,
  rememberName,
  rememberSeat,
  replace,
  storedName,
  storedSeats,
} from "./dom.js";
import { followAgain, startYourTables } from "./lobby/your_tables.js";
import { openRules } from "./rules.js";

const $ = (id) => document.getElementById(id);
const TABLES_EVERY_MS = 4000;
const MAX_SEED = 2n ** 63n - 1n;

// The room's settings a creator may choose (server/settings.py), each select's entries
// as [value, label, setting]. The first is the server's default: it is never sent, so a
// table opened with the defaults sends no `settings` at all.
const CLOCKS = [
  ["off", "off", null],
  ["real-3", "Real time: 3 min + 20 s a decision", { kind: "real_time", seconds: 180, increment: 20 }],
  ["real-10", "Real time: 10 min + 30 s a decision", { kind: "real_time", seconds: 600, increment: 30 }],
  ["turn-1", "Turn based: a day a decision", { kind: "turn_based", seconds: 86400 }],
  ["turn-3", "Turn based: 3 days a decision", { kind: "turn_based", seconds: 3 * 86400 }],
];
const GRACES = [
  ["120", "a bot plays for them after 2 minutes", 120],
  ["30", "a bot plays for them after 30 seconds", 30],
  ["600", "a bot plays for them after 10 minutes", 600],
  ["wait", "wait for them", null],
];
const DEFAULT_STAND_IN = ""; // the select's value for "left to the server"

const lobby = {
  games: [],
  seatChoices: [], // the seat selects' values, kept when the player count changes
  deviceChoices: [], // which person seats are played on this device (hot seat)
  tablesTimer: null,
  joining: false, // a Join on its way: a second click must not take a second seat
  joinError: "", // the last Join's failure, kept over the list's refreshes
};

// -- the person at this browser ------------------------------------------------------------

/** The name as the server will keep it: trimmed, runs of spaces made one. */
function cleanName(text) {
  return String(text || "").replace(/\s+/g, " ").trim().slice(0, NAME_MAX);
}

/** The lobby's name field: every table joined from this browser offers the name kept here
 *  (table.js reads it on joining), so it is saved as it is typed, not only on leaving the
 *  field: a person who types it and opens a table at once is named there. */
function setUpName() {
  const input = $("my-name");
  input.maxLength = NAME_MAX;
  input.value = storedName();
  input.addEventListener("input", () => rememberName(cleanName(input.value)));
  const settle = () => {
    const name = cleanName(input.value);
    input.value = name;
    rememberName(name);
  };
  input.addEventListener("change", settle);
  input.addEventListener("blur", settle);
  // A name changed on a table page (another tab) shows here too, unless being typed.
  window.addEventListener("storage", () => {
    if (document.activeElement !== input) input.value = storedName();
  });
}

// -- games ------------------------------------------------------------------------------

async function loadGames() {
  try {
    lobby.games = await api("/api/games");
  } catch (error) {
    showError($("games-error"), `Could not list the games: ${error.message}`);
    replace($("games"));
    return;
  }
  renderGames();
  replace($("game"), lobby.games.map((g) => h("option", { value: g.name, text: g.title })));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && lobby.games.some((g) => g.name === wanted)) $("game").value = wanted;
  onGameChange();
}

function currentGame() {
  return lobby.games.find((g) => g.name === $("game").value) || lobby.games[0];
}

function playersText(game) {
  const range =
    game.min_players === game.max_players
      ? `${game.min_players}`
      : `${game.min_players}–${game.max_players}`;
  const word = game.max_players === 1 ? "player" : "players";
  return game.players_note ? `${range} ${word} (${game.players_note})` : `${range} ${word}`;
}

function renderGames() {
  replace(
    $("games"),
    lobby.games.map((game) =>
      h(
        "article",
        { class: "game-card card framed" },
        h("h3", { text: game.title }),
        h(
          "p",
          { class: "game-facts" },
          h("span", { class: `badge kind-${game.kind}`, text: game.kind }),
          h("span", { text: playersText(game) }),
        ),
        h("p", { class: "game-summary", text: game.summary || "" }),
        game.rules
          ? h("button", {
              type: "button",
              class: "button secondary",
              dataset: { rules: game.name },
              text: "How to play",
              onclick: () => openRules(game.name),
            })
          : null,
        h("button", {
          type: "button",
          class: "button secondary",
          text: "Set up a table",
          onclick: () => {
            $("game").value = game.name;
            onGameChange();
            $("create-title").scrollIntoView({ behavior: "smooth", block: "start" });
            $("players").focus({ preventScroll: true });
          },
        }),
      ),
    ),
  );
}

// -- the form ---------------------------------------------------------------------------

/**
 * Player counts a variant allows beyond min..max, read from the players note: "2 with
 * --variant two_player" allows 2, "7-8 with ..." allows 7 and 8. The note is the only
 * place a game says so, and the server checks the count anyway.
 */
function variantCounts(game) {
  const match = /^\s*(\d+)(?:\s*[-–]\s*(\d+))?/.exec(game.players_note || "");
  if (!match) return [];
  const low = Number(match[1]);
  const high = Number(match[2] || match[1]);
  const out = [];
  for (let n = low; n <= high && n <= 12; n++) {
    if (n < game.min_players || n > game.max_players) out.push(n);
  }
  return out;
}

/** The yes-or-no option a variant count needs (the game names it). */
function variantOption(game) {
  const name = game.players_variant;
  return (game.options || []).some((o) => o.type === "bool" && o.name === name) ? name : null;
}

function onGameChange() {
  const game = currentGame();
  if (!game) return;
  const counts = [];
  for (let n = game.min_players; n <= game.max_players; n++) counts.push(n);
  const extra = variantCounts(game);
  const all = [...new Set([...counts, ...extra])].sort((a, b) => a - b);
  const preferred = Math.min(Math.max(game.min_players, 3), game.max_players);
  replace(
    $("players"),
    all.map((n) =>
      h("option", {
        value: String(n),
        text: extra.includes(n) ? `${n} (variant)` : String(n),
        selected: n === preferred,
      }),
    ),
  );
  $("players-hint").textContent = game.players_note ? `Variant: ${game.players_note}.` : "";
  renderOptions(game);
  renderStandIns(game);
  onPlayersChange();
  hideError($("create-error"));
}

/** A chosen seed decides every shuffle and die: with others at the table, say they will see it. */
function renderSeedHint() {
  const typed = $("seed").value.trim() !== "";
  $("seed-hint").textContent = typed
    ? "Every seat is shown “deal chosen by the table's creator”."
    : "Blank deals at random; nobody sees the seed until the game is over.";
}

function onPlayersChange() {
  const game = currentGame();
  const players = Number($("players").value);
  // A variant player count turns on the variant that allows it, so the form never
  // offers a table the server would refuse for want of a checkbox.
  const variant = variantOption(game);
  if (variant && variantCounts(game).includes(players)) {
    const box = document.querySelector(`[data-option="${variant}"]`);
    if (box) box.checked = true;
  }
  renderSeatRows(game, players);
}

/** A seat select's words for each of its values: a level with what it was measured to do. */
function seatChoiceLabel(choice, game) {
  if (choice === "human") return "a person";
  if (choice === "open") return "an open seat";
  const level = (game.levels || []).find((l) => l.bot === choice);
  if (level) return `${level.name} bot: ${level.says}`;
  return agentLabel(choice);
}

function renderSeatRows(game, players) {
  // "open": a person's seat nobody is sent a link for; whoever joins from the lobby
  // takes it (sent as "human", its index in `open`).
  // The levels first (what a person looks for: how well a bot plays), then the bots by
  // their specs, for those who know them.
  const levels = (game.levels || []).map((l) => l.bot);
  const choices = ["human", "open", ...levels, ...(game.bots || [])];
  const defaultBot = levels.includes("bot:normal")
    ? "bot:normal"
    : (game.bots || []).includes("bot:heuristic")
      ? "bot:heuristic"
      : (game.bots || [])[0] || "human";
  // A co-operative party or a solo game may be played on this device, seat by seat; a
  // competitive table only all together, as pass and play (renderPassAndPlay).
  const perSeat = game.kind !== "competitive";
  replace(
    $("seat-rows"),
    Array.from({ length: players }, (_, seat) => {
      const kept = lobby.seatChoices[seat];
      const value = choices.includes(kept) ? kept : seat === 0 ? "human" : defaultBot;
      const id = `seat-${seat}`;
      const select = h(
        "select",
        {
          id,
          dataset: { seat: String(seat) },
          onchange: (event) => {
            lobby.seatChoices[seat] = event.target.value;
            renderSeatRows(game, players);
          },
        },
        choices.map((c) => h("option", { value: c, text: seatChoiceLabel(c, game), selected: c === value })),
      );
      // An open seat is a stranger's, on their own device: never "on this device".
      const device =
        perSeat && value === "human"
          ? h(
              "label",
              { class: "device-choice", title: "You play this seat yourself, here: no invite to send." },
              h("input", {
                type: "checkbox",
                dataset: { device: String(seat) },
                checked: lobby.deviceChoices[seat] ?? game.kind === "solo",
                onchange: (event) => {
                  lobby.deviceChoices[seat] = event.target.checked;
                },
              }),
              " on this device",
            )
          : null;
      return h(
        "div",
        { class: `seat-row seat-${seat % 6}` },
        h("label", { for: id }, h("span", { class: "seat-swatch" }), playerName(seat)),
        select,
        device,
      );
    }),
  );
  renderPassAndPlay(game);
}

/** Competitive games: every person's seat on this device, or none. An open seat is a
 *  person's away from this device, so a table with one cannot be passed and played (the
 *  server refuses it: one device would hold two hands against the joiner's). */
function renderPassAndPlay(game) {
  const field = $("pass-and-play");
  field.hidden = game.kind !== "competitive";
  const open = [...document.querySelectorAll("#seat-rows select")].some((s) => s.value === "open");
  const box = $("pass-and-play-box");
  if (open) box.checked = false;
  box.disabled = open;
  box.title = open ? "Not with an open seat: its person plays on a device of their own." : "";
}

/** The seats played on this device, as the server takes them. `seats` are the selects'
 *  values: an open seat ("open") is nobody's here. */
function readDevice(game, seats) {
  const people = seats.flatMap((spec, seat) => (spec === "human" ? [seat] : []));
  if (game.kind === "competitive") {
    const box = $("pass-and-play-box");
    return box.checked && !box.disabled ? people : [];
  }
  return [...document.querySelectorAll("#seat-rows [data-device]")]
    .filter((box) => box.checked)
    .map((box) => Number(box.dataset.device))
    .filter((seat) => people.includes(seat));
}

function renderOptions(game) {
  const options = game.options || [];
  $("options-field").hidden = options.length === 0;
  replace($("option-rows"), options.map(optionRow));
}

/** One option as the right control: a checkbox, a select or a number box. */
function optionRow(option) {
  const id = `option-${option.name}`;
  const title = option.title || humanize(option.name);
  const hint = option.description ? h("p", { class: "hint", text: option.description }) : null;
  if (option.type === "bool") {
    return h(
      "div",
      { class: "option-row check" },
      h(
        "label",
        { for: id },
        h("input", { type: "checkbox", id, checked: Boolean(option.default), dataset: { option: option.name } }),
        ` ${title}`,
      ),
      hint,
    );
  }
  let control;
  if (option.type === "choices") {
    // Several of a few (Crits & Tricks' suits): a box each; none ticked is the default.
    const picked = Array.isArray(option.default) ? option.default : [];
    control = h(
      "div",
      { class: "choice-boxes", id, dataset: { option: option.name, multiple: "1" } },
      (option.choices || []).map((c) =>
        h(
          "label",
          {},
          h("input", { type: "checkbox", value: String(c), checked: picked.includes(c) }),
          ` ${c}`,
        ),
      ),
    );
    return h("div", { class: "option-row" }, h("span", { class: "option-title", text: title }), control, hint);
  }
  if (Array.isArray(option.choices) && option.choices.length) {
    control = h(
      "select",
      { id, dataset: { option: option.name } },
      option.choices.map((c) => h("option", { value: String(c), text: String(c), selected: c === option.default })),
    );
  } else if (option.type === "int" || option.type === "float") {
    control = h("input", {
      type: "number",
      id,
      step: option.type === "int" ? "1" : "any",
      value: option.default ?? "",
      // No default: the game decides (Rage's night comes from its map) unless filled in.
      placeholder: option.default === null ? "the game's own" : "",
      dataset: { option: option.name },
    });
  } else {
    control = h("input", { type: "text", id, value: option.default ?? "", dataset: { option: option.name } });
  }
  return h("div", { class: "option-row" }, h("label", { for: id, text: title }), control, hint);
}

/** The options that differ from the game's defaults; an Error names a bad entry. */
function readOptions(game) {
  const out = {};
  for (const option of game.options || []) {
    const control = document.querySelector(`[data-option="${option.name}"]`);
    if (!control) continue;
    let value;
    // A number left empty where the game has no fixed default is left to the game.
    if (option.default === null && control.value.trim() === "") continue;
    if (option.type === "bool") value = control.checked;
    else if (option.type === "choices") {
      value = [...control.querySelectorAll("input:checked")].map((box) => box.value);
      const fallback = Array.isArray(option.default) ? option.default : [];
      if (value.length === fallback.length && value.every((v, i) => v === fallback[i])) continue;
      out[option.name] = value;
      continue;
    } else if (option.type === "int") {
      if (!/^-?\d+$/.test(control.value.trim())) {
        throw new Error(`${option.title || humanize(option.name)} must be a whole number`);
      }
      value = Number(control.value);
    } else if (option.type === "float") {
      value = Number(control.value);
      if (control.value.trim() === "" || Number.isNaN(value)) {
        throw new Error(`${option.title || humanize(option.name)} must be a number`);
      }
    } else value = control.value;
    if (value !== option.default) out[option.name] = value;
  }
  return out;
}

// -- the room's settings ----------------------------------------------------------------

/** The clock and grace selects, once: they are the same for every game. */
function setUpRoomSettings() {
  replace($("clock"), CLOCKS.map(([value, label], i) => h("option", { value, text: label, selected: i === 0 })));
  replace($("grace"), GRACES.map(([value, label], i) => h("option", { value, text: label, selected: i === 0 })));
}

/** The stand-in select lists the game's own bots; a choice still offered is kept. */
function renderStandIns(game) {
  const select = $("stand-in");
  const kept = select.value;
  const bots = game.bots || [];
  replace(
    select,
    h("option", { value: DEFAULT_STAND_IN, text: "the search bot (default)" }),
    bots.map((bot) => h("option", { value: bot, text: agentLabel(bot) })),
  );
  select.value = bots.includes(kept) ? kept : DEFAULT_STAND_IN;
}

/** The settings that differ from the server's defaults, or null when none does: a table
 *  opened as it always was sends what it always sent. */
function readSettings() {
  const out = {};
  const clock = CLOCKS.find(([value]) => value === $("clock").value);
  if (clock && clock[2] !== null) out.clock = clock[2];
  const grace = GRACES.find(([value]) => value === $("grace").value);
  if (grace && grace !== GRACES[0]) out.grace_seconds = grace[2];
  const standIn = $("stand-in").value;
  if (standIn !== DEFAULT_STAND_IN) out.stand_in = standIn;
  if ($("spectator-chat").checked) out.spectator_chat = true;
  if ($("rated").checked) out.rated = true;
  // The tutor: by default a person may ask it unless the table has clocks.
  if ($("advice").value) out.advice = $("advice").value === "yes";
  return Object.keys(out).length ? out : null;
}

/** The seed as its digits (a 63-bit seed does not fit a JavaScript number), or null. */
function readSeed() {
  const text = $("seed").value.trim();
  if (text === "") return null;
  if (!/^\d+$/.test(text) || BigInt(text) > MAX_SEED) {
    throw new Error("the seed must be a whole number from 0 to 2^63 − 1, or blank");
  }
  return BigInt(text).toString();
}

async function onSubmit(event) {
  event.preventDefault();
  hideError($("create-error"));
  const game = currentGame();
  if (!game) return;
  let body;
  let open = [];
  try {
    const seed = readSeed();
    const chosen = [...document.querySelectorAll("#seat-rows select")].map((s) => s.value);
    // A rated table's seats are each claimed by its own person signed in: none is here.
    const device = $("rated").checked ? [] : readDevice(game, chosen);
    // An open seat is a person's seat to the server, listed in `open`.
    open = chosen.flatMap((spec, seat) => (spec === "open" ? [seat] : []));
    const seats = chosen.map((spec) => (spec === "open" ? "human" : spec));
    const settings = readSettings();
    const fields = { game: game.name, seats, options: readOptions(game), device };
    // Only what was chosen is sent: no open seats, no `open`; default settings, no `settings`.
    if (open.length) fields.open = open;
    if (settings) fields.settings = settings;
    // The seed goes in as its digits so that no precision is lost on the way: it is the
    // last key, so the placeholder is the end of the text.
    body = JSON.stringify({ ...fields, seed: 0 }).replace(
      /"seed":0}$/,
      `"seed":${seed === null ? "null" : seed}}`,
    );
  } catch (error) {
    showError($("create-error"), error.message);
    return;
  }
  const button = $("create-button");
  button.disabled = true;
  try {
    const table = await api("/api/tables", {
      method: "POST",
      body,
      headers: { Accept: "application/json", "Content-Type": "application/json" },
    });
    showCreated(table, game, open);
    refreshTables();
  } catch (error) {
    showError($("create-error"), error.message);
  } finally {
    button.disabled = false;
  }
}

// -- a table just opened --------------------------------------------------------------------

/** `open`: the seats the form left open (the answer has neither invite nor credential
 *  for them, as for a bot's). */
function showCreated(table, game, open = []) {
  const seats = table.seats || [];
  // Only the seats played here are kept: another person's invite is theirs to open.
  for (const entry of seats) {
    if (entry.device && entry.token) rememberSeat(table.id, entry.seat, entry.token);
  }
  // The host key is shown nowhere: the table page finds it here, for its host controls.
  if (table.host) rememberHost(table.id, table.host);
  followAgain(); // its seats on this device are this browser's tables now
  const left = new Set(open);
  const spectate = new URL(table.spectate || `/table/${table.id}`, location.origin).href;
  const created = $("created");
  created.hidden = false;
  const invites = seats.some((entry) => entry.invite);
  replace(
    created,
    h("h3", {}, `${game.title}: table `, h("code", { text: table.id }), " is open"),
    invites
      ? h(
          "p",
          { class: "hint" },
          "Each link is one person's seat: the first browser to open it holds the seat, and the link is spent. Send each to its person alone; open your own here. The links are shown only now.",
        )
      : null,
    left.size
      ? h(
          "p",
          { class: "hint" },
          "The lobby lists the table as looking for players: the game begins once every open seat is taken.",
        )
      : null,
    table.deal === "chosen"
      ? h("p", { class: "hint", text: "You chose the deal: every seat at the table is told so." })
      : null,
    table.host
      ? h(
          "p",
          { class: "hint" },
          "You are this table's host: from the table page you can hand a seat out again, start with seats still open, or close the table.",
        )
      : null,
    linkRow("Spectators", spectate, h("a", { class: "button secondary", href: spectate, target: "_blank", rel: "noopener", text: "Watch" })),
    seats.map((entry) => seatRow(table, entry, left)),
  );
  created.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function seatRow(table, entry, left) {
  const name = playerName(entry.seat);
  if (entry.device) {
    const url = `/table/${encodeURIComponent(table.id)}#seat=${entry.seat}`;
    return h(
      "div",
      { class: `link-row device seat-${entry.seat % 6}` },
      h("span", { class: "link-label" }, h("span", { class: "seat-swatch" }), name),
      h("span", { class: "muted", text: "on this device" }),
      h("a", { class: "button primary", href: url, target: "_blank", rel: "noopener", text: `Play seat ${entry.seat + 1}` }),
    );
  }
  if (!entry.invite && left.has(entry.seat)) {
    return h(
      "div",
      { class: `link-row open seat-${entry.seat % 6}` },
      h("span", { class: "link-label" }, h("span", { class: "seat-swatch" }), name),
      h("span", { class: "muted", text: "open: whoever joins from the lobby takes it" }),
    );
  }
  if (!entry.invite) {
    return h(
      "div",
      { class: `link-row bot seat-${entry.seat % 6}` },
      h("span", { class: "link-label" }, h("span", { class: "seat-swatch" }), name),
      h("span", { class: "muted", text: agentLabel(entry.agent) }),
    );
  }
  const url = inviteUrl(entry.invite);
  const take = h("a", {
    class: "button primary",
    href: url,
    target: "_blank",
    rel: "noopener",
    text: `Take seat ${entry.seat + 1}`,
  });
  return linkRow(name, url, take, `seat-${entry.seat % 6}`);
}

function linkRow(label, url, extra, extraClass = "") {
  const [input, copy] = copyField(url, `${label} link`);
  return h(
    "div",
    { class: `link-row ${extraClass}` },
    h("span", { class: "link-label" }, extraClass ? h("span", { class: "seat-swatch" }) : null, label),
    input,
    copy,
    extra,
  );
}

// -- open tables ------------------------------------------------------------------------------

async function refreshTables() {
  clearTimeout(lobby.tablesTimer);
  try {
    const tables = await api("/api/tables");
    // A Join that failed is still said after the list it was pressed in is redrawn.
    if (lobby.joinError) showError($("tables-error"), lobby.joinError);
    else hideError($("tables-error"));
    renderTables(Array.isArray(tables) ? tables : []);
  } catch (error) {
    showError($("tables-error"), `Could not list the tables: ${error.message}`);
  }
  // A hidden tab does not need fresh tables; it refreshes when shown again.
  if (!document.hidden) lobby.tablesTimer = setTimeout(refreshTables, TABLES_EVERY_MS);
}

function renderTables(tables) {
  if (tables.length === 0) {
    replace($("tables"), h("li", { class: "muted", text: "No tables are being played. Open one!" }));
    return;
  }
  replace($("tables"), tables.map(tableItem));
}

function tableItem(table) {
  const stored = storedSeats(table.id);
  const mine = Object.keys(stored.credentials).sort((a, b) => Number(a) - Number(b));
  const watch = `/table/${encodeURIComponent(table.id)}#watch`;
  const waiting = table.status === "waiting";
  const left = Number(table.open_seats) || 0;
  return h(
    "li",
    { class: `table-item${waiting ? " looking" : ""}` },
    h(
      "div",
      { class: "table-item-head" },
      h("strong", { text: table.title || table.game }),
      h("code", { class: "muted", text: table.id }),
      h("span", { class: "muted", text: `${moves(table.actions)} · ${ago(table.created_at)}` }),
      waiting
        ? h("span", {
            class: "badge looking",
            text: `Looking for players · ${left} open seat${left === 1 ? "" : "s"}`,
          })
        : null,
      table.rated ? h("span", { class: "badge rated", text: "Rated", title: "Seats are taken signed in" }) : null,
    ),
    h("ul", { class: "seat-chips chip-row" }, (table.seats || []).map(seatChip)),
    h(
      "div",
      { class: "table-item-links" },
      h("a", { class: "button secondary", href: watch, text: "Watch" }),
      // A seat of one's own here already: going back to it is the way in, not a second seat.
      waiting && mine.length === 0
        ? h("button", {
            type: "button",
            class: "button primary",
            text: "Join",
            disabled: lobby.joining,
            onclick: (event) => joinTable(table.id, event.currentTarget),
          })
        : null,
      mine.map((seat) =>
        h("a", {
          class: "button primary",
          href: `/table/${encodeURIComponent(table.id)}#seat=${seat}`,
          text: `Return to seat ${Number(seat) + 1}`,
        }),
      ),
    ),
  );
}

/** A seat of a listed table: a bot, a person here or away, or a chair left open. A name
 *  is the person's own words, set as text. */
function seatChip(seat) {
  const person = seat.agent === "human";
  const open = person && seat.open === true;
  const name = person && !open && typeof seat.name === "string" && seat.name ? seat.name : "";
  let state = " bot";
  if (open) state = " open";
  else if (person) state = seat.connected ? " here" : " away";
  let title = agentLabel(seat.agent);
  if (open) title = "an open seat";
  else if (person) {
    title = `a person, ${seat.connected ? "here" : "not here"}${seat.device ? ", on the host's device" : ""}`;
  }
  let mark = "⚙ ";
  if (open) mark = "◌ ";
  else if (person) mark = seat.connected ? "● " : "○ ";
  return h(
    "li",
    { class: `seat-chip seat-${seat.seat % 6}${state}`, title },
    h("span", { class: "seat-swatch" }),
    mark,
    playerName(seat.seat),
    name ? h("span", { class: "seat-chip-name", text: ` · ${name}` }) : null,
    open ? h("span", { class: "seat-chip-name", text: " · open" }) : null,
  );
}

/** Take the first open seat of a waiting table: its credential is kept like a claimed
 *  invite's, and the table page takes the seat from the address. */
async function joinTable(tableId, button) {
  if (lobby.joining) return;
  lobby.joining = true;
  lobby.joinError = "";
  hideError($("tables-error"));
  if (button) button.disabled = true;
  try {
    const joined = await api(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST" });
    rememberSeat(tableId, joined.seat, joined.token, { last: true });
    location.assign(`/table/${encodeURIComponent(tableId)}#seat=${joined.seat}`);
  } catch (error) {
    lobby.joinError = `Could not join table ${tableId}: ${error.message}`;
    showError($("tables-error"), lobby.joinError);
    lobby.joining = false;
    refreshTables();
  }
}

function moves(count) {
  const n = Number(count) || 0;
  return n === 1 ? "1 move" : `${n} moves`;
}

/** "just now", "5 min ago", "2 h ago" from a Unix time in seconds. */
function ago(seconds) {
  const age = Date.now() / 1000 - Number(seconds);
  if (!Number.isFinite(age) || age < 60) return "just now";
  if (age < 3600) return `${Math.floor(age / 60)} min ago`;
  if (age < 86400) return `${Math.floor(age / 3600)} h ago`;
  return `${Math.floor(age / 86400)} d ago`;
}

// -- errors ---------------------------------------------------------------------------------

function showError(node, text) {
  node.textContent = text;
  node.hidden = false;
}

function hideError(node) {
  node.hidden = true;
  node.textContent = "";
}

// -- start ----------------------------------------------------------------------------------

function start() {
  setUpName();
  setUpRoomSettings();
  $("game").addEventListener("change", () => {
    lobby.seatChoices = [];
    lobby.deviceChoices = [];
    onGameChange();
  });
  $("players").addEventListener("change", onPlayersChange);
  $("seed").addEventListener("input", renderSeedHint);
  renderSeedHint();
  $("create-form").addEventListener("submit", onSubmit);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refreshTables();
  });
  // Back from a table joined here: the page may come back as it was left, mid-Join.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    lobby.joining = false;
    $("my-name").value = storedName();
    refreshTables();
  });
  loadGames();
  refreshTables();
  startYourTables();
}

start();
