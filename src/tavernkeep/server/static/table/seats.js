// The seats panel of the table page: every seat with its name, who or what plays it,
// whether its person is here, deciding or away, its clock, its stand-in and, once the game
// is over, its result; how the table was set up (the deal, the variants); and the form
// where this browser's person gives the name the table calls them.

import { agentLabel, h, humanize, rememberName, replace, seatLabel } from "../dom.js";
import { renderChatForm } from "./chat.js";
import { tickClocks } from "./clocks.js";
import { renderHostTools } from "./host.js";
import { formatScore, ranksTell } from "./result.js";
import { send } from "./socket.js";
import { $, app, currentSeats } from "./state.js";

export function renderSeats() {
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

export function onNameSubmit(event) {
  event.preventDefault();
  const input = $("my-name");
  const name = input.value.trim().replace(/\s+/g, " ");
  input.value = name;
  rememberName(name);
  // The server keeps the seat's name; a blank one is only forgotten here.
  if (name) send({ type: "name", name });
  renderChatForm();
}
