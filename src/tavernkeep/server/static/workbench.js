// The designer's workbench (/workbench): a game's packs as forms, what a change is and
// what it does. This entry asks for the designer key where the server wants one, keeps
// the open pack (its data as the form edits it, the pack it started from), has every
// edit checked by the server (a moment after the typing stops) and shows the verdict: the
// first mistake in one line, each mistake beside its field, and what changed. Its parts:
// workbench/form.js (the form, from the pack model's JSON schema), packs.js (the packs
// and their files), run.js with charts.js ("What does my change do?"), history.js (every
// comparison kept, any two side by side), play.js (a table with the saved pack), api.js.

import { h, replace } from "./dom.js";
import { call, gamePath, packPath } from "./workbench/api.js";
import { PackForm } from "./workbench/form.js";
import { HistoryPanel } from "./workbench/history.js";
import { PacksPanel } from "./workbench/packs.js";
import { PlayPanel } from "./workbench/play.js";
import { RunPanel } from "./workbench/run.js";

const $ = (id) => document.getElementById(id);
const CHECK_MS = 300;

const state = {
  game: null, // GET /api/workbench/games/{name}: the schema, packs, bots
  pack: null, // {game, name, saved, base, data, digest (as saved)}
  valid: true,
  dirty: false,
  form: null,
  checking: null, // the timer of the next check
  asked: 0, // checks asked for, so an old answer never overwrites a newer one
};

function showError(message) {
  const box = $("wb-error");
  box.textContent = message || "";
  box.hidden = !message;
}

/** The open pack as a comparison plays it: named as saved, or as the change it is. */
function current() {
  const { name, saved } = state.pack;
  const label = saved ? (state.dirty ? `${name} (unsaved)` : name) : `${name} (changed)`;
  return { ...state.pack, name: label, valid: state.valid };
}

function showVerdict(check, changes) {
  state.valid = check.valid;
  play.update();
  const verdict = $("pack-verdict");
  verdict.className = `wb-verdict ${check.valid ? "valid" : "invalid"}`;
  verdict.textContent = check.valid ? "The game loads this pack." : check.error;
  const unplaced = state.form.showErrors(check.errors);
  replace(
    $("pack-warnings"),
    check.warnings.map((w) => h("li", { text: w })),
    unplaced.map((u) => h("li", { class: "wb-unplaced", text: u })),
  );
  state.form.markChanged(changes);
  replace(
    $("changes"),
    changes.length
      ? changes.map((c) => h("li", { text: c.text }))
      : h("li", { class: "hint", text: `Nothing yet: this is ${state.pack.base} as it is.` }),
  );
}

async function check() {
  const asked = ++state.asked;
  const { game, base, data } = state.pack;
  try {
    const answer = await call(`${gamePath(game)}/check`, { json: { data, base } });
    if (asked === state.asked) showVerdict(answer.check, answer.changes);
  } catch (err) {
    if (asked === state.asked) showError(err.message);
  }
}

function edited() {
  state.dirty = true;
  packs.showPack(state.pack, true);
  play.update();
  clearTimeout(state.checking);
  state.checking = setTimeout(check, CHECK_MS);
}

async function openPack(name) {
  const game = state.game.game;
  const pack = await call(packPath(game, name));
  state.pack = { game, name: pack.name, saved: pack.saved, base: pack.base, data: pack.data, digest: pack.check.digest };
  state.dirty = false;
  $("pack-title").textContent = pack.saved ? `${pack.name} (from ${pack.base})` : `${pack.name}, ${state.game.title}'s own pack`;
  state.form.show(state.pack.data);
  packs.list(state.game, pack.name);
  packs.showPack(state.pack, false);
  showVerdict(pack.check, pack.changes);
  history.replaceState(null, "", `/workbench?game=${encodeURIComponent(game)}&pack=${encodeURIComponent(name)}`);
}

async function openGame(name, packName) {
  state.game = await call(gamePath(name));
  state.form = new PackForm($("pack-form"), state.game.schema, edited);
  const known = [...state.game.packs, ...state.game.saved.map((p) => p.name)];
  await play.open(state.game);
  await openPack(known.includes(packName) ? packName : state.game.packs[0]);
  await runs.open(state.game);
  await pastRuns.open(state.game);
}

const packs = new PacksPanel({
  current: () => state.pack,
  open: (name) => openPack(name).catch((err) => showError(err.message)),
  saved: (name, errors) => {
    if (name === null) {
      state.form.showErrors(errors);
      return;
    }
    openPack(name).catch((err) => showError(err.message));
  },
  onError: showError,
});

const runs = new RunPanel({ current, onError: showError, changed: () => pastRuns.refresh() });
// Not `history`: the page's own window.history keeps its address.
const pastRuns = new HistoryPanel({ show: (id) => runs.follow(id), onError: showError });
const play = new PlayPanel({ current: () => ({ ...state.pack, dirty: state.dirty, valid: state.valid }), onError: showError });

async function openBench() {
  $("key-panel").hidden = true;
  $("bench").hidden = false;
  const games = await call("/api/workbench/games");
  const params = new URLSearchParams(location.search);
  const wanted = games.some((g) => g.name === params.get("game")) ? params.get("game") : games[0].name;
  const select = $("game-select");
  replace(select, games.map((g) => h("option", { value: g.name, text: g.title, selected: g.name === wanted })));
  select.addEventListener("change", () => openGame(select.value).catch((err) => showError(err.message)));
  await openGame(wanted, params.get("pack"));
}

async function start() {
  const access = await call("/api/workbench/access");
  if (access.open) return openBench();
  if (!access.needs_key) throw new Error(access.error);
  $("key-panel").hidden = false;
  $("key-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await call("/api/workbench/key", { json: { key: $("key-input").value } });
      $("key-input").value = "";
      showError(null);
      await openBench();
    } catch (err) {
      showError(err.message);
    }
  });
  $("key-input").focus();
}

start().catch((err) => showError(err.message));
