// Here to Slay: the Monster row, every seat's Party (Party Leader, Heroes with their
// Items, slain Monsters), your hand, the piles, and above them the decision of the
// moment: whose turn and how many action points are left, or the reaction window that is
// open (a Challenge to a card being played, a Modifier on a roll) and who is asked.
//
// The shape of `view` is HereToSlay.view() in games/here_to_slay/rules.py. An action
// that is about a card lives on that card (play it, roll for it, ATTACK it, pick it); a
// card with several such actions (an Item that may go onto either Hero) carries one
// button for each. Modifiers are offered beside the roll they change, with the total they
// would make. Every other legal action is a button in the decision box, so each choice is
// reachable from the board as well as from the frame's own list. What a person may ask
// about carries `data-rule`, the section of HOW_TO_PLAY.md that explains it (the table
// shows it when pointed at), and `pictures` draws the How to play's pictures with the same
// cards.

import { h, makeClickable, notePictureParts, oddsText, replace } from "/static/dom.js";
import { dieFace } from "/static/dice.js";

const DISCARD_SHOWN = 5;
const CLASSES = ["Bard", "Fighter", "Guardian", "Ranger", "Thief", "Wizard"];
const KIND_NAMES = {
  hero: "Hero",
  item: "Item",
  cursed_item: "Cursed Item",
  magic: "Magic",
  modifier: "Modifier",
  challenge: "Challenge",
};
// What a pick is choosing, as the cards name it ("DESTROY a Hero", "STEAL an Item").
const WHAT_NAMES = {
  card: "card",
  hero: "Hero",
  item: "Item",
  any_item: "Item",
  cursed_item: "Cursed Item",
  magic: "Magic card",
  modifier: "Modifier",
  challenge: "Challenge card",
};
// The section of HOW_TO_PLAY.md that explains each kind of card (its `data-rule`).
const KIND_RULES = {
  hero: "heroes",
  item: "items",
  cursed_item: "items",
  magic: "magic",
  modifier: "modifiers",
  challenge: "challenges",
};
// Verbs of a pick whose choices are Monsters, not cards (the others pick card ids).
const MONSTER_VERBS = new Set(["replace", "attack", "slay"]);

export function render(container, view, ctx) {
  const board = new Board(view, ctx);
  // Sections that hold cards are built first: each claims the actions that live on its
  // cards, and the decision box then offers whatever no card claimed.
  const monsters = board.monsterRow();
  const hand = board.hand();
  const parties = board.parties();
  const piles = board.piles();
  replace(
    container,
    h(
      "div",
      { class: "slay board" },
      board.status(),
      board.decisionBox(),
      monsters,
      hand,
      parties,
      piles,
    ),
  );
}

// -- small words ------------------------------------------------------------------------

function plural(count, word, many = `${word}s`) {
  return `${count} ${count === 1 ? word : many}`;
}

function signed(n) {
  return n >= 0 ? `+${n}` : `−${Math.abs(n)}`;
}

/** "play:55,22" -> {kind: "play", args: [55, 22]}. */
function parseAction(text) {
  const [kind, rest] = String(text).split(/:(.*)/s);
  const args = rest ? rest.split(",").map((a) => (/^-?\d+$/.test(a) ? Number(a) : a)) : [];
  return { kind, args };
}

/** "8+" -> total >= 8; "5-" -> total <= 5 (the text of a Monster's ranges). */
function inRange(range, total) {
  const match = /^(-?\d+)([+-])$/.exec(String(range || ""));
  if (!match) return false;
  const n = Number(match[1]);
  return match[2] === "+" ? total >= n : total <= n;
}

function requirementText(monster) {
  const classes = monster.classes || [];
  const heroes = Number(monster.heroes) || 0;
  if (!classes.length) return plural(heroes, "Hero", "Heroes");
  const more = heroes ? ` + ${heroes} more ${heroes === 1 ? "Hero" : "Heroes"}` : "";
  return `${classes.join(" + ")}${more}`;
}

// -- the board --------------------------------------------------------------------------

class Board {
  constructor(view, ctx) {
    this.view = view || {};
    this.ctx = ctx;
    this.names = ctx.seatNames || [];
    this.decision = this.view.decision || null;
    this.legal = (ctx.legal || []).map((entry, index) => ({
      ...entry,
      index,
      ...parseAction(entry.action),
    }));
    this.claimed = new Set();
    this.byTarget = this.indexLegal();
    this.cardsById = this.indexCards();
    this.ownerOf = this.indexOwners();
    // Every card a Hero's roll has named before its window (RULES 16), by id.
    this.aimedBy = new Map();
    for (const aim of this.view.hero_rolls || []) {
      aimsOf(aim).forEach((card) => this.aimedBy.set(card, aim));
    }
  }

  name(seat) {
    return this.names[seat] || `Player ${Number(seat) + 1}`;
  }

  mine() {
    return this.ctx.seat !== null && this.ctx.seat !== undefined;
  }

  /** Legal actions by what they are about: "card:22", "monster:7", "skill:1". */
  indexLegal() {
    const map = new Map();
    const kind = this.decision && this.decision.kind;
    const verb = this.decision && this.decision.verb;
    const add = (key, entry) => {
      if (!map.has(key)) map.set(key, []);
      map.get(key).push(entry);
    };
    for (const entry of this.legal) {
      const first = entry.args[0];
      if (["play", "steal"].includes(entry.kind) || (entry.kind === "roll" && entry.args.length)) {
        add(`card:${first}`, entry);
      } else if (entry.kind === "attack") {
        add(`monster:${first}`, entry);
      } else if (entry.kind === "pick" && (kind === "pick" || kind === "aim")) {
        add(`${MONSTER_VERBS.has(verb) ? "monster" : "card"}:${first}`, entry);
      } else if (entry.kind === "skill") {
        add(`skill:${first}`, entry);
      }
    }
    return map;
  }

  /** Every card the seat can see, by id: to name a card a roll is aimed at. */
  indexCards() {
    const map = new Map();
    const put = (card) => card && map.set(card.id, card);
    for (const seat of this.view.table || []) {
      (seat.party || []).forEach((hero) => {
        put(hero);
        put(hero.item);
      });
      (seat.hand || []).forEach(put);
    }
    (this.view.discard || []).forEach(put);
    (this.view.playing || []).forEach(put);
    return map;
  }

  /** The seat whose Party holds each card in a Party (a Hero or its Item), by id. */
  indexOwners() {
    const map = new Map();
    for (const seat of this.view.table || []) {
      (seat.party || []).forEach((hero) => {
        map.set(hero.id, seat.seat);
        if (hero.item) map.set(hero.item.id, seat.seat);
      });
    }
    return map;
  }

  /** The Hero roll waiting for `roll`'s window, with the player and cards it names. */
  heroRoll(roll) {
    const hero = roll.card && roll.card.id;
    return (this.view.hero_rolls || []).find((r) => r.hero === hero) || null;
  }

  /** Everything a Hero's roll is aimed at: each card it named, with the seat whose Party
   *  holds it ({seat, card}); or, naming no card, its chosen player ({seat}). A card that
   *  has left every Party since it was named has no seat. */
  targets(aim) {
    const named = aimsOf(aim).map((id) => ({
      seat: this.ownerOf.has(id) ? this.ownerOf.get(id) : null,
      card: this.cardsById.get(id) || null,
    }));
    if (named.length) return named;
    return aim.target !== null && aim.target !== undefined ? [{ seat: aim.target, card: null }] : [];
  }

  /** "Player 2's Nib Quickfingers", "Player 2", or the card's name once it left its Party. */
  targetText({ seat, card }) {
    const name = card ? card.name : "a card no longer in play";
    if (seat === null) return name;
    return card ? `${this.name(seat)}'s ${name}` : this.name(seat);
  }

  /** The legal actions about a card in `cards`, or about the copy of it that the game
   *  offers: identical copies are one choice (RULES 30), and every copy in a hand
   *  should look as playable as the one the actions name. */
  claimCopy(cards, card) {
    const own = this.claim(`card:${card.id}`);
    if (own.length) return own;
    const twin = cards.find((c) => c.name === card.name && this.byTarget.has(`card:${c.id}`));
    return twin ? this.claim(`card:${twin.id}`) : own;
  }

  /** The legal actions about one thing, marked as shown there. */
  claim(key) {
    const entries = this.byTarget.get(key) || [];
    entries.forEach((entry) => this.claimed.add(entry.action));
    return entries;
  }

  /** Make `node` offer `entries`: one makes the whole card clickable, several add a
   *  button each (an Item that may go onto either Hero). */
  offer(node, entries) {
    if (!entries.length) return node;
    node.classList.add("offered");
    if (entries.length === 1) {
      const entry = entries[0];
      makeClickable(node, entry, this.ctx.onAction);
      node.append(
        h(
          "div",
          { class: "slay-card-play card-play" },
          entry.index < 9 ? h("kbd", { text: String(entry.index + 1) }) : null,
          h("span", { text: entry.label || entry.action }),
          odds(entry),
        ),
      );
    } else {
      const buttons = entries.map((entry) => this.button(entry));
      node.append(h("div", { class: "slay-card-choices choices" }, buttons));
    }
    return node;
  }

  button(entry, text = null, extra = null) {
    this.claimed.add(entry.action);
    return h(
      "button",
      {
        type: "button",
        class: "slay-choice choice playable",
        title: entry.label || entry.action,
        dataset: { action: entry.action },
        onclick: (event) => {
          event.stopPropagation();
          this.ctx.onAction(entry.action);
        },
      },
      entry.index < 9 ? h("kbd", { text: String(entry.index + 1) }) : null,
      h("span", { class: "slay-choice-label choice-label", text: text || entry.label || entry.action }),
      extra,
      odds(entry),
    );
  }

  // -- the strip: turn, whose turn, action points, the end --------------------------------

  status() {
    const view = this.view;
    const over = Boolean(view.result);
    const yours = !over && view.current === this.ctx.seat;
    const turn = over ? "The game is over" : yours ? "Your turn" : `${this.name(view.current)}'s turn`;
    const points = Math.max(0, Number(view.action_points) || 0);
    if (!over && !view.turn) {
      // Party Leaders are chosen before the first turn: no turn, no action points yet.
      return h(
        "div",
        { class: "slay-status status-strip" },
        h("span", { class: "slay-turn-number pill big", text: "Setup" }),
        h("span", { class: "slay-turn whose-turn", text: "Choosing Party Leaders" }),
      );
    }
    return h(
      "div",
      { class: "slay-status status-strip" },
      h("span", { class: "slay-turn-number pill big", text: `Turn ${view.turn}` }),
      h("span", { class: `slay-turn whose-turn${yours ? " mine" : ""} seat-${view.current % 6}`, text: turn }),
      over
        ? null
        : h(
            "span",
            {
              class: "slay-ap",
              role: "img",
              "aria-label": `${plural(points, "action point")} left`,
              dataset: { rule: "turn" },
            },
            Array.from({ length: Math.max(points, 3) }, (_, i) =>
              h("span", { class: `slay-ap-pip${i < points ? " full" : ""}` }),
            ),
            h("span", { class: "slay-ap-count", text: `${plural(points, "action point")} left` }),
          ),
    );
  }

  // -- the decision box ------------------------------------------------------------------

  decisionBox() {
    const view = this.view;
    const d = this.decision;
    const asked = Boolean(d) && this.legal.length > 0;
    const classes = ["slay-decision", "decision-box"];
    if (asked) classes.push("asked");
    if (d) classes.push(`kind-${String(d.kind).replace(/[^a-z_-]/gi, "")}`);
    const modifier = d && d.kind === "modifier";
    const buttons = [];
    if (d && d.kind === "challenge") {
      // Challenging first, passing last: the order a person reads the question in.
      for (const kind of ["challenge", "pass"]) {
        this.legal.filter((e) => e.kind === kind).forEach((e) => buttons.push(this.button(e)));
      }
    }
    const rolls = this.rollsBlock(modifier ? Number(d.rolls) || 0 : 0);
    for (const entry of this.legal) {
      if (!this.claimed.has(entry.action)) buttons.push(this.button(entry));
    }
    const box = h(
      "section",
      { class: classes.join(" "), "aria-label": "The decision", "aria-live": "polite" },
      h("p", { class: `slay-question question${view.result ? " slay-result ending" : ""}`, text: this.question(asked) }),
      d && d.kind === "challenge" && d.card ? this.cardEl(d.card, { small: true, onto: d.onto }) : null,
      this.inPlay(),
      rolls,
      d && d.looking_at ? this.lookingAt(d.looking_at) : null,
      buttons.length ? h("div", { class: "slay-choices choices" }, buttons) : null,
      !view.result && d && !asked ? h("p", { class: "slay-waiting waiting", text: this.waitingFor() }) : null,
    );
    // No rule tips here: a tip opens under what is pointed at, over the choices below it,
    // and each choice links to its rule already.
    box.querySelectorAll("[data-rule]").forEach((node) => delete node.dataset.rule);
    return box;
  }

  /** The question of the moment, in the words of the seat that is asked. */
  question(asked) {
    const view = this.view;
    const d = this.decision;
    if (view.result) return view.result.reason || "The game is over.";
    if (!d) return "";
    const who = this.name(d.seat);
    switch (d.kind) {
      case "turn": {
        const points = plural(Number(view.action_points) || 0, "action point");
        if (!asked) return `${who}'s turn: ${points} left.`;
        // Point at what can be clicked on the board; the rest are the buttons below.
        const kinds = new Set(this.legal.map((e) => e.kind));
        const ways = [
          kinds.has("play") ? "play a card from your hand" : "",
          this.legal.some((e) => e.kind === "roll" && e.args.length) ? "roll for a Hero" : "",
          kinds.has("attack") ? "ATTACK a Monster" : "",
        ].filter(Boolean);
        const click = ways.length ? ` Click a lit card to ${ways.join(", ").replace(/, ([^,]*)$/, " or $1")}.` : "";
        return `Your turn: ${points} left.${click}`;
      }
      case "challenge": {
        const card = d.card ? d.card.name : "a card";
        const onto = d.onto ? ` onto ${d.onto.name}` : "";
        return `${this.name(d.player)} plays ${card}${onto} — challenge?`;
      }
      case "modifier":
        return `${this.openRollsText()}: play a Modifier?`;
      case "free_roll": {
        const card = d.card ? d.card.name : "the Hero";
        return `${card} joined ${asked ? "your" : `${who}'s`} Party: roll for its effect now, free?`;
      }
      case "play_now":
        return `Play ${d.card ? d.card.name : "the card"} now?`;
      case "pick":
      case "aim":
        return this.pickQuestion(asked);
      case "target": {
        // Whose effect it is and what it does, so the choice can be weighed.
        const about = d.about ? ` of ${d.about.name}: ${d.about.text}` : ".";
        return asked ? `Choose a player for the effect${about}` : `${who} chooses a player for the effect${about}`;
      }
      case "may":
      case "may_step": {
        const offer = d.offer ? `: ${d.offer}` : "";
        return asked ? `Do you want to${offer}?` : `${who} may choose to${offer}.`;
      }
      case "leader":
        return asked ? "Choose your Party Leader." : `${who} chooses a Party Leader.`;
      default:
        return asked ? "Your decision." : `${who} decides.`;
    }
  }

  pickQuestion(asked) {
    const d = this.decision;
    const verb = String(d.verb || "choose");
    const what = WHAT_NAMES[d.what] || "card";
    const before = d.kind === "aim" ? ", before the roll" : "";
    const who = asked ? "You choose" : `${this.name(d.seat)} chooses`;
    if (verb === "take") return `${who} a card to take from the hand looked at.`;
    if (verb === "encore") return `${who} a Hero to roll for at once (encore), free.`;
    if (MONSTER_VERBS.has(verb)) return `${who} a Monster to ${verb.toUpperCase()}.`;
    return `${who} ${/^[AEIOU]/.test(what) ? "an" : "a"} ${what} to ${verb.toUpperCase()}${before}.`;
  }

  /** "Player 2 rolled 9 to challenge X; Player 1 rolled 13 for X against the challenge". */
  openRollsText() {
    const rolls = this.view.rolls || [];
    const open = Math.min(Number(this.decision.rolls) || rolls.length, rolls.length);
    const shown = rolls.slice(rolls.length - open);
    if (!shown.length) return "A roll is open";
    return shown
      .map((roll) => `${this.name(roll.seat)} rolled ${roll.total} ${this.rollPurpose(roll)}`.trim())
      .join("; ");
  }

  /** What a roll is for; a Hero roll's targets too, unless `targets` is false (the roll on
   *  the board shows them as chips of their own). */
  rollPurpose(roll, targets = true) {
    const card = roll.card ? roll.card.name : "a card";
    switch (roll.for) {
      case "hero": {
        // Every target, so others may wait for all of them before modifying (RULES 16).
        const aim = targets ? this.heroRoll(roll) : null;
        const named = aim ? this.targets(aim).map((t) => this.targetText(t)) : [];
        return `for ${card} (${roll.need}+)${named.length ? ` at ${listText(named)}` : ""}`;
      }
      case "attack":
        return roll.monster ? `against ${roll.monster.name} (${roll.monster.slay} slays)` : "to ATTACK";
      case "challenge":
        return `to challenge ${card}`;
      case "defence":
        return `for ${card} against the challenge`;
      default:
        return "";
    }
  }

  /** What a total would do: meet the Hero's need, slay, win the challenge. */
  outcome(roll, total, rolls, index) {
    if (roll.for === "hero") {
      return total >= roll.need ? `meets ${roll.need}+` : `misses ${roll.need}+`;
    }
    if (roll.for === "attack" && roll.monster) {
      if (inRange(roll.monster.slay, total)) return "slays";
      if (inRange(roll.monster.punishment, total)) return "punished";
      return "nothing happens";
    }
    // The challenge roll comes first and its defence right after it; ties go to the
    // challenger (RULES 13).
    if (roll.for === "challenge" && rolls[index + 1] && rolls[index + 1].for === "defence") {
      return total >= rolls[index + 1].total ? "the challenge succeeds" : "the challenge fails";
    }
    if (roll.for === "defence" && rolls[index - 1] && rolls[index - 1].for === "challenge") {
      return rolls[index - 1].total >= total ? "the challenge succeeds" : "the challenge fails";
    }
    return "";
  }

  /** Every roll waiting for its window; the open ones carry their Modifier buttons. */
  rollsBlock(open) {
    const rolls = this.view.rolls || [];
    if (!rolls.length) return null;
    const first = rolls.length - Math.min(open, rolls.length);
    const modifiers = this.legal.filter((e) => e.kind === "modify");
    return h(
      "div",
      { class: "slay-rolls" },
      rolls.map((roll, index) => {
        const isOpen = open > 0 && index >= first;
        // A Modifier names its roll by its number on the table, from 1 (the terminal's "Roll 2").
        const here = isOpen ? modifiers.filter((e) => Number(e.args[2]) === index + 1) : [];
        const now = this.outcome(roll, roll.total, rolls, index);
        return h(
          "div",
          {
            class: `slay-roll seat-${roll.seat % 6}${isOpen ? " open" : ""}`,
            dataset: { roll: String(index) },
          },
          h(
            "div",
            { class: "slay-roll-head" },
            h("span", { class: "seat-swatch" }),
            h("span", { class: "slay-roll-who", text: `${this.name(roll.seat)} ${this.rollPurpose(roll, false)}` }),
          ),
          roll.for === "hero" ? this.aimsEl(roll) : null,
          h(
            "div",
            { class: "slay-roll-dice" },
            (roll.dice || []).map((value) => dieFace(Number(value))),
            roll.bonus ? h("span", { class: "slay-roll-part", text: `${signed(roll.bonus)} bonus` }) : null,
            roll.modifiers
              ? h("span", { class: "slay-roll-part", text: `${signed(roll.modifiers)} Modifiers` })
              : null,
            h("span", { class: "slay-roll-total", text: `= ${roll.total}` }),
            now ? h("span", { class: "slay-roll-outcome", text: now }) : null,
          ),
          here.length
            ? h(
                "div",
                { class: "slay-roll-mods choices" },
                here.map((entry) => this.modifierButton(entry, roll, rolls, index)),
              )
            : null,
        );
      }),
    );
  }

  /** A Hero roll's targets as chips in their owners' colours: "Aimed at: ● Player 2's
   *  Nib Quickfingers ● Player 3's Lark the Busker". */
  aimsEl(roll) {
    const aim = this.heroRoll(roll);
    const targets = aim ? this.targets(aim) : [];
    if (!targets.length) return null;
    return h(
      "div",
      { class: "slay-roll-aims" },
      h("span", { class: "slay-label", text: "Aimed at:" }),
      targets.map((target) =>
        h(
          "span",
          {
            class: `slay-aim seat-chip${target.seat !== null ? ` seat-${target.seat % 6}` : ""}`,
            dataset: target.card ? { aim: String(target.card.id) } : {},
          },
          target.seat !== null ? h("span", { class: "seat-swatch" }) : null,
          h("span", { text: this.targetText(target) }),
        ),
      ),
    );
  }

  modifierButton(entry, roll, rolls, index) {
    const [card, amount, , extra] = entry.args;
    const info = this.cardsById.get(card);
    // A Modifier on an opponent's roll is answered by its Grimtooth Ogre (+1 each).
    const answer = roll.seat !== this.ctx.seat ? Number(roll.opponent_modifier_bonus) || 0 : 0;
    const change = Number(amount) + (Number(extra) || 0) + answer;
    const total = roll.total + change;
    // The total it makes, and what that total would do, with the other rolls as they are.
    const after = rolls.map((r, i) => (i === index ? { ...r, total } : r));
    const result = this.outcome(roll, total, after, index);
    let parts = extra !== undefined ? `${signed(Number(amount))} ${signed(Number(extra))}` : signed(Number(amount));
    if (answer) parts += ` (${signed(answer)} theirs)`;
    return this.button(
      entry,
      `${info ? info.name : "Modifier"} ${parts} → ${total}`,
      result ? h("span", { class: "slay-choice-note", text: result }) : null,
    );
  }

  /** Cards out of a hand and not yet resolved (the one challenged, a Magic card running). */
  inPlay() {
    const d = this.decision;
    const playing = (this.view.playing || []).filter(
      (card) => !(d && d.kind === "challenge" && d.card && d.card.id === card.id),
    );
    if (!playing.length) return null;
    return h(
      "div",
      { class: "slay-in-play" },
      h("span", { class: "slay-label", text: "Being played:" }),
      playing.map((card) => this.cardEl(card, { small: true })),
    );
  }

  lookingAt(cards) {
    return h(
      "div",
      { class: "slay-looking" },
      h("span", { class: "slay-label", text: "Their hand:" }),
      h(
        "div",
        { class: "slay-cards" },
        cards.map((card) => this.offer(this.cardEl(card), this.claim(`card:${card.id}`))),
      ),
    );
  }

  waitingFor() {
    const d = this.decision;
    const who = this.name(d.seat);
    if ((d.kind === "challenge" || d.kind === "modifier") && d.seat === this.ctx.seat) {
      // Asked like everyone, with nothing to play: the server passes for this seat.
      return "You have nothing to play here: passing…";
    }
    switch (d.kind) {
      case "challenge":
        return `Waiting for ${who}: challenge it or not?`;
      case "modifier":
        return `Waiting for ${who}: play a Modifier or pass?`;
      case "turn":
        return this.mine() && d.seat === this.ctx.seat ? "" : `Waiting for ${who} to act…`;
      default:
        return `Waiting for ${who} to decide…`;
    }
  }

  // -- the Monster row -------------------------------------------------------------------

  monsterRow() {
    const view = this.view;
    return h(
      "section",
      { class: "slay-monsters", "aria-label": "Monsters" },
      h(
        "h3",
        { class: "slay-heading board-heading", dataset: { rule: "monsters" } },
        "Monsters ",
        h("span", {
          class: "slay-count heading-count",
          text: `${plural(view.monster_deck || 0, "card")} in the Monster deck`,
        }),
      ),
      h(
        "div",
        { class: "slay-monster-row" },
        (view.monsters || []).length
          ? view.monsters.map((m) => this.offer(this.monsterEl(m), this.claim(`monster:${m.id}`)))
          : h("p", { class: "slay-empty", text: "No Monster is face up." }),
      ),
    );
  }

  monsterEl(monster, { slain = false } = {}) {
    return h(
      "article",
      {
        class: `slay-monster card${slain ? " slain" : ""}`,
        "aria-label": monster.name,
        dataset: { monster: String(monster.id), rule: "monsters" },
      },
      h("header", { class: "slay-card-name card-name", text: monster.name }),
      slain
        ? null
        : [
            h(
              "p",
              { class: "slay-need" },
              h("span", { class: "slay-label", text: "Party: " }),
              requirementText(monster),
            ),
            h(
              "div",
              { class: "slay-ranges" },
              h("span", { class: "slay-slay", title: "slays on", text: `${monster.slay} slays` }),
              h("span", {
                class: "slay-punish",
                title: "punishment on",
                text: `${monster.punishment}: ${monster.punishes || "punishment"}`,
              }),
            ),
          ],
      h(
        "p",
        { class: "slay-skill" },
        h("span", { class: "slay-label", text: slain ? "Skill: " : "Once slain: " }),
        monster.skill,
      ),
      !slain && monster.draws
        ? h("p", { class: "slay-small", text: `Slaying it: DRAW ${plural(monster.draws, "card")}.` })
        : null,
    );
  }

  // -- cards -----------------------------------------------------------------------------

  /** A card's face: its kind, a Hero's class and the roll its effect needs, its text,
   *  and how a card of its kind is played where the text does not say (`note`: a
   *  Modifier, a Challenge; `extra` adds to it, e.g. your CHALLENGE bonus). */
  cardEl(card, { small = false, onto = null, extra = "" } = {}) {
    const kind = String(card.kind || "");
    const note = [card.note, extra].filter(Boolean).join(" ");
    return h(
      "article",
      {
        class: `slay-card card kind-${kind.replace(/[^a-z_]/g, "")}${small ? " small" : ""}`,
        "aria-label": card.name,
        dataset: { card: String(card.id), rule: KIND_RULES[kind] || "table" },
      },
      h(
        "header",
        { class: "slay-card-head" },
        h("span", { class: "slay-kind", text: KIND_NAMES[kind] || kind }),
        card.class ? h("span", { class: "slay-class tag", text: card.class }) : null,
        card.roll
          ? h("span", {
              class: "slay-need-roll",
              title: "2d6 and bonuses must reach this for its effect",
              // A small card (the discard pile, a card being played) has room for "9+".
              text: small ? `${card.roll}+` : `roll ${card.roll}+`,
            })
          : null,
      ),
      h("div", { class: "slay-card-name card-name", text: card.name }),
      card.text ? h("p", { class: "slay-card-text card-text", text: card.text }) : null,
      note && !small ? h("p", { class: "slay-card-note", text: note }) : null,
      onto ? h("p", { class: "slay-small", text: `onto ${onto.name}` }) : null,
    );
  }

  heroEl(hero) {
    const node = this.cardEl(hero);
    node.classList.add("in-party");
    const marks = [];
    if (hero.bonus) {
      const why = "added to its rolls before any Modifier (Leader, slain Monsters, Item, boosts)";
      marks.push(
        h("span", {
          class: "slay-mark tag bonus",
          title: why,
          dataset: { rule: "dice" },
          text: `${signed(hero.bonus)} on its rolls`,
        }),
      );
    }
    if (hero.warded) {
      const why = "cannot be destroyed, stolen or returned until its warder's next turn";
      marks.push(h("span", { class: "slay-mark tag warded", title: why, text: "warded" }));
    }
    if (hero.rolled) {
      const why = "rolled for already this turn";
      marks.push(h("span", { class: "slay-mark tag rolled", title: why, text: "rolled this turn" }));
    }
    const aimed = this.aimedMark(hero);
    if (aimed) marks.push(aimed);
    if (marks.length) node.append(h("div", { class: "slay-marks" }, marks));
    if (hero.item) {
      node.append(this.offer(this.itemEl(hero.item), this.claim(`card:${hero.item.id}`)));
    }
    return this.offer(node, this.claim(`card:${hero.id}`));
  }

  itemEl(item) {
    return h(
      "div",
      {
        class: `slay-item kind-${String(item.kind).replace(/[^a-z_]/g, "")}`,
        "aria-label": item.name,
        dataset: { card: String(item.id), rule: "items" },
      },
      h("span", { class: "slay-kind", text: KIND_NAMES[item.kind] || "Item" }),
      h("span", { class: "slay-item-name card-name", text: item.name }),
      this.aimedMark(item),
      h("span", { class: "slay-card-text card-text", text: item.text }),
    );
  }

  /** On a card in a Party that a Hero's roll has named: whose roll it is. */
  aimedMark(card) {
    const aim = this.aimedBy.get(card.id);
    if (!aim) return null;
    const hero = this.cardsById.get(aim.hero);
    const roll = `${this.name(aim.seat)}'s roll${hero ? ` for ${hero.name}` : ""}`;
    return h("span", {
      class: "slay-mark tag aimed",
      title: `named as a target of ${roll}, before its Modifier window`,
      text: "targeted",
    });
  }

  // -- your hand --------------------------------------------------------------------------

  hand() {
    if (!this.mine()) return null;
    const me = (this.view.table || [])[this.ctx.seat];
    if (!me || !Array.isArray(me.hand)) return null;
    return h(
      "section",
      { class: `slay-hand well seat-${this.ctx.seat % 6}`, "aria-label": "Your hand" },
      h(
        "h3",
        { class: "slay-heading board-heading", dataset: { rule: "table" } },
        "Your hand ",
        h("span", { class: "slay-count heading-count", text: plural(me.hand.length, "card") }),
      ),
      me.hand.length
        ? h(
            "div",
            { class: "slay-cards" },
            me.hand.map((card) => {
              const bonus = Number(me.challenge_bonus) || 0;
              const extra = card.kind === "challenge" && bonus ? `Your CHALLENGE rolls: ${signed(bonus)}.` : "";
              return this.offer(this.cardEl(card, { extra }), this.claimCopy(me.hand, card));
            }),
          )
        : h("p", { class: "slay-empty", text: "Your hand is empty." }),
    );
  }

  // -- the Parties ------------------------------------------------------------------------

  parties() {
    return h(
      "section",
      { class: "slay-parties", "aria-label": "Parties" },
      (this.view.table || []).map((seat) => this.party(seat)),
    );
  }

  party(entry) {
    const view = this.view;
    const seat = entry.seat;
    const own = seat === this.ctx.seat;
    const winners = (view.result && view.result.winners) || [];
    const classes = ["slay-party", "seat-panel", `seat-${seat % 6}`];
    if (seat === view.current && !view.result) classes.push("current");
    if (this.decision && this.decision.seat === seat) classes.push("deciding");
    if (own) classes.push("mine");
    if (winners.includes(seat)) classes.push("winner");
    const present = new Set((entry.party || []).map((hero) => hero.class));
    if (entry.leader) present.add(entry.leader.class);
    const have = CLASSES.filter((c) => present.has(c));
    return h(
      "article",
      {
        class: classes.join(" "),
        "aria-label": `${this.name(seat)}'s Party`,
        dataset: { seat: String(seat) },
      },
      h(
        "header",
        { class: "slay-party-head" },
        h("span", { class: "seat-swatch" }),
        h("span", { class: "slay-party-name seat-panel-name", text: this.name(seat) }),
        own ? h("span", { class: "you-tag", text: "you" }) : null,
        winners.includes(seat) ? h("span", { class: "crown", title: "winner", text: "♛" }) : null,
        this.decision && this.decision.seat === seat && !view.result
          ? h("span", { class: "slay-deciding deciding-tag", text: "deciding…" })
          : null,
        h("span", {
          class: "slay-hand-size",
          title: own ? "cards in your hand" : "cards in their hand (hidden)",
          dataset: { rule: "table" },
          text: `${plural(entry.hand_size, "card")} in hand`,
        }),
      ),
      h(
        "div",
        { class: "slay-party-body" },
        entry.leader
          ? this.leaderEl(entry.leader, own)
          : h("p", { class: "slay-empty", text: "No Party Leader yet" }),
        h(
          "div",
          { class: "slay-heroes" },
          (entry.party || []).length
            ? entry.party.map((hero) => this.heroEl(hero))
            : h("p", { class: "slay-empty", text: "No Heroes yet" }),
        ),
        (entry.slain || []).length
          ? h(
              "div",
              { class: "slay-slain", "aria-label": "slain Monsters" },
              entry.slain.map((m, i) =>
                this.offer(this.monsterEl(m, { slain: true }), own ? this.claim(`skill:${i + 2}`) : []),
              ),
            )
          : null,
      ),
      h(
        "footer",
        { class: "slay-party-foot" },
        h("span", {
          class: "slay-classes",
          title: "a Party of all six classes at the end of its turn wins",
          dataset: { rule: "goal" },
          text: `Classes ${have.length}/6${have.length ? `: ${have.join(", ")}` : ""}`,
        }),
        entry.attack_bonus
          ? h("span", { class: "slay-bonus", dataset: { rule: "dice" }, text: `ATTACK rolls ${signed(entry.attack_bonus)}` })
          : null,
        entry.challenge_bonus
          ? h("span", { class: "slay-bonus", dataset: { rule: "dice" }, text: `CHALLENGE rolls ${signed(entry.challenge_bonus)}` })
          : null,
        h("span", {
          class: "slay-slain-count",
          title: "three slain Monsters win",
          dataset: { rule: "goal" },
          text: `Slain ${(entry.slain || []).length}/3`,
        }),
      ),
    );
  }

  leaderEl(leader, own) {
    const node = h(
      "div",
      { class: "slay-leader card", "aria-label": `Party Leader ${leader.name}`, dataset: { rule: "leaders" } },
      h(
        "header",
        { class: "slay-card-head" },
        h("span", { class: "slay-kind", text: "Party Leader" }),
        h("span", { class: "slay-class tag", text: leader.class }),
      ),
      h("div", { class: "slay-card-name card-name", text: leader.name }),
      h("p", { class: "slay-card-text card-text", text: leader.skill }),
    );
    // A seat's skills are numbered from 1 as its Party lists them: skill:1 is the Leader's,
    // skill:2 the first slain Monster's.
    return this.offer(node, own ? this.claim("skill:1") : []);
  }

  // -- the piles --------------------------------------------------------------------------

  piles() {
    const view = this.view;
    const discard = view.discard || [];
    // Searching the discard pile needs all of it; otherwise the top few say enough.
    const searching = this.decision && this.decision.verb === "search" && this.legal.length > 0;
    const shown = searching ? [...discard].reverse() : discard.slice(-DISCARD_SHOWN).reverse();
    return h(
      "section",
      { class: "slay-piles", "aria-label": "The piles" },
      h(
        "div",
        { class: "slay-deck", dataset: { rule: "table" } },
        h("div", {
          class: `slay-card-back${view.deck ? "" : " empty"}`,
          "aria-hidden": "true",
          text: view.deck ? "⚔" : "",
        }),
        h("span", { class: "slay-deck-count", text: `Main deck: ${plural(view.deck || 0, "card")}` }),
      ),
      h(
        "div",
        { class: "slay-discard" },
        h(
          "h3",
          { class: "slay-heading board-heading", dataset: { rule: "table" } },
          "Discard pile ",
          h("span", { class: "slay-count heading-count", text: plural(discard.length, "card") }),
        ),
        shown.length
          ? h(
              "div",
              { class: "slay-cards" },
              shown.map((card) =>
                this.offer(this.cardEl(card, { small: true }), this.claim(`card:${card.id}`)),
              ),
            )
          : h("p", { class: "slay-empty", text: "Empty." }),
        !searching && discard.length > DISCARD_SHOWN
          ? h("p", {
              class: "slay-small",
              text: `and ${plural(discard.length - DISCARD_SHOWN, "more card")} below`,
            })
          : null,
      ),
    );
  }
}

/** The cards a Hero roll names: `aims`, or the first alone from a view that has only
 *  `aimed`. */
function aimsOf(aim) {
  if (Array.isArray(aim.aims)) return aim.aims;
  return aim.aimed !== null && aim.aimed !== undefined ? [aim.aimed] : [];
}

/** "a", "a and b", "a, b and c". */
function listText(items) {
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}` : items.join("");
}

/** The chance beside a choice, with every bonus the rules add; apart from it, what the
 *  Modifiers in your hand could make of it ("83% with your +4"), when they would change
 *  it. */
function odds(entry) {
  const all = Object.entries(entry.odds || {});
  const plain = oddsText(Object.fromEntries(all.filter(([name]) => !name.includes("with your"))));
  const helped = oddsText(Object.fromEntries(all.filter(([name]) => name.includes("with your"))));
  return [
    plain ? h("span", { class: "slay-odds odds", dataset: { rule: "dice" }, text: plain }) : null,
    helped
      ? h("span", {
          class: "slay-odds-hand",
          dataset: { rule: "dice" },
          title: "if you play the Modifiers in your hand as the roll needs, and nobody else plays one",
          text: helped,
        })
      : null,
  ];
}


// -- pictures for the How to play ------------------------------------------------------

/** Cards of our pack as a view shows them (rules.py card_face, monster_face): a picture
 *  explains, it does not deal, so nothing here is from a game in play. */
const PICTURE_HERO = { id: 11, name: "Sable Warbrand", kind: "hero", class: "Fighter", roll: 7, text: "DESTROY a Hero card." };
const PICTURE_OGRE = {
  id: 0,
  name: "Grimtooth Ogre",
  heroes: 2,
  classes: [],
  slay: "8+",
  punishment: "5-",
  punishes: "SACRIFICE a Hero",
  skill: "+1 each time an opponent plays a Modifier on your roll.",
  draws: 0,
};
const PICTURE_SIREN = {
  id: 6,
  name: "Siren of the Black Lake",
  heroes: 1,
  classes: ["Bard"],
  slay: "8+",
  punishment: "4-",
  punishes: "DISCARD 2 cards",
  skill: "+1 to your Hero effect rolls.",
  draws: 0,
};
/** A Party: The Silver Songbird leads, Sable Warbrand holds a Band of Fortune, and the
 *  Siren is slain (+1 Leader, +1 Siren, +2 Band on Sable's rolls). */
const PICTURE_PARTY = {
  seat: 0,
  leader: { id: 0, name: "The Silver Songbird", class: "Bard", skill: "+1 to your Hero effect rolls." },
  party: [
    {
      ...PICTURE_HERO,
      printed_class: "Fighter",
      bonus: 4,
      item: { id: 54, name: "Band of Fortune", kind: "item", text: "+2 to the equipped Hero's rolls." },
      warded: false,
      rolled: false,
    },
  ],
  slain: [PICTURE_SIREN],
  hand_size: 5,
  attack_bonus: 0,
  challenge_bonus: 0,
  hand: null,
};

/** A board that offers nothing and names no one: the pictures' cards are drawn by it. */
function pictureBoard(table = []) {
  return new Board({ table, current: null, decision: null }, { seat: null, legal: [], seatNames: [], onAction() {} });
}

export const pictures = {
  /** A Hero card as your hand shows it: its kind, class, roll and effect. */
  "hero-card": () =>
    h(
      "div",
      { class: "slay board slay-picture" },
      notePictureParts(h("div", {}, pictureBoard().cardEl(PICTURE_HERO)), [
        ".slay-kind",
        ".slay-class",
        ".slay-need-roll",
        ".slay-card-text",
      ]),
    ),
  /** A Monster face up: what it asks of a Party, its two ranges, the skill it gives. */
  "monster-card": () =>
    h(
      "div",
      { class: "slay board slay-picture" },
      notePictureParts(h("div", {}, pictureBoard().monsterEl(PICTURE_OGRE)), [
        ".slay-need",
        ".slay-slay",
        ".slay-punish",
        ".slay-skill",
      ]),
    ),
  /** A Party: its Leader, a Hero with its Item and bonus, a slain Monster, the score. */
  party: () =>
    h(
      "div",
      { class: "slay board slay-picture" },
      notePictureParts(pictureBoard([PICTURE_PARTY]).party(PICTURE_PARTY), [
        ".slay-leader",
        ".slay-item",
        ".slay-mark.bonus",
        ".slay-slain .slay-monster",
        ".slay-party-foot",
      ]),
    ),
};
