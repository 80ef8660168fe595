// The turn, told to a person looking at another tab: when the decision becomes this
// page's seat's while the page is hidden, the browser's notification says so, if the
// person allowed it (the lobby asks, on a click: turns.js). The title already says
// "▶ Your turn" while the decision is theirs (identity.js).

import { notifyTurn } from "../turns.js";
import { app, tableId } from "./state.js";

let wasMine = false;

/** Called with every state the page shows (table.js). */
export function alertTurn(message) {
  // Offered choices are the seat's own decision; a pass the server makes for it is not.
  const mine = Array.isArray(message.legal) && message.legal.length > 0;
  if (mine && !wasMine && document.hidden) {
    const title = (app.table && app.table.title) || "your table";
    notifyTurn({ title: `Your turn: ${title}`, body: `table ${tableId}`, tag: `tavernkeep:turn:${tableId}` });
  }
  wasMine = mine;
}
