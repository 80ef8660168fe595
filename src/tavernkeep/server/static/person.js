// A player's public page (/people/{handle}, GET /api/people/{handle}): their name, their
// rating in each game, a chart of each rating over time (drawn with Observable Plot,
// static/vendor/) and their rated games, latest first. Every name is set as text.

import { api, h, replace } from "./dom.js";

const $ = (id) => document.getElementById(id);

/** 1,620 ± 240 (as the leaderboard writes it). */
function ratingText(entry) {
  const n = (x) => Number(x).toLocaleString("en");
  return `${n(entry.rating)} ± ${n(entry.plus_minus)}`;
}

function handle() {
  const parts = location.pathname.split("/").filter(Boolean);
  return decodeURIComponent(parts[parts.length - 1] || "");
}

function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${tail}`;
}

/** How a rated game came out for the player, in words. */
function resultText(game, kinds) {
  if (kinds[game.game] !== "competitive") return game.won ? "won" : "lost";
  return game.won ? `won (1st of ${game.of})` : `${ordinal(game.place)} of ${game.of}`;
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleDateString("en", { year: "numeric", month: "short", day: "numeric" });
}

/** One game's rating over time: from where everyone begins (`start`), the rating after
 *  each rated game, its band shaded. */
function chart(title, points, start) {
  const figure = h("figure", { class: "rating-chart", dataset: { game: title } }, h("figcaption", { text: title }));
  if (typeof Plot === "undefined") {
    figure.append(h("p", { class: "muted", text: "The chart could not be drawn (its library did not load)." }));
    return figure;
  }
  const rows = [{ ...start, at: null }, ...points].map((p, i) => ({
    game: i,
    at: p.at,
    rating: p.rating,
    low: p.rating - p.plus_minus,
    high: p.rating + p.plus_minus,
  }));
  const last = rows.length - 1;
  const step = Math.max(1, Math.ceil(last / 8));
  const ticks = [];
  for (let n = 0; n <= last; n += step) ticks.push(n);
  const plot = Plot.plot({
    width: 640,
    height: 220,
    marginLeft: 50,
    x: { label: "rated games", ticks, tickFormat: "d" },
    y: { label: "rating", grid: true },
    marks: [
      Plot.areaY(rows, { x: "game", y1: "low", y2: "high", fill: "#c9972c", fillOpacity: 0.2 }),
      Plot.lineY(rows, { x: "game", y: "rating", stroke: "#8b2e16", strokeWidth: 2 }),
      Plot.dot(rows, {
        x: "game",
        y: "rating",
        fill: "#8b2e16",
        r: 3,
        tip: true,
        title: (r) =>
          r.at === null
            ? `Everyone begins at ${r.rating} ± ${r.high - r.rating}`
            : `${when(r.at)}: ${r.rating} ± ${r.high - r.rating}`,
      }),
    ],
  });
  figure.append(plot);
  return figure;
}

async function start() {
  let person;
  try {
    person = await api(`/api/people/${encodeURIComponent(handle())}`);
  } catch (error) {
    $("person-error").textContent = `No such player here (${error.message}).`;
    $("person-error").hidden = false;
    $("person-name").textContent = "No such player";
    return;
  }
  document.title = `${person.name} · tavernkeep`;
  $("person-name").textContent = person.name;
  const kinds = Object.fromEntries(person.ratings.map((r) => [r.game, r.kind]));
  replace(
    $("person-ratings"),
    person.ratings.length
      ? person.ratings.map((r) =>
          h(
            "li",
            { class: "person-rating", dataset: { game: r.game } },
            h("a", { href: `/leaderboard?game=${encodeURIComponent(r.game)}`, text: r.title }),
            h("strong", { class: "rating", text: ratingText(r) }),
            h("span", { class: "muted", text: `${r.games} rated game${r.games === 1 ? "" : "s"}` }),
          ),
        )
      : h("li", { class: "muted", text: "No rated games yet." }),
  );
  const byGame = new Map();
  for (const game of person.games) {
    if (!byGame.has(game.game)) byGame.set(game.game, { title: game.title, points: [] });
    byGame.get(game.game).points.push(game);
  }
  replace($("person-charts"), [...byGame.values()].map((g) => chart(g.title, g.points, person.start)));
  // Latest first, each with the change it made to that game's rating.
  const before = new Map();
  const rows = person.games.map((game) => {
    const last = before.get(game.game);
    before.set(game.game, game.rating);
    const change = last === undefined ? "" : ` (${game.rating >= last ? "+" : "−"}${Math.abs(game.rating - last)})`;
    return h(
      "tr",
      {},
      h("td", { text: when(game.at) }),
      h("td", { text: game.title }),
      h("td", { text: resultText(game, kinds) }),
      h("td", { class: "rating", text: `${ratingText(game)}${change}` }),
    );
  });
  replace($("person-games"), rows.reverse());
}

start();
