// The host's tools on the table page, under the seats. The browser that opened the table
// holds its host key: it hands a seat to a new invite (its person on a new device), starts
// a table whose open seats are not all taken, and closes a table nobody will finish. None
// of these acts for a seat.

import { api, copyField, h, playerName, replace, seatLabel } from "../dom.js";
import { toast } from "./notices.js";
import { $, app, currentSeats, tableId, tableStatus } from "./state.js";

let hostToolsKey = "";

export function renderHostTools() {
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
