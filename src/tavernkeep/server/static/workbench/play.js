// "Play it": a table opened with the open pack as saved, for the designer and their
// friends. The seats are chosen as in the lobby (a person, an open seat, a bot by level or
// by name); the table answers as the lobby's does, so each person's seat is an invite link
// to send (the designer's own too: opening it takes the seat), and this browser keeps the
// host key for the table page's host tools. Only a saved pack, unchanged since its save,
// can be played: the table plays the pack the designer saw.

import { agentLabel, copyField, h, inviteUrl, playerName, rememberHost, replace } from "../dom.js";
import { call } from "./api.js";

const $ = (id) => document.getElementById(id);

export class PlayPanel {
  constructor({ current, onError }) {
    this.current = current; // () => {game, name, saved, digest, dirty, valid}
    this.onError = onError;
    this.game = null; // the workbench's game: title, min and max players, seats
    this.table = null; // the lobby's game: its levels and bots
    this.choices = [];
    $("play-open").addEventListener("click", () => this.openTable());
    $("play-seat-add").addEventListener("click", () => this.setSeats([...this.seats(), this.defaultBot()]));
    $("play-seat-remove").addEventListener("click", () => this.setSeats(this.seats().slice(0, -1)));
  }

  /** A game chosen: its seat choices (the lobby's), and a table of its usual size. */
  async open(game) {
    this.game = game;
    const games = await call("/api/games");
    this.table = games.find((g) => g.name === game.game) || { levels: [], bots: game.bots };
    const levels = (this.table.levels || []).map((l) => l.bot);
    this.choices = ["human", "open", ...levels, ...(this.table.bots || [])];
    const size = Math.min(game.max_players, Math.max(game.min_players, game.seats.length));
    this.setSeats(Array.from({ length: size }, (_, seat) => (seat === 0 ? "human" : this.defaultBot())));
    replace($("play-created"));
    $("play-created").hidden = true;
    this.update();
  }

  defaultBot() {
    const levels = (this.table.levels || []).map((l) => l.bot);
    if (levels.includes("bot:normal")) return "bot:normal";
    return (this.table.bots || [])[0] || "human";
  }

  label(choice) {
    if (choice === "human") return "a person (an invite link)";
    if (choice === "open") return "an open seat (whoever joins from the lobby)";
    const level = (this.table.levels || []).find((l) => l.bot === choice);
    return level ? `${level.name} bot` : agentLabel(choice);
  }

  seats() {
    return [...$("play-seats").querySelectorAll("select")].map((s) => s.value);
  }

  setSeats(seats) {
    const { min_players: least, max_players: most } = this.game;
    const kept = seats.slice(0, most);
    replace(
      $("play-seats"),
      kept.map((spec, i) =>
        h(
          "li",
          {},
          h("label", { for: `play-seat-${i}`, text: playerName(i) }),
          h("select", { id: `play-seat-${i}` }, this.choices.map((c) => h("option", { value: c, text: this.label(c), selected: c === spec }))),
        ),
      ),
    );
    $("play-seat-add").disabled = kept.length >= most;
    $("play-seat-remove").disabled = kept.length <= least;
  }

  /** Whether the open pack can be played as it is, and if not, why (said beside the button). */
  update() {
    const pack = this.current();
    let why = null;
    if (!pack.saved) why = "Save your change under a name first: a table plays a saved pack (the game's own is played from the lobby).";
    else if (pack.dirty) why = "Save your changes first: the table plays the pack as saved.";
    else if (!pack.valid) why = "The pack has a mistake (shown beside its field): fix it and save it first.";
    $("play-open").disabled = why !== null;
    $("play-note").textContent = why || `Opens a table with ${pack.name} as saved. Each person's seat gets an invite link to send; open yours here to take it.`;
  }

  async openTable() {
    const pack = this.current();
    const chosen = this.seats();
    const open = chosen.flatMap((spec, seat) => (spec === "open" ? [seat] : []));
    const seats = chosen.map((spec) => (spec === "open" ? "human" : spec));
    $("play-open").disabled = true;
    try {
      const table = await call("/api/workbench/tables", {
        json: { game: pack.game, pack: pack.name, digest: pack.digest, seats, open },
      });
      this.onError(null);
      if (table.host) rememberHost(table.id, table.host);
      this.showTable(table, pack, new Set(open));
    } catch (err) {
      this.onError(err.message);
    } finally {
      this.update();
    }
  }

  /** The table just opened: a link for each person's seat, and one to watch. */
  showTable(table, pack, open) {
    const box = $("play-created");
    box.hidden = false;
    const watch = inviteUrl(table.spectate);
    const row = (label, url, extra) => {
      const [input, copy] = copyField(url, `${label} link`);
      return h("div", { class: "link-row" }, h("span", { class: "link-label", text: label }), input, copy, extra);
    };
    replace(
      box,
      h("h3", {}, `${this.game.title} with ${pack.name}: table `, h("code", { text: table.id }), " is open"),
      h("p", { class: "hint", text: "Each link is one person's seat: the first browser to open it holds it. Send each to its person alone; the links are shown only now." }),
      table.seats.map((entry) => {
        const name = playerName(entry.seat);
        if (entry.invite) {
          const url = inviteUrl(entry.invite);
          return row(name, url, h("a", { class: "button primary", href: url, target: "_blank", rel: "noopener", text: `Take seat ${entry.seat + 1}` }));
        }
        const said = open.has(entry.seat) ? "open: whoever joins from the lobby takes it" : this.label(entry.agent);
        return h("div", { class: "link-row bot" }, h("span", { class: "link-label", text: name }), h("span", { class: "muted", text: said }));
      }),
      row("Spectators", watch, h("a", { class: "button secondary", href: watch, target: "_blank", rel: "noopener", text: "Watch" })),
    );
  }
}
