// Take-back: the button that takes back this seat's last decision, which the server offers
// back (never one that rolled a die or showed a hidden card), shown below the choices in
// the decision bar (decision.js). The server answers with "undone" and the table again.

import { h } from "../dom.js";
import { renderActions } from "./decision.js";
import { send } from "./socket.js";
import { app } from "./state.js";

/** The "Take back: ..." button, when the last state offers a decision back, else null. */
export function takeBackButton(state, disabled) {
  if (!(state && typeof state.take_back === "string" && state.take_back)) return null;
  return h("button", {
    type: "button",
    class: "button secondary wraps",
    id: "take-back",
    text: `Take back: ${state.take_back}`,
    title: "Undo your last decision: allowed while it is your turn, if no die was rolled and no hidden card was shown to you.",
    disabled,
    onclick: () => {
      if (send({ type: "take_back" })) {
        app.pending = true;
        renderActions();
      }
    },
  });
}
