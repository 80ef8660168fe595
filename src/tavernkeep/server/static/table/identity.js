// Who the table page is at the table: the seat to join as (from the address, or the seat
// this browser used here last) or a spectator; the top bar that says so (and "Rated" at a
// rated table), with the switch between the seats this browser holds; joining again as
// another seat; and the hot seat, which follows the decision from one seat played on this
// device to the next.

import { api, h, playerName, rememberLast, rememberSeat, replace, seatLabel, storedSeats } from "../dom.js";
import { renderGame } from "./board.js";
import { renderActions } from "./decision.js";
import { setNotice } from "./notices.js";
import { connect, disconnect } from "./socket.js";
import { $, app, BACKOFF_FIRST_MS, competitive, currentSeats, tableId } from "./state.js";

// -- who am I? --------------------------------------------------------------------------

/**
 * The seat to join as, from the fragment: `#seat=N&invite=...` (an invite: claimed now,
 * once, for this browser), `#seat=N` (a seat this browser holds), `#watch`, or nothing
 * (the seat used here last, else watch). An invite someone else claimed first, or one
 * that is not valid, leaves the page watching, with a notice that says why.
 */
export async function resolveIdentity() {
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
export function watchBecause(reason) {
  const text = String(reason || "").replace(/[.\s]+$/, "");
  setNotice(/watching/.test(text) ? `${capitalize(text)}.` : `${capitalize(text)}: you are watching.`);
  history.replaceState(null, "", `${location.pathname}#watch`);
}

function capitalize(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// -- the top bar ----------------------------------------------------------------------------

export function renderHeader() {
  const title = (app.table && app.table.title) || "Table";
  $("game-title").textContent = title;
  // A rated table says so by its title (the welcome's `table.settings.rated`).
  $("rated-badge").hidden = !(app.table && app.table.settings && app.table.settings.rated);
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

// -- switching seats ------------------------------------------------------------------------

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

export function switchSeat(value) {
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

/** The address's fragment changed (a seat switched, an invite opened): join as it says. */
export function onHashChange() {
  const cover = pendingCover;
  pendingCover = false;
  rejoin({ cover });
}

// -- the hot seat ---------------------------------------------------------------------------

/**
 * Hot seat: seats the table's creator marked at setup as played on their device (a
 * co-operative party, a pass-and-play table) need no switching by hand. When the
 * decision passes to another such seat this browser holds, the page moves to it. Only
 * those seats: a seat claimed by someone else's browser is never followed, and every
 * seat is shown which seats share a device. In a competitive game the board is covered
 * until the next player says they have the device, so nobody sees a hand not theirs.
 */
export function followDecision(state) {
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
