// Hack & Slash: three face-up quests, the Brag at the Tavern, each guild's adventurers,
// the Tavern's crowd and everyone's score pile.
//
// The shape of `view` is HackAndSlash.view() in games/hack_and_slash/rules.py. Quest
// cards that the player may take now are clickable (the action is the same text the
// action buttons send: quest:1-3, brag), and during a rescue decision the dice on the
// card are too (rescue:N re-rolls a die showing N). What a person may ask about carries
// `data-rule`, the section of HOW_TO_PLAY.md that explains it (the table shows it when
// pointed at), and `pictures` draws the How to play's pictures with the same cards.

import { h, makeClickable, notePictureParts, oddsText, replace, svg } from "/static/dom.js";
import { dieFace } from "/static/dice.js";

const BRAG_SLOT = 3;
const MAX_MEEPLE_ICONS = 24;

const ENDINGS = {
  "guild-empty": "a guild ran out of adventurers",
  "quests-exhausted": "the quest draw pile ran out",
  "round-limit": "the round limit was reached",
};

export function render(container, view, ctx) {
  const actions = actionMap(ctx.legal);
  replace(
    container,
    h(
      "div",
      { class: "hs board" },
      statusStrip(view, ctx),
      h(
        "section",
        { class: "hs-board", "aria-label": "Quests" },
        h(
          "div",
          { class: "hs-quests" },
          (view.quests || []).map((quest, slot) => questSlot(view, quest, slot, actions, ctx)),
        ),
        h("div", { class: "hs-side" }, questCard(view, view.brag, BRAG_SLOT, actions, ctx)),
      ),
      h("section", { class: "hs-commons", "aria-label": "The Tavern and the draw pile" }, tavern(view), drawPile(view)),
      h(
        "section",
        { class: "hs-guilds", "aria-label": "Guilds" },
        (view.parties || []).map((party, seat) => guild(view, seat, ctx)),
      ),
    ),
  );
}

/** Legal actions by their text, so a card can ask "may I be clicked?". */
function actionMap(legal) {
  const map = new Map();
  (legal || []).forEach((entry, index) => map.set(entry.action, { ...entry, index }));
  return map;
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function dice(count) {
  return `${count} ${count === 1 ? "die" : "dice"}`;
}

// -- the strip above the board: round, whose turn, the end ------------------------------

function statusStrip(view, ctx) {
  const names = ctx.seatNames || [];
  const who = names[view.current] || `Player ${view.current + 1}`;
  const turn = view.over
    ? "The game is over"
    : view.current === ctx.seat
      ? "Your turn"
      : `${who}'s turn`;
  return h(
    "div",
    { class: "hs-status status-strip" },
    h("span", { class: "hs-round pill big", text: `Round ${view.round}` }),
    h("span", { class: `hs-turn whose-turn${turn === "Your turn" ? " mine" : ""}`, text: turn }),
    view.ending && !view.over
      ? h(
          "span",
          { class: "hs-last-round", role: "status", dataset: { rule: "end" } },
          h("strong", { text: "Last round!" }),
          ` ${ENDINGS[view.ending] || view.ending}; the game ends when ${names[0] || "Player 1"} is next.`,
        )
      : null,
  );
}

// -- meeples -------------------------------------------------------------------------

/** One meeple, coloured by its guild (CSS `color`), as an inline SVG. */
function meeple(extraClass = "") {
  return svg(
    "svg",
    { class: `meeple ${extraClass}`, viewBox: "0 0 24 24", "aria-hidden": "true" },
    svg("path", {
      fill: "currentColor",
      d:
        "M12 1.3a3.7 3.7 0 0 1 3.7 3.7c0 1.3-.6 2.4-1.6 3.1 3.8.5 8.4 1.8 8.4 4" +
        "c0 1.5-2.3 1.8-5.3 1.5l3 7c.4.9-.2 1.9-1.2 1.9H15l-3-4.6-3 4.6H5" +
        "c-1 0-1.6-1-1.2-1.9l3-7c-3 .3-5.3 0-5.3-1.5 0-2.2 4.6-3.5 8.4-4" +
        "A3.7 3.7 0 0 1 12 1.3z",
    }),
  );
}

/** `count` meeples (icons up to a cap, then a number), with a text alternative. */
function meeples(count, { seat = null, label = "adventurers", cap = MAX_MEEPLE_ICONS } = {}) {
  const colour = seat === null ? "tavern-meeple" : `seat-fg-${seat % 6}`;
  const shown = Math.min(count, cap);
  return h(
    "span",
    { class: "meeples", role: "img", "aria-label": `${count} ${label}` },
    Array.from({ length: shown }, () => meeple(colour)),
    count > cap ? h("span", { class: "meeple-more", text: `+${count - cap}` }) : null,
    count === 0 ? h("span", { class: "meeple-none", text: "none" }) : null,
  );
}

// -- quest cards ---------------------------------------------------------------------

function questSlot(view, quest, slot, actions, ctx) {
  if (!quest) {
    return h(
      "div",
      { class: "quest-card card framed empty" },
      h("span", { text: "No quest left to draw" }),
    );
  }
  return questCard(view, quest, slot, actions, ctx);
}

function actionFor(slot) {
  // The action names the slot as people see it, from 1 (see the game's ENCODING.md).
  return slot === BRAG_SLOT ? "brag" : `quest:${slot + 1}`;
}

function questCard(view, quest, slot, actions, ctx) {
  if (!quest) return null;
  const isBrag = slot === BRAG_SLOT;
  const attempt = view.attempt && view.attempt.slot === slot ? view.attempt : null;
  const legal = actions.get(actionFor(slot));
  const classes = ["quest-card", "card", "framed"];
  if (isBrag) classes.push("brag");
  if (attempt) classes.push("attempting", `seat-${attempt.seat % 6}`);
  if (legal) classes.push("playable");

  const card = h(
    "article",
    { class: classes.join(" "), "aria-label": quest.name, dataset: { rule: isBrag ? "brag" : "quests" } },
    h("header", { class: "quest-name card-name", text: quest.name }),
    h(
      "div",
      { class: "quest-challenge" },
      meeples(quest.challenge, { label: "adventurers needed", seat: null }),
      h("span", { class: "quest-small", text: `send ${quest.challenge}, roll ${dice(quest.challenge)}` }),
    ),
    h(
      "div",
      { class: "quest-goal" },
      h("span", { class: "goal-number", text: quest.exact ? `= ${quest.goal}` : `${quest.goal}+` }),
      h("span", { class: "goal-label", text: quest.exact ? "exactly" : "or more" }),
    ),
    reward(quest, isBrag),
    attempt ? attemptOnCard(attempt, actions, ctx) : null,
    legal ? playableFooter(legal, ctx) : null,
  );
  if (legal) makeClickable(card, legal, ctx.onAction);
  return card;
}

function reward(quest, isBrag) {
  if (isBrag) {
    return h(
      "footer",
      { class: "quest-reward" },
      h("span", { class: "gain", text: "+1 adventurer" }),
      h("span", { class: "quest-small", text: "never scored" }),
    );
  }
  return h(
    "footer",
    { class: "quest-reward" },
    h(
      "span",
      { class: "reward-points", "aria-label": plural(quest.reward, "point") },
      h("span", { class: "reward-number", text: quest.reward }),
      h("span", { class: "reward-unit", text: quest.reward === 1 ? "point" : "points" }),
    ),
    quest.adventurer ? h("span", { class: "gain", text: "+1 adventurer" }) : null,
  );
}

/** The adventurers on the card being attempted and the dice they rolled. */
function attemptOnCard(attempt, actions, ctx) {
  const rescuing = [...actions.keys()].some((a) => a.startsWith("rescue:"));
  return h(
    "div",
    { class: "on-card", dataset: { rule: "turn" } },
    meeples(attempt.adventurers, { seat: attempt.seat, label: "adventurers on the quest" }),
    h(
      "div",
      { class: "on-card-dice" },
      (attempt.dice || []).map((value) => cardDie(value, actions, ctx)),
      h("span", { class: "on-card-total", text: `= ${attempt.total}` }),
    ),
    rescuing ? h("p", { class: "quest-small", text: "Click a die to send a rescuer and re-roll it." }) : null,
  );
}

/** A die on the quest card; clickable when re-rolling it is a legal rescue. */
function cardDie(value, actions, ctx) {
  const die = dieFace(value);
  const legal = actions.get(`rescue:${value}`);
  if (legal) {
    die.classList.add("playable");
    makeClickable(die, legal, ctx.onAction);
  }
  return die;
}

function playableFooter(legal, ctx) {
  const odds = oddsText(legal.odds);
  return h(
    "div",
    { class: "quest-play card-play" },
    legal.index < 9 ? h("kbd", { text: String(legal.index + 1) }) : null,
    h("span", { text: odds ? `Take it · ${odds}` : "Take it" }),
  );
}

// -- the Tavern and the draw pile ----------------------------------------------------

function tavern(view) {
  return h(
    "div",
    { class: "hs-tavern well", dataset: { rule: "adventurers" } },
    h("h3", {}, "The Tavern ", h("span", { class: "count", text: view.tavern })),
    meeples(view.tavern, { label: "adventurers in the Tavern", cap: 40 }),
    view.stand_ins > 0
      ? h(
          "p",
          { class: "stand-ins" },
          Array.from({ length: Math.min(view.stand_ins, 12) }, () => h("span", { class: "stand-in" })),
          ` ${plural(view.stand_ins, "stand-in")} (the Tavern ran dry)`,
        )
      : null,
  );
}

function drawPile(view) {
  const count = Number(view.draw_pile) || 0;
  return h(
    "div",
    { class: "hs-draw well", dataset: { rule: "end" } },
    h(
      "div",
      { class: `card-stack${count === 0 ? " empty" : ""}`, "aria-hidden": "true" },
      h("span", { class: "card-back", text: count > 0 ? "⚔" : "" }),
    ),
    h("span", { class: "hs-draw-count", text: count === 0 ? "Draw pile empty" : `${plural(count, "quest")} to draw` }),
  );
}

// -- the guilds ----------------------------------------------------------------------

function guild(view, seat, ctx) {
  const names = ctx.seatNames || [];
  const winners = (view.result && view.result.winners) || [];
  const classes = ["hs-guild", "seat-panel", `seat-${seat % 6}`];
  if (seat === view.current && !view.over) classes.push("current");
  if (seat === ctx.seat) classes.push("mine");
  if (winners.includes(seat)) classes.push("winner");
  const pile = (view.score_piles || [])[seat] || [];
  const out = view.attempt && view.attempt.seat === seat ? view.attempt : null;
  return h(
    "div",
    { class: classes.join(" ") },
    h(
      "header",
      {},
      h("span", { class: "seat-swatch" }),
      h("span", { class: "guild-name seat-panel-name", text: names[seat] || `Player ${seat + 1}` }),
      seat === ctx.seat ? h("span", { class: "you-tag", text: "you" }) : null,
      winners.includes(seat) ? h("span", { class: "crown", title: "winner", text: "♛" }) : null,
      h(
        "span",
        { class: "guild-score", "aria-label": plural((view.scores || [])[seat] || 0, "point") },
        h("span", { class: "score-number", text: (view.scores || [])[seat] ?? 0 }),
        h("span", { class: "score-unit", text: ((view.scores || [])[seat] ?? 0) === 1 ? "pt" : "pts" }),
      ),
    ),
    h(
      "div",
      { class: "guild-home", dataset: { rule: "adventurers" } },
      meeples(view.parties[seat], { seat, label: "adventurers at home" }),
      h("span", { class: "guild-count", text: `${view.parties[seat]} at home` }),
    ),
    out ? h("p", { class: "guild-away", text: `${plural(out.adventurers, "adventurer")} on ${out.quest.name}` }) : null,
    h(
      "ul",
      { class: "score-pile chip-row", "aria-label": "score pile" },
      pile.length === 0
        ? h("li", { class: "score-pile-empty", text: "No quests completed yet" })
        : pile.map((name) => h("li", { class: "mini-card", text: name })),
    ),
  );
}

// -- pictures for the How to play ------------------------------------------------------

/** A made-up quest (never a card of the pack: a picture explains, it does not deal). */
const PICTURE_QUEST = { name: "Bandits at the Ford", challenge: 3, goal: 12, exact: false, reward: 4, adventurer: true };

export const pictures = {
  /** A quest card as the table draws it: what to send, the roll, the prize. */
  "quest-card": () =>
    h(
      "div",
      { class: "hs board hs-picture" },
      notePictureParts(questCard({ attempt: null }, PICTURE_QUEST, 0, new Map(), {}), [
        ".quest-challenge",
        ".quest-goal",
        ".reward-points",
        ".quest-reward .gain",
      ]),
    ),
  /** The same quest being tried, two short of its goal: a rescue re-rolls one die. */
  rescue: () =>
    h(
      "div",
      { class: "hs board hs-picture" },
      notePictureParts(
        questCard(
          { attempt: { slot: 0, seat: 0, adventurers: 3, dice: [2, 5, 3], total: 10 } },
          PICTURE_QUEST,
          0,
          new Map(),
          {},
        ),
        [".on-card .meeples", ".on-card-dice .die", ".quest-goal"],
      ),
    ),
};
