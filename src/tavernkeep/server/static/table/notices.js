// What the table page says to the person outside its panels: the notice bar, which stays
// (why this page is watching), and toasts, which go (a refused action, a failed request).

import { h } from "../dom.js";
import { $ } from "./state.js";

export function setNotice(text) {
  const node = $("notice");
  node.hidden = !text;
  node.textContent = text || "";
}

export function toast(text) {
  const node = h(
    "div",
    { class: "toast", role: "alert" },
    h("span", { class: "toast-text", text }),
    h("button", {
      type: "button",
      class: "toast-close",
      "aria-label": "Dismiss",
      text: "×",
      onclick: () => node.remove(),
    }),
  );
  $("toasts").append(node);
  setTimeout(() => node.remove(), 9000);
}
