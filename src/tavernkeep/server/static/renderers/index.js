// Chooses the renderer for a game by its name. A game's own browser files live in its
// folder, `games/<game>/web/`: `renderer.js` and `style.css`, which the server serves at
// `/games/<name>/renderer.js` and `/games/<name>/style.css` (the lobby API says which of
// the two a game has). Nothing here lists the games: a new game's folder is enough. A game
// without a renderer (or whose renderer fails to load) is drawn by the generic renderer,
// so every game is playable from the day its rules exist.
//
// Renderer module API: `export function render(container, view, ctx)` where
// ctx = {seat, seatNames, legal, onAction}. A renderer imports the shared modules by
// absolute path (`/static/dom.js`, `/static/dice.js`), so they are the table's own.
// Optionally `export const pictures = {name: () => node}`: the pictures its How to play
// asks for (`Picture: name: ...`), drawn with its own cards, the parts its notes explain
// marked `data-note="1"`, ...; and anything it draws may carry `data-rule="section"`, the
// How to play's section that explains it, shown when pointed at (rules.js).

import { h } from "../dom.js";
import * as generic from "./generic.js";

const cache = new Map();

/** Where a game's own browser file is served. */
export function gameFile(gameName, file) {
  return `/games/${encodeURIComponent(gameName)}/${file}`;
}

/**
 * Resolve to the renderer module for `gameName` (never rejects), once the game's own
 * stylesheet, if it has one, has loaded: its first drawing is already in its look.
 */
export function rendererFor(gameName, { renderer = true, stylesheet = true } = {}) {
  const name = String(gameName || "");
  // Only plain registry names become a path: a name is data from the server.
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) return Promise.resolve(generic);
  if (!cache.has(name)) {
    const look = stylesheet ? loadStylesheet(gameFile(name, "style.css")) : Promise.resolve();
    const module = renderer
      ? import(gameFile(name, "renderer.js"))
          .then((loaded) => (typeof loaded.render === "function" ? loaded : generic))
          .catch((error) => {
            // Said aloud (the browser tests fail on it): a broken renderer would
            // otherwise pass for a game that has none.
            console.error("renderer failed to load; the generic view draws the game", error);
            return generic;
          })
      : Promise.resolve(generic);
    cache.set(
      name,
      Promise.all([look, module]).then(([, loaded]) => loaded),
    );
  }
  return cache.get(name);
}

/** Add a stylesheet after the shared one; resolves when it has loaded or failed. */
function loadStylesheet(href) {
  return new Promise((resolve) => {
    const link = h("link", { rel: "stylesheet", href, onload: resolve, onerror: resolve });
    document.head.append(link);
  });
}

export { generic };
