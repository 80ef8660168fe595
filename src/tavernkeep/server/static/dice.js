// The dice tray: any event whose data has `dice` is rolled here for everyone to see.
//
// A roll tumbles for a moment before it lands, because a result that simply appears
// feels like it was decided by the server (it was, but the table should feel the roll).

import { h, replace } from "./dom.js";

const TUMBLE_MS = 600;
const FACE_EVERY_MS = 70;

// Pip positions on a 3x3 grid (cells 1..9, reading order) for the faces of a d6.
const PIPS = {
  1: [5],
  2: [3, 7],
  3: [3, 5, 7],
  4: [1, 3, 7, 9],
  5: [1, 3, 5, 7, 9],
  6: [1, 3, 4, 6, 7, 9],
};

/** One die showing `value`: pips for 1-6 on a d6, the number for anything else. */
export function dieFace(value, sides = 6) {
  const die = h("span", { class: "die", role: "img", "aria-label": `die showing ${value}` });
  fillFace(die, value, sides);
  return die;
}

function fillFace(die, value, sides) {
  if (sides === 6 && PIPS[value]) {
    die.classList.add("pips");
    die.classList.remove("number");
    replace(die, PIPS[value].map((cell) => h("span", { class: `pip p${cell}` })));
  } else {
    die.classList.add("number");
    die.classList.remove("pips");
    replace(die, h("span", { class: "die-number", text: value }));
  }
}

function randomFace(sides) {
  return 1 + Math.floor(Math.random() * sides);
}

/** The tray: a row of dice, a caption and the outcome colour. */
export class DiceTray {
  constructor(root) {
    this.root = root;
    this.diceRow = h("div", { class: "dice-row" });
    this.caption = h("p", { class: "dice-caption", text: "No dice rolled yet." });
    replace(root, this.diceRow, this.caption);
    this.timer = null;
  }

  /**
   * Roll `event.data.dice`. Resolves when the dice have landed, so the caller can hold
   * back what the roll decided (the log line, the next board) until then.
   */
  roll(event, { animate = true } = {}) {
    const data = event.data || {};
    const values = data.dice.map(Number);
    const sides = Number(data.sides) || Math.max(6, ...values);
    this.stop();
    this.root.classList.remove("success", "failure");
    const dice = values.map((value) => dieFace(value, sides));
    replace(this.diceRow, dice);
    if (!animate || matchMedia("(prefers-reduced-motion: reduce)").matches) {
      this.land(event, dice, values, sides);
      return Promise.resolve();
    }
    this.caption.textContent = "Rolling…";
    dice.forEach((die) => die.classList.add("tumbling"));
    return new Promise((resolve) => {
      const started = performance.now();
      this.timer = setInterval(() => {
        if (performance.now() - started >= TUMBLE_MS) {
          this.stop();
          this.land(event, dice, values, sides);
          resolve();
          return;
        }
        dice.forEach((die) => fillFace(die, randomFace(sides), sides));
      }, FACE_EVERY_MS);
    });
  }

  land(event, dice, values, sides) {
    dice.forEach((die, i) => {
      die.classList.remove("tumbling");
      fillFace(die, values[i], sides);
      die.setAttribute("aria-label", `die showing ${values[i]}`);
    });
    const success = event.data ? event.data.success : undefined;
    if (success === true) this.root.classList.add("success");
    if (success === false) this.root.classList.add("failure");
    this.caption.textContent = event.text || values.join(" + ");
  }

  stop() {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}

/** One line of a game's log: its dice as they fell, then its words (`text`, the event's
 *  own unless the page puts names in), coloured by its kind, outcome and seat. The table
 *  and the replay draw their logs with it. */
export function logLine(event, text) {
  const classes = ["log-line", `kind-${String(event.kind || "event").replace(/[^a-z0-9-]/gi, "")}`];
  const data = event.data || {};
  if (data.success === true) classes.push("success");
  if (data.success === false) classes.push("failure");
  if (Number.isInteger(data.seat)) classes.push(`seat-${data.seat % 6}`);
  const dice = Array.isArray(data.dice) && data.dice.length ? data.dice : null;
  return h(
    "li",
    { class: classes.join(" ") },
    dice ? h("span", { class: "log-dice" }, dice.map((v) => dieFace(Number(v)))) : null,
    h("span", { class: "log-text", text: text ?? (event.text || event.kind || "") }),
  );
}
