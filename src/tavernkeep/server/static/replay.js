// A replay: a finished game stepped through, forward and back, with every hand there to
// see (it is over: any seat's view may be shown), the dice as they fell in the log, and
// the log in step with the board. The record comes from a finished table
// (`/replay#table=ID`) or a file the person opens; the server replays it a step at a
// time and keeps nothing (server/replays.py).

import { agentLabel, api, h, replace, seatLabel, withSeatNames } from "./dom.js";
import { logLine } from "./dice.js";
import { generic, rendererFor } from "./renderers/index.js";
import { openRules, ruleTips } from "./rules.js";

const $ = (id) => document.getElementById(id);

const replay = {
  // The record's text as written, sent back as it is: read into JavaScript numbers, a
  // seed of 19 digits would come back as another seed, and another game.
  record: null,
  steps: 0,
  step: 0,
  seat: 0, // whose view the board shows (null: a spectator's)
  renderer: generic,
  turns: [],
  asking: 0, // the latest ask: an older answer arriving late is not shown
};

async function openRecord(text, source) {
  replay.record = text;
  replay.step = 0;
  replay.seat = 0;
  hideError();
  $("replay-source").textContent = source;
  const first = await show(0);
  if (!first) return;
  replay.renderer = await rendererFor(first.game);
  $("game-title").textContent = `${first.title}: replay`;
  document.title = `Replay · ${first.title} · tavernkeep`;
  const rules = $("rules-button");
  rules.disabled = false;
  rules.onclick = () => openRules(first.game);
  ruleTips($("game"), first.game);
  replay.steps = first.steps;
  replay.turns = first.turns || [];
  $("slider").max = String(first.steps);
  replace(
    $("seen-as"),
    first.seats.map((_, seat) =>
      h("option", { value: String(seat), text: seatName(first, seat), selected: seat === replay.seat }),
    ),
    h("option", { value: "watch", text: "a spectator" }),
  );
  replace(
    $("turn"),
    replay.turns.map((step, n) => h("option", { value: String(step), text: `${n + 1} (step ${step})` })),
  );
  $("stepper").hidden = false;
  await show(replay.step);
}

/** A seat as the table named it (dom.js seatLabel), a bot's with its kind. */
function seatName(frame, seat) {
  const names = Array.isArray(frame.names) ? frame.names : [];
  const entries = frame.seats.map((_, s) => ({ seat: s, name: names[s] }));
  const agent = frame.seats[seat];
  return seatLabel(seat, entries) + (agent === "human" ? "" : ` (${agentLabel(agent)})`);
}

/** Ask for a step and draw it; the frame, or null when the server refused the record. */
async function show(step) {
  const asked = ++replay.asking;
  let frame;
  try {
    frame = await api("/api/replay", { json: { record: replay.record, seat: replay.seat, step } });
  } catch (error) {
    showError(`This record cannot be replayed: ${error.message}`);
    return null;
  }
  if (asked !== replay.asking) return frame;
  replay.step = frame.step;
  draw(frame);
  return frame;
}

function draw(frame) {
  $("slider").value = String(frame.step);
  const turn = [...replay.turns].reverse().find((s) => s <= frame.step);
  if (turn !== undefined) $("turn").value = String(turn);
  const who = frame.by === null || frame.by === undefined ? "" : `${seatName(frame, frame.by)}: `;
  $("step-text").textContent =
    frame.step === 0
      ? `Step 0 of ${frame.steps}: the table as it was dealt.`
      : `Step ${frame.step} of ${frame.steps}: ${who}${frame.label || ""}`;
  $("first").disabled = $("back").disabled = frame.step === 0;
  $("forward").disabled = $("last").disabled = frame.step === frame.steps;
  const names = Array.isArray(frame.names) ? frame.names : [];
  const entries = frame.seats.map((_, s) => ({ seat: s, name: names[s] }));
  const seatNames = frame.seats.map((_, s) => seatLabel(s, entries));
  const ctx = { seat: frame.seat, seatNames, legal: [], onAction: () => {} };
  try {
    replay.renderer.render($("game"), frame.view, ctx);
  } catch (error) {
    console.error("renderer failed; using the generic view", error);
    generic.render($("game"), frame.view, ctx);
  }
  const log = $("log");
  replace(log, (frame.log || []).map((event) => logLine(event, withSeatNames(event.text || event.kind || "", entries))));
  log.scrollTop = log.scrollHeight;
  const banner = $("banner");
  banner.hidden = !frame.result;
  if (frame.result) {
    replace(
      banner,
      h("h2", { text: withSeatNames(frame.headline || "The game is over", entries) }),
      h("p", { class: "result-reason", text: withSeatNames(frame.result.reason || "", entries) }),
    );
  }
}

function go(step) {
  const clamped = Math.max(0, Math.min(replay.steps, step));
  if (replay.record) show(clamped);
}

function showError(text) {
  const node = $("replay-error");
  node.hidden = false;
  node.textContent = text;
}

function hideError() {
  $("replay-error").hidden = true;
}

async function fromTable(tableId) {
  $("open-file").hidden = true;
  let response;
  try {
    response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/record`);
  } catch {
    showError("The server cannot be reached.");
    return;
  }
  const text = await response.text();
  if (!response.ok) {
    let said = null;
    try {
      said = JSON.parse(text).error;
    } catch {
      said = null;
    }
    showError(`No replay: ${said || response.statusText}.`);
    return;
  }
  await openRecord(text, `table ${tableId}`);
}

function fromFile(file) {
  const reader = new FileReader();
  reader.onload = () => {
    const text = String(reader.result);
    try {
      JSON.parse(text); // only to say so at once; the text goes to the server as it is
    } catch {
      showError(`${file.name} is not a game record: not JSON.`);
      return;
    }
    openRecord(text, file.name);
  };
  reader.onerror = () => showError(`${file.name} could not be read.`);
  reader.readAsText(file);
}

function start() {
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(replay.step - 1));
  $("forward").addEventListener("click", () => go(replay.step + 1));
  $("last").addEventListener("click", () => go(replay.steps));
  $("slider").addEventListener("change", (event) => go(Number(event.target.value)));
  $("turn").addEventListener("change", (event) => go(Number(event.target.value)));
  $("seen-as").addEventListener("change", (event) => {
    replay.seat = event.target.value === "watch" ? null : Number(event.target.value);
    go(replay.step);
  });
  const picker = $("record-file");
  picker.addEventListener("change", () => {
    if (picker.files && picker.files[0]) fromFile(picker.files[0]);
  });
  // The input is on the page before this module has run (it waits for its imports): a
  // record chosen in that moment fired its change with nobody listening. Open it now.
  if (picker.files && picker.files[0]) fromFile(picker.files[0]);
  document.addEventListener("keydown", (event) => {
    const tag = event.target && event.target.tagName;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) && event.target.type !== "range") return;
    if (event.key === "ArrowRight") go(replay.step + 1);
    else if (event.key === "ArrowLeft") go(replay.step - 1);
    else return;
    event.preventDefault();
  });
  const params = new URLSearchParams(location.hash.slice(1));
  const table = params.get("table");
  if (table) fromTable(table);
}

start();
