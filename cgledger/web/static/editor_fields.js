// The definition editor's fields beyond a hex (DESIGN §7, §9, §15): the
// definition's own (title, notes, the Attack-Chit limits, whatever else the
// ruleset's schema holds, as JSON), the map group's (id, title, and the
// ruleset's extras such as 8.6033's lvp_total), and its Eligible Entry Areas
// (with the ruleset's extras: SSR CG6's arrow hex, CG Date and Entry Codes).
// Each field is labelled with the rule its schema description names.
import { h } from "./api.js";
import { fillEntrySelect } from "./editor_hex.js";
import { $, ed, emit, group, remember, ruleIn, schemaOf } from "./editor_state.js";

const OWN = new Set(["title", "notes", "sample", "attack_chits", "rg_chart", "map_groups"]);
const GROUP_OWN = new Set(["id", "title", "hexes", "entry_areas", "hq", "initial_control"]);
const AREA_OWN = new Set(["id", "side", "hexes"]);

const edit = (fn, what = {}) => { remember(); fn(); emit("edited", what); };
const described = (prop) => (prop && prop.description) || "";
const ruleNo = (prop) => {
  const rule = ruleIn(described(prop));
  return rule ? h("span", { class: "rule-no" }, rule) : null;
};
const kindOf = (prop) => {
  const types = new Set([prop.type, ...(prop.anyOf || []).map((x) => x.type)].filter(Boolean));
  if (types.has("array")) return "list";
  if (types.has("integer") || types.has("number")) return "number";
  if (types.has("boolean")) return "bool";
  return "text";
};

// An input for an extra field of the schema: a number, a text, a list typed
// with ';' between items; empty leaves the field out (its default).
function extraInput(id, prop, value, set) {
  const kind = kindOf(prop);
  let input;
  if (kind === "bool") {
    input = h("input", { type: "checkbox", id, checked: !!value });
    input.addEventListener("change", () => set(input.checked));
    return input;
  }
  const shown = value === null || value === undefined ? "" : kind === "list" ? value.join("; ") : String(value);
  input = h("input", { id, type: kind === "number" ? "number" : "text", value: shown, class: kind === "number" ? "num" : null, size: kind === "list" ? 18 : 10 });
  input.addEventListener("input", () => {
    const v = input.value.trim();
    if (v === "") set(undefined);
    else if (kind === "number") set(Number(v));
    else if (kind === "list") set(v.split(";").map((x) => x.trim()).filter(Boolean));
    else set(v);
  });
  return input;
}

const assign = (obj, key, value) => { if (value === undefined) delete obj[key]; else obj[key] = value; };

// ------------------------------------------------------------------ the definition

export function renderDocFields() {
  const doc = ed.doc;
  const props = (ed.schema && ed.schema.properties) || {};
  const title = h("input", { id: "doc-title", maxlength: 200, value: doc.title || "", size: 40 });
  title.addEventListener("input", () => edit(() => assign(doc, "title", title.value)));
  const notes = h("textarea", { id: "doc-notes", rows: 2, cols: 40 }, doc.notes || "");
  notes.addEventListener("input", () => edit(() => assign(doc, "notes", notes.value || undefined)));
  const sample = h("input", { type: "checkbox", id: "doc-sample", checked: !!doc.sample });
  sample.addEventListener("change", () => edit(() => assign(doc, "sample", sample.checked || undefined)));
  const chits = ed.rs.sides.map((side) => {
    const input = h("input", { type: "number", class: "num", min: 0, max: 1000, id: `doc-chits-${side}`,
      value: (doc.attack_chits || {})[side] ?? "", placeholder: "no limit" });
    input.addEventListener("input", () => edit(() => {
      doc.attack_chits = doc.attack_chits || {};
      assign(doc.attack_chits, side, input.value === "" ? undefined : Number(input.value));
    }));
    return h("label", { class: "inline" }, side, input);
  });
  // The rest of the schema's fields, as one JSON object.
  const rest = Object.fromEntries(Object.entries(doc).filter(([k]) => !OWN.has(k)));
  const other = h("textarea", { id: "doc-other", rows: 4, cols: 50, spellcheck: "false", "aria-describedby": "doc-other-help doc-other-status" },
    JSON.stringify(rest, null, 1));
  const status = h("p", { id: "doc-other-status", class: "status", role: "status" });
  other.addEventListener("input", () => {
    let parsed;
    try { parsed = JSON.parse(other.value || "{}"); } catch (e) { status.textContent = `not JSON yet: ${e.message}`; other.setAttribute("aria-invalid", "true"); return; }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) { status.textContent = "a JSON object, please"; return; }
    status.textContent = "";
    other.removeAttribute("aria-invalid");
    edit(() => {
      for (const k of Object.keys(doc)) if (!OWN.has(k)) delete doc[k];
      for (const [k, v] of Object.entries(parsed)) if (!OWN.has(k)) doc[k] = v;
    });
  });
  const help = Object.entries(props).filter(([k]) => !OWN.has(k)).map(([k, p]) =>
    h("li", {}, h("code", {}, k), ": ", described(p) || p.title || ""));
  $("doc-fields").replaceChildren(
    h("label", { for: "doc-title" }, "Title"), title,
    h("label", { for: "doc-notes" }, "Notes"), notes,
    h("label", { class: "inline" }, sample, "sample: synthetic data, not a real CG (DESIGN §7)"),
    h("fieldset", { id: "doc-chits" }, h("legend", {}, "Attack Chits, the most a side may pick ", ruleNo(props.attack_chits)), ...chits),
    h("label", { for: "doc-other" }, "Other fields (JSON)"), other, status,
    h("details", { id: "doc-other-help" }, h("summary", {}, "what they are"), h("ul", {}, help)));
}

// ------------------------------------------------------------------ the map group

export function renderGroupFields() {
  const g = group();
  const box = $("group-fields");
  if (!g) { box.replaceChildren(); return; }
  const node = schemaOf("map_group");
  const id = h("input", { id: "group-id", maxlength: 20, size: 6, value: g.id });
  id.addEventListener("change", () => {
    const v = id.value.trim();
    if (!v || ed.doc.map_groups.some((x) => x !== g && x.id === v)) { id.value = g.id; return; }
    edit(() => { g.id = v; ed.gid = v; }, { group: true });
  });
  const title = h("input", { id: "group-title", maxlength: 200, size: 24, value: g.title || "" });
  title.addEventListener("input", () => edit(() => assign(g, "title", title.value)));
  const extras = Object.entries((node && node.properties) || {}).filter(([k]) => !GROUP_OWN.has(k)).map(([k, p]) => {
    const input = extraInput(`group-${k}`, p, g[k], (v) => edit(() => assign(g, k, v)));
    return h("label", { class: "inline", for: input.id }, p.title || k, " ", ruleNo(p), input);
  });
  const lvp = g.hexes.reduce((n, x) => n + (x.lvp || 0), 0);
  box.replaceChildren(
    h("label", { class: "inline", for: "group-id" }, "Map group id", id),
    h("label", { class: "inline", for: "group-title" }, "title", title), ...extras,
    h("span", { class: "rule", id: "group-lvp" }, `${g.hexes.length} hexes; their LVP add up to ${lvp}`));
}

// ------------------------------------------------------------------ Entry Areas

export function renderEntryAreas() {
  const g = group();
  const box = $("entry-areas");
  if (!g) { box.replaceChildren(); return; }
  const node = schemaOf("entry_area");
  const extras = Object.entries((node && node.properties) || {}).filter(([k]) => !AREA_OWN.has(k));
  const rows = (g.entry_areas || []).map((a, i) => {
    const side = h("select", { id: `entry-side-${i}`, "aria-label": `Entry Area ${a.id}: side` }, ed.rs.sides.map((x) => h("option", { value: x, selected: x === a.side }, x)));
    side.addEventListener("change", () => edit(() => { a.side = side.value; }, { hexes: [...a.hexes] }));
    const cells = extras.map(([k, p]) => {
      const input = extraInput(`entry-${k}-${i}`, p, a[k], (v) => edit(() => assign(a, k, v), { hexes: [...a.hexes] }));
      input.setAttribute("aria-label", `Entry Area ${a.id}: ${p.title || k}`);
      return h("td", {}, input);
    });
    const drop = h("button", { type: "button", "aria-label": `delete Entry Area ${a.id}` }, "delete");
    drop.addEventListener("click", () => edit(() => { g.entry_areas.splice(i, 1); }, { hexes: [...a.hexes], areas: true }));
    return h("tr", { dataset: { area: a.id } }, h("th", { scope: "row" }, a.id), h("td", {}, side), h("td", { class: "count" }, String(a.hexes.length)), ...cells, h("td", {}, drop));
  });
  const newId = h("input", { id: "entry-new-id", maxlength: 20, size: 8, placeholder: "US-N" });
  const newSide = h("select", { id: "entry-new-side" }, ed.rs.sides.map((x) => h("option", { value: x }, x)));
  const add = h("button", { type: "button", id: "entry-add" }, "add an Entry Area");
  add.addEventListener("click", () => {
    const v = newId.value.trim();
    if (!v || (g.entry_areas || []).some((a) => a.id === v)) { newId.setAttribute("aria-invalid", "true"); return; }
    newId.removeAttribute("aria-invalid");
    edit(() => { g.entry_areas = g.entry_areas || []; g.entry_areas.push({ id: v, side: newSide.value, hexes: [] }); }, { areas: true });
    const select = $("brush-entry");
    if (select) select.value = v;
  });
  const head = h("tr", {}, h("th", { scope: "col" }, "id"), h("th", { scope: "col" }, "side"), h("th", { scope: "col" }, "hexes"),
    ...extras.map(([k, p]) => h("th", { scope: "col", title: described(p) }, p.title || k, " ", ruleNo(p))), h("th", {}, ""));
  box.replaceChildren(
    h("div", { class: "scroll" }, h("table", { id: "entry-table" }, h("thead", {}, head), h("tbody", {}, rows))),
    h("div", { class: "row" },
      h("label", { class: "inline", for: "entry-new-id" }, "new Entry Area id", newId),
      h("label", { class: "inline", for: "entry-new-side" }, "side", newSide), add),
    h("p", { class: "rule" }, "Then choose the brush “Eligible Entry Area” and click its hexes (a click again takes one out)."));
  fillEntrySelect();
}

// The hex counts of the Entry Areas' table, after a click changed an area.
export function countEntryAreas() {
  const g = group();
  for (const a of (g && g.entry_areas) || []) {
    const cell = document.querySelector(`#entry-table tr[data-area="${CSS.escape(a.id)}"] td.count`);
    if (cell) cell.textContent = String(a.hexes.length);
  }
}
