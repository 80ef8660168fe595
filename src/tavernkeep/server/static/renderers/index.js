// Chooses the renderer for a game by its name. A game's own renderer lives in
// `renderers/<game-name>.js`; a game without one (or a renderer that fails to load)
// is drawn by the generic renderer, so every game is playable from the day its rules exist.
//
// Renderer module API: `export function render(container, view, ctx)` where
// ctx = {seat, seatNames, legal, onAction}.

import * as generic from "./generic.js";

const cache = new Map();

/** Resolve to the renderer module for `gameName` (never rejects). */
export function rendererFor(gameName, hasRenderer = true) {
  const name = String(gameName || "");
  // Only plain registry names become a path: a name is data from the server.
  if (!hasRenderer || !/^[a-z0-9][a-z0-9-]*$/.test(name)) return Promise.resolve(generic);
  if (!cache.has(name)) {
    cache.set(
      name,
      import(`./${name}.js`)
        .then((module) => (typeof module.render === "function" ? module : generic))
        .catch(() => generic),
    );
  }
  return cache.get(name);
}

export { generic };
