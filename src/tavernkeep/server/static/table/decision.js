// The decision bar of the table page: the prompt (whose decision it is, or what the table
// waits for), this seat's choices as numbered buttons (with their odds, the tutor's word
// and the rule that explains them), the number keys that choose, and below the choices
// what only this seat's person may do about their own turn (advice, pass on, I'm back,
// take back). `act` sends a choice, from a button, a key or the game's board.

import { agentLabel, h, oddsText, percent, replace, seatLabel } from "../dom.js";
import { openRules } from "../rules.js";
import { adviceFor, adviceToggle } from "./advice.js";
import { toast } from "./notices.js";
import { send } from "./socket.js";
import { $, app, currentSeats } from "./state.js";
import { takeBackButton } from "./takeback.js";

/** Send an action against the version shown; buttons stay off until the next state. */
export function act(action) {
  if (app.pending || app.version === null || !app.state) return;
  const legal = (app.state.legal || []).some((entry) => entry.action === action);
  if (!legal) return;
  if (!send({ type: "action", action, version: app.version })) {
    toast("Not connected: the action was not sent.");
    return;
  }
  app.pending = true;
  renderActions();
  $("game").classList.add("busy");
}

export function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  // Under the pass-and-play cover, a number key must not decide for the next player.
  if (document.body.classList.contains("covered")) return;
  const target = event.target;
  if (target && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
  if (target && target.isContentEditable) return;
  if (event.key === "Escape") {
    document.querySelectorAll(".toast").forEach((node) => node.remove());
    return;
  }
  if (!/^[1-9]$/.test(event.key)) return;
  const legal = (app.state && app.state.legal) || [];
  const entry = legal[Number(event.key) - 1];
  if (entry) {
    event.preventDefault();
    act(entry.action);
  }
}

export function renderActions() {
  const state = app.state;
  const legal = (state && state.legal) || [];
  const panel = $("actions");
  const online = app.ws && app.ws.readyState === WebSocket.OPEN;
  $("decision-title").textContent = legal.length ? "Your decision" : "Decision";
  document.querySelector(".decision-panel").classList.toggle("yours", legal.length > 0);
  $("prompt").textContent = promptText(state, legal);
  replace(
    panel,
    legal.map((entry, index) => withRule(entry, actionButton(entry, index, !online || app.pending))),
  );
  renderDecisionExtra(state, !online || app.pending);
}

/**
 * Below the choices, what only this seat's person may do about their own turn: take back
 * the decision the server offers back (never one that rolled or showed a hidden card), and
 * say they are back after their clock ran out and a bot began playing for them.
 */
function renderDecisionExtra(state, disabled) {
  const node = $("decision-extra");
  const mine = currentSeats().find((s) => s.seat === app.seat);
  const parts = [];
  const legal = (state && state.legal) || [];
  if (legal.length) parts.push(adviceToggle(legal));
  parts.push(passOnToggle(state, legal, disabled));
  if (mine && mine.stand_in && mine.away === "out of time") {
    parts.push(
      h("p", { class: "hint stand-in-note", text: `Your time ran out: the ${agentLabel(mine.stand_in)} plays for you.` }),
      h("button", {
        type: "button",
        class: "button primary",
        id: "back-button",
        text: "I'm back",
        disabled,
        onclick: () => send({ type: "back" }),
      }),
    );
  }
  parts.push(takeBackButton(state, disabled));
  node.hidden = parts.filter(Boolean).length === 0;
  replace(node, parts);
}

/**
 * "Pass on Modifiers until my turn": in a window that asks every seat in turn (the game's
 * `reaction_kinds`), the person may stop being asked. The server passes for them after
 * the same pause as for a seat with nothing to play, so the table cannot tell the two
 * apart; it asks them again from their turn on. Said to this seat alone.
 */
function passOnToggle(state, legal, disabled) {
  const reactions = (app.table && app.table.reactions) || {};
  const passingOn = state && state.passing_on;
  if (passingOn && reactions[passingOn]) {
    return h(
      "p",
      { class: "hint passing-on" },
      `You pass on ${reactions[passingOn]} until your turn. `,
      h("button", {
        type: "button",
        class: "button secondary",
        id: "ask-again",
        text: "Ask me again",
        disabled,
        onclick: () => send({ type: "pass_on", kind: null }),
      }),
    );
  }
  const kind = state && state.decision;
  if (!kind || !reactions[kind] || !legal.some((entry) => entry.action === "pass")) return null;
  return h(
    "label",
    { class: "advice-toggle pass-on-toggle" },
    h("input", {
      type: "checkbox",
      id: "pass-on",
      disabled,
      onchange: (event) => {
        if (event.target.checked && send({ type: "pass_on", kind })) {
          app.pending = true;
          renderActions();
        }
      },
    }),
    ` Pass on ${reactions[kind]} until my turn`,
  );
}

/** Whether a keyboard is the likely way in: a fine pointer that hovers (a phone has
 *  neither, and no number keys to press). */
function hasKeys() {
  return window.matchMedia("(hover: hover) and (pointer: fine)").matches;
}

function promptText(state, legal) {
  if (!state) return "Waiting for the table…";
  if (state.status === "waiting") {
    const seats = currentSeats();
    const open = seats.filter((s) => s.open && !s.claimed).length;
    const host = app.host ? ", or when you start it (below the seats)" : "";
    if (!open) {
      // A rematch: its people are seated already and it waits for their pages.
      const away = seats.filter((s) => s.agent === "human" && !s.connected).map((s) => seatLabel(s.seat, seats));
      const who = away.length ? away.join(", ") : "everyone";
      return `Waiting for ${who} to come. The game begins when everyone is here${host}.`;
    }
    const words = open === 1 ? "1 open seat" : `${open} open seats`;
    return `Waiting for players: ${words}. The game begins when every seat is taken${host}.`;
  }
  if (state.status === "closed" || state.status === "archived") {
    return state.status === "closed" ? "The table's host closed the table." : "This table was archived.";
  }
  if (state.actor === null || state.actor === undefined) return "The game is over.";
  if (app.pending) return "Sent. Waiting for the table…";
  if (legal.length) return hasKeys() ? "Choose one (or press its number key)." : "Choose one.";
  const reactions = (app.table && app.table.reactions) || {};
  if (state.passing && state.passing_on && state.passing_on === state.decision) {
    return `You pass on ${reactions[state.passing_on] || state.passing_on} until your turn: in a moment, after a pause like your own, so nobody can tell what you hold.`;
  }
  if (state.passing) {
    // Said to this seat alone: the others see a seat deciding, for as long as a person
    // with a choice would take.
    return "Nothing to play here: you pass in a moment, after a pause like your own, so nobody can tell what you hold.";
  }
  const who = seatLabel(state.actor, state.seats);
  const entry = (state.seats || []).find((s) => s.seat === state.actor);
  const bot = entry && (entry.agent !== "human" ? entry.agent : entry.stand_in);
  const what = bot ? ` (${agentLabel(bot)})` : "";
  return `Waiting for ${who}${what} to decide…`;
}

/** A choice with the rule that explains it beside it (a "?" that opens the rules there). */
function withRule(entry, button) {
  const kind = String(entry.action).split(":")[0];
  const rule = app.choiceRules && app.choiceRules[kind];
  if (!rule || !app.table) return button;
  const game = app.table.game;
  return h(
    "div",
    { class: "action-row" },
    button,
    h("button", {
      type: "button",
      class: "action-rule",
      text: "?",
      title: `How to play: ${rule.title}`,
      "aria-label": `Rules: ${rule.title}`,
      onclick: () => openRules(game, rule.id),
    }),
  );
}

/** Long shots are shown in the failure colour, so a 0% choice never looks inviting. */
const LONG_SHOT = 0.2;

function actionButton(entry, index, disabled) {
  const odds = oddsText(entry.odds);
  const advised = adviceFor(entry.action);
  const chances = Object.values(entry.odds || {}).filter((p) => typeof p === "number");
  const longShot = chances.length > 0 && Math.max(...chances) < LONG_SHOT;
  return h(
    "button",
    {
      type: "button",
      class: "action",
      disabled,
      dataset: { action: entry.action },
      onclick: () => act(entry.action),
    },
    index < 9 ? h("kbd", { text: String(index + 1) }) : h("span", { class: "kbd-gap" }),
    h("span", { class: "action-label", text: entry.label || entry.action }),
    odds ? h("span", { class: `action-odds${longShot ? " long-shot" : ""}`, text: odds }) : null,
    advised ? h("span", { class: "action-advice", text: `win ${percent(advised.win)}` }) : null,
    // The tutor's line of why, where the game's heuristic gives one (its text, as sent).
    advised && advised.reason ? h("span", { class: "action-why", text: String(advised.reason) }) : null,
  );
}
