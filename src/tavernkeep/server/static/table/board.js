// The game area of the table page: the game's renderer (found by the game's name, with
// its look and its How to play from the lobby API) and the board it draws from the state,
// or the generic view where the renderer fails.

import { api, h, replace } from "../dom.js";
import { choiceRules, openRules, ruleTips } from "../rules.js";
import { generic, rendererFor } from "../renderers/index.js";
import { act, renderActions } from "./decision.js";
import { $, app, seatNames } from "./state.js";

/** The game's renderer and look, knowing from the lobby API which of them it has. */
export async function loadRenderer(gameName) {
  if (!app.gamesMeta) {
    app.gamesMeta = api("/api/games").catch(() => []);
  }
  const games = await app.gamesMeta;
  const meta = Array.isArray(games) ? games.find((g) => g.name === gameName) : null;
  if (meta && app.table && !app.table.title) app.table.title = meta.title;
  if (meta) app.kind = meta.kind;
  // The rules open beside the board: a person mid-game reads them and plays on.
  const rules = $("rules-button");
  rules.disabled = !(meta && meta.rules);
  rules.onclick = () => openRules(gameName);
  // A card, a suit, a hex on the board shows its rule when pointed at.
  if (meta && meta.rules) ruleTips($("game"), gameName);
  if (meta && meta.rules && !app.choiceRules) {
    // Each choice links to the rule that explains it, once the rules have come.
    choiceRules(gameName)
      .then((found) => {
        app.choiceRules = found;
        renderActions();
      })
      .catch(() => {});
  }
  return rendererFor(gameName, {
    renderer: meta ? meta.renderer !== false : true,
    stylesheet: meta ? meta.stylesheet !== false : true,
  });
}

export function renderGame() {
  const state = app.state;
  const container = $("game");
  container.classList.remove("busy");
  if (!state) return;
  if (!state.view) {
    // A table waiting for its people shows nothing of a game: the deal is made, and the
    // first die rolled, when it begins.
    replace(
      container,
      h(
        "div",
        { class: "card framed waiting-board" },
        h("h2", { text: "The game has not begun" }),
        h("p", { text: "The cards are dealt and the dice rolled when everyone is seated. Until then, say hello in the chat." }),
      ),
    );
    return;
  }
  const ctx = {
    seat: app.seat,
    seatNames: seatNames(),
    legal: app.pending ? [] : state.legal || [],
    onAction: act,
  };
  try {
    app.renderer.render(container, state.view, ctx);
  } catch (error) {
    // A renderer bug must not cost the table: show the readable generic view instead.
    console.error("renderer failed; using the generic view", error);
    generic.render(container, state.view, ctx);
  }
}
