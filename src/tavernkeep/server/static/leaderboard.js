// The leaderboards: a game's ratings, people and bots on one scale (server/ratings.py,
// GET /api/leaderboard/{game}). A person is shown by the name they chose and links to
// their page (/people/{handle}); a bot by its label. Every name is set as text.

import { api, h, replace } from "./dom.js";

const $ = (id) => document.getElementById(id);

/** 1,620 ± 240 (a player's page writes it so too). */
function ratingText(entry) {
  const n = (x) => Number(x).toLocaleString("en");
  return `${n(entry.rating)} ± ${n(entry.plus_minus)}`;
}

function who(entry) {
  if (entry.kind === "person") {
    return h("a", { class: "rated-person", href: `/people/${encodeURIComponent(entry.handle)}`, text: entry.name });
  }
  const badge = entry.kind === "bot" ? "bot" : "the game";
  return h("span", { class: `rated-${entry.kind}` }, entry.label, " ", h("span", { class: "badge", text: badge }));
}

function row(entry) {
  return h(
    "tr",
    { class: `rated-row ${entry.kind}` },
    h("td", { class: "place", text: String(entry.place) }),
    h("td", { class: "rated-who" }, who(entry)),
    h("td", { class: "rating", text: ratingText(entry) }),
    h("td", { class: "games", text: String(entry.games) }),
  );
}

async function show(game) {
  $("board-error").hidden = true;
  let board;
  try {
    board = await api(`/api/leaderboard/${encodeURIComponent(game)}`);
  } catch (error) {
    $("board-error").textContent = `Could not read the leaderboard: ${error.message}`;
    $("board-error").hidden = false;
    return;
  }
  const entries = board.entries || [];
  $("board-note").textContent =
    board.kind === "competitive"
      ? `${board.title}: each seat placed by the game's result.`
      : `${board.title}: the table plays the game, whose own rating says how hard it is.`;
  replace($("board-rows"), entries.map(row));
  $("board").hidden = entries.length === 0;
  $("board-empty").hidden = entries.length > 0;
}

async function start() {
  let games = [];
  try {
    games = await api("/api/games");
  } catch (error) {
    $("board-error").textContent = `Could not list the games: ${error.message}`;
    $("board-error").hidden = false;
    return;
  }
  const select = $("board-game");
  replace(select, games.map((g) => h("option", { value: g.name, text: g.title })));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some((g) => g.name === wanted)) select.value = wanted;
  select.addEventListener("change", () => {
    history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(select.value)}`);
    show(select.value);
  });
  if (select.value) show(select.value);
}

start();
