// The workbench's requests (server/PROTOCOL.md, "The workbench"), through dom.js's `api`,
// whose refusal keeps its whole body: a pack the server will not save says which fields
// are wrong (`errors`), beside its one line (`error`).

import { ApiError, api } from "../dom.js";

export { ApiError as Refused };

/** The JSON answer to a request, or a Refused with the server's one line. */
export function call(path, { method = "GET", json } = {}) {
  if (json === undefined) return api(path, { method });
  return api(path, { method: method === "GET" ? "POST" : method, json });
}

export const gamePath = (game) => `/api/workbench/games/${encodeURIComponent(game)}`;
export const packPath = (game, pack) => `${gamePath(game)}/packs/${encodeURIComponent(pack)}`;
