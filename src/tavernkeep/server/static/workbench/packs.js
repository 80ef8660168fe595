// The packs panel: a game's packs (its own, and those saved in the workbench), and what
// is done with one as a file: saved under a name, downloaded as the TOML the command line
// reads, uploaded from a TOML file, deleted. Each change is the server's to refuse, in
// one line, before anything is kept.

import { h, replace } from "../dom.js";
import { Refused, call, gamePath, packPath } from "./api.js";

const $ = (id) => document.getElementById(id);

export class PacksPanel {
  constructor({ current, open, saved, onError }) {
    this.current = current; // () => {game, name, saved, base, data}
    this.open = open; // (name) => open that pack in the form
    this.saved = saved; // (name, errors) => a save's outcome, for the form
    this.onError = onError;
    this.game = null;
    $("save-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.save($("pack-name").value);
    });
    $("upload-pack").addEventListener("change", (e) => this.upload(e.target.files[0]));
    $("delete-pack").addEventListener("click", () => this.remove());
  }

  /** The game's packs, the open one marked. */
  list(game, chosen) {
    this.game = game;
    const item = (name, note) =>
      h(
        "li",
        {},
        h("button", { type: "button", class: "wb-pack" + (name === chosen ? " chosen" : ""), "aria-current": name === chosen ? "true" : null, onClick: () => this.open(name) }, h("span", { text: name }), h("span", { class: "hint", text: note })),
      );
    replace(
      $("pack-list"),
      game.packs.map((name) => item(name, `${game.title}'s own`)),
      game.saved.map((p) => item(p.name, `from ${p.base}`)),
    );
  }

  /** The open pack's name, file link and delete button. */
  showPack(pack, dirty) {
    $("pack-name").value = pack.saved ? pack.name : "";
    const link = $("download-pack");
    link.href = `${packPath(pack.game, pack.name)}/toml`;
    link.title = dirty ? "The pack as last saved: save your changes first to download them" : "The pack's TOML file";
    $("delete-pack").hidden = !pack.saved;
    $("save-note").textContent = dirty ? "Unsaved changes: the download is the pack as last saved." : "";
  }

  async refresh(chosen) {
    const game = await call(gamePath(this.game.game));
    this.game.saved = game.saved;
    this.list(this.game, chosen);
  }

  async save(name) {
    const pack = this.current();
    try {
      const kept = await call(packPath(pack.game, name.trim()), { method: "PUT", json: { data: pack.data, base: pack.base } });
      this.onError(null);
      await this.refresh(kept.name);
      this.saved(kept.name, []);
      $("save-note").textContent = `Saved as ${kept.name}.`;
    } catch (err) {
      this.onError(err.message);
      if (err instanceof Refused) this.saved(null, err.body.errors || []);
    }
  }

  async upload(file) {
    if (!file) return;
    const input = $("upload-pack");
    const name = file.name.replace(/\.toml$/i, "").replace(/[^A-Za-z0-9 _.-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "").slice(0, 60) || "uploaded";
    try {
      const text = await file.text();
      const kept = await call(`${gamePath(this.game.game)}/upload`, { json: { name, toml: text, base: this.current().base } });
      this.onError(null);
      await this.refresh(kept.name);
      await this.open(kept.name);
      $("save-note").textContent = `Uploaded as ${kept.name}.`;
    } catch (err) {
      this.onError(err.message);
    } finally {
      input.value = "";
    }
  }

  async remove() {
    const pack = this.current();
    if (!pack.saved || !window.confirm(`Delete the pack ${pack.name}? Its file is not kept anywhere else.`)) return;
    try {
      await call(packPath(pack.game, pack.name), { method: "DELETE" });
      this.onError(null);
      await this.refresh(pack.base);
      await this.open(pack.base);
    } catch (err) {
      this.onError(err.message);
    }
  }
}
