// Crits & Tricks: the trick on the table (each card with its die and value, whether it
// followed, the crits used on it), who would take it now, every seat's six dice (public,
// used ones dimmed), hand size, loot and where it came from, your hand grouped by suit,
// your quests (private with 3-4 players, public with 2), the Barkeep's Challenge and the
// tricks of the round. Above them, the decision of the moment as a question.
//
// The shape of `view` is CritsAndTricks.view() in games/crits_and_tricks/rules.py.
// Playing is two clicks: a card of your hand (every copy of a suit is the same choice),
// then one of your unused dice; a Bard you lead also names the suit it stands for. Every
// other legal action is a button (or a quest / challenge card) in the decision box, and
// any legal action nothing claimed is a button there too, so each is reachable.
//
// What a choice needs is beside it: the game's label says who would take the trick after
// it ("...; Player 2 would take it now"), shown under the choice, and its odds the dice's
// chance (`oddsText`), under each die of the play picker too. Under the trick, each suit
// in play tells how it takes a trick and its crit, and the tie-breakers (the terminal
// shows the same words: games/crits_and_tricks/terminal.py, SUIT_RULES and TIES).
// What a person may ask about (a card, a suit, a die, a quest...) carries `data-rule`, the
// section of HOW_TO_PLAY.md that explains it (the table shows it when pointed at), and
// `pictures` draws the How to play's pictures with the same cards, dice and trick.

import { h, makeClickable, notePictureParts, oddsText, percent, replace } from "/static/dom.js";
import { dieFace } from "/static/dice.js";

const SUITS = {
  Barbarian: { icon: "⚔", takes: "highest value takes it", crit: "+/− 1 to 3 on your die" },
  Rogue: { icon: "†", takes: "lowest value takes it", crit: "go last in turn order" },
  Wizard: { icon: "✦", takes: "closest to 5 takes it", crit: "swap to a die you used" },
  Druid: { icon: "♣", takes: "second-highest value takes it", crit: "an opponent re-rolls" },
  Paladin: { icon: "✠", takes: "highest on the lead die's size takes it", crit: "win a tie" },
  Bard: { icon: "♪", takes: "wild: stands for the led suit", crit: "re-roll up to twice" },
};
const TIES =
  "Ties: a Paladin crit wins (the last one used), then the larger die, then the later card (a Rogue crit goes last). Only cards that followed can win.";
const ORDER = ["Barbarian", "Rogue", "Wizard", "Druid", "Paladin", "Bard"];
const CRITS_A_TURN = 2;
const TRICKS_A_ROUND = 6;

// What the person has picked on the way to a play (a card, then the suit a led Bard
// names), kept between redraws of the same decision and dropped when it changes.
const picking = { key: "", suit: null, named: null };
let last = null;

export function render(container, view, ctx) {
  last = { container, view, ctx };
  const board = new Board(view || {}, ctx || {});
  board.syncPicking();
  replace(container, board.build());
}

function redraw() {
  if (last) render(last.container, last.view, last.ctx);
}

// -- small words ------------------------------------------------------------------------

function plural(count, word, many = `${word}s`) {
  return `${count} ${count === 1 ? word : many}`;
}

function suitKey(suit) {
  return ORDER.includes(suit) ? suit.toLowerCase() : "none";
}

function icon(suit) {
  return (SUITS[suit] || { icon: "?" }).icon;
}

/** The section of the How to play that explains a suit: the Bards have their own. */
function suitRule(suit) {
  return suit === "Bard" ? "bards" : "suits";
}

/** "play:5,12,rogue" -> {kind: "play", args: [5, 12, "rogue"]}. */
function parseAction(text) {
  const [kind, rest] = String(text).split(/:(.*)/s);
  const args = rest ? rest.split(",").map((a) => (/^-?\d+$/.test(a) ? Number(a) : a)) : [];
  return { kind, args };
}

/** A label's choice and its note: "Keep the d8 (5); you would take it now" ->
 * ["Keep the d8 (5)", "you would take it now"]. */
function splitLabel(label) {
  const text = String(label || "");
  const at = text.indexOf("; ");
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 2)];
}

/** The first chance of a choice's odds, as a bare percentage ("" if none). */
function firstChance(odds) {
  const values = odds && typeof odds === "object" ? Object.values(odds) : [];
  return values.length ? percent(values[0]) : "";
}

function capitalise(word) {
  const text = String(word || "");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A suit as a chip: its icon and name in the suit's colour. */
function suitChip(suit, extra = "") {
  return h(
    "span",
    {
      class: `ct-suit ct-s-${suitKey(suit)}${extra ? ` ${extra}` : ""}`,
      title: (SUITS[suit] || {}).takes || "",
      dataset: { rule: suitRule(suit) },
    },
    h("span", { class: "ct-suit-icon", "aria-hidden": "true", text: icon(suit) }),
    h("span", { class: "ct-suit-name", text: suit }),
  );
}

/** One die: its value on a face and its size under it. */
function dieEl(size, value, { used = false, extra = "" } = {}) {
  const face = dieFace(Number(value), 0);
  face.setAttribute("aria-label", `d${size} showing ${value}${used ? ", used" : ""}`);
  return h(
    "span",
    {
      class: `ct-die ct-d${size}${used ? " ct-used" : ""}${extra ? ` ${extra}` : ""}`,
      dataset: { die: String(size), value: String(value), rule: "dice" },
      title: `d${size}: ${value}${used ? " (used this round)" : ""}`,
    },
    face,
    h("span", { class: "ct-die-size", text: `d${size}` }),
  );
}

// -- who takes the trick -----------------------------------------------------------------

/** The seat that would take the trick if it ended now (the view's `winning`), or null. */
function takerNow(view) {
  const seat = view.winning;
  return Number.isInteger(seat) && (view.table || []).length ? seat : null;
}

// -- the board --------------------------------------------------------------------------

class Board {
  constructor(view, ctx) {
    this.view = view;
    this.ctx = ctx;
    this.names = ctx.seatNames || [];
    this.decision = view.decision || null;
    this.legal = (ctx.legal || []).map((entry, index) => ({ ...entry, index, ...parseAction(entry.action) }));
    this.asked = Boolean(this.decision) && this.legal.length > 0 && !view.result;
    this.claimed = new Set();
    this.me = this.mine() ? (view.seats || [])[ctx.seat] || null : null;
    this.cardSuit = new Map(((this.me && this.me.hand) || []).map((card) => [card.id, card.suit]));
  }

  name(seat) {
    return this.names[seat] || `Player ${Number(seat) + 1}`;
  }

  mine() {
    return this.ctx.seat !== null && this.ctx.seat !== undefined;
  }

  kind() {
    return this.decision ? this.decision.kind : null;
  }

  /** Forget a half-made play once the decision it was made for is gone. */
  syncPicking() {
    const key = this.kind() === "play" && this.asked
      ? `${this.view.round}/${this.view.trick}/${this.legal.map((e) => e.action).join(" ")}`
      : "";
    if (key !== picking.key) {
      picking.key = key;
      picking.suit = null;
      picking.named = null;
    }
    if (key && picking.suit === null) {
      // One suit to choose from: it is picked already.
      const suits = this.playSuits();
      if (suits.length === 1) picking.suit = suits[0];
    }
  }

  /** The suits the person may play now, in the order of their hand's groups. */
  playSuits() {
    const suits = new Set(
      this.legal.filter((e) => e.kind === "play").map((e) => this.cardSuit.get(e.args[0])),
    );
    return ORDER.filter((suit) => suits.has(suit));
  }

  build() {
    // The sections that hold choices are built before the decision box, which offers as
    // buttons whatever none of them claimed.
    const hand = this.hand();
    const quests = this.quests();
    const decision = this.decisionBox();
    return h(
      "div",
      { class: "ct board" },
      this.status(),
      decision,
      this.trickOnTable(),
      this.view.result ? null : this.suitRules(),
      hand,
      this.view.result ? null : h("div", { class: "ct-row" }, h("div", { class: "ct-side" }, quests), this.barkeep()),
      this.seats(),
      this.roundTricks(),
    );
  }

  // -- the status strip ------------------------------------------------------------------

  status() {
    const view = this.view;
    const over = Boolean(view.result);
    const rounds = Number(view.rounds) || 3;
    const extra = Number(view.round) > rounds;
    const d = this.decision;
    let turn = "";
    if (over) turn = "The game is over";
    else if (d && d.seat === this.ctx.seat) turn = "Your decision";
    else if (d) turn = `${this.name(d.seat)} decides`;
    return h(
      "div",
      { class: "ct-status status-strip" },
      h("span", {
        class: "ct-round pill big",
        dataset: { rule: extra ? "end" : "goal" },
        text: extra ? `Round ${view.round} (extra round)` : `Round ${view.round} of ${rounds}`,
      }),
      over
        ? null
        : h("span", {
            class: "ct-trick-no pill",
            dataset: { rule: "turn" },
            text: `Trick ${Math.min(view.trick, this.tricksARound())} of ${this.tricksARound()}`,
          }),
      h("span", { class: `ct-turn whose-turn${d && d.seat === this.ctx.seat && !over ? " mine" : ""}`, text: turn }),
      h(
        "span",
        { class: "ct-in-play", "aria-label": "suits in play" },
        h("span", { class: "ct-label", text: "Suits in play:" }),
        (view.suits || []).map((suit) => suitChip(suit)),
      ),
    );
  }

  // -- the decision box ------------------------------------------------------------------

  decisionBox() {
    const view = this.view;
    const d = this.decision;
    const classes = ["ct-decision", "decision-box"];
    if (this.asked) classes.push("asked");
    if (d) classes.push(`kind-${String(d.kind).replace(/[^a-z_-]/gi, "")}`);
    const parts = [];
    const kind = this.kind();
    if (this.asked && kind === "play") parts.push(this.playChoices());
    if (this.asked && kind === "barkeep") parts.push(this.barkeepChoices());
    if (this.asked && (kind === "reroll" || kind === "bard")) parts.push(this.rerollChoices());
    if (this.asked && kind === "crit") parts.push(this.critChoices());
    const rest = this.legal.filter((e) => !this.claimed.has(e.action) && !this.offeredElsewhere(e));
    if (rest.length) parts.push(h("div", { class: "ct-choices choices" }, rest.map((e) => this.button(e))));
    return h(
      "section",
      { class: classes.join(" "), "aria-label": "The decision", "aria-live": "polite" },
      h("p", {
        class: `ct-question question${view.result ? " ct-result ending" : ""}`,
        dataset: view.result ? { rule: "end" } : {},
        text: this.question(),
      }),
      this.hint(),
      parts,
      !view.result && d && !this.asked ? h("p", { class: "ct-waiting waiting", text: this.waiting() }) : null,
    );
  }

  /** Play actions are offered by the hand and the dice of the play picker. */
  offeredElsewhere(entry) {
    return entry.kind === "play" && this.kind() === "play" && this.cardSuit.has(entry.args[0]);
  }

  /** Tricks in a round (the `tricks` option; 6 unless changed). */
  tricksARound() {
    return Number(this.view.tricks_per_round) || TRICKS_A_ROUND;
  }

  question() {
    const view = this.view;
    const d = this.decision;
    if (view.result) return `The game is over: ${view.result.reason || ""}`.trim();
    if (!d) return "";
    const who = this.name(d.seat);
    const mineNow = this.asked;
    const table = view.table || [];
    const own = table.length ? table[table.length - 1] : null;
    switch (d.kind) {
      case "give_up":
        return mineNow
          ? "Choose the quest to give up: you keep the other three, in secret, for this round."
          : `${who} chooses a quest to give up (in secret).`;
      case "barkeep": {
        // "The least loot" reads wrong when nobody has any, or several share it: then it
        // is the first of them in turn order (RULES.md 26).
        const loots = (view.seats || []).map((entry) => Number(entry && entry.loot) || 0);
        const least = Math.min(...loots);
        const tied = loots.filter((loot) => loot === least).length > 1;
        const why = !tied
          ? "the least loot"
          : loots.every((loot) => loot === least)
            ? `all tied at ${least} loot, first in turn order`
            : `tied for the least loot, first in turn order`;
        return mineNow
          ? `You choose this round's Barkeep's Challenge (${why}).`
          : `${who} chooses the Barkeep's Challenge (${why}).`;
      }
      case "play": {
        const trick = `trick ${view.trick}`;
        if (!table.length) return mineNow ? `You lead ${trick}: pick a card, then a die.` : `${who} leads ${trick}.`;
        const led = view.led;
        if (!mineNow) return `${who} plays to ${trick} (${led} led).`;
        const follows = this.legal.some((e) => e.kind === "play" && this.followsLed(e.args[0]));
        return follows
          ? `Follow ${led} in ${trick}: pick a card, then a die.`
          : `You cannot follow ${led}: play any card (off suit, it cannot take ${trick}), then a die.`;
      }
      case "reroll": {
        const what = own ? `${own.card.suit} on the d${own.die} shows ${own.value}` : "die";
        return mineNow
          ? `Your ${what}. Re-roll it once (you must keep the new value) or keep it?`
          : `${who} may re-roll their die once.`;
      }
      case "bard": {
        const what = own ? `d${own.die} now shows ${own.value}` : "die shows its new value";
        return mineNow
          ? `Bard crit: your ${what}. Re-roll it once more, or keep it?`
          : `${who} may re-roll once more (Bard crit).`;
      }
      case "crit": {
        const spent = own ? (own.crits || []).length : 0;
        const left = Number.isInteger(d.crits_left) ? d.crits_left : Math.max(0, CRITS_A_TURN - spent);
        return mineNow
          ? `Use a crit? Spend a card from your hand for its crit (${plural(left, "crit")} left this turn), or end your turn.`
          : `${who} may use crits.`;
      }
      default:
        return mineNow ? "Your decision." : `${who} decides.`;
    }
  }

  /** A line under the question: what the led suit asks for, who would take the trick. */
  hint() {
    const view = this.view;
    const kind = this.kind();
    if (view.result || !["play", "reroll", "bard", "crit"].includes(kind)) return null;
    const led = view.led;
    const taker = takerNow(view);
    if (!led) return null;
    return h(
      "p",
      { class: "ct-hint" },
      suitChip(led),
      ` led: ${SUITS[led].takes}.`,
      taker !== null
        ? h("span", {
            class: `ct-taking seat-fg-${taker % 6}`,
            text: taker === this.ctx.seat ? " You would take it now." : ` ${this.name(taker)} would take it now.`,
          })
        : null,
    );
  }

  waiting() {
    const d = this.decision;
    const entry = this.name(d.seat);
    return `Waiting for ${entry}…`;
  }

  followsLed(cardId) {
    const suit = this.cardSuit.get(cardId);
    return !this.view.led || suit === this.view.led || suit === "Bard";
  }

  button(entry, { text = null, extra = null, cls = "" } = {}) {
    this.claimed.add(entry.action);
    const [main, note] = splitLabel(entry.label || entry.action);
    return h(
      "button",
      {
        type: "button",
        class: `ct-choice choice playable${cls ? ` ${cls}` : ""}`,
        title: entry.label || entry.action,
        dataset: { action: entry.action },
        onclick: (event) => {
          event.stopPropagation();
          this.ctx.onAction(entry.action);
        },
      },
      entry.index < 9 ? h("kbd", { text: String(entry.index + 1) }) : null,
      extra,
      h(
        "span",
        { class: "ct-choice-text" },
        h("span", { class: "ct-choice-label choice-label", text: text || main }),
        note && !text ? h("span", { class: "ct-choice-note", text: note }) : null,
      ),
      oddsText(entry.odds) ? h("span", { class: "ct-odds odds", text: oddsText(entry.odds) }) : null,
    );
  }

  /** Card, then (for a Bard you lead) the suit it names, then the die. */
  playChoices() {
    const plays = this.legal.filter((e) => e.kind === "play");
    const suit = picking.suit;
    if (suit === null) {
      return h("p", { class: "ct-step", text: "① Click a lit card in your hand." });
    }
    const mine = plays.filter((e) => this.cardSuit.get(e.args[0]) === suit);
    const names = [...new Set(mine.filter((e) => e.args.length > 2).map((e) => String(e.args[2])))];
    const steps = [
      h(
        "p",
        { class: "ct-step" },
        "① Card: ",
        suitChip(suit),
        this.playSuits().length > 1 ? h("span", { class: "ct-small", text: " (click another card to change)" }) : null,
      ),
    ];
    let named = null;
    if (names.length) {
      named = names.includes(picking.named) ? picking.named : null;
      steps.push(
        h(
          "div",
          { class: "ct-step ct-name-suit" },
          h("span", { text: "② The Bard stands for: " }),
          names.map((word) =>
            h(
              "button",
              {
                type: "button",
                class: `ct-name choice playable ct-s-${word}${named === word ? " picked" : ""}`,
                title: `lead the Bard as a ${capitalise(word)}`,
                dataset: { name: word },
                "aria-pressed": named === word ? "true" : "false",
                onclick: (event) => {
                  event.stopPropagation();
                  picking.named = word;
                  redraw();
                },
              },
              h("span", { class: "ct-suit-icon", "aria-hidden": "true", text: icon(capitalise(word)) }),
              capitalise(word),
            ),
          ),
        ),
      );
    }
    const dieStep = names.length ? "③" : "②";
    if (names.length && named === null) {
      steps.push(h("p", { class: "ct-step ct-muted", text: `${dieStep} Then a die.` }));
      return h("div", { class: "ct-play" }, steps);
    }
    const entries = mine.filter((e) => (named === null ? e.args.length === 2 : e.args[2] === named));
    steps.push(
      h(
        "div",
        { class: "ct-step ct-pick-die" },
        h("span", { text: `${dieStep} Play it with a die: ` }),
        h(
          "span",
          { class: "ct-die-choices" },
          entries.map((entry) => {
            const size = Number(entry.args[1]);
            const value = this.dieValue(this.ctx.seat, size);
            this.claimed.add(entry.action);
            const node = dieEl(size, value, { extra: "playable" });
            const odds = oddsText(entry.odds);
            node.setAttribute("role", "button");
            node.setAttribute("tabindex", "0");
            node.setAttribute("title", [entry.label || entry.action, odds].filter(Boolean).join(" · "));
            node.dataset.action = entry.action;
            if (odds) node.append(h("span", { class: "ct-die-odds odds", text: firstChance(entry.odds) }));
            const act = (event) => {
              event.stopPropagation();
              this.ctx.onAction(entry.action);
            };
            node.addEventListener("click", act);
            node.addEventListener("keydown", (event) => {
              if (event.key === "Enter" || event.key === " ") {
                event.preventDefault();
                act(event);
              }
            });
            return node;
          }),
        ),
      ),
    );
    const chances = entries.filter((e) => oddsText(e.odds));
    if (chances.length) {
      // Every chance of one decision has the same name: to take it, or to be ahead while
      // players are still to play.
      const name = Object.keys(chances[0].odds)[0];
      const what = name === "to take it" ? "its chance to take the trick" : "its chance to be ahead of the cards played (players still to play may beat it)";
      steps.push(
        h("p", { class: "ct-small ct-die-key", text: `Under each die: ${what}, using your free re-roll if it is behind; crits not counted.` }),
      );
    }
    return h("div", { class: "ct-play" }, steps);
  }

  dieValue(seat, size) {
    const entry = (this.view.seats || [])[seat];
    const die = entry ? (entry.dice || []).find((d) => Number(d.die) === Number(size)) : null;
    return die ? die.value : "?";
  }

  /** The challenges on offer as cards, each numbered as the decision's list and its keys
   * number it (one numbering on the screen: `barkeep:3` is the pack's third, which may be
   * the list's first once others are used; the view's `barkeep.id` counts from 0). */
  barkeepChoices() {
    const entries = this.legal.filter((e) => e.kind === "barkeep");
    return h(
      "div",
      { class: "ct-barkeep-options" },
      entries.map((entry, index) => {
        this.claimed.add(entry.action);
        const number = Number(entry.args[0]);
        const label = String(entry.label || entry.action);
        // The game's label: "Humble Pie: Take the fewest tricks this round. (3 loot)", with
        // what the dice say of a challenge that counts values after "; ".
        const match = /^(.*?): (.*) \((\d+) loot\)(?:; (.*))?$/.exec(label);
        const node = h(
          "article",
          { class: "ct-challenge card ct-option", dataset: { barkeep: String(number - 1), rule: "barkeep" } },
          h(
            "header",
            { class: "ct-challenge-name card-name" },
            h("span", { class: "ct-challenge-number", text: `${index + 1} ` }),
            match ? match[1] : label,
          ),
          match ? h("p", { class: "ct-challenge-text card-text", text: match[2] }) : null,
          match ? h("span", { class: "ct-loot-tag", text: `${match[3]} loot` }) : null,
          match && match[4] ? h("p", { class: "ct-challenge-note", text: match[4] }) : null,
        );
        return makeClickable(node, entry, this.ctx.onAction);
      }),
    );
  }

  rerollChoices() {
    const reroll = this.legal.find((e) => e.kind === "reroll");
    const keep = this.legal.find((e) => e.kind === "keep");
    return h(
      "div",
      { class: "ct-choices choices" },
      reroll ? this.button(reroll, { extra: h("span", { class: "ct-choice-icon", "aria-hidden": "true", text: "⟳" }) }) : null,
      keep ? this.button(keep, { extra: h("span", { class: "ct-choice-icon", "aria-hidden": "true", text: "✓" }) }) : null,
    );
  }

  critChoices() {
    const crits = this.legal.filter((e) => e.kind === "crit");
    const done = this.legal.find((e) => e.kind === "done");
    const bySuit = new Map();
    for (const entry of crits) {
      const suit = this.cardSuit.get(entry.args[0]) || "?";
      if (!bySuit.has(suit)) bySuit.set(suit, []);
      bySuit.get(suit).push(entry);
    }
    return h(
      "div",
      { class: "ct-crits" },
      ORDER.filter((suit) => bySuit.has(suit)).map((suit) =>
        h(
          "div",
          { class: `ct-crit-group ct-s-${suitKey(suit)}` },
          suitChip(suit),
          h("div", { class: "ct-choices choices" }, bySuit.get(suit).map((entry) => this.button(entry, { cls: "ct-crit" }))),
        ),
      ),
      done ? h("div", { class: "ct-choices choices" }, this.button(done, { cls: "ct-done" })) : null,
    );
  }

  // -- the trick on the table ------------------------------------------------------------

  trickOnTable() {
    const view = this.view;
    const table = view.table || [];
    const n = Number(view.players) || (view.seats || []).length;
    const played = new Map(table.map((entry) => [entry.seat, entry]));
    const taker = takerNow(view);
    const slots = [];
    if (!view.result) {
      for (let k = 0; k < n; k++) {
        const seat = (Number(view.leader) + k) % n;
        const entry = played.get(seat);
        if (entry) {
          slots.push(this.tableCard(entry, table.indexOf(entry) === 0, taker === seat));
        } else {
          const info = (view.seats || [])[seat] || {};
          const out = !info.hand_size;
          slots.push(
            h(
              "div",
              { class: `ct-slot seat-${seat % 6}${out ? " out" : ""}`, dataset: { seat: String(seat), rule: "turn" } },
              h("span", { class: "ct-slot-who" }, h("span", { class: "seat-swatch" }), this.name(seat)),
              h("span", { class: "ct-slot-note", text: out ? "no cards: sits out" : "to play" }),
            ),
          );
        }
      }
    }
    const tricks = view.tricks || [];
    const previous = tricks.length ? tricks[tricks.length - 1] : null;
    return h(
      "section",
      { class: "ct-table", "aria-label": "The trick on the table", dataset: { rule: "turn" } },
      h(
        "h3",
        { class: "ct-heading board-heading" },
        view.result ? "The table" : `Trick ${Math.min(view.trick, this.tricksARound())}`,
        view.led ? h("span", { class: "ct-count heading-count" }, " · led ", suitChip(view.led), ` (${SUITS[view.led].takes})`) : null,
        !view.result && !view.led ? h("span", { class: "ct-count heading-count", text: ` · ${this.name(view.leader)} leads` }) : null,
      ),
      slots.length ? h("div", { class: "ct-trick" }, slots) : null,
      previous && !table.length ? this.previousTrick(previous) : null,
    );
  }

  /** Each suit in play: how it takes a trick and its crit (the led one marked), then
   * the tie-breakers. */
  suitRules() {
    const view = this.view;
    const suits = view.suits || [];
    if (!suits.length) return null;
    return h(
      "section",
      { class: "ct-suit-rules", "aria-label": "Suits in play", dataset: { rule: "suits" } },
      h("h3", { class: "ct-heading board-heading" }, "Suits in play ", h("span", { class: "ct-count heading-count", text: "how each takes a trick, and its crit" })),
      h(
        "ul",
        { class: "ct-rule-list" },
        suits.map((suit) => {
          const info = SUITS[suit] || { takes: "", crit: "" };
          const led = suit === view.led;
          return h(
            "li",
            { class: `ct-rule ct-s-${suitKey(suit)}${led ? " led" : ""}`, dataset: { suit } },
            suitChip(suit, "small"),
            h("span", { class: "ct-rule-takes", text: info.takes }),
            h("span", { class: "ct-rule-crit", text: `crit: ${info.crit}` }),
            led ? h("span", { class: "ct-mark tag lead", text: "led" }) : null,
          );
        }),
      ),
      h("p", { class: "ct-small ct-ties", dataset: { rule: "suits" }, text: TIES }),
    );
  }

  tableCard(entry, lead, taking) {
    const suit = entry.card.suit;
    const classes = ["ct-played", "seat-panel", `seat-${entry.seat % 6}`, `ct-s-${suitKey(suit)}`];
    if (!entry.followed) classes.push("off-suit");
    if (taking) classes.push("taking");
    // Each mark names the rule it comes from: following, a Bard, a re-roll, a crit.
    const mark = (cls, text, rule, title = null) =>
      h("span", { class: `ct-mark tag${cls ? ` ${cls}` : ""}`, dataset: { rule }, title, text });
    const marks = [];
    if (lead) marks.push(mark("lead", "led", "turn"));
    else if (entry.followed) marks.push(mark("followed", suit === "Bard" ? `followed (as ${this.view.led})` : "followed", suit === "Bard" ? "bards" : "turn"));
    else marks.push(mark("off", "off suit: cannot win", "turn"));
    if (lead && suit === "Bard" && this.view.led) marks.push(mark("", `as ${this.view.led}`, "bards"));
    if (entry.rerolled) marks.push(mark("", "re-rolled", "dice"));
    if (entry.paladin) marks.push(mark("paladin", "✠ wins a tie", "suits", "wins a tie"));
    if (entry.last) marks.push(mark("rogue", "† goes last", "suits", "counts as played last for the tie-break"));
    return h(
      "article",
      { class: classes.join(" "), dataset: { seat: String(entry.seat), card: String(entry.card.id) } },
      h("header", { class: "ct-slot-who" }, h("span", { class: "seat-swatch" }), this.name(entry.seat), taking ? h("span", { class: "ct-taking-tag tag", dataset: { rule: "suits" }, text: "taking it" }) : null),
      h(
        "div",
        { class: "ct-played-body" },
        this.cardEl(entry.card, { small: true }),
        dieEl(entry.die, entry.value),
      ),
      (entry.crits || []).length
        ? h("div", { class: "ct-crits-used" }, h("span", { class: "ct-label", dataset: { rule: "suits" }, text: "Crits:" }), entry.crits.map((s) => suitChip(s, "small")))
        : null,
      h("div", { class: "ct-marks" }, marks),
    );
  }

  previousTrick(trick) {
    return h(
      "div",
      { class: "ct-previous" },
      h("span", { class: "ct-label", text: `Trick ${trick.number}: ` }),
      h("span", { class: `seat-fg-${trick.winner % 6} ct-strong`, text: `${this.name(trick.winner)} took it` }),
      ` (${trick.led} led)`,
    );
  }

  // -- cards -----------------------------------------------------------------------------

  cardEl(card, { small = false } = {}) {
    const suit = card.suit;
    return h(
      "div",
      {
        class: `ct-card card ct-s-${suitKey(suit)}${small ? " small" : ""}`,
        "aria-label": suit,
        dataset: { card: String(card.id), suit, rule: suitRule(suit) },
      },
      h("span", { class: "ct-card-icon", "aria-hidden": "true", text: icon(suit) }),
      h("span", { class: "ct-card-name", text: suit }),
      small ? null : h("span", { class: "ct-card-rule", text: (SUITS[suit] || {}).takes || "" }),
      small ? null : h("span", { class: "ct-card-crit", text: `crit: ${(SUITS[suit] || {}).crit || ""}` }),
    );
  }

  // -- your hand ---------------------------------------------------------------------------

  hand() {
    if (!this.me || !Array.isArray(this.me.hand) || this.view.result) return null;
    const hand = this.me.hand;
    const playing = this.asked && this.kind() === "play";
    const suits = new Set(playing ? this.playSuits() : []);
    const groups = ORDER.map((suit) => [suit, hand.filter((card) => card.suit === suit)]).filter(([, cards]) => cards.length);
    return h(
      "section",
      { class: `ct-hand seat-${this.ctx.seat % 6}`, "aria-label": "Your hand" },
      h("h3", { class: "ct-heading board-heading", dataset: { rule: "table" } }, "Your hand ", h("span", { class: "ct-count heading-count", text: plural(hand.length, "card") })),
      hand.length
        ? h(
            "div",
            { class: "ct-groups" },
            groups.map(([suit, cards]) =>
              h(
                "div",
                { class: `ct-group ct-s-${suitKey(suit)}`, dataset: { suit } },
                h("span", { class: "ct-group-count", text: `${cards.length}×` }),
                cards.map((card) => {
                  const node = this.cardEl(card);
                  if (suits.has(suit)) this.pickable(node, suit);
                  else if (playing) node.classList.add("cannot");
                  return node;
                }),
              ),
            ),
          )
        : h("p", { class: "ct-empty", text: "Your hand is empty: you sit out the rest of the round." }),
    );
  }

  /** A card of a suit the person may play: clicking it picks the suit (step one). */
  pickable(node, suit) {
    node.classList.add("playable");
    if (picking.suit === suit) node.classList.add("picked");
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "0");
    node.setAttribute("title", `play a ${suit}`);
    node.setAttribute("aria-pressed", picking.suit === suit ? "true" : "false");
    const pick = (event) => {
      event.stopPropagation();
      if (picking.suit !== suit) picking.named = null;
      picking.suit = suit;
      redraw();
    };
    node.addEventListener("click", pick);
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        pick(event);
      }
    });
  }

  // -- quests ------------------------------------------------------------------------------

  questEl(quest, { scored = false } = {}) {
    return h(
      "article",
      { class: `ct-quest card${scored ? " scored" : ""}`, dataset: { quest: String(quest.id), rule: "quests" } },
      h("header", { class: "ct-quest-head" }, h("span", { class: "ct-quest-name card-name", text: quest.name }), h("span", { class: "ct-loot-tag", text: `${quest.loot} loot` })),
      h("p", { class: "ct-quest-text card-text", text: quest.text }),
    );
  }

  quests() {
    const view = this.view;
    const d = this.decision;
    const blocks = [];
    if (this.asked && d && d.kind === "give_up") {
      const byQuest = new Map(this.legal.filter((e) => e.kind === "discard").map((e) => [e.args[0], e]));
      blocks.push(
        h(
          "section",
          { class: "ct-quests ct-offer", "aria-label": "Quests dealt to you", dataset: { rule: "quests" } },
          h("h3", { class: "ct-heading board-heading" }, "Quests dealt to you ", h("span", { class: "ct-count heading-count", text: "click the one to give up" })),
          h(
            "div",
            { class: "ct-quest-list" },
            (d.offered || []).map((quest) => {
              const node = this.questEl(quest);
              const entry = byQuest.get(quest.id);
              if (entry) {
                this.claimed.add(entry.action);
                makeClickable(node, entry, this.ctx.onAction);
                node.append(h("span", { class: "ct-give-up", text: "give this one up" }));
              }
              return node;
            }),
          ),
        ),
      );
    }
    if (Array.isArray(view.public_quests)) {
      blocks.push(
        h(
          "section",
          { class: "ct-quests ct-public", "aria-label": "Quests for both players", dataset: { rule: "quests" } },
          h("h3", { class: "ct-heading board-heading" }, "Quests for both ", h("span", { class: "ct-count heading-count", text: "the first to meet one scores it" })),
          view.public_quests.length
            ? h("div", { class: "ct-quest-list" }, view.public_quests.map((q) => this.questEl(q)))
            : h("p", { class: "ct-empty", text: "No quest left this round." }),
        ),
      );
    } else if (this.me && Array.isArray(this.me.quests) && !(this.asked && d && d.kind === "give_up")) {
      const own = this.me.quests;
      blocks.push(
        h(
          "section",
          { class: "ct-quests ct-mine", "aria-label": "Your quests", dataset: { rule: "quests" } },
          h("h3", { class: "ct-heading board-heading" }, "Your quests ", h("span", { class: "ct-count heading-count", text: "secret: only you see them" })),
          own.length
            ? h("div", { class: "ct-quest-list" }, own.map((q) => this.questEl(q)))
            : h("p", { class: "ct-empty", text: d && d.kind === "give_up" ? "Dealt when you have chosen." : "None left this round." }),
        ),
      );
    }
    return blocks.length ? blocks : null;
  }

  // -- the Barkeep's Challenge -------------------------------------------------------------

  barkeep() {
    const b = this.view.barkeep;
    const d = this.decision;
    return h(
      "section",
      { class: "ct-barkeep", "aria-label": "The Barkeep's Challenge", dataset: { rule: "barkeep" } },
      h("h3", { class: "ct-heading board-heading" }, "The Barkeep's Challenge ", h("span", { class: "ct-count heading-count", text: "paid at the end of the round" })),
      b
        ? h(
            "article",
            { class: "ct-challenge card", dataset: { barkeep: String(b.id) } },
            h("header", { class: "ct-challenge-name card-name", text: b.name }),
            h("p", { class: "ct-challenge-text card-text", text: b.text }),
            h("span", { class: "ct-loot-tag", text: `${b.loot} loot` }),
          )
        : h(
            "p",
            { class: "ct-empty" },
            this.view.result
              ? "No challenge is open."
              : d && d.kind === "barkeep"
                ? `${d.seat === this.ctx.seat ? "You are" : `${this.name(d.seat)} is`} choosing it.`
                : "Chosen after the quests, by the player with the least loot.",
          ),
    );
  }

  // -- the seats ---------------------------------------------------------------------------

  seats() {
    return h(
      "section",
      { class: "ct-seats", "aria-label": "Players" },
      (this.view.seats || []).map((entry) => this.seat(entry)),
    );
  }

  seat(entry) {
    const view = this.view;
    const seat = entry.seat;
    const own = seat === this.ctx.seat;
    const d = this.decision;
    const winners = (view.result && view.result.winners) || [];
    const classes = ["ct-seat", "seat-panel", `seat-${seat % 6}`];
    if (own) classes.push("mine");
    if (d && d.seat === seat && !view.result) classes.push("deciding");
    if (winners.includes(seat)) classes.push("winner");
    const from = entry.loot_from || {};
    const onTable = (view.table || []).find((c) => c.seat === seat);
    return h(
      "article",
      { class: classes.join(" "), "aria-label": `${this.name(seat)}`, dataset: { seat: String(seat), rule: "table" } },
      h(
        "header",
        { class: "ct-seat-head" },
        h("span", { class: "seat-swatch" }),
        h("span", { class: "ct-seat-name", text: this.name(seat) }),
        own ? h("span", { class: "you-tag", text: "you" }) : null,
        winners.includes(seat) ? h("span", { class: "crown", title: "winner", dataset: { rule: "end" }, text: "♛" }) : null,
        d && d.seat === seat && !view.result ? h("span", { class: "ct-deciding deciding-tag", text: "deciding…" }) : null,
        seat === view.leader && !view.result ? h("span", { class: "ct-leader tag", dataset: { rule: "turn" }, text: "leads" }) : null,
      ),
      h(
        "div",
        { class: "ct-dice", "aria-label": `${this.name(seat)}'s dice` },
        (entry.dice || []).map((die) =>
          dieEl(die.die, die.value, { used: die.used, extra: onTable && Number(onTable.die) === Number(die.die) ? "on-table" : "" }),
        ),
      ),
      h(
        "dl",
        { class: "ct-facts" },
        h("dt", { text: "Loot" }),
        h(
          "dd",
          { class: "ct-loot", dataset: { rule: "goal" } },
          h("strong", { class: "ct-loot-total", text: String(entry.loot) }),
          h("span", {
            class: "ct-loot-from",
            text: ` (Bards ${from.bards || 0} · quests ${from.quests || 0} · Barkeep ${from.barkeep || 0})`,
          }),
        ),
        h("dt", { text: "Hand" }),
        h("dd", { class: "ct-hand-size", text: plural(entry.hand_size, "card") }),
        h("dt", { text: "Tricks" }),
        h("dd", { class: "ct-tricks-won", text: `${entry.tricks_won} this round` }),
        Array.isArray(view.public_quests)
          ? null
          : [
              h("dt", { text: "Quests" }),
              h("dd", {
                class: "ct-quests-held",
                dataset: { rule: "quests" },
                text: this.kind() === "give_up" && !entry.quests_held && !view.result
                  ? "being dealt"
                  : own
                    ? `${plural(entry.quests_held, "quest")} (yours, above)`
                    : plural(entry.quests_held, "secret quest"),
              }),
            ],
      ),
      (entry.scored || []).length
        ? h(
            "div",
            { class: "ct-scored", dataset: { rule: "quests" } },
            h("span", { class: "ct-label", text: "Scored: " }),
            entry.scored.map((q) =>
              h("span", { class: "ct-scored-quest tag", title: q.text, dataset: { quest: String(q.id) }, text: `${q.name} (+${q.loot})` }),
            ),
          )
        : null,
    );
  }

  // -- the tricks of the round -------------------------------------------------------------

  roundTricks() {
    const tricks = this.view.tricks || [];
    return h(
      "section",
      { class: "ct-round-tricks", "aria-label": "Tricks of the round", dataset: { rule: "turn" } },
      h("h3", { class: "ct-heading board-heading" }, "Tricks of this round ", h("span", { class: "ct-count heading-count", text: plural(tricks.length, "trick") })),
      tricks.length
        ? h(
            "ol",
            { class: "ct-trick-list" },
            tricks.map((trick) => {
              const bards = (trick.plays || []).filter((p) => p.suit === "Bard").length;
              return h(
                "li",
                { class: "ct-trick-row", dataset: { trick: String(trick.number) } },
                h("span", { class: "ct-trick-head" }, `Trick ${trick.number} · `, suitChip(trick.led, "small")),
                h(
                  "span",
                  { class: "ct-trick-plays" },
                  (trick.plays || []).map((p) =>
                    h(
                      "span",
                      {
                        class: `ct-trick-play seat-${p.seat % 6}${p.followed ? "" : " off-suit"}${p.seat === trick.winner ? " won" : ""}`,
                        title: `${this.name(p.seat)}: ${p.suit} on the d${p.die} showing ${p.value}${(p.crits || []).length ? `; crits: ${p.crits.join(", ")}` : ""}${p.followed ? "" : "; off suit"}`,
                      },
                      h("span", { class: "seat-swatch" }),
                      h("span", { class: `ct-mini ct-s-${suitKey(p.suit)}`, dataset: { rule: suitRule(p.suit) }, text: icon(p.suit) }),
                      ` d${p.die}: ${p.value}`,
                      (p.crits || []).length ? h("span", { class: "ct-mini-crits", text: ` +${p.crits.map(icon).join("")}` }) : null,
                    ),
                  ),
                ),
                h(
                  "span",
                  { class: `ct-trick-winner seat-fg-${trick.winner % 6}`, dataset: bards ? { rule: "goal" } : {} },
                  `→ ${this.name(trick.winner)}`,
                  bards ? ` (+${bards} loot)` : "",
                ),
              );
            }),
          )
        : h("p", { class: "ct-empty", text: "No trick taken yet this round." }),
    );
  }
}

// -- pictures for the How to play ----------------------------------------------------------

/** A board for a picture: a made-up view, seen by nobody, with no choice to make. */
function pictureBoard(view) {
  return new Board(view, { seat: null, legal: [] });
}

/** One card played to a made-up trick, as the view's `table` holds it. */
function lay(seat, suit, die, value, followed = true) {
  return { seat, card: { id: seat, suit }, followed, die, value, rerolled: false, crits: [], paladin: false, last: false };
}

/** A made-up moment: a Druid trick, four players, everyone has played (a Bard followed,
 * Player 3 could not follow); the second-highest value, Player 2's 7, is taking it. */
const PICTURE_TRICK = {
  players: 4,
  round: 1,
  rounds: 3,
  trick: 3,
  tricks_per_round: TRICKS_A_ROUND,
  leader: 0,
  led: "Druid",
  winning: 1,
  suits: ["Barbarian", "Druid", "Paladin", "Bard"],
  table: [lay(0, "Druid", 10, 9), lay(1, "Druid", 12, 7), lay(2, "Barbarian", 20, 8, false), lay(3, "Bard", 6, 4)],
  seats: [0, 1, 2, 3].map((seat) => ({ seat, hand_size: 6 })),
  tricks: [],
};

/** Your six dice at that moment: the d6 and the d12 played in earlier tricks. */
const PICTURE_DICE = [
  [4, 3, false],
  [6, 2, true],
  [8, 5, false],
  [10, 7, false],
  [12, 11, true],
  [20, 14, false],
];

/** Seedling, a quest of our standard pack (content/standard.toml). */
const PICTURE_QUEST = { id: 0, name: "Seedling", text: "Take a Druid trick with your d6.", loot: 3 };

export const pictures = {
  /** A card of the hand and the dice it is played with: what each tells. */
  hand: () => {
    const board = pictureBoard({ players: 3, suits: ["Wizard", "Druid", "Paladin", "Bard"] });
    return notePictureParts(
      h(
        "div",
        { class: "ct board ct-picture ct-picture-hand" },
        h("div", { class: "ct-group ct-s-wizard" }, board.cardEl({ id: 0, suit: "Wizard" })),
        h(
          "div",
          { class: "ct-dice", "aria-label": "your dice" },
          PICTURE_DICE.map(([size, value, used]) => dieEl(size, value, { used })),
        ),
      ),
      [".ct-card-name", ".ct-card-rule", ".ct-card-crit", '.ct-die[data-die="8"]', ".ct-die.ct-used"],
    );
  },
  /** A trick on the table and the suit key under it. */
  trick: () => {
    const board = pictureBoard(PICTURE_TRICK);
    return notePictureParts(h("div", { class: "ct board ct-picture ct-picture-trick" }, board.trickOnTable(), board.suitRules()), [
      ".ct-table .ct-heading .ct-count",
      '.ct-played[data-seat="3"] .ct-mark.followed',
      ".ct-played.off-suit .ct-mark.off",
      ".ct-played.taking .ct-taking-tag",
      ".ct-suit-rules .ct-rule-list",
    ]);
  },
  /** A quest card: its name, task and loot. */
  "quest-card": () =>
    notePictureParts(h("div", { class: "ct board ct-picture ct-picture-quest" }, pictureBoard({}).questEl(PICTURE_QUEST)), [
      ".ct-quest-name",
      ".ct-quest-text",
      ".ct-loot-tag",
    ]),
};
