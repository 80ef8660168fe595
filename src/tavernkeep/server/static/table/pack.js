// The pack the table plays, where it is a designer's (a table opened from the workbench):
// its name, the built-in pack it was changed from, and each difference in the lab's words
// ("quest[Rats in the Cellar].reward: 1 → 5"). A pack is the rules' data, which every seat
// may know (its cards as defined, never the deal): every page is shown the same, from the
// table's summary (`table.pack`, server/table_packs.py). A built-in pack shows nothing.

import { h, replace } from "../dom.js";
import { $, app } from "./state.js";

export function renderPack() {
  const node = $("table-pack");
  const pack = app.table && app.table.pack;
  node.hidden = !pack;
  if (!pack) {
    replace(node);
    return;
  }
  const changes = Array.isArray(pack.changes) ? pack.changes : [];
  replace(
    node,
    h(
      "p",
      { class: "table-pack-title" },
      "Played with the pack ",
      h("strong", { text: `'${pack.name}'` }),
      pack.base ? ` (changed from ${pack.base})` : "",
      changes.length ? ":" : ": the same cards as its base",
    ),
    changes.length ? h("ul", { class: "table-pack-changes", "aria-label": "What the pack changes" }, changes.map((text) => h("li", { text }))) : null,
    pack.more ? h("p", { class: "hint", text: `and ${pack.more} more differences` }) : null,
  );
}
