// The workbench's requests (server/PROTOCOL.md, "The workbench"). Unlike dom.js's `api`,
// a refusal keeps its whole body: a pack the server will not save says which fields are
// wrong (`errors`), beside its one line (`error`).

export class Refused extends Error {
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body || {};
  }
}

/** The JSON answer to a request, or a Refused with the server's one line. */
export async function call(path, { method = "GET", json } = {}) {
  const init = { method, headers: { Accept: "application/json" } };
  if (json !== undefined) {
    init.method = method === "GET" ? "POST" : method;
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(json);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new Refused("the server cannot be reached", 0);
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const said = body && typeof body.error === "string" ? body.error : `${response.status} ${response.statusText}`;
    throw new Refused(said.trim(), response.status, body);
  }
  return body;
}

export const gamePath = (game) => `/api/workbench/games/${encodeURIComponent(game)}`;
export const packPath = (game, pack) => `${gamePath(game)}/packs/${encodeURIComponent(pack)}`;
