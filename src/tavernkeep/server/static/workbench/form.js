// A pack as a form, made from the JSON schema of the game's own pack model: the pydantic
// model the server checks every pack against when it loads (workbench_packs.py). No game
// has a form of its own: a list of entries (quests, heroes, monsters, houses) is a list of
// collapsible entries, an entry's fields are inputs by their schema's type (a number, a
// choice, a yes/no, a line of text, a list as "a, b"), and a shape the form has no input
// for (a hex's coordinates) is edited as JSON. Each input keeps its place in the pack (its
// path, `["quest", 3, "goal"]`), where the server's errors are shown beside it.
//
// The form edits `data` (the pack file's data, as JSON) in place and calls `onChange`
// after every edit; a field left empty is left out of the pack, as a file leaves it out.

import { h, replace } from "../dom.js";

const pathKey = (path) => JSON.stringify(path);
const SCALAR = new Set(["string", "integer", "number", "boolean"]);

function getAt(data, path) {
  return path.reduce((node, step) => (node == null ? undefined : node[step]), data);
}

/** Write a value into the pack (undefined: leave the field out), making the objects on
 *  its way that the pack did not have yet (an optional skill being filled in). */
function setAt(data, path, value) {
  let parent = data;
  for (const [i, step] of path.slice(0, -1).entries()) {
    if (parent[step] == null) {
      if (value === undefined) return;
      parent[step] = typeof path[i + 1] === "number" ? [] : {};
    }
    parent = parent[step];
  }
  const last = path[path.length - 1];
  if (value === undefined && !Array.isArray(parent)) delete parent[last];
  else parent[last] = value;
}

const words = (name) => String(name).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

/** A number as typed: a number where it is one, else the text (the server says why not). */
function numberOf(text) {
  const typed = text.trim();
  if (typed === "") return undefined;
  const n = Number(typed);
  return Number.isFinite(n) ? n : typed;
}

export class PackForm {
  constructor(root, schema, onChange) {
    this.root = root;
    this.schema = schema;
    this.defs = schema.$defs || {};
    this.onChange = onChange;
    this.data = {};
    this.fields = new Map(); // path key -> the field's wrapper
    this.entries = new Map(); // path key of an entry -> its <details>
    this.uid = 0;
  }

  /** The schema node behind a $ref, and whether null is allowed (an optional field). */
  resolve(node) {
    let nullable = false;
    let seen = node || {};
    while (seen.$ref) seen = { ...this.defs[seen.$ref.split("/").pop()], ...without(seen, "$ref") };
    if (Array.isArray(seen.anyOf)) {
      const others = seen.anyOf.filter((n) => n.type !== "null");
      nullable = others.length < seen.anyOf.length;
      if (others.length === 1) {
        const inner = this.resolve(others[0]).node;
        seen = { ...inner, title: seen.title || inner.title, description: seen.description, default: seen.default };
      }
    }
    return { node: seen, nullable };
  }

  isEntry(node) {
    const { node: item } = this.resolve(node || {});
    return item.type === "object" && !!item.properties;
  }

  show(data) {
    this.data = data;
    this.render();
  }

  render() {
    const open = new Set([...this.entries].filter(([, d]) => d.open).map(([k]) => k));
    this.fields.clear();
    this.entries.clear();
    const loose = [];
    const sections = [];
    const required = new Set(this.schema.required || []);
    for (const [name, raw] of Object.entries(this.schema.properties || {})) {
      const { node } = this.resolve(raw);
      if (node.type === "array" && this.isEntry(node.items)) sections.push(this.list([name], raw, node));
      else if (node.type === "object" && node.properties) sections.push(this.section([name], raw, node));
      else loose.push(this.field([name], raw, required.has(name)));
    }
    const top = loose.length ? h("section", { class: "wb-section" }, h("h3", {}, "This pack"), loose) : null;
    replace(this.root, top, sections);
    for (const key of open) if (this.entries.has(key)) this.entries.get(key).open = true;
  }

  /** A list of entries (`[[quest]]`): each a collapsible entry, with add and remove. */
  list(path, raw, node) {
    const items = getAt(this.data, path) || [];
    const title = raw.title || words(path[path.length - 1]);
    const add = h("button", {
      type: "button",
      class: "button wb-add",
      text: `Add to ${title}`,
      onClick: () => {
        const copy = structuredClone(items[items.length - 1] || {});
        if (typeof copy.name === "string") copy.name = freeName(copy.name, items);
        setAt(this.data, path, [...items, copy]);
        this.changed(true);
      },
    });
    const entries = items.map((item, i) => this.entry([...path, i], node.items, item));
    return h("section", { class: "wb-section" }, h("h3", {}, `${title} (${items.length})`), entries, add);
  }

  entry(path, schema, item) {
    const name = item && typeof item.name === "string" ? item.name : `#${path[path.length - 1] + 1}`;
    const label = h("span", { class: "wb-entry-name", text: name });
    const remove = h("button", {
      type: "button",
      class: "button danger wb-remove",
      text: "Remove this entry",
      onClick: () => {
        getAt(this.data, path.slice(0, -1)).splice(path[path.length - 1], 1);
        this.changed(true);
      },
    });
    const details = h(
      "details",
      { class: "wb-entry", dataset: { path: pathKey(path) } },
      h("summary", {}, label, h("span", { class: "wb-entry-error", "aria-hidden": "true" })),
      h("p", { class: "wb-field-error", role: "alert", hidden: true }),
      this.fieldsOf(path, schema),
      remove,
    );
    details.nameLabel = label;
    this.entries.set(pathKey(path), details);
    return details;
  }

  section(path, raw, node) {
    return h("section", { class: "wb-section" }, h("h3", {}, raw.title || words(path[0])), this.fieldsOf(path, node));
  }

  fieldsOf(path, schema) {
    const { node } = this.resolve(schema);
    const required = new Set(node.required || []);
    return h(
      "div",
      { class: "wb-fields" },
      // An entry's name first, as a card shows it; then its fields as the model lists them.
      Object.entries(node.properties || {})
        .sort(([a], [b]) => (b === "name") - (a === "name"))
        .map(([name, sub]) => this.field([...path, name], sub, required.has(name))),
    );
  }

  field(path, raw, required) {
    const { node, nullable } = this.resolve(raw);
    const name = path[path.length - 1];
    const title = raw.title || node.title || words(name);
    const value = getAt(this.data, path);
    if (node.type === "object" && node.properties) return this.nested(path, raw, node, value, title, required);
    if (node.type === "array" && this.isEntry(node.items)) return this.steps(path, node, value, title);
    const id = `wb-f-${this.uid++}`;
    const control = this.control(id, path, node, value, nullable || !required);
    const wrapper = h(
      "div",
      { class: "wb-field", dataset: { path: pathKey(path) } },
      h("label", { for: id, text: title }),
      control,
      h("p", { class: "wb-field-error", role: "alert", hidden: true }),
      node.description ? h("p", { class: "hint", text: node.description }) : null,
    );
    this.fields.set(pathKey(path), wrapper);
    return wrapper;
  }

  /** An input for one value, by its schema; it writes what is typed into the pack. */
  control(id, path, node, value, optional) {
    const fallback = value === undefined ? node.default : value;
    const write = (next) => {
      setAt(this.data, path, next);
      const entry = this.entries.get(pathKey(path.slice(0, 2)));
      if (path.length === 3 && path[2] === "name" && entry) entry.nameLabel.textContent = next ?? "";
      this.changed(false);
    };
    if (Array.isArray(node.enum)) {
      const choices = [...(optional ? [""] : []), ...node.enum];
      return h(
        "select",
        { id, onChange: (e) => write(e.target.value === "" ? undefined : typed(node, e.target.value)) },
        choices.map((c) => h("option", { value: String(c), text: c === "" ? "(not set)" : String(c), selected: c === (value ?? "") })),
      );
    }
    if (node.type === "boolean") {
      return h("input", { id, type: "checkbox", checked: fallback === true, onChange: (e) => write(e.target.checked) });
    }
    if (node.type === "integer" || node.type === "number") {
      return h("input", {
        id,
        type: "text",
        inputmode: node.type === "integer" ? "numeric" : "decimal",
        class: "wb-number",
        value: value === undefined ? "" : String(value),
        placeholder: node.default === undefined || node.default === null ? "" : String(node.default),
        onInput: (e) => write(numberOf(e.target.value)),
      });
    }
    if (node.type === "string") {
      const long = (node.maxLength || 0) > 80 || path[path.length - 1] === "text";
      return h(long ? "textarea" : "input", {
        id,
        ...(long ? { rows: 2 } : { type: "text" }),
        value: value ?? "",
        placeholder: typeof node.default === "string" ? node.default : "",
        onInput: (e) => write(e.target.value === "" && optional ? undefined : e.target.value),
      });
    }
    const items = node.type === "array" ? this.resolve(node.items || {}).node : null;
    if (items && !node.prefixItems && (SCALAR.has(items.type) || Array.isArray(items.enum))) {
      // A list of numbers or names, as people write one: "1, -1" or "Bard, Thief".
      return h("input", {
        id,
        type: "text",
        value: Array.isArray(value) ? value.join(", ") : "",
        placeholder: Array.isArray(node.default) ? node.default.join(", ") : "a, b",
        onInput: (e) => {
          const parts = e.target.value.split(",").map((p) => p.trim()).filter((p) => p !== "");
          const list = parts.map((p) => (items.type === "integer" || items.type === "number" ? numberOf(p) : p));
          write(e.target.value.trim() === "" && optional ? undefined : list);
        },
      });
    }
    // Anything else (a tuple, a union of shapes): its JSON, checked as it is typed.
    return h("textarea", {
      id,
      rows: 3,
      class: "wb-json",
      value: value === undefined ? "" : JSON.stringify(value),
      onInput: (e) => {
        const box = e.target.closest(".wb-field").querySelector(".wb-field-error");
        if (e.target.value.trim() === "") return write(undefined);
        try {
          const parsed = JSON.parse(e.target.value);
          box.hidden = true;
          write(parsed);
        } catch (err) {
          box.textContent = `not JSON: ${err.message}`;
          box.hidden = false;
        }
      },
    });
  }

  /** An object inside an entry (a Leader's skill), or the button that adds an optional one. */
  nested(path, raw, node, value, title, required) {
    const fieldset = h("fieldset", { class: "wb-nested", dataset: { path: pathKey(path) } }, h("legend", { text: title }));
    this.fields.set(pathKey(path), fieldset);
    if ((value === undefined || value === null) && !required) {
      fieldset.append(
        h("p", { class: "wb-field-error", role: "alert", hidden: true }),
        h("button", { type: "button", class: "button wb-add", text: `Add ${title}`, onClick: () => { setAt(this.data, path, {}); this.changed(true); } }),
      );
      return fieldset;
    }
    fieldset.append(h("p", { class: "wb-field-error", role: "alert", hidden: true }), this.fieldsOf(path, node));
    if (!required) {
      fieldset.append(h("button", { type: "button", class: "button danger wb-remove", text: `Remove ${title}`, onClick: () => { setAt(this.data, path, undefined); this.changed(true); } }));
    }
    return fieldset;
  }

  /** A list of objects inside an entry (a card's effect steps), each with its fields. */
  steps(path, node, value, title) {
    const items = Array.isArray(value) ? value : [];
    const fieldset = h("fieldset", { class: "wb-nested", dataset: { path: pathKey(path) } }, h("legend", { text: title }));
    this.fields.set(pathKey(path), fieldset);
    fieldset.append(h("p", { class: "wb-field-error", role: "alert", hidden: true }));
    items.forEach((_, i) => {
      const remove = h("button", { type: "button", class: "button danger wb-remove", text: `Remove #${i + 1}`, onClick: () => { items.splice(i, 1); this.changed(true); } });
      fieldset.append(h("div", { class: "wb-step" }, h("span", { class: "wb-step-number", text: `#${i + 1}` }), this.fieldsOf([...path, i], node.items), remove));
    });
    fieldset.append(h("button", { type: "button", class: "button wb-add", text: `Add to ${title}`, onClick: () => { setAt(this.data, path, [...items, structuredClone(items[items.length - 1] || {})]); this.changed(true); } }));
    return fieldset;
  }

  changed(structure) {
    if (structure) this.render();
    this.onChange();
  }

  /**
   * The server's errors beside their fields: each at the field its path names, or the
   * nearest one above it (an entry, a list). Returns those no field here could show.
   */
  showErrors(errors) {
    for (const box of this.root.querySelectorAll(".wb-field-error")) box.hidden = true;
    for (const el of this.root.querySelectorAll(".invalid")) el.classList.remove("invalid");
    for (const el of this.root.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
    const unplaced = [];
    for (const { path, message } of errors || []) {
      let place = null;
      for (let n = path.length; n > 0 && !place; n--) {
        place = this.fields.get(pathKey(path.slice(0, n))) || this.entries.get(pathKey(path.slice(0, n)));
      }
      if (!place) {
        unplaced.push(`${path.join(".")}: ${message}`);
        continue;
      }
      place.classList.add("invalid");
      const box = place.querySelector(":scope > .wb-field-error");
      box.textContent = box.hidden ? message : `${box.textContent}; ${message}`;
      box.hidden = false;
      const control = place.querySelector(":scope > input, :scope > select, :scope > textarea");
      if (control) control.setAttribute("aria-invalid", "true");
      for (let up = place.closest("details"); up; up = up.parentElement.closest("details")) {
        up.open = true;
        up.classList.add("invalid");
      }
    }
    return unplaced;
  }

  /** Mark the entries a change touched (`changes`: the server's, each with its entry). */
  markChanged(changes) {
    const touched = new Set((changes || []).map((c) => `${String(c.where).split("[")[0]}\u0000${c.entry}`));
    for (const [key, details] of this.entries) {
      const [section] = JSON.parse(key);
      details.classList.toggle("changed", touched.has(`${section}\u0000${details.nameLabel.textContent}`));
    }
  }
}

function without(node, key) {
  const copy = { ...node };
  delete copy[key];
  return copy;
}

function typed(node, text) {
  return node.type === "integer" || node.type === "number" ? numberOf(text) : text;
}

function freeName(name, items) {
  const taken = new Set(items.map((i) => i && i.name));
  for (let n = 2; ; n++) {
    const next = `${name} (${n})`;
    if (!taken.has(next)) return next;
  }
}
