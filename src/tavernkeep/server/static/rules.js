// How to play: a game's rules for players, opened beside whatever the page shows (the
// lobby's shelf, a table's board), never in its place. The server sends the game's
// HOW_TO_PLAY.md read into text runs and lists (engine/howto.py); every run is set as
// text. One drawer a page, shared by the lobby and the table.
//
// Pictures are drawn by the game's own renderer (`export const pictures = {name: () =>
// node}` in its renderer.js), so a rule shows a card or a map the way the table draws it;
// the parts a picture's notes explain carry `data-note="1"`, "2", ..., and get a numbered
// badge here. And anything on a board that carries `data-rule="section"` shows that rule
// when pointed at or focused (`ruleTips`), and opens it on "?".

import { api, h, replace } from "./dom.js";
import { rendererFor } from "./renderers/index.js";

const loaded = new Map(); // game name -> Promise of its rules

/** The sections of a game's rules by the kind of choice each explains (`quest` for
 *  `quest:1`): what a choice on the table links to. */
export async function choiceRules(game) {
  const rules = await rulesOf(game);
  const out = {};
  for (const section of rules.sections || []) {
    for (const kind of section.choices || []) out[kind] = { id: section.id, title: section.title };
  }
  return out;
}

function rulesOf(game) {
  if (!loaded.has(game)) {
    const asked = api(`/api/games/${encodeURIComponent(game)}/rules`);
    // A failure is not kept: the next opening asks again.
    asked.catch(() => loaded.delete(game));
    loaded.set(game, asked);
  }
  return loaded.get(game);
}

let drawer = null;
let lastFocus = null;

function ensureDrawer() {
  if (drawer) return drawer;
  drawer = h("aside", {
    id: "rules-drawer",
    class: "panel rules-drawer",
    role: "dialog",
    "aria-modal": "false",
    "aria-labelledby": "rules-title",
    hidden: true,
  });
  document.body.append(drawer);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && drawer && !drawer.hidden) closeRules();
  });
  return drawer;
}

export function closeRules() {
  if (!drawer) return;
  drawer.hidden = true;
  document.body.classList.remove("rules-open");
  if (lastFocus && lastFocus.isConnected) lastFocus.focus({ preventScroll: true });
}

/** Open a game's rules at `section` (an id such as "dice"), or at the top. */
export async function openRules(game, section = null) {
  const node = ensureDrawer();
  lastFocus = document.activeElement;
  node.hidden = false;
  document.body.classList.add("rules-open");
  let rules;
  try {
    rules = await rulesOf(game);
  } catch (error) {
    replace(node, header("How to play"), h("p", { class: "error", text: `The rules could not be loaded: ${error.message}` }));
    return;
  }
  if (node.dataset.game !== game) {
    node.dataset.game = game;
    replace(
      node,
      header(rules.title),
      h(
        "nav",
        { class: "rules-contents", "aria-label": "Sections" },
        h(
          "ul",
          {},
          rules.sections.map((s) =>
            h("li", {}, h("a", { href: `#rules-${s.id}`, text: s.title, onclick: jump(s.id) })),
          ),
        ),
      ),
      h(
        "div",
        { class: "rules-body" },
        rules.intro.map((b) => block(b, game)),
        rules.sections.map((s) =>
          h(
            "section",
            { class: "rules-section", id: `rules-${s.id}`, dataset: { section: s.id } },
            h("h3", { text: s.title }),
            s.blocks.map((b) => block(b, game)),
          ),
        ),
      ),
    );
  }
  node.querySelector(".rules-close").focus({ preventScroll: true });
  if (section) scrollToSection(section);
  else node.scrollTop = 0;
}

function header(title) {
  return h(
    "header",
    { class: "rules-header" },
    h("h2", { id: "rules-title", text: title }),
    h("button", {
      type: "button",
      class: "button secondary rules-close",
      "aria-label": "Close the rules",
      text: "×",
      onclick: closeRules,
    }),
  );
}

/** A link inside the rules moves within the drawer, leaving the page's own address alone
 *  (a table's fragment says who the page is). */
function jump(id) {
  return (event) => {
    event.preventDefault();
    scrollToSection(id);
  };
}

function scrollToSection(id) {
  const target = drawer && drawer.querySelector(`[data-section="${CSS.escape(id)}"]`);
  if (!target) return;
  drawer.scrollTop = target.offsetTop - drawer.querySelector(".rules-header").offsetHeight - 8;
  target.classList.add("rules-flash");
  setTimeout(() => target.classList.remove("rules-flash"), 1200);
}

function block(b, game) {
  if (b.kind === "ul" || b.kind === "ol") return h(b.kind, {}, (b.items || []).map((item) => h("li", {}, runs(item))));
  if (b.kind === "h3") return h("h4", {}, runs(b.spans));
  if (b.kind === "picture") return picture(b, game);
  return h("p", {}, runs(b.spans));
}

function runs(spans) {
  return (spans || []).map((span) => {
    if (span.link) return h("a", { href: `#rules-${span.link}`, text: span.text, onclick: jump(span.link) });
    if (span.style === "b") return h("strong", { text: span.text });
    if (span.style === "i") return h("em", { text: span.text });
    if (span.style === "code") return h("code", { text: span.text });
    return span.text;
  });
}

// -- pictures ---------------------------------------------------------------------------

/** A picture: the game's renderer draws it (once its module has loaded), a numbered badge
 *  on each part a note explains, the caption and the notes under it. */
function picture(b, game) {
  const drawing = h("div", { class: "picture-drawing", "aria-hidden": "true" });
  const figure = h(
    "figure",
    { class: "rules-picture", dataset: { picture: b.name } },
    drawing,
    h(
      "figcaption",
      {},
      h("p", {}, runs(b.spans)),
      (b.items || []).length ? h("ol", { class: "picture-notes" }, b.items.map((item) => h("li", {}, runs(item)))) : null,
    ),
  );
  rendererFor(game).then((renderer) => {
    const draw = renderer.pictures && renderer.pictures[b.name];
    if (typeof draw !== "function") {
      console.error(`picture failed: ${game} draws no picture "${b.name}"`);
      return;
    }
    try {
      drawing.append(draw());
    } catch (error) {
      console.error(`picture failed: ${game}'s "${b.name}"`, error);
      return;
    }
    const notes = (b.items || []).length;
    const marked = new Set([...drawing.querySelectorAll("[data-note]")].map((n) => n.dataset.note));
    if (marked.size !== notes) {
      console.error(`picture failed: ${game}'s "${b.name}" marks ${marked.size} parts for ${notes} notes`);
    }
    placeBadges(drawing);
    // The drawer's width (a phone, a window resized) moves the parts: the badges follow.
    new ResizeObserver(() => placeBadges(drawing)).observe(drawing);
  });
  return figure;
}

/** A numbered badge at the top left of each part a note explains, over the drawing (an
 *  SVG's parts too, which cannot carry a badge of their own). */
function placeBadges(drawing) {
  drawing.querySelectorAll(".picture-badge").forEach((badge) => badge.remove());
  const frame = drawing.getBoundingClientRect();
  if (!frame.width) return; // not laid out (the drawer closed): placed when it is
  const done = new Set();
  for (const part of drawing.querySelectorAll("[data-note]")) {
    const note = part.dataset.note;
    if (done.has(note)) continue;
    done.add(note);
    const box = part.getBoundingClientRect();
    drawing.append(
      h("span", {
        class: "picture-badge",
        text: note,
        style: {
          left: `${Math.max(0, box.left - frame.left - 6)}px`,
          top: `${Math.max(0, box.top - frame.top - 6)}px`,
        },
      }),
    );
  }
}

// -- a rule where it matters --------------------------------------------------------------

let tip = null;
let tipShow = 0;
const TIP_DELAY_MS = 250; // as a browser's own tooltip: not at every card the pointer crosses

/** Show the rule of whatever on `container` carries `data-rule` when a person points at it
 *  or reaches it with the keyboard: the section's title and first lines. "?" while it is
 *  pointed at opens the drawer there, and so does a click on it where a click does nothing
 *  else (a card that is a choice is played by its click: its choice has its own "?"). The
 *  tip never takes the pointer, so it never stands between a person and a button. The
 *  section ids are the game's How to play's. One set of listeners a container, kept
 *  across redraws; called again (a replay of another game) it follows the new game. */
export function ruleTips(container, game) {
  const listening = Boolean(container.dataset.rules);
  container.dataset.rules = game;
  if (listening) return;
  let pointed = null;
  const marked = (event) => {
    const target = event.target.closest && event.target.closest("[data-rule]");
    return target && container.contains(target) ? target : null;
  };
  const show = (event) => {
    const target = marked(event);
    if (!target) return;
    const game = container.dataset.rules;
    const rule = target.dataset.rule;
    pointed = rule;
    clearTimeout(tipShow);
    tipShow = setTimeout(async () => {
      let rules;
      try {
        rules = await rulesOf(game);
      } catch {
        return; // no rules to show: the page says so where they are asked for
      }
      const section = (rules.sections || []).find((s) => s.id === rule);
      if (!section) {
        console.error(`rule tip failed: ${game} has no section "${rule}"`);
        return;
      }
      // With the rules open beside the board, the tip would only repeat them (and the
      // board, narrowed, moves under a pointer that did not).
      if (document.body.classList.contains("rules-open")) return;
      if (pointed === rule && target.isConnected) showTip(target, section, clickOpens(target));
    }, TIP_DELAY_MS);
  };
  const leave = (event) => {
    const target = marked(event);
    if (!target || (event.relatedTarget && target.contains(event.relatedTarget))) return;
    pointed = null;
    hideTip();
  };
  container.addEventListener("mouseover", show);
  container.addEventListener("focusin", show);
  container.addEventListener("mouseout", leave);
  container.addEventListener("focusout", leave);
  container.addEventListener("click", (event) => {
    const target = marked(event);
    if (!target || !clickOpens(target) || event.target.closest(ACTS)) return;
    hideTip();
    openRules(container.dataset.rules, target.dataset.rule);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "?" || !pointed || event.target.closest("input, textarea")) return;
    event.preventDefault();
    hideTip();
    openRules(container.dataset.rules, pointed);
  });
}

/** What a click already does something with: a choice on the board, a control. */
const ACTS = ".playable, button, a, input, select, textarea, [role=button]";

function clickOpens(target) {
  return !target.closest(ACTS) && !target.querySelector(".playable");
}

function showTip(target, section, opensOnClick) {
  if (!tip) {
    tip = h("div", { id: "rule-tip", class: "panel rule-tip", role: "tooltip", hidden: true });
    document.body.append(tip);
  }
  const first = (section.blocks || []).find((b) => b.kind === "p");
  replace(
    tip,
    h("strong", { class: "rule-tip-title", text: section.title }),
    first ? h("p", {}, runs(first.spans).map((run) => (typeof run === "string" ? run : run.textContent))) : null,
    h("p", { class: "rule-tip-more", text: opensOnClick ? "Click or press ? for the rule" : "Press ? for the rule" }),
  );
  tip.hidden = false;
  const box = target.getBoundingClientRect();
  const width = tip.offsetWidth;
  const left = Math.min(Math.max(8, box.left), window.innerWidth - width - 8);
  const below = box.bottom + 6 + tip.offsetHeight < window.innerHeight;
  tip.style.left = `${left}px`;
  tip.style.top = below ? `${box.bottom + 6}px` : `${Math.max(8, box.top - tip.offsetHeight - 6)}px`;
}

function hideTip() {
  clearTimeout(tipShow);
  if (tip) tip.hidden = true;
}
