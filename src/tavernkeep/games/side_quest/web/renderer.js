// Side Quest: the dungeon row left to right (each Location face down or named with its
// effect; the Monsters, loot, Damsels, Dark Runes and the Dark Portal lying there; the
// heroes standing there), the Boss and its Dungeon Hearts on the last level, and every
// hero's panel (health, equipment against its limits, stunned, overburdened). Above them
// the status strip (scenario, level, turn, Leader, whose turn, actions left) and the
// decision of the moment as a question, with the roll's dice or the hits to give.
//
// The shape of `view` is SideQuest.view() in games/side_quest/rules.py. An action that is
// about a thing lives on that thing: enter, move, attack, step and push on a Location;
// pick up, rescue, hit and choose on a card; wound, give and choose on a hero; Mighty
// Boost on the die it lifts; drop, use and cast on the hero's own cards. Every legal
// action nothing on the board claimed is a button in the decision box, and the table's
// own list of actions names every one of them, so no action is ever out of reach.
//
// An action's text names a Location or a hero by the number this board shows (Location 1
// is the leftmost, Player 1 the first seat: `move:2`, `wound:1`, `give:61,1`), a card by its
// id (`pickup:61`), while the view counts Locations and seats from 0 (`loc.index`,
// `hero.seat`): `shown` turns the one into the other. `target:N` is either: the decision's
// `chooses` says whether it names a Location, a hero or a Monster.
//
// What a person may ask about carries `data-rule`, the section of HOW_TO_PLAY.md that
// explains it (the table shows it when pointed at), and `pictures` draws the How to
// play's pictures with the same Locations, cards and hero panels.

import { h, makeClickable, notePictureParts, oddsText, replace } from "/static/dom.js";
import { dieFace } from "/static/dice.js";

const HERO_HEALTH = 4;
const SKULL = "☠";
const ABILITY = -1;

const KIND_NAMES = {
  monster: "Monster",
  boss: "Boss",
  weapon: "Weapon",
  item: "Item",
  spell: "Spell",
  damsel: "Damsel",
  rune: "Dark Rune",
  portal: "Dark Portal",
  heart: "Dungeon Heart",
  key: "Key",
};

// The How to play's section for each kind of card (`data-rule`).
const CARD_RULES = {
  monster: "monsters",
  boss: "boss",
  weapon: "weapons",
  item: "items",
  spell: "spells",
  damsel: "damsels",
  rune: "runes",
  portal: "portal",
  heart: "boss",
  key: "key",
};

const ROLLS = {
  attack: "attack",
  loot: "Loot roll",
  rescue: "rescue",
  key: "Dungeon Key roll",
  cast: "spell",
  spell: "spell",
};

// Actions that are about a Location (their one argument is the Location's number).
const LOCATION_ACTIONS = {
  enter: "Enter",
  move: "Move here",
  attack: "Attack",
  step: "Move on here",
  push: "Push here",
};

export function render(container, view, ctx) {
  const board = new Board(view || {}, ctx || {});
  // Everything that holds actions is built before the decision box, which offers as
  // buttons whatever none of them claimed.
  const row = board.row();
  const boss = board.bossPanel();
  const heroes = board.heroPanels();
  const offer = board.offer();
  const decision = board.decisionBox();
  replace(container, h("div", { class: "sq board" }, board.status(), decision, offer, row, boss, heroes, board.piles()));
}

// -- small words ------------------------------------------------------------------------

/** The number people see, and action texts use, for a Location index or a seat. */
function shown(index) {
  return Number(index) + 1;
}

/** What a label says last, in brackets: what the choice will do, as far as anyone can
 * tell before it ("2/3 damage: slain", "4 → 2 health"); "" when it says nothing more. */
function detail(entry) {
  const match = /\(([^()]*)\)$/.exec((entry && entry.label) || "");
  return match ? match[1] : "";
}

function plural(count, word, many = `${word}s`) {
  return `${count} ${count === 1 ? word : many}`;
}

/** "give:61,1" -> {kind: "give", args: [61, 1]}. */
function parseAction(text) {
  const [kind, rest] = String(text).split(/:(.*)/s);
  const args = rest ? rest.split(",").map((a) => (/^-?\d+$/.test(a) ? Number(a) : a)) : [];
  return { kind, args };
}

function hearts(health, max = HERO_HEALTH) {
  const shown = Math.max(0, Math.min(Number(health) || 0, max));
  return h(
    "span",
    { class: "sq-hearts", role: "img", "aria-label": `${health} of ${max} health`, title: `${health} of ${max} health` },
    Array.from({ length: max }, (_, i) => h("span", { class: `sq-heart${i < shown ? " full" : " lost"}`, text: i < shown ? "♥" : "♡" })),
  );
}

function stat(cls, label, value, title) {
  return h(
    "span",
    { class: `sq-stat sq-${cls}`, title, dataset: { stat: cls, value: String(value) } },
    h("span", { class: "sq-stat-label", text: label }),
    h("span", { class: "sq-stat-value", text: String(value) }),
  );
}

// -- the board --------------------------------------------------------------------------

class Board {
  constructor(view, ctx) {
    this.view = view;
    this.ctx = ctx;
    this.decision = view.decision || null;
    this.legal = (ctx.legal || []).map((entry, index) => ({ ...entry, index, ...parseAction(entry.action) }));
    this.asked = Boolean(this.decision) && this.legal.length > 0 && !view.result;
    this.claimed = new Set();
    this.heroes = view.heroes || [];
    this.cards = new Map();
    for (const loc of view.locations || []) for (const card of loc.cards || []) this.cards.set(card.id, card);
    for (const hero of this.heroes) {
      for (const card of [...(hero.weapons || []), ...(hero.items || []), ...(hero.spells || [])]) this.cards.set(card.id, card);
    }
    for (const card of view.available_weapons || []) this.cards.set(card.id, card);
    if (view.boss) this.cards.set(view.boss.id, view.boss);
  }

  kind() {
    return this.decision ? this.decision.kind : null;
  }

  heroName(seat) {
    const hero = this.heroes[seat];
    return (hero && hero.hero) || (this.ctx.seatNames || [])[seat] || `Player ${shown(seat)}`;
  }

  /** "Hilde (Bea)" once the seat's hero is chosen; until then the seat's name alone. */
  waitingFor(seat) {
    const hero = this.heroes[seat];
    return hero && hero.hero ? `${hero.hero} (${this.playerName(seat)})` : this.playerName(seat);
  }

  playerName(seat) {
    return (this.ctx.seatNames || [])[seat] || `Player ${shown(seat)}`;
  }

  locationName(index) {
    const loc = (this.view.locations || [])[index];
    if (!loc) return `Location ${shown(index)}`;
    return loc.revealed ? loc.name : `face-down Location ${shown(index)}`;
  }

  /** What a `target:N` names, as the decision says: a Monster (N its card id), a hero or
   * a Location (N the number shown). */
  targetKind(entry) {
    const chooses = this.decision && entry.kind === "target" ? this.decision.chooses : null;
    if (chooses === "monster") return "card";
    return chooses === "hero" ? "hero" : "location";
  }

  /** Whether an action is about the hero in `seat`: it takes the hit, or is chosen. */
  onHero(entry, seat) {
    if (entry.kind === "wound") return entry.args[0] === shown(seat);
    return entry.kind === "target" && entry.args[0] === shown(seat) && this.targetKind(entry) === "hero";
  }

  /** The legal actions concerning one thing, each claimed for it. */
  take(test) {
    const found = this.legal.filter((entry) => !this.claimed.has(entry.action) && test(entry));
    found.forEach((entry) => this.claimed.add(entry.action));
    return found;
  }

  /** A clickable chip for one action: its short text, what it will do (`more`, from the
   * label's brackets) and the chances of its dice. */
  chip(entry, text, cls = "", more = "") {
    this.claimed.add(entry.action);
    const node = h(
      "span",
      { class: `sq-act${cls ? ` ${cls}` : ""}` },
      h("span", { class: "sq-act-text", text }),
      more ? h("span", { class: "sq-act-detail", text: more }) : null,
      oddsText(entry.odds) ? h("span", { class: "sq-odds odds", text: oddsText(entry.odds) }) : null,
    );
    return makeClickable(node, entry, this.ctx.onAction);
  }

  button(entry, { text = null, cls = "" } = {}) {
    this.claimed.add(entry.action);
    return h(
      "button",
      {
        type: "button",
        class: `sq-choice choice playable${cls ? ` ${cls}` : ""}`,
        title: entry.label || entry.action,
        dataset: { action: entry.action },
        onclick: (event) => {
          event.stopPropagation();
          this.ctx.onAction(entry.action);
        },
      },
      entry.index < 9 ? h("kbd", { text: String(entry.index + 1) }) : null,
      h("span", { class: "sq-choice-label choice-label", text: text || entry.label || entry.action }),
      oddsText(entry.odds) ? h("span", { class: "sq-odds odds", text: oddsText(entry.odds) }) : null,
    );
  }

  // -- the status strip ------------------------------------------------------------------

  status() {
    const view = this.view;
    const over = Boolean(view.result);
    const current = view.current;
    const d = this.decision;
    let turn = "";
    if (over) turn = view.result.won ? "Victory: the heroes win" : "The heroes lose";
    else if (current !== null && current !== undefined) turn = `${this.heroName(current)}'s turn`;
    else if (d && d.kind === "wound") turn = "Monster phase";
    else if (d && ["hero", "weapon"].includes(d.kind)) turn = "Choosing heroes";
    else if (d && d.kind === "enter") turn = "Entering the dungeon";
    else if (d && d.kind === "trade") turn = "Trading";
    const mine = current !== null && current !== undefined && current === this.ctx.seat && !over;
    const limit = Number(view.turn_limit) || 0;
    const late = limit && Number(view.turn) >= limit - 1;
    return h(
      "div",
      { class: "sq-status status-strip" },
      h("span", { class: "sq-scenario", dataset: { rule: "goal" }, text: view.scenario || "" }),
      h("span", { class: `sq-level pill${view.boss ? " boss" : ""}`, dataset: { rule: view.boss ? "boss" : "goal" }, text: `Level ${view.level}${view.boss ? " · the Boss" : ""}` }),
      h("span", {
        class: `sq-turn-no pill${late ? " late" : ""}`,
        dataset: { rule: "end" },
        title: "game turns of this level, and the limit before the heroes lose",
        text: `Turn ${view.turn} / ${view.turn_limit}`, // the view never counts past the limit
      }),
      Number.isInteger(view.leader)
        ? h("span", { class: `sq-leader pill seat-${view.leader % 6}`, dataset: { rule: "turn" } }, h("span", { class: "seat-swatch" }), `Leader: ${this.heroName(view.leader)}`)
        : null,
      turn ? h("span", { class: `sq-whose pill${mine ? " mine" : ""}`, dataset: { rule: "turn" }, text: turn }) : null,
      current !== null && current !== undefined && !over ? this.actionPips(view.actions) : null,
      current !== null && current !== undefined && !over && view.looted
        ? h("span", { class: "sq-looted", title: "one Loot action a turn", dataset: { rule: "turn" }, text: "looted this turn" })
        : null,
    );
  }

  actionPips(actions) {
    const left = Math.max(0, Number(actions) || 0);
    return h(
      "span",
      { class: "sq-actions-left pill", title: `${plural(left, "action")} left this turn`, dataset: { actions: String(left), rule: "turn" } },
      Array.from({ length: left }, () => h("span", { class: "sq-pip", "aria-hidden": "true", text: "◆" })),
      h("span", { class: "sq-actions-text", text: `${plural(left, "action")} left` }),
    );
  }

  // -- the decision box ------------------------------------------------------------------

  decisionBox() {
    const view = this.view;
    const d = this.decision;
    const classes = ["sq-decision", "decision-box"];
    if (this.asked) classes.push("asked");
    if (d) classes.push(`kind-${String(d.kind).replace(/[^a-z_-]/gi, "")}`);
    if (view.result) classes.push(view.result.won ? "won" : "lost");
    const detail = this.decisionDetail();
    const rest = this.legal.filter((e) => !this.claimed.has(e.action));
    return h(
      "section",
      { class: classes.join(" "), "aria-label": "The decision", "aria-live": "polite" },
      h("p", { class: "sq-question question", text: this.question() }),
      detail,
      rest.length ? h("div", { class: "sq-choices choices" }, rest.map((e) => this.button(e))) : null,
      !view.result && d && !this.asked ? h("p", { class: "sq-waiting waiting", text: `Waiting for ${this.waitingFor(d.seat)}…` }) : null,
    );
  }

  question() {
    const view = this.view;
    const d = this.decision;
    if (view.result) return `The game is over: ${view.result.reason || view.ending || ""}`.trim();
    if (!d) return "";
    const mine = this.asked;
    const who = this.heroName(d.seat);
    const you = mine ? "you" : who;
    switch (d.kind) {
      case "hero":
        return mine ? `${this.playerName(d.seat)}: choose your hero.` : `${this.playerName(d.seat)} chooses a hero.`;
      case "weapon":
        return mine ? `${who}: choose a Basic weapon.` : `${who} chooses a Basic weapon.`;
      case "enter":
        return mine ? `${who}: click the Location you enter.` : `${who} chooses a Location to enter.`;
      case "turn": {
        const count = Number(view.actions) || 0;
        const left = plural(count, "action");
        if (!mine) return `${who}'s turn (${left} left).`;
        return count
          ? `${who}'s turn: ${left} left. Click a Location to move or attack, a card to pick it up, or end the turn.`
          : `${who}'s turn: no action left. Use a free card, drop what is too heavy, or end the turn.`;
      }
      case "equip":
        return mine ? `${who}: choose the weapons to hold (two hands).` : `${who} chooses the weapons to hold.`;
      case "hit": {
        const hits = d.hits || [];
        return mine
          ? `Give the hit of ${plural(hits[0] ?? 0, "damage", "damage")} to a target (${plural(hits.length, "hit")} left to give).`
          : `${who} gives out the hits of the attack.`;
      }
      case "wound": {
        const hits = d.hits || [];
        return mine
          ? `A Monster hits: who takes ${plural(hits[0] ?? 0, "damage", "damage")}? (${plural(hits.length, "hit")} to take)`
          : `${who} chooses who takes the Monster's hits.`;
      }
      case "boost":
        return mine
          ? `Your ${ROLLS[d.roll] || d.roll || "roll"}: give up unused actions for Mighty Boost (+1 on a die), re-roll, or let it stand.`
          : `${who} may boost the ${ROLLS[d.roll] || "roll"}.`;
      case "trade":
        return mine ? `Trade: give equipment to the heroes in ${you === "you" ? "your" : "the"} Location, then finish.` : `${who} trades.`;
      case "target":
        return mine ? `${who}: choose the target.` : `${who} chooses a target.`;
      case "push":
        return mine ? "Push the Monster to a neighbouring Location." : `${who} pushes a Monster.`;
      case "walk":
        return mine ? `${who}: move on to a neighbouring Location, or stop.` : `${who} moves.`;
      default:
        return mine ? "Your decision." : `${who} decides.`;
    }
  }

  /** The roll of a boost decision (each die clickable for Mighty Boost), or the hits. */
  decisionDetail() {
    const d = this.decision;
    if (!d || this.view.result) return null;
    if (d.kind === "boost" && Array.isArray(d.dice)) {
      return h(
        "div",
        { class: "sq-roll", "aria-label": "the roll", dataset: { rule: "dice" } },
        h("span", { class: "sq-label", text: `${ROLLS[d.roll] || d.roll || "roll"}:` }),
        d.dice.map((die, i) => this.rollDie(die, i, d.roll)),
      );
    }
    if ((d.kind === "hit" || d.kind === "wound") && Array.isArray(d.hits)) {
      return h(
        "div",
        { class: "sq-hits", "aria-label": "hits to give", dataset: { rule: "monsters" } },
        h("span", { class: "sq-label", text: d.kind === "hit" ? "Hits to give:" : "Hits to take:" }),
        d.hits.map((damage, i) =>
          h("span", { class: `sq-hit${i === 0 ? " now" : ""}`, title: i === 0 ? "this hit" : "a later hit", dataset: { damage: String(damage) }, text: `✶ ${damage}` }),
        ),
      );
    }
    return null;
  }

  rollDie(die, index, roll) {
    const [value, need, damage] = die;
    const success = value >= need;
    const face = dieFace(Math.max(1, Math.min(6, Number(value))));
    face.setAttribute("aria-label", `die showing ${value}, needs ${need}`);
    const node = h(
      "span",
      { class: `sq-die ${success ? "success" : "failure"}`, dataset: { die: String(index), value: String(value) } },
      value > 6 ? h("span", { class: "sq-die-number", text: String(value) }) : face,
      h("span", { class: "sq-die-need", text: `${value} / ${need}+${roll === "attack" && damage ? ` · ${damage} dmg` : ""}` }),
    );
    const entry = this.take((e) => e.kind === "boost" && e.args[0] === index)[0];
    if (entry) makeClickable(node, entry, this.ctx.onAction).append(h("span", { class: "sq-boost-tag", text: "+1" }));
    return node;
  }

  // -- hero and weapon choices -----------------------------------------------------------

  offer() {
    const d = this.decision;
    if (!this.asked || !d) return null;
    if (d.kind === "hero") {
      const entries = this.take((e) => e.kind === "hero");
      return h(
        "section",
        { class: "sq-offer", "aria-label": "Heroes to choose from" },
        h("h3", { class: "sq-heading board-heading", text: "Heroes" }),
        h(
          "div",
          { class: "sq-offer-list" },
          entries.map((entry) => {
            const match = /^Play (.*?): (.*)$/s.exec(entry.label || "");
            const node = h(
              "article",
              { class: "sq-card card sq-k-hero", dataset: { hero: String(entry.args[0]), rule: "heroes" } },
              h("header", { class: "sq-card-name", text: match ? match[1] : entry.label }),
              match ? h("p", { class: "sq-card-text card-text", text: match[2] }) : null,
            );
            return makeClickable(node, entry, this.ctx.onAction);
          }),
        ),
      );
    }
    if (d.kind === "weapon") {
      const byCard = new Map(this.take((e) => e.kind === "weapon").map((e) => [e.args[0], e]));
      return h(
        "section",
        { class: "sq-offer", "aria-label": "Basic weapons to choose from" },
        h("h3", { class: "sq-heading board-heading", text: "Basic weapons" }),
        h(
          "div",
          { class: "sq-offer-list" },
          (this.view.available_weapons || []).map((card) => {
            const node = this.cardEl(card);
            const entry = byCard.get(card.id);
            return entry ? makeClickable(node, entry, this.ctx.onAction) : node;
          }),
        ),
      );
    }
    if (d.kind === "equip") {
      return h(
        "section",
        { class: "sq-offer", "aria-label": "Ways to hold the weapons" },
        h(
          "div",
          { class: "sq-choices choices" },
          this.take((e) => e.kind === "equip").map((e) => this.button(e, { text: e.label || e.action, cls: "sq-equip" })),
        ),
      );
    }
    return null;
  }

  // -- the row -----------------------------------------------------------------------------

  row() {
    const locations = this.view.locations || [];
    return h(
      "section",
      { class: "sq-dungeon", "aria-label": "The dungeon row" },
      h("h3", { class: "sq-heading board-heading" }, "The dungeon ", h("span", { class: "sq-count heading-count", text: `${plural(locations.length, "Location")}, left to right` })),
      h("div", { class: "sq-row", style: `--locs: ${Math.max(1, locations.length)}` }, locations.map((loc) => this.locationEl(loc))),
    );
  }

  locationEl(loc) {
    const view = this.view;
    const i = loc.index;
    const current = view.current;
    const classes = ["sq-loc"];
    if (!loc.revealed) classes.push("face-down");
    if (current !== null && current !== undefined && (this.heroes[current] || {}).location === i) classes.push("current");
    if (loc.locked_door) classes.push("door");
    // Actions about this Location: on chips of their own, and the whole Location when
    // it has exactly one.
    const acts = this.take(
      (e) =>
        (LOCATION_ACTIONS[e.kind] && e.args[0] === shown(i)) ||
        (e.kind === "target" && e.args[0] === shown(i) && this.targetKind(e) === "location"),
    );
    // The hero's own actions here: Loot, the Dungeon Key.
    const heroHere = current !== null && current !== undefined && (this.heroes[current] || {}).location === i;
    const own = heroHere ? this.take((e) => e.kind === "loot" || e.kind === "key") : [];
    const cards = (loc.cards || []).map((card) => this.cardOnRow(card));
    const node = h(
      "article",
      { class: classes.join(" "), dataset: { loc: String(i), rule: "locations" }, "aria-label": `Location ${shown(i)}: ${loc.revealed ? loc.name : "face down"}` },
      h(
        "header",
        { class: "sq-loc-head" },
        h("span", { class: "sq-loc-no", text: String(shown(i)) }),
        h("span", { class: "sq-loc-name", text: loc.revealed ? loc.name : "Face down" }),
      ),
      loc.revealed
        ? h("p", { class: "sq-loc-text", text: loc.text || "" })
        : h("p", { class: "sq-loc-text sq-hidden", text: "Revealed when a hero first enters." }),
      h("div", { class: "sq-loc-cards" }, cards.length ? cards : h("span", { class: "sq-empty", text: "nothing here" })),
      h("div", { class: "sq-loc-heroes" }, (loc.heroes || []).map((seat) => this.heroToken(seat))),
      acts.length || own.length
        ? h(
            "div",
            { class: "sq-loc-acts" },
            acts.map((e) => this.chip(e, e.kind === "target" ? "Choose" : LOCATION_ACTIONS[e.kind], `sq-${e.kind}`, e.kind === "target" ? detail(e) : "")),
            // What the die needs, with the hero's bonus, is in the label; the chance beside.
            own.map((e) => this.chip(e, e.kind === "loot" ? "Loot" : "Use the Key", `sq-${e.kind}`)),
          )
        : null,
    );
    if (acts.length === 1 && !own.length) {
      makeClickable(node, acts[0], this.ctx.onAction);
    }
    return node;
  }

  cardOnRow(card) {
    const node = this.cardEl(card);
    const acts = this.take(
      (e) =>
        (["pickup", "rescue", "hit"].includes(e.kind) && e.args[0] === card.id) ||
        (e.kind === "target" && e.args[0] === card.id && this.targetKind(e) === "card"),
    );
    if (acts.length === 1) {
      const entry = acts[0];
      makeClickable(node, entry, this.ctx.onAction);
      // What choosing this card does (the hit's damage so far, a spell's effect on it)
      // and the chance of a rescue, on the card itself: the card is the choice.
      const more = ["hit", "target", "rescue"].includes(entry.kind) ? detail(entry) : "";
      const odds = oddsText(entry.odds);
      if (more || odds) {
        node.append(
          h(
            "p",
            { class: "sq-card-note" },
            more ? h("span", { class: "sq-note-text", text: more }) : null,
            odds ? h("span", { class: "sq-odds odds", text: odds }) : null,
          ),
        );
      }
    } else if (acts.length) node.append(h("div", { class: "sq-card-acts" }, acts.map((e) => this.chip(e, e.label || e.action))));
    return node;
  }

  heroToken(seat) {
    const hero = this.heroes[seat] || {};
    const classes = ["sq-token", `seat-${seat % 6}`];
    if (seat === this.view.current) classes.push("current");
    if (seat === this.ctx.seat) classes.push("mine");
    if (hero.stunned) classes.push("stunned");
    const node = h(
      "div",
      { class: classes.join(" "), dataset: { seat: String(seat), rule: "heroes" }, title: this.waitingFor(seat) },
      h("span", { class: "seat-swatch" }),
      h("span", { class: "sq-token-name", text: this.heroName(seat) }),
      hearts(hero.health),
      hero.stunned ? h("span", { class: "sq-tag tag stunned", text: "stunned" }) : null,
    );
    // The hero's panel below claims these; the token on the row offers them too.
    const acts = this.legal.filter((e) => this.onHero(e, seat));
    if (acts.length === 1) makeClickable(node, acts[0], this.ctx.onAction);
    return node;
  }

  // -- cards -----------------------------------------------------------------------------

  cardEl(card, { held = null } = {}) {
    const kind = card.kind;
    const classes = ["sq-card", "card", `sq-k-${kind}`];
    if (card.stunned) classes.push("stunned");
    if (held === "equipped") classes.push("equipped");
    const body = [];
    if (kind === "monster" || kind === "boss") body.push(this.fighterStats(card));
    else if (kind === "weapon") body.push(this.weaponStats(card));
    else if (kind === "spell") body.push(h("div", { class: "sq-stats" }, stat("roll", "cast", `${card.roll}+`, `cast on ${card.roll} or more`)));
    else if (kind === "rune" || kind === "portal" || kind === "heart") {
      body.push(h("div", { class: "sq-stats" }, stat("health", "♥", card.health, `${card.health} health`)));
    }
    if (kind === "damsel") body.push(this.damselGauge(card));
    const text = card.text || SPECIAL_TEXT[kind] || "";
    return h(
      "article",
      {
        class: classes.join(" "),
        dataset: { card: String(card.id), kind, rule: CARD_RULES[kind] },
        "aria-label": `${KIND_NAMES[kind] || kind}: ${card.name}`,
      },
      h(
        "header",
        { class: "sq-card-head" },
        h("span", { class: "sq-card-kind", text: KIND_NAMES[kind] || kind }),
        card.tier ? h("span", { class: `sq-tier tag ${card.tier}`, text: card.tier }) : null,
        kind === "item" && card.consumed ? h("span", { class: "sq-tier tag", text: "one use" }) : null,
        held === "equipped" ? h("span", { class: "sq-tag tag in-hand", text: "in hand" }) : null,
        held === "carried" ? h("span", { class: "sq-tag tag carried", text: "carried" }) : null,
        card.stunned ? h("span", { class: "sq-tag tag stunned", text: "stunned" }) : null,
      ),
      h("span", { class: "sq-card-name", text: card.name }),
      body,
      card.ability
        ? h("span", {
            class: "sq-ability",
            title: card.ability_text || card.ability,
            text: card.ability_text ? `${card.ability.replace(/_/g, " ")}: ${card.ability_text}` : card.ability.replace(/_/g, " "),
          })
        : null,
      text ? h("p", { class: "sq-card-text card-text", text }) : null,
    );
  }

  fighterStats(card) {
    return h(
      "div",
      { class: "sq-stats" },
      stat("health", "♥", card.health, card.kind === "boss" ? `${card.health} health once its Hearts are gone` : `${card.health} health`),
      stat("move", "move", card.move, `moves up to ${card.move}`),
      stat("range", "range", card.range, `attacks up to ${card.range} Location${card.range === 1 ? "" : "s"} away`),
      stat("dice", "dice", card.dice, `${plural(card.dice, "die", "dice")}`),
      stat("hit", "hit", `${card.hit}+`, `each die of ${card.hit} or more hits`),
      stat("damage", "dmg", card.damage, `${card.damage} damage a hit`),
    );
  }

  weaponStats(card) {
    return h(
      "div",
      { class: "sq-stats" },
      stat("hands", "hands", card.hands, card.hands === 2 ? "two-handed" : "one-handed"),
      stat("range", "range", card.range, `reaches ${card.range} Location${card.range === 1 ? "" : "s"} away`),
      stat("dice", "dice", card.dice, `${plural(card.dice, "die", "dice")}`),
      stat("hit", "hit", `${card.hit}+`, `each die of ${card.hit} or more hits`),
      stat("damage", "dmg", card.damage, `${card.damage} damage a hit`),
    );
  }

  /** A Damsel's depth as steps down toward the skull: lost when she reaches it. */
  damselGauge(card) {
    const max = Number(this.view.damsel_depth) || 3;
    const depth = Math.max(0, Math.min(Number(card.depth) || 0, max));
    const left = max - depth;
    return h(
      "div",
      { class: "sq-gauge", role: "img", "aria-label": `depth ${depth} of ${max}: lost in ${plural(left, "turn")}`, dataset: { depth: String(depth), max: String(max) } },
      h(
        "span",
        { class: "sq-track" },
        Array.from({ length: max }, (_, step) =>
          h("span", { class: `sq-step${step < depth ? " sunk" : ""}${step === depth ? " here" : ""}`, text: step === depth ? "▼" : "" }),
        ),
        h("span", { class: `sq-skull${depth >= max ? " reached" : ""}`, title: "lost when she reaches the skull", text: SKULL }),
      ),
      h("span", { class: `sq-gauge-text${left <= 1 ? " urgent" : ""}`, text: `depth ${depth} / ${max}: lost in ${plural(left, "turn")}` }),
    );
  }

  // -- the Boss ---------------------------------------------------------------------------

  bossPanel() {
    const view = this.view;
    if (!view.boss) return null;
    const boss = view.boss;
    const standing = Number(view.hearts) || 0;
    const where = (view.locations || []).find((loc) => (loc.cards || []).some((c) => c.id === boss.id));
    const card = where ? null : this.cardEl(boss);
    return h(
      "section",
      { class: "sq-boss", "aria-label": "The Boss", dataset: { rule: "boss" } },
      h("h3", { class: "sq-heading board-heading" }, "The Boss ", h("span", { class: "sq-count heading-count", text: where ? `at ${this.locationName(where.index)}` : "at the bottom of the Dungeon deck" })),
      h(
        "div",
        { class: "sq-boss-body" },
        card || h("p", { class: "sq-boss-name", text: boss.name }),
        h(
          "div",
          { class: "sq-dungeon-hearts", dataset: { hearts: String(standing) } },
          h("span", { class: "sq-label", text: `Dungeon Hearts standing: ${standing}` }),
          h("span", { class: "sq-heart-row", "aria-hidden": "true" }, Array.from({ length: standing }, () => h("span", { class: "sq-dheart", text: "❤" }))),
          h("p", {
            class: "sq-small",
            text: standing
              ? "The Boss cannot be hurt while a Heart stands; damage equal to its Hearts stuns it."
              : "Every Heart is destroyed: slay the Boss to win.",
          }),
        ),
      ),
    );
  }

  // -- the heroes --------------------------------------------------------------------------

  heroPanels() {
    return h(
      "section",
      { class: "sq-heroes", "aria-label": "Heroes" },
      this.heroes.map((hero) => this.heroPanel(hero)),
    );
  }

  heroPanel(hero) {
    const view = this.view;
    const seat = hero.seat;
    const own = seat === this.ctx.seat;
    const current = seat === view.current && !view.result;
    const d = this.decision;
    const classes = ["sq-hero", "seat-panel", `seat-${seat % 6}`];
    if (own) classes.push("mine");
    if (current) classes.push("current");
    if (d && d.seat === seat && !view.result) classes.push("deciding");
    if (hero.stunned) classes.push("stunned");
    const weapons = hero.weapons || [];
    const equipped = new Set(hero.equipped || []);
    const carried = weapons.filter((w) => !equipped.has(w.id)).length + (hero.items || []).length;
    const spells = (hero.spells || []).length;
    // Actions on this hero: take the hit, be chosen; the hero's own: its ability, trade, end.
    const onHero = this.take((e) => this.onHero(e, seat));
    const mineNow = this.asked && d && d.seat === seat;
    const ownActs = mineNow ? this.take((e) => ["ability", "trade", "end", "done"].includes(e.kind) || (e.kind === "reroll" && e.args[0] === ABILITY)) : [];
    const equipmentCard = (card, held) => this.heldCard(card, held, seat);
    const node = h(
      "article",
      { class: classes.join(" "), dataset: { seat: String(seat), rule: "heroes" }, "aria-label": this.waitingFor(seat) },
      h(
        "header",
        { class: "sq-hero-head" },
        h("span", { class: "seat-swatch" }),
        h("span", { class: "sq-hero-name seat-panel-name", text: hero.hero || this.playerName(seat) }),
        hero.hero ? h("span", { class: "sq-player", text: this.playerName(seat) }) : null,
        own ? h("span", { class: "you-tag", text: "you" }) : null,
        seat === view.leader && !view.result ? h("span", { class: "sq-tag tag leader", text: "Leader" }) : null,
        current ? h("span", { class: "sq-tag tag turn", text: own ? "your turn" : "their turn" }) : null,
        hero.stunned ? h("span", { class: "sq-tag tag stunned", text: "stunned" }) : null,
        hero.overburdened
          ? h("span", { class: "sq-tag tag overburdened", title: "over a limit: cannot Move until it drops something", dataset: { rule: "weapons" }, text: "overburdened" })
          : null,
      ),
      h(
        "div",
        { class: "sq-hero-facts" },
        hearts(hero.health),
        h("span", { class: "sq-health-text", text: `${hero.health} / ${HERO_HEALTH}` }),
        h("span", { class: "sq-where", text: Number.isInteger(hero.location) ? `at ${this.locationName(hero.location)}` : "not in the dungeon yet" }),
      ),
      hero.text ? h("p", { class: "sq-hero-text", text: hero.text }) : null,
      hero.hero
        ? h(
            "div",
            { class: "sq-limits", dataset: { rule: "weapons" } },
            h("span", { class: `sq-limit tag${hero.item_limit !== null && carried > hero.item_limit ? " over" : ""}`, dataset: { limit: "items" }, text: `Items ${carried} / ${hero.item_limit ?? "?"}` }),
            h("span", { class: `sq-limit tag${hero.spell_limit !== null && spells > hero.spell_limit ? " over" : ""}`, dataset: { limit: "spells" }, text: `Spells ${spells} / ${hero.spell_limit ?? "?"}` }),
          )
        : null,
      h(
        "div",
        { class: "sq-equipment" },
        weapons.map((card) => equipmentCard(card, equipped.has(card.id) ? "equipped" : "carried")),
        (hero.items || []).map((card) => equipmentCard(card, null)),
        (hero.spells || []).map((card) => equipmentCard(card, null)),
        weapons.length + (hero.items || []).length + spells === 0 ? h("span", { class: "sq-empty", text: "no equipment" }) : null,
      ),
      onHero.length || ownActs.length
        ? h(
            "div",
            { class: "sq-hero-acts" },
            onHero.map((e) => this.chip(e, e.kind === "wound" ? "Takes the hit" : "Choose this hero", `sq-${e.kind}`, detail(e))),
            ownActs.map((e) => this.chip(e, this.ownText(e), `sq-${e.kind}`)),
          )
        : null,
    );
    if (onHero.length === 1) {
      // The whole panel also takes the hit (or is the target).
      makeClickable(node, onHero[0], this.ctx.onAction);
    }
    return node;
  }

  ownText(entry) {
    switch (entry.kind) {
      case "end":
        return "End turn";
      case "trade":
        return "Trade (1 action)";
      case "done":
        return "Finish trading";
      case "ability":
        return "Use ability";
      case "reroll":
        return "Re-roll (ability)";
      default:
        return entry.label || entry.action;
    }
  }

  /** A card a hero holds, with its own actions: drop, use, cast, re-roll, give, choose. */
  heldCard(card, held, seat) {
    const node = this.cardEl(card, { held });
    const acts = this.take(
      (e) =>
        (["drop", "use", "cast", "reroll", "key", "give"].includes(e.kind) && e.args[0] === card.id) ||
        (e.kind === "target" && e.args[0] === card.id && this.targetKind(e) === "card"),
    );
    if (!acts.length) return node;
    const words = (e) => {
      if (e.kind === "give") return `give to ${this.heroName(e.args[1] - 1)}`;
      if (e.kind === "drop") return "drop";
      if (e.kind === "use") return "use";
      if (e.kind === "cast") return "cast";
      if (e.kind === "reroll") return "re-roll";
      if (e.kind === "key") return "use the Key";
      return "choose";
    };
    node.append(h("div", { class: "sq-card-acts", dataset: { holder: String(seat) } }, acts.map((e) => this.chip(e, words(e), `sq-${e.kind}`))));
    return node;
  }

  // -- the piles --------------------------------------------------------------------------

  piles() {
    const view = this.view;
    const discard = view.monster_discard || [];
    return h(
      "section",
      { class: "sq-piles", "aria-label": "Decks" },
      h("span", { class: "sq-pile", title: "cards still to be dealt on this level", dataset: { rule: "table" } }, h("span", { class: "sq-label", text: "Dungeon deck" }), h("strong", { text: String(view.dungeon_deck ?? "?") })),
      h("span", { class: "sq-pile", dataset: { rule: "table" } }, h("span", { class: "sq-label", text: "Monster deck" }), h("strong", { text: String(view.monster_deck ?? "?") })),
      h("span", { class: "sq-pile", dataset: { rule: "table" } }, h("span", { class: "sq-label", text: "Loot deck" }), h("strong", { text: String(view.loot_deck ?? "?") })),
      h(
        "span",
        { class: "sq-pile", title: discard.map((c) => c.name).join(", "), dataset: { rule: "monsters" } },
        h("span", { class: "sq-label", text: "Monsters slain" }),
        h("strong", { text: String(discard.length) }),
      ),
    );
  }
}

const SPECIAL_TEXT = {
  damsel: "Rescue her (4+) before she sinks to the skull, or the heroes lose.",
  rune: "Every Monster gets +1 on each attack die while it stands.",
  portal: "Spawns two Monsters here at the start of each Monster phase.",
  heart: "While a Heart stands, the Boss cannot be hurt.",
  key: "Use it at the Locked Door (3+) to end the level.",
};

// -- pictures for the How to play ------------------------------------------------------

/** Cards of our pack (the standard one's numbers and words), as the view shows them; the
 * ids are the picture's own. */
const PICTURE_CARDS = {
  weaver: {
    id: 901,
    kind: "monster",
    name: "Cave Weaver",
    health: 2,
    move: 2,
    range: 0,
    dice: 1,
    hit: 4,
    damage: 1,
    ability: "stun_on_hit",
    ability_text: "a hero that takes damage from its attack is stunned: it takes no actions in its next turn and is restored in the End phase after that turn",
    text: "",
  },
  rat: { id: 902, kind: "monster", name: "Cellar Rat", health: 1, move: 2, range: 0, dice: 1, hit: 5, damage: 1, ability: null, ability_text: null, text: "" },
  damsel: { id: 903, kind: "damsel", name: "a Damsel", depth: 1 },
  sword: { id: 904, kind: "weapon", name: "Notched Shortsword", tier: "basic", hands: 1, range: 0, dice: 1, hit: 3, damage: 1, text: "" },
  tonic: { id: 905, kind: "item", name: "Flask of Red Tonic", text: "Free, then discard: regain 2 health.", consumed: true },
};

/** A made-up moment of a game: Hilde Stonewall, hurt once, at the Moonlit Shrine (the
 * second Location), with a Cellar Rat and a Damsel one step down. */
const PICTURE_VIEW = {
  damsel_depth: 3,
  locations: [
    { index: 0, revealed: false, name: null, text: null, locked_door: null, cards: [], heroes: [] },
    {
      index: 1,
      revealed: true,
      name: "Moonlit Shrine",
      text: "End phase: every hero here regains 1 health.",
      locked_door: false,
      cards: [PICTURE_CARDS.rat, PICTURE_CARDS.damsel],
      heroes: [0],
    },
  ],
  heroes: [
    {
      seat: 0,
      hero: "Hilde Stonewall",
      text: "Of the damage each Monster attack gives Hilde, ignore the first point.",
      item_limit: 2,
      spell_limit: 0,
      health: 3,
      stunned: false,
      location: 1,
      weapons: [PICTURE_CARDS.sword],
      equipped: [PICTURE_CARDS.sword.id],
      items: [PICTURE_CARDS.tonic],
      spells: [],
      overburdened: false,
    },
  ],
};

/** The board of the made-up moment, drawing with nothing to click. */
function pictureBoard() {
  return new Board(PICTURE_VIEW, { seatNames: [] });
}

export const pictures = {
  /** A Monster card as the row shows it: its health, its move and reach, its attack, its
   * ability. */
  "monster-card": () =>
    h(
      "div",
      { class: "sq board sq-picture" },
      notePictureParts(pictureBoard().cardEl(PICTURE_CARDS.weaver), [
        '.sq-stat[data-stat="health"]',
        '.sq-stat[data-stat="move"]',
        '.sq-stat[data-stat="dice"]',
        ".sq-ability",
      ]),
    ),
  /** A hero's panel: health, ability, limits and the weapon in hand. */
  "hero-sheet": () =>
    h(
      "div",
      { class: "sq board sq-picture" },
      notePictureParts(pictureBoard().heroPanel(PICTURE_VIEW.heroes[0]), [".sq-hero-facts .sq-hearts", ".sq-hero-text", ".sq-limits", ".sq-card.equipped"]),
    ),
  /** A Location on the row with what lies over it and who stands under it. */
  location: () =>
    h(
      "div",
      { class: "sq board sq-picture" },
      notePictureParts(pictureBoard().locationEl(PICTURE_VIEW.locations[1]), [
        ".sq-loc-head",
        '.sq-card[data-kind="monster"]',
        '.sq-card[data-kind="damsel"]',
        ".sq-token",
      ]),
    ),
};
