// How to play: a game's rules for players, opened beside whatever the page shows (the
// lobby's shelf, a table's board), never in its place. The server sends the game's
// HOW_TO_PLAY.md read into text runs and lists (engine/howto.py); every run is set as
// text. One drawer a page, shared by the lobby and the table.

import { api, h, replace } from "./dom.js";

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
        rules.intro.map(block),
        rules.sections.map((s) =>
          h(
            "section",
            { class: "rules-section", id: `rules-${s.id}`, dataset: { section: s.id } },
            h("h3", { text: s.title }),
            s.blocks.map(block),
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

function block(b) {
  if (b.kind === "ul" || b.kind === "ol") return h(b.kind, {}, (b.items || []).map((item) => h("li", {}, runs(item))));
  if (b.kind === "h3") return h("h4", {}, runs(b.spans));
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
