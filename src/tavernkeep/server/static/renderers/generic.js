// The generic renderer: a readable view of any game's `view` object.
//
// Objects become definition lists, lists of like objects become tables, lists of plain
// values become chips, and a list with one entry per seat is labelled by seat, so a new
// game can be played in the browser before anyone has drawn its board.

import { h, humanize, replace } from "../dom.js";

const MAX_DEPTH = 6;
// Keys the frame already shows (the header, the banner) or that only repeat the seat.
const SKIP_KEYS = new Set(["game", "seat", "result"]);

export function render(container, view, ctx) {
  const players = Number(view && view.players) || (ctx.seatNames || []).length;
  const root = h("div", { class: "generic-view" });
  if (view && typeof view === "object" && !Array.isArray(view)) {
    const entries = Object.entries(view).filter(([key]) => !SKIP_KEYS.has(key));
    root.append(objectList(entries, ctx, players, 0));
  } else {
    root.append(value(view, ctx, players, 0));
  }
  replace(container, root);
}

// Keys whose integers are seat numbers: shown as the players' names, as the log names them.
const SEAT_KEYS = /^(seat|seats|current|actor|player|winner|winners|first_player|leader)$/i;

function value(v, ctx, players, depth, key = "") {
  if (v === null || v === undefined) return h("span", { class: "nil", text: "—" });
  if (SEAT_KEYS.test(key) && Number.isInteger(v) && v >= 0 && v < Math.max(players, 1)) {
    return h("span", { class: "seat-ref", text: (ctx.seatNames || [])[v] || `Player ${v + 1}` });
  }
  if (typeof v === "boolean") return h("span", { class: v ? "yes" : "no", text: v ? "yes" : "no" });
  if (typeof v === "number" || typeof v === "string") return h("span", { text: v });
  if (depth >= MAX_DEPTH) return h("span", { class: "nil", text: "…" });
  if (Array.isArray(v)) return arrayValue(v, ctx, players, depth, key);
  return objectList(Object.entries(v), ctx, players, depth + 1);
}

function objectList(entries, ctx, players, depth) {
  if (entries.length === 0) return h("span", { class: "nil", text: "(nothing)" });
  return h(
    "dl",
    { class: "kv" },
    entries.map(([key, v]) => [
      h("dt", { text: humanize(key) }),
      h("dd", {}, value(v, ctx, players, depth, key)),
    ]),
  );
}

function isPlain(v) {
  return v === null || ["string", "number", "boolean"].includes(typeof v);
}

function isRecord(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

// Lists that happen to have one entry per player but are not about the players.
const NOT_BY_SEAT = /dice|die|roll|face|slot|quest|card|hand|deck/i;

function arrayValue(list, ctx, players, depth, key) {
  if (list.length === 0) return h("span", { class: "nil", text: "(none)" });
  // One entry per seat (scores, parties): label each with its player, which is what the
  // numbers mean. A guess from the length, so lists of cards or dice are left alone.
  const perSeat =
    players > 1 &&
    list.length === players &&
    !NOT_BY_SEAT.test(key) &&
    (list.every((v) => typeof v === "number") || list.every(Array.isArray));
  if (perSeat) {
    return seatTable(list, ctx, players, depth);
  }
  if (list.every(isPlain)) {
    return h("ul", { class: "chips chip-row" }, list.map((v) => h("li", {}, value(v, ctx, players, depth, key))));
  }
  if (list.every(isRecord)) return recordTable(list, ctx, players, depth);
  return h(
    "ol",
    { class: "generic-list" },
    list.map((v) => h("li", {}, value(v, ctx, players, depth + 1))),
  );
}

function seatTable(list, ctx, players, depth) {
  const names = ctx.seatNames || [];
  return h(
    "table",
    { class: "generic-table by-seat" },
    h(
      "tbody",
      {},
      list.map((v, seat) =>
        h(
          "tr",
          { class: seat === ctx.seat ? "mine" : "" },
          h("th", { scope: "row", text: names[seat] || `Player ${seat + 1}` }),
          h("td", {}, value(v, ctx, players, depth + 1)),
        ),
      ),
    ),
  );
}

function recordTable(list, ctx, players, depth) {
  const columns = [...new Set(list.flatMap((row) => Object.keys(row)))];
  return h(
    "table",
    { class: "generic-table" },
    h("thead", {}, h("tr", {}, columns.map((c) => h("th", { scope: "col", text: humanize(c) })))),
    h(
      "tbody",
      {},
      list.map((row) =>
        h("tr", {}, columns.map((c) => h("td", {}, value(row[c], ctx, players, depth + 1, c)))),
      ),
    ),
  );
}
