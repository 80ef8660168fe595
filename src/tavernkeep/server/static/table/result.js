// The result banner of the table page, once the game is over: the headline (as the game
// heads its ending, or who won), the reason, the scores (with the decisions bots made for
// a person), the links to the game's record and replay, and the rematch (rematch.js).

import { h, replace, seatLabel } from "../dom.js";
import { rematchOffer } from "./rematch.js";
import { $, app, currentSeats, tableId, withNames } from "./state.js";

export function renderBanner() {
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
export function ranksTell(result) {
  const ranks = Array.isArray(result.ranks) ? result.ranks : [];
  return ranks.length > 1 && ranks.some((rank) => rank !== ranks[0]);
}

export function formatScore(score) {
  return Number.isInteger(score) ? String(score) : String(Number(score).toFixed(2));
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
