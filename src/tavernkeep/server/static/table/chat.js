// The table's talk on the table page: people's lines and the table's notices, in the
// order the table kept them (a notice is logged in the game log too), and the form to say
// something, open to those who may. Every line is set as text: a name or a line that
// looks like markup shows as the characters typed.

import { h, nameLabel, storedName } from "../dom.js";
import { addNoticeLine } from "./log.js";
import { toast } from "./notices.js";
import { send } from "./socket.js";
import { $, app, currentSeats } from "./state.js";

const CHAT_KEEP = 300;

export function showChatLine(line, { live }) {
  if (!line || typeof line.text !== "string") return;
  const key = Number.isInteger(line.index) ? line.index : `${line.at}|${line.text}`;
  if (app.chatShown.has(key)) return;
  app.chatShown.add(key);
  const chat = $("chat");
  const notice = line.kind === "notice";
  const seat = Number.isInteger(line.seat) ? line.seat : null;
  const classes = ["chat-line", notice ? "kind-notice" : "kind-say"];
  if (seat !== null) classes.push(`seat-${seat % 6}`);
  let who = null;
  if (!notice) {
    const name = typeof line.name === "string" && line.name ? line.name : "";
    const label = seat === null ? `${name || "someone"} (watching)` : nameLabel(seat, name, currentSeats());
    who = h("span", { class: "chat-who" }, seat !== null ? h("span", { class: "seat-swatch" }) : null, label);
  }
  const nearBottom = chat.scrollHeight - chat.scrollTop - chat.clientHeight < 40;
  chat.append(h("li", { class: classes.join(" ") }, who, h("span", { class: "chat-text", text: line.text })));
  while (chat.childElementCount > CHAT_KEEP) chat.firstElementChild.remove();
  if (nearBottom || live) chat.scrollTop = chat.scrollHeight;
  if (notice && live) addNoticeLine(line.text);
}

/** Who may write: the people seated, and spectators where the creator allowed it and
 *  once they have a name (the server checks both; the page only says so first). */
export function renderChatForm() {
  const settings = (app.table && app.table.settings) || {};
  let why = "";
  if (app.seat === null && !settings.spectator_chat) {
    why = "Spectators read the table talk; only the people seated write in it.";
  } else if (app.seat === null && !storedName()) {
    why = "Give yourself a name (under the seats) to join the talk.";
  }
  $("chat-text").disabled = Boolean(why);
  $("chat-form").querySelector("button").disabled = Boolean(why);
  $("chat-hint").hidden = !why;
  $("chat-hint").textContent = why;
}

export function onChatSubmit(event) {
  event.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (!text) return;
  if (send({ type: "chat", text })) input.value = "";
  else toast("Not connected: the line was not sent.");
}
