// Rage: the fallen village as an SVG hex map, with the player's state beside it.
//
// The shape of `view` is Rage.view() in games/rage/rules.py; the geometry is hexes.py's:
// pointy-top axial hexes, pixel(q, r) = (sqrt(3) * (q + r / 2), 1.5 * r), directions
// 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE (counter-clockwise on screen, y downwards), walls as
// [q, r, d] edges. During a move each hex one legal step away is clickable (step:D), the
// player's own hex ends the move (stop) and the exit marker under the player escapes.
// Those hexes are drawn apart from the sight cones: a ring and the step's direction over
// every tint (the cones are tints only), so a hex you can reach never reads as one that
// is seen. Each clickable hex's tooltip is its choice as the table lists it, chances too.
// Backstab or spare and fight or disengage are the table's own action buttons. Every
// skeleton's name is drawn under it, as the choices name them; a key under the map says
// what each mark means, and the panel lists the skeletons. What a person may ask about
// carries `data-rule`, the section of HOW_TO_PLAY.md that explains it (the table shows it
// when pointed at: a hex by what is on it), and `pictures` draws the How to play's
// pictures with the same map.

import { h, makeClickable, notePictureParts, oddsText, replace, svg } from "/static/dom.js";

const SIZE = 26; // centre to corner, in SVG units
const SQRT3 = Math.sqrt(3);
const DIRECTIONS = [
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, 0],
  [-1, 1],
  [0, 1],
];
const DIRECTION_NAMES = ["E", "NE", "NW", "W", "SW", "SE"];

const DECISIONS = {
  move:
    "Sneak: click a ringed hex to step the way marked on it, your own hex to end the move. " +
    "Hover over a hex for what lies there.",
  backstab: "A skeleton has its back to you: backstab it or let it walk on.",
  combat: "You are hurt: fight on or disengage.",
};

/** Whether the map's key is open: kept across redraws once the person folds it. */
let keyOpen = true;

export function render(container, view, ctx) {
  const actions = actionMap(ctx.legal);
  replace(
    container,
    h(
      "div",
      { class: "rg" },
      h("div", { class: "rg-board" }, board(view, actions, ctx), mapKey()),
      panel(view, actions),
    ),
  );
}

/** A choice as the table lists it: its label, and its chances when dice decide it. */
function choiceText(entry) {
  const odds = oddsText(entry.odds);
  const label = entry.label || entry.action;
  return odds ? `${label} (${odds})` : label;
}

/** A skeleton's name under its figure: "The Reeve" reads "Reeve". */
function shortName(name) {
  return String(name || "").replace(/^The /, "");
}

/** Legal actions by their text. */
function actionMap(legal) {
  const map = new Map();
  (legal || []).forEach((entry, index) => map.set(entry.action, { ...entry, index }));
  return map;
}

// -- geometry -------------------------------------------------------------------------

function pixel(q, r) {
  return [SIZE * SQRT3 * (q + r / 2), SIZE * 1.5 * r];
}

/** Corner i of a pointy-top hex (0 at 30 degrees below east, counting clockwise on screen). */
function corner(cx, cy, angleDeg, scale = 1) {
  const a = (angleDeg * Math.PI) / 180;
  return [cx + SIZE * scale * Math.cos(a), cy + SIZE * scale * Math.sin(a)];
}

function hexPoints(q, r, scale = 1) {
  const [cx, cy] = pixel(q, r);
  const points = [];
  for (let i = 0; i < 6; i++) points.push(corner(cx, cy, 30 + 60 * i, scale));
  return points.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ");
}

/** Screen angle (degrees) of direction d: E is 0, each step 60 degrees counter-clockwise. */
function angleOf(d) {
  return -60 * d;
}

/** The two ends of the edge of hex (q, r) in direction d. */
function edgeEnds(q, r, d) {
  const [cx, cy] = pixel(q, r);
  const mid = angleOf(d);
  return [corner(cx, cy, mid - 30), corner(cx, cy, mid + 30)];
}

const key = (q, r) => `${q},${r}`;

/** The pattern of the skeletons' sight (style.css fills their cones with it). */
const HATCH = "rg-sight-hatch";

// -- the map --------------------------------------------------------------------------

/** The village as an SVG. Without `ctx.onAction` (a picture in the rules) the reachable
 * hexes are ringed as at the table, but nothing takes a click. */
function board(view, actions, ctx) {
  const live = typeof ctx.onAction === "function";
  const map = view.map || {};
  const cells = map.cells || [];
  const rubble = map.rubble || [];
  const index = new Map(cells.map(([q, r], i) => [key(q, r), i]));
  const player = view.player || {};
  const skeletons = (view.skeletons || []).filter((s) => s.cell !== null && s.cell !== undefined);

  // What each cell is, for its label.
  const houseOf = new Map();
  (map.houses || []).forEach((house, i) => house.cells.forEach((c) => houseOf.set(c, { ...house, i })));
  const food = new Map((view.food || []).map(([c, n]) => [c, n]));
  const skeletonAt = new Map(skeletons.map((s) => [s.cell, s]));
  const seen = new Set(skeletons.flatMap((s) => s.sight || []));

  // The clickable hexes: each legal step's hex, the player's own (stop).
  const clickable = new Map();
  if (player.hex) {
    const [pq, pr] = player.hex;
    DIRECTIONS.forEach(([dq, dr], d) => {
      const entry = actions.get(`step:${d}`);
      const cell = index.get(key(pq + dq, pr + dr));
      if (entry && cell !== undefined) clickable.set(cell, entry);
    });
    if (actions.has("stop")) clickable.set(player.cell, actions.get("stop"));
  }

  // The view box: every hex drawn, and a margin.
  const all = [...cells, ...rubble];
  const xs = all.map(([q, r]) => pixel(q, r)[0]);
  const ys = all.map(([q, r]) => pixel(q, r)[1]);
  const pad = SIZE * 1.4;
  const minX = Math.min(...xs) - pad;
  const minY = Math.min(...ys) - pad;
  const width = Math.max(...xs) - minX + pad;
  const height = Math.max(...ys) - minY + pad;

  const exits = new Map([
    [map.start, "the gap in the walls"],
    [map.gate, "the front gate"],
  ]);

  const hexes = cells.map(([q, r], cell) => {
    const house = houseOf.get(cell);
    const parts = [];
    if (house) parts.push(house.visited ? `${house.name} (visited)` : house.name);
    if (exits.has(cell)) parts.push(exits.get(cell));
    if (food.has(cell)) parts.push(`${food.get(cell)} food`);
    if (cell === player.cell) parts.push("you");
    const sk = skeletonAt.get(cell);
    if (sk) parts.push(skeletonText(sk));
    const entry = clickable.get(cell);
    let label = `(${q},${r})${parts.length ? `: ${parts.join(", ")}` : ""}`;
    if (entry) label += ` — ${choiceText(entry)}`;
    const classes = ["rg-hex"];
    if (house) classes.push("rg-house", house.visited ? "rg-visited" : "rg-unvisited");
    if (cell === map.start) classes.push("rg-gap");
    if (cell === map.gate) classes.push("rg-gate");
    if (entry) classes.push(entry.action === "stop" ? "rg-stop" : "rg-step");
    if (entry && live) classes.push("playable");
    // The rule a hex shows when pointed at: of what is on it, the likeliest question
    // (you, on your own hex, are your rage); a plain hex has none.
    const [, rule] = [
      [sk, "skeletons"],
      [cell === player.cell, "rage"],
      [food.has(cell), "food"],
      [seen.has(cell), "sight"],
      [house, "houses"],
      [exits.has(cell), "goal"],
      [entry, "turn"],
    ].find(([on]) => on) || [];
    const node = svg(
      "g",
      {
        class: classes.join(" "),
        "data-cell": cell,
        "data-q": q,
        "data-r": r,
        "data-rule": rule,
        "aria-label": label,
        role: entry && live ? "button" : "img",
      },
      svg("title", {}, label),
      svg("polygon", { points: hexPoints(q, r) }),
    );
    if (entry && live) {
      makeClickable(node, entry, ctx.onAction);
      node.setAttribute("title", label);
    }
    return node;
  });

  // The hexes a click reaches: a ring over every tint, and the step's direction, as the
  // choices name it ("Sneak NE"); a solid ring round the player's own hex (stop).
  const reach = svg(
    "g",
    { class: "rg-reach", "aria-hidden": "true" },
    [...clickable].map(([cell, entry]) => {
      const [q, r] = cells[cell] || [];
      if (q === undefined) return null;
      const [x, y] = pixel(q, r);
      const stop = entry.action === "stop";
      const d = stop ? null : Number(entry.action.split(":")[1]);
      return svg(
        "g",
        {
          class: `rg-reach-mark${stop ? " rg-reach-stop" : ""}`,
          "data-action": entry.action,
          "data-cell": cell,
        },
        svg("polygon", { class: "rg-reach-ring", points: hexPoints(q, r, 0.8) }),
        stop
          ? null
          : svg(
              "text",
              { class: "rg-reach-dir", x: x.toFixed(1), y: (y + SIZE * 0.16).toFixed(1) },
              DIRECTION_NAMES[d] || "",
            ),
      );
    }),
  );

  const rubbleNodes = rubble.map(([q, r]) =>
    svg(
      "g",
      { class: "rg-rubble", role: "img", "aria-label": `(${q},${r}): rubble`, "data-rule": "table" },
      svg("title", {}, `(${q},${r}): rubble`),
      svg("polygon", { points: hexPoints(q, r) }),
    ),
  );

  const cellHex = (c) => cells[c];
  const sightFill = (c, cls) => {
    const [q, r] = cellHex(c) || [];
    if (q === undefined) return null;
    return svg("polygon", { class: cls, points: hexPoints(q, r, 0.9) });
  };

  const playerSight = svg(
    "g",
    { class: "rg-sight rg-sight-player", "aria-hidden": "true", "data-rule": "sight" },
    (player.sight || []).map((c) => sightFill(c, "rg-cone")),
  );
  const skeletonSight = svg(
    "g",
    { class: "rg-sight rg-sight-skeleton", "aria-hidden": "true" },
    skeletons.map((s) =>
      svg(
        "g",
        { class: `rg-cone-of${s.sees_you ? " rg-sees-you" : ""}`, "data-skeleton": s.name, "data-rule": "sight" },
        (s.sight || []).map((c) => sightFill(c, "rg-cone")),
      ),
    ),
  );

  const patrols = svg(
    "g",
    { class: "rg-patrols", "aria-hidden": "true" },
    skeletons.map((s) => {
      const points = (s.patrol || [])
        .map(cellHex)
        .filter(Boolean)
        .map(([q, r]) => pixel(q, r).map((v) => v.toFixed(1)).join(","));
      // A polygon closes itself: the loop runs back to its first hex.
      return svg("polygon", { class: "rg-patrol", points: points.join(" "), "data-skeleton": s.name });
    }),
  );

  const walls = svg(
    "g",
    { class: "rg-walls", "aria-hidden": "true" },
    (map.walls || []).map(([q, r, d]) => {
      const [[x1, y1], [x2, y2]] = edgeEnds(q, r, d);
      return svg("line", {
        class: "rg-wall",
        x1: x1.toFixed(2),
        y1: y1.toFixed(2),
        x2: x2.toFixed(2),
        y2: y2.toFixed(2),
      });
    }),
  );

  const houseNames = svg(
    "g",
    { class: "rg-house-names", "aria-hidden": "true" },
    (map.houses || []).map((house) => {
      const centres = house.cells.map(cellHex).filter(Boolean).map(([q, r]) => pixel(q, r));
      if (!centres.length) return null;
      const x = centres.reduce((a, p) => a + p[0], 0) / centres.length;
      const y = centres.reduce((a, p) => a + p[1], 0) / centres.length;
      return svg(
        "text",
        { class: `rg-house-name${house.visited ? " rg-visited" : ""}`, x: x.toFixed(1), y: (y - SIZE * 0.55).toFixed(1) },
        house.name.replace(/^The /, ""),
      );
    }),
  );

  const foodNodes = svg(
    "g",
    { class: "rg-foods", "aria-hidden": "true" },
    [...food].map(([c, n]) => {
      const [q, r] = cellHex(c) || [];
      if (q === undefined) return null;
      const [x, y] = pixel(q, r);
      const fx = x - SIZE * 0.42;
      const fy = y - SIZE * 0.3;
      return svg(
        "g",
        { class: "rg-food", "data-cell": c, "data-count": n, "data-rule": "food" },
        svg("rect", { x: (fx - 7).toFixed(1), y: (fy - 7).toFixed(1), width: 14, height: 14, rx: 2 }),
        svg("text", { x: fx.toFixed(1), y: (fy + 4).toFixed(1) }, String(n)),
      );
    }),
  );

  const exitNodes = [...exits].map(([cell, name]) => {
    const [q, r] = cellHex(cell) || [];
    if (q === undefined) return null;
    const [x, y] = pixel(q, r);
    const escape = cell === player.cell && live ? actions.get("escape") : null;
    const label = escape ? `${name}: ${choiceText(escape)}` : name;
    const node = svg(
      "g",
      {
        class: `rg-exit ${cell === map.gate ? "rg-exit-gate" : "rg-exit-gap"}${escape ? " playable" : ""}`,
        "data-cell": cell,
        role: escape ? "button" : "img",
        "aria-label": label,
        "data-rule": "goal",
      },
      svg("title", {}, label),
      svg("rect", {
        x: (x - SIZE * 0.45).toFixed(1),
        y: (y + SIZE * 0.42).toFixed(1),
        width: (SIZE * 0.9).toFixed(1),
        height: (SIZE * 0.46).toFixed(1),
        rx: 3,
      }),
      svg(
        "text",
        { x: x.toFixed(1), y: (y + SIZE * 0.77).toFixed(1) },
        cell === map.gate ? "gate" : "gap",
      ),
    );
    if (escape) makeClickable(node, escape, ctx.onAction);
    return node;
  });

  const skeletonNodes = skeletons.map((s) => {
    const [q, r] = s.hex;
    const [x, y] = pixel(q, r);
    const classes = ["rg-skeleton", `rg-mode-${s.mode}`];
    if (s.sees_you) classes.push("rg-sees-you");
    if (s.back_to_you) classes.push("rg-back-to-you");
    if (view.foe !== null && view.skeletons[view.foe] === s) classes.push("rg-foe");
    if (view.offer !== null && view.skeletons[view.offer] === s) classes.push("rg-offer");
    const label = skeletonText(s);
    return svg(
      "g",
      {
        class: classes.join(" "),
        "data-cell": s.cell,
        "data-facing": s.facing,
        "data-rule": "skeletons",
        role: "img",
        "aria-label": label,
      },
      svg("title", {}, label),
      facingMarker(x, y, s.facing, "rg-facing"),
      svg("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: (SIZE * 0.42).toFixed(1) }),
      svg("text", { x: x.toFixed(1), y: (y + 4).toFixed(1) }, "☠"),
      svg(
        "text",
        { class: "rg-skeleton-name", x: x.toFixed(1), y: (y + SIZE * 0.78).toFixed(1) },
        shortName(s.name),
      ),
    );
  });

  let playerNode = null;
  if (player.hex) {
    const [q, r] = player.hex;
    const [x, y] = pixel(q, r);
    const label = `you at (${q},${r}) facing ${DIRECTION_NAMES[player.facing] || "?"}`;
    playerNode = svg(
      "g",
      {
        class: `rg-player${player.raging ? " rg-raging" : ""}`,
        "data-cell": player.cell,
        "data-q": q,
        "data-r": r,
        "data-facing": player.facing,
        "data-rule": "rage",
        role: "img",
        "aria-label": label,
      },
      svg("title", {}, label),
      facingMarker(x, y, player.facing, "rg-facing"),
      svg("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: (SIZE * 0.38).toFixed(1) }),
    );
  }

  return svg(
    "svg",
    {
      class: "rg-map",
      viewBox: `${minX.toFixed(1)} ${minY.toFixed(1)} ${width.toFixed(1)} ${height.toFixed(1)}`,
      role: "group",
      "aria-label": `The village of ${map.name || "Rage"}`,
    },
    // The skeletons' sight is hatched red, so it never reads as a house's brown.
    svg(
      "defs",
      {},
      svg(
        "pattern",
        {
          id: HATCH,
          width: 6,
          height: 6,
          patternUnits: "userSpaceOnUse",
          patternTransform: "rotate(45)",
        },
        svg("rect", { class: "rg-hatch-ground", width: 6, height: 6 }),
        svg("line", { class: "rg-hatch-line", x1: 1.5, y1: 0, x2: 1.5, y2: 6 }),
      ),
    ),
    svg("g", { class: "rg-cells" }, hexes),
    svg("g", { class: "rg-rubbles" }, rubbleNodes),
    patrols,
    skeletonSight,
    playerSight,
    walls,
    reach,
    houseNames,
    foodNodes,
    svg("g", { class: "rg-exits" }, exitNodes),
    svg("g", { class: "rg-skeletons" }, skeletonNodes),
    playerNode,
  );
}

function skeletonText(s) {
  const parts = [`skeleton ${s.name} facing ${DIRECTION_NAMES[s.facing] || "?"}`];
  if (s.hp < s.max_hp) parts.push(`${s.hp}/${s.max_hp} hp`);
  if (s.mode && s.mode !== "patrolling") parts.push(s.mode);
  if (s.sees_you) parts.push("sees you");
  if (s.back_to_you) parts.push("its back to you");
  return parts.join(", ");
}

/** A wedge from the figure's centre pointing through the edge it faces. */
function facingMarker(x, y, facing, cls) {
  const a = (angleOf(facing) * Math.PI) / 180;
  const tip = [x + SIZE * 0.8 * Math.cos(a), y + SIZE * 0.8 * Math.sin(a)];
  const side = (sign) => {
    const b = a + (sign * Math.PI) / 2;
    return [x + SIZE * 0.3 * Math.cos(b), y + SIZE * 0.3 * Math.sin(b)];
  };
  const points = [tip, side(1), side(-1)].map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`);
  return svg("polygon", { class: cls, points: points.join(" ") });
}

// -- the map's key --------------------------------------------------------------------

/** A small picture for the key, drawn in its own box (-14..14) with the map's colours. */
function swatch(...shapes) {
  return svg("svg", { class: "rg-key-swatch", viewBox: "-14 -14 28 28", "aria-hidden": "true" }, shapes);
}

function keyHex(cls, scale = 1) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const a = ((30 + 60 * i) * Math.PI) / 180;
    points.push(`${(13 * scale * Math.cos(a)).toFixed(1)},${(13 * scale * Math.sin(a)).toFixed(1)}`);
  }
  return svg("polygon", { class: cls, points: points.join(" ") });
}

function keyFigure(base, glyph = "", ring = "") {
  // Facing NE, as the map draws a wedge through the edge a figure faces.
  return [
    svg("polygon", { class: `${base}-facing`, points: "6,-10.4 3.1,1.8 -3.1,-1.8" }),
    svg("circle", { class: ring ? `${base} ${ring}` : base, cx: 0, cy: 0, r: 8 }),
    glyph ? svg("text", { class: `${base}-glyph`, x: 0, y: 4 }, glyph) : null,
  ];
}

const ground = () => keyHex("rg-key-ground");
const skeletonKey = (ring) => swatch(ground(), ...keyFigure("rg-key-skeleton", "☠", ring));

/** The key's entries: a picture drawn as the map draws it, and what it means. */
const KEY = [
  [
    () => swatch(ground(), ...keyFigure("rg-key-you")),
    "You: the wedge points the way you face (your last step)",
  ],
  [
    () => skeletonKey(""),
    "A skeleton, its name under it, facing its wedge; its dashed loop is its patrol",
  ],
  [() => skeletonKey("rg-key-sees"), "Red ring: it sees you"],
  [() => skeletonKey("rg-key-back"), "Green ring: its back to you (a backstab)"],
  [() => skeletonKey("rg-key-away"), "Dashed ring: holding, or walking back to its patrol"],
  [
    () => swatch(ground(), keyHex("rg-key-sight-you", 0.9)),
    "Blue tint: your sight (a rage check for each skeleton in it)",
  ],
  [
    () => swatch(ground(), keyHex("rg-key-sight-them", 0.9)),
    "Red tint: the skeletons' sight (where you would be spotted)",
  ],
  [
    () => swatch(ground(), keyHex("rg-key-reach", 0.8), svg("text", { class: "rg-key-dir", x: 0, y: 3 }, "NE")),
    "Ringed hex: one step away, the way marked (NE: north-east; north is up)",
  ],
  [
    () => swatch(ground(), keyHex("rg-key-stop", 0.8)),
    "Solid ring: your own hex; click it to end the move",
  ],
  [
    () =>
      swatch(
        ground(),
        svg("rect", { class: "rg-key-food", x: -7, y: -7, width: 14, height: 14, rx: 2 }),
        svg("text", { class: "rg-key-food-count", x: 0, y: 4 }, "2"),
      ),
    "Food: the cubes on a hex, collected where your move ends",
  ],
  [
    () =>
      swatch(
        keyHex("rg-key-exit-hex"),
        svg("rect", { class: "rg-key-exit", x: -11, y: -5, width: 22, height: 11, rx: 3 }),
        svg("text", { class: "rg-key-exit-text", x: 0, y: 3 }, "gap"),
      ),
    "Exits, the gap and the gate: stand there and click the tag to escape",
  ],
  [() => swatch(keyHex("rg-key-house")), "A house not yet entered (+2 rage the first time)"],
  [() => swatch(keyHex("rg-key-visited")), "A house you have entered"],
  [
    () => swatch(ground(), svg("line", { class: "rg-key-wall", x1: -11, y1: 6, x2: 11, y2: -6 })),
    "A wall: nobody steps or sees across it",
  ],
  [() => swatch(keyHex("rg-key-rubble")), "Rubble: nobody enters or sees through it"],
];

function mapKey() {
  return h(
    "details",
    {
      class: "rg-key",
      open: keyOpen,
      dataset: { rule: "table" },
      ontoggle: (event) => {
        keyOpen = event.target.open;
      },
    },
    h("summary", { class: "rg-key-title", text: "Map key" }),
    h(
      "ul",
      { class: "rg-key-items" },
      KEY.map(([picture, words]) => h("li", { class: "rg-key-item" }, picture(), h("span", { text: words }))),
    ),
  );
}

// -- the side panel -------------------------------------------------------------------

function panel(view, actions) {
  const player = view.player || {};
  const limit = Number(view.rage_limit) || 20;
  const rage = Number(player.rage) || 0;
  const decision = view.decision ? view.decision.kind : null;
  const foe = view.foe !== null && view.foe !== undefined ? view.skeletons[view.foe] : null;
  const offer = view.offer !== null && view.offer !== undefined ? view.skeletons[view.offer] : null;
  const late = view.turn_limit && view.turn >= view.turn_limit - 1;
  return h(
    "aside",
    { class: "rg-panel", "aria-label": "Your state" },
    h("h3", { class: "rg-village", text: (view.map && view.map.name) || "The village", dataset: { rule: "table" } }),
    h(
      "p",
      { class: `rg-turn${late ? " late" : ""}`, "data-turn": view.turn, dataset: { rule: "goal" } },
      `Turn ${view.turn} / ${view.turn_limit}`,
    ),
    stat(
      "rage",
      "Rage",
      h(
        "div",
        {
          class: `rg-bar${rage >= limit ? " full" : ""}`,
          role: "meter",
          "aria-valuemin": 0,
          "aria-valuemax": limit,
          "aria-valuenow": Math.min(rage, limit),
          "aria-label": `rage ${rage} of ${limit}`,
        },
        h("div", { class: "rg-bar-fill", style: { width: `${Math.min(100, (100 * rage) / limit)}%` } }),
      ),
      h("span", { class: "rg-value", text: `${rage} / ${limit}` }),
    ),
    stat(
      "hp",
      player.raging ? "Hit points (red: rage has control)" : "Hit points",
      h(
        "span",
        {
          class: `rg-hp ${player.raging ? "rg-red" : "rg-blue"}`,
          role: "img",
          "aria-label": `${player.hp} of ${player.max_hp} ${player.raging ? "red" : "blue"} hit points`,
        },
        Array.from({ length: Math.max(0, player.max_hp || 0) }, (_, i) =>
          h("span", { class: `rg-pip${i < player.hp ? " full" : ""}` }),
        ),
      ),
      h("span", { class: "rg-value", text: `${player.hp} / ${player.max_hp}` }),
    ),
    stat(
      "bag",
      "Food in the bag",
      h("span", { class: "rg-value", text: `${player.bag} / ${view.win_food}` }),
      h("span", {
        class: "rg-note",
        text: `to win; ${view.food_left} of ${view.food_total} still in the village`,
      }),
    ),
    player.hex
      ? stat(
          "you",
          "You",
          h("span", { class: "rg-value", text: `facing ${DIRECTION_NAMES[player.facing] || "?"}` }),
          h("span", { class: "rg-note", text: "the way of your last step; your sight is the blue tint" }),
        )
      : null,
    decision === "move"
      ? stat("steps", "Steps left", h("span", { class: "rg-value", text: String(player.steps_left) }))
      : null,
    foe
      ? stat(
          "foe",
          "Fighting",
          h("span", { class: "rg-value", text: foe.name }),
          h("span", { class: "rg-note", text: `${foe.hp} / ${foe.max_hp} hp` }),
        )
      : null,
    offer ? stat("offer", "Its back to you", h("span", { class: "rg-value", text: offer.name })) : null,
    view.dice && view.dice.length
      ? stat(
          "dice",
          "Last dice",
          h(
            "span",
            { class: "rg-value" },
            view.dice.length === 2 ? `you ${view.dice[0]}, skeleton ${view.dice[1]}` : view.dice.join(", "),
          ),
        )
      : null,
    roster(view),
    h(
      "p",
      { class: `rg-decision${actions.size ? " asked" : ""}`, role: "status", dataset: { rule: view.over ? "end" : "turn" } },
      view.over
        ? h("span", { class: "rg-ending", text: endingText(view) })
        : actions.size
          ? decisionText(decision, foe, offer)
          : "Waiting…",
    ),
    actions.has("escape") ? h("p", { class: "rg-hint", text: "You stand on an exit: click its tag to escape." }) : null,
  );
}

/** Every skeleton, as the choices name them: hit points, what it is doing, and what it
 * means for you now (it sees you, its back is to you, it fights you). */
function roster(view) {
  const skeletons = view.skeletons || [];
  if (!skeletons.length) return null;
  return stat(
    "skeletons",
    "Skeletons",
    h(
      "ul",
      { class: "rg-roster" },
      skeletons.map((s, k) => {
        const alive = s.cell !== null && s.cell !== undefined;
        let status = "";
        let tone = "";
        if (!alive) status = "destroyed";
        else if (view.foe === k) [status, tone] = ["fighting you", "rg-danger"];
        else if (s.sees_you) [status, tone] = ["sees you", "rg-danger"];
        else if (s.back_to_you) [status, tone] = ["its back to you", "rg-safe"];
        const parts = alive
          ? [`${s.hp}/${s.max_hp} hp`, s.mode, `facing ${DIRECTION_NAMES[s.facing] || "?"}`]
          : [];
        return h(
          "li",
          { class: `rg-roster-row${alive ? "" : " rg-gone"}`, "data-skeleton": s.name },
          h("span", { class: "rg-roster-name", text: s.name }),
          parts.length ? h("span", { class: "rg-note", text: ` ${parts.join(" · ")}` }) : null,
          status ? h("span", { class: `rg-roster-status ${tone}`, text: ` ${status}` }) : null,
        );
      }),
    ),
  );
}

/** What is asked now, naming the skeleton it is about. */
function decisionText(decision, foe, offer) {
  if (decision === "backstab" && offer) return `${offer.name} has its back to you: backstab it or let it walk on.`;
  if (decision === "combat" && foe) return `Wounded by ${foe.name}: fight on or disengage.`;
  return DECISIONS[decision] || "Your decision.";
}

/** The rule each of the panel's counters is explained by. */
const STAT_RULES = {
  rage: "rage",
  hp: "rage",
  bag: "food",
  you: "sight",
  steps: "turn",
  foe: "dice",
  offer: "skeletons",
  dice: "dice",
  skeletons: "skeletons",
};

function stat(name, title, ...value) {
  return h(
    "div",
    { class: `rg-stat rg-stat-${name}`, "data-stat": name, "data-rule": STAT_RULES[name] },
    h("span", { class: "rg-label", text: title }),
    ...value,
  );
}

function endingText(view) {
  const reason = view.result && view.result.reason;
  return reason || `The game is over (${view.ending || "ended"}).`;
}

// -- pictures for the How to play ------------------------------------------------------

/** Every hex within `radius` of the centre, north row first (hexes.py's `disc`). */
function disc(radius) {
  const out = [];
  for (let r = -radius; r <= radius; r++) {
    for (let q = Math.max(-radius, -r - radius); q <= Math.min(radius, -r + radius); q++) out.push([q, r]);
  }
  return out;
}

/** A made-up corner of a village (not the Fallen Village): the Watchman at its east end
 * looking west, a wall hiding one hex of its cone, you facing east with your six steps
 * ringed, 2 food in the Watchman's sight. The cones and the choices are the game's own
 * for this corner (hexes.py's `sight`; terminal.py draws the same corner). */
function pictureCorner() {
  const cells = disc(2);
  const at = (q, r) => cells.findIndex(([a, b]) => a === q && b === r);
  const hexes = (...list) => list.map(([q, r]) => at(q, r));
  const view = {
    map: { name: "A corner of a village", cells, rubble: [], walls: [[0, -1, 0]], houses: [] },
    player: { cell: at(-1, 1), hex: [-1, 1], facing: 0, sight: hexes([-1, 1], [0, 1], [1, 1], [1, 0], [0, 2]) },
    skeletons: [
      {
        name: "The Watchman",
        cell: at(2, -1),
        hex: [2, -1],
        facing: 3,
        hp: 2,
        max_hp: 2,
        mode: "patrolling",
        patrol: [],
        sight: hexes([2, -1], [1, -1], [0, 0], [1, -2]),
        sees_you: false,
        back_to_you: false,
      },
    ],
    food: [[at(0, 0), 2]],
    foe: null,
    offer: null,
  };
  const legal = [
    { action: "step:0", label: "Sneak E" },
    { action: "step:1", label: "Sneak NE: 2 food, the Watchman in view (a rage check), in the Watchman's sight" },
    { action: "step:2", label: "Sneak NW" },
    { action: "step:3", label: "Sneak W" },
    { action: "step:4", label: "Sneak SW" },
    { action: "step:5", label: "Sneak SE" },
    { action: "stop", label: "End the move here" },
  ];
  return { view, actions: actionMap(legal) };
}

export const pictures = {
  /** A skeleton's sight beside your next steps, on the map as the table draws it (no
   * clicks: the board is given no `onAction`). */
  "sight-cone": () => {
    const { view, actions } = pictureCorner();
    return h(
      "div",
      { class: "rg-board rg-picture" },
      notePictureParts(board(view, actions, {}), [
        ".rg-skeleton",
        ".rg-cone-of",
        ".rg-player",
        '.rg-reach-mark[data-action="step:2"]',
        // The food's hex, not its small square: a badge there would hide the count.
        '.rg-hex[data-rule="food"]',
      ]),
    );
  },
};
