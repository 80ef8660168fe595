// The tutor. Opt-in, per browser: with "Advice" on, each decision of this seat asks the
// server's search for every choice's chance to win, worked out from this seat's view alone
// (the table may not allow it: by default a table with clocks does not). Its answer is
// shown beside each choice in the decision bar (decision.js).

import { h } from "../dom.js";
import { renderActions } from "./decision.js";
import { send } from "./socket.js";
import { app } from "./state.js";

function adviceAllowed() {
  const settings = (app.table && app.table.settings) || {};
  if (typeof settings.advice === "boolean") return settings.advice;
  return !settings.clock;
}

export function askAdvice() {
  const state = app.state;
  if (!app.adviceOn || !adviceAllowed() || app.seat === null || !state) return;
  if (!(state.legal || []).length || app.adviceAsked === state.version) return;
  if (app.advice && app.advice.version === state.version) return;
  if (send({ type: "advice" })) app.adviceAsked = state.version;
}

export function onAdvice(message) {
  if (!app.state || message.version !== app.state.version || !Array.isArray(message.options)) return;
  const byAction = {};
  for (const option of message.options) {
    if (option && typeof option.action === "string") byAction[option.action] = option;
  }
  app.advice = { version: message.version, byAction };
  renderActions();
}

/** The tutor's word on one choice, if it has given it for this decision. */
export function adviceFor(action) {
  if (!app.adviceOn || !app.advice || !app.state || app.advice.version !== app.state.version) return null;
  return app.advice.byAction[action] || null;
}

export function adviceToggle(legal) {
  if (app.seat === null || !adviceAllowed()) return null;
  const waiting = app.adviceOn && legal.length && !adviceFor(legal[0].action);
  return h(
    "label",
    { class: "advice-toggle", title: "The search's estimate of each choice's chance to win, from what your seat can see." },
    h("input", {
      type: "checkbox",
      id: "advice-toggle",
      checked: app.adviceOn,
      onchange: (event) => {
        app.adviceOn = event.target.checked;
        try {
          localStorage.setItem("tavernkeep:advice", app.adviceOn ? "1" : "0");
        } catch {
          // storage disabled: the choice lasts as long as the page
        }
        askAdvice();
        renderActions();
      },
    }),
    " Advice",
    waiting ? h("span", { class: "muted", text: " · thinking…" }) : null,
  );
}
