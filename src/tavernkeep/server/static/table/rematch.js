// The rematch of a finished table, offered in the result banner (result.js): opening it
// (for a seat or the host), hearing that someone opened it (the server's "rematch"
// message), and going there with this browser's seats and host key.

import { api, h, rememberHost, rememberSeat, storedSeats } from "../dom.js";
import { toast } from "./notices.js";
import { renderBanner } from "./result.js";
import { app, tableId } from "./state.js";

/**
 * A finished table offers its people a rematch: the same game, seats and options with a
 * new deal, every seat's credential carried over. Whoever opens it goes there; everyone
 * else at the table is told and offered the way in.
 */
export function rematchOffer() {
  if (app.rematch) {
    return h(
      "p",
      { class: "rematch-offer" },
      h("span", { class: "pill", text: "A rematch is open" }),
      h("button", {
        type: "button",
        class: "button primary",
        id: "rematch-go",
        text: app.seat === null && !app.host ? "Watch the rematch" : "Go to the rematch",
        onclick: () => goToRematch(app.rematch),
      }),
    );
  }
  const credential = app.identity && app.seat !== null ? app.identity.token : null;
  if (!credential && !app.host) return null;
  return h(
    "p",
    { class: "rematch-offer" },
    h("button", {
      type: "button",
      class: "button primary",
      id: "rematch",
      text: "Rematch",
      title: "The same seats and options, a new deal; everyone here is invited back.",
      onclick: async (event) => {
        event.target.disabled = true;
        const body = credential ? { seat: app.seat, token: credential } : { host: app.host };
        try {
          const made = await api(`/api/tables/${encodeURIComponent(tableId)}/rematch`, { json: body });
          goToRematch(made.id);
        } catch (error) {
          event.target.disabled = false;
          toast(`No rematch: ${error.message}`);
        }
      },
    }),
  );
}

export function onRematch(id) {
  if (typeof id !== "string" || !id) return;
  app.rematch = id;
  renderBanner();
}

/** Carry this browser's seats and host key over to the rematch (the server carried the
 *  credentials), then open it as the same seat. */
function goToRematch(id) {
  const stored = storedSeats(tableId);
  for (const [seat, credential] of Object.entries(stored.credentials)) {
    rememberSeat(id, Number(seat), credential, { last: Number(seat) === app.seat });
  }
  if (app.host) rememberHost(id, app.host);
  const fragment = app.seat === null ? "#watch" : `#seat=${app.seat}`;
  location.href = `/table/${encodeURIComponent(id)}${fragment}`;
}
