// "What does my change do?": the comparison panel. It starts a comparison of the pack as
// the form holds it against the pack it came from, with the bots chosen, then follows it
// (a request every half second): the progress bar, the findings in the terminal's words,
// and the charts, drawn again as the games come in. The comparison is the server's (kept
// in its database), so a reload finds the game's latest one and follows it on.

import { h, replace } from "../dom.js";
import { Refused, call } from "./api.js";
import { drawCharts } from "./charts.js";

const $ = (id) => document.getElementById(id);
const FOLLOW_MS = 500;
const ENDED = new Set(["done", "failed", "cancelled"]);

export class RunPanel {
  constructor({ current, onError, changed = () => {} }) {
    this.current = current; // () => {game, base, name, data, valid}
    this.onError = onError;
    this.changed = changed; // () => a comparison started or ended: the history lists it
    this.game = null;
    this.run = null;
    this.timer = null;
    $("run-start").addEventListener("click", () => this.start());
    $("run-cancel").addEventListener("click", () => this.cancel());
    $("seat-add").addEventListener("click", () => this.setSeats([...this.seats(), this.game.bots[0]]));
    $("seat-remove").addEventListener("click", () => this.setSeats(this.seats().slice(0, -1)));
  }

  /** A game chosen: its bots and usual seats, and its latest comparison, followed. */
  async open(game) {
    this.game = game;
    $("run-games").max = String(game.most_games);
    this.setSeats(game.seats);
    this.stop();
    this.show(null);
    const runs = await call(`/api/workbench/runs?game=${encodeURIComponent(game.game)}`);
    if (runs.length) await this.follow(runs[0].id);
  }

  seats() {
    return [...$("run-seats").querySelectorAll("select")].map((s) => s.value);
  }

  setSeats(seats) {
    const { bots, min_players: least, max_players: most } = this.game;
    const kept = seats.slice(0, most);
    replace(
      $("run-seats"),
      kept.map((spec, i) =>
        h(
          "li",
          {},
          h("label", { for: `run-seat-${i}`, text: `Seat ${i + 1}` }),
          h("select", { id: `run-seat-${i}` }, bots.map((b) => h("option", { value: b, text: b, selected: b === spec }))),
        ),
      ),
    );
    $("seat-add").disabled = kept.length >= most;
    $("seat-remove").disabled = kept.length <= least;
  }

  async start() {
    const pack = this.current();
    if (!pack.valid) {
      this.onError("the pack has a mistake (shown beside its field): fix it first");
      return;
    }
    const games = Number($("run-games").value);
    $("run-start").disabled = true;
    try {
      const run = await call("/api/workbench/runs", {
        json: { game: pack.game, base: pack.base, name: pack.name, data: pack.data, seats: this.seats(), games },
      });
      this.onError(null);
      await this.follow(run.id);
      this.changed();
    } catch (err) {
      this.onError(err instanceof Refused ? err.message : String(err));
    } finally {
      $("run-start").disabled = false;
    }
  }

  async cancel() {
    if (!this.run) return;
    try {
      await call(`/api/workbench/runs/${this.run.id}/cancel`, { method: "POST" });
    } catch (err) {
      this.onError(err.message);
    }
    await this.refresh();
  }

  async follow(id) {
    this.stop();
    this.run = { id };
    await this.refresh();
  }

  async refresh() {
    if (!this.run) return;
    const id = this.run.id;
    let run;
    try {
      run = await call(`/api/workbench/runs/${encodeURIComponent(id)}`);
    } catch (err) {
      this.onError(err.message);
      return;
    }
    if (!this.run || this.run.id !== id) return; // another comparison was chosen meanwhile
    const ends = ENDED.has(run.state) && this.run.state !== undefined && !ENDED.has(this.run.state);
    this.run = run;
    this.show(run);
    if (ends) this.changed(); // it ended while followed: its headline is in
    if (!ENDED.has(run.state)) this.timer = setTimeout(() => this.refresh(), FOLLOW_MS);
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  /** The comparison as it stands: state, progress, findings and charts. */
  show(run) {
    const status = $("run-status");
    status.hidden = !run;
    if (!run) {
      this.drawn = null;
      replace($("run-findings"));
      replace($("run-charts"));
      return;
    }
    const share = run.total ? run.done / run.total : 0;
    $("run-progress").value = run.state === "done" ? 1 : share;
    $("run-cancel").hidden = ENDED.has(run.state);
    const each = `${run.games.toLocaleString("en")} games with each pack`;
    const text = {
      queued: `Waiting for the comparison before it: ${each}`,
      running: `Playing: ${Math.round(share * 100)}% of ${each}`,
      done: `Done: ${each}, ${run.changed} against ${run.base}`,
      failed: `Failed: ${run.error}`,
      cancelled: `Cancelled after ${Math.floor(run.done / 2).toLocaleString("en")} of ${each}`,
    }[run.state];
    $("run-text").textContent = text || run.state;
    status.dataset.state = run.state;
    const result = run.result;
    const drawn = result ? `${run.id} ${run.state} ${result.games}` : null;
    if (drawn === this.drawn) return; // nothing new since the last look: the charts stay
    this.drawn = drawn;
    if (!result) {
      replace($("run-findings"));
      replace($("run-charts"));
      return;
    }
    const sofar = run.state === "done" ? [] : [h("li", { class: "hint", text: `So far, from ${result.games.toLocaleString("en")} games with each pack:` })];
    replace($("run-findings"), sofar, result.findings.map((line) => h("li", { class: "wb-finding", text: line })));
    replace($("run-charts"), drawCharts(result.charts));
  }
}
