// The history: every comparison of the game, newest first, as the server keeps them
// (its packs, its games, its headline finding, when), any one shown again in the run
// panel, and any two set side by side: their figures in one table, a row for each thing
// either says something of (a seat, a card, a Party Leader), then each one's findings and
// charts beside the other's.

import { h, replace } from "../dom.js";
import { call } from "./api.js";
import { drawCharts } from "./charts.js";

const $ = (id) => document.getElementById(id);
const STATES = { queued: "waiting", running: "playing", done: "", failed: "failed", cancelled: "cancelled" };

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
}

function packs(run) {
  return `${run.changed} against ${run.base}`;
}

function shortDigest(digest) {
  return digest ? digest.slice(0, 8) : "";
}

export class HistoryPanel {
  constructor({ show, onError }) {
    this.show = show; // (run id) => follow that comparison in the run panel
    this.onError = onError;
    this.game = null;
    this.runs = [];
    this.chosen = []; // the ids ticked, oldest tick first: at most two
    $("history-beside").addEventListener("click", () => this.beside());
  }

  async open(game) {
    this.game = game;
    this.chosen = [];
    replace($("beside"));
    $("beside").hidden = true;
    await this.refresh();
  }

  async refresh() {
    if (!this.game) return;
    try {
      this.runs = await call(`/api/workbench/runs?game=${encodeURIComponent(this.game.game)}`);
    } catch (err) {
      this.onError(err.message);
      return;
    }
    this.chosen = this.chosen.filter((id) => this.runs.some((r) => r.id === id));
    this.list();
  }

  list() {
    const rows = this.runs.map((run) => {
      const state = STATES[run.state] ?? run.state;
      const finding = run.state === "failed" ? run.error : run.headline || (state ? `(${state})` : "");
      const tick = h("input", {
        type: "checkbox",
        "aria-label": `Set ${packs(run)} (${when(run.created_at)}) beside another`,
        checked: this.chosen.includes(run.id),
        onchange: (e) => this.tick(run.id, e.target.checked),
      });
      return h(
        "tr",
        { dataset: { run: run.id, state: run.state } },
        h("td", {}, tick),
        h("td", { text: when(run.created_at) }),
        h("td", {}, h("span", { text: packs(run) }), run.digest ? h("span", { class: "hint wb-digest", text: ` ${shortDigest(run.digest)}`, title: `the changed pack's digest: ${run.digest}` }) : null),
        h("td", { text: `${(run.games || 0).toLocaleString("en")} each${state ? `, ${state}` : ""}` }),
        h("td", { class: "wb-headline", text: finding || "" }),
        h("td", {}, h("button", { type: "button", class: "button secondary", text: "Show", onClick: () => this.show(run.id) })),
      );
    });
    replace($("history-list"), rows.length ? rows : h("tr", {}, h("td", { colspan: "6", class: "hint", text: "No comparison yet: what does your change do?" })));
    $("history-beside").disabled = this.chosen.length !== 2;
  }

  tick(id, on) {
    this.chosen = this.chosen.filter((c) => c !== id);
    if (on) this.chosen.push(id);
    if (this.chosen.length > 2) this.chosen = this.chosen.slice(-2); // the latest two ticks
    this.list();
  }

  async beside() {
    if (this.chosen.length !== 2) return;
    const [first, second] = this.chosen;
    try {
      const both = await call(`/api/workbench/runs/${encodeURIComponent(first)}/beside/${encodeURIComponent(second)}`);
      this.onError(null);
      this.draw(both);
    } catch (err) {
      this.onError(err.message);
    }
  }

  /** The two comparisons: a table of their figures, then each one's findings and charts. */
  draw({ runs, rows }) {
    const box = $("beside");
    box.hidden = false;
    const heads = runs.map((run) => `${packs(run)}, ${(run.games || 0).toLocaleString("en")} games each (${when(run.created_at)})`);
    const table = h(
      "table",
      { class: "wb-beside-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "" }), heads.map((text) => h("th", { scope: "col", text })))),
      h(
        "tbody",
        {},
        rows.map((row) => h("tr", {}, h("th", { scope: "row", text: row.what }), row.cells.map((cell) => h("td", { text: cell ?? "—" })))),
      ),
    );
    const column = (run, heading) =>
      h(
        "div",
        { class: "wb-beside-run", dataset: { run: run.id } },
        h("h3", { text: heading }),
        run.result && run.result.changes && run.result.changes.length
          ? h("ul", { class: "wb-changes", "aria-label": "What changed" }, run.result.changes.map((c) => h("li", { text: c.text })))
          : null,
        run.result
          ? h("ul", { class: "wb-findings", "aria-label": "Findings" }, run.result.findings.map((line) => h("li", { class: "wb-finding", text: line })))
          : h("p", { class: "hint", text: "No games in yet." }),
        run.result ? h("div", { class: "wb-charts" }, drawCharts(run.result.charts)) : null,
      );
    replace(
      box,
      h("h3", { text: "Side by side" }),
      rows.length ? table : h("p", { class: "hint", text: "Neither has figures to set side by side yet." }),
      h("div", { class: "wb-beside-runs" }, runs.map((run, i) => column(run, heads[i]))),
    );
    box.scrollIntoView({ behavior: "smooth", block: "nearest" });
  }
}
