// The definition editor's marks on a hex (DESIGN §9, §15): what a click on
// the map does (the brush: Strategic with its LVP, a building and its
// levels, an Entry Area, initial Control, the HQ, not Enterable, a Block, off
// the map), and the selected hex's own fields, each labelled with the rule
// that asks for it. Every edit changes the definition's map group in place,
// keeps the definition before it for *undo*, and redraws only the hexes it
// touched.
import { h } from "./api.js";
import { $, ed, emit, group, remember, ruleOf } from "./editor_state.js";

// A hex's fields at their defaults (DESIGN §9) are left out, as the ledger
// stores them: the file stays small and reads back the same.
const DEFAULTS = { strategic: false, lvp: 0, levels: [0], enterable: true, block: null, building: null };
function put(hx, name, value) {
  const same = JSON.stringify(value) === JSON.stringify(DEFAULTS[name]);
  if (same || value === undefined || value === "") delete hx[name];
  else hx[name] = value;
}

export function levelsOf(text) {
  const out = String(text).split(/[\s,;/]+/).filter(Boolean).map(Number);
  return out.length && out.every(Number.isInteger) ? out : null;
}

const hexOf = (g, id) => g.hexes.find((x) => x.hex === id);
const areaOf = (g, aid) => (g.entry_areas || []).find((a) => a.id === aid);

// ------------------------------------------------------------------ brushes

const BRUSHES = [
  ["select", "select: show the hex's fields", null],
  ["strategic", "Strategic Location, with its LVP", "strategic"],
  ["building", "building and its levels", "building"],
  ["entry", "Eligible Entry Area", "entry"],
  ["control", "initial Control", "control"],
  ["hq", "HQ", "hq"],
  ["enterable", "not Enterable", "enterable"],
  ["block", "Block", "block"],
  ["offmap", "off the map (removes the hex)", null],
];

export const brush = () => (document.querySelector("input[name=brush]:checked") || {}).value || "select";

function sideOptions(none) {
  const sides = ed.rs ? ed.rs.sides : [];
  return [...(none ? [h("option", { value: "" }, none)] : []), ...sides.map((x) => h("option", { value: x }, x))];
}

function param(key) {
  const num = (id, label, attrs) => h("label", { class: "inline" }, label, h("input", { id, type: "number", class: "num", ...attrs }));
  const text = (id, label, attrs) => h("label", { class: "inline" }, label, h("input", { id, ...attrs }));
  switch (key) {
    case "strategic": return num("brush-lvp", `LVP (${ruleOf("lvp")})`, { min: 0, max: 1000, value: 1 });
    case "building": return [text("brush-building", `building (${ruleOf("building")})`, { size: 6, maxlength: 20, value: "b1" }),
      text("brush-levels", `levels (${ruleOf("levels")})`, { size: 8, value: "0 1", placeholder: "0 1 2" })];
    case "entry": return h("label", { class: "inline" }, "area", h("select", { id: "brush-entry" }));
    case "control": return h("label", { class: "inline" }, "side", h("select", { id: "brush-control" }, sideOptions("none (uncontrolled)")));
    case "hq": return h("label", { class: "inline" }, "of", h("select", { id: "brush-hq" }, sideOptions(null)));
    case "block": return text("brush-block", `Block (${ruleOf("block")})`, { size: 4, maxlength: 20, value: "A" });
    default: return null;
  }
}

// The brush's toolbar: one radio per mark, its rule and what it needs.
export function renderBrushes() {
  const rows = BRUSHES.filter(([, , rule]) => rule === null || ruleOf(rule) !== null).map(([value, label, rule]) =>
    h("div", { class: "brush", dataset: { brush: value } },
      h("label", { class: "inline" }, h("input", { type: "radio", name: "brush", value, checked: value === "select" }),
        label, rule ? h("span", { class: "rule-no" }, ruleOf(rule)) : null),
      param(value)));
  $("brushes").replaceChildren(h("legend", {}, "A click on the map marks the hex with"), ...rows);
  fillEntrySelect();
}

export function fillEntrySelect() {
  const select = $("brush-entry");
  if (!select) return;
  const g = group();
  const kept = select.value;
  select.replaceChildren(...((g && g.entry_areas) || []).map((a) => h("option", { value: a.id }, `${a.id} (${a.side})`)));
  if ([...select.options].some((o) => o.value === kept)) select.value = kept;
}

// Apply the brush to hex ``id``: the hexes whose marks changed (to redraw),
// or null when the brush only selects.
export function paint(id) {
  const g = group();
  const hx = g && hexOf(g, id);
  if (!hx) return null;
  const kind = brush();
  if (kind === "select") return null;
  remember();
  const touched = [id];
  switch (kind) {
    case "strategic": {
      const lvp = Number($("brush-lvp").value) || 0;
      if (hx.strategic && (hx.lvp || 0) === lvp) { put(hx, "strategic", false); put(hx, "lvp", 0); }
      else { put(hx, "strategic", true); put(hx, "lvp", lvp); }
      break;
    }
    case "building": {
      const b = $("brush-building").value.trim();
      const levels = levelsOf($("brush-levels").value) || [0];
      if (hx.building === b && JSON.stringify(hx.levels || [0]) === JSON.stringify(levels)) {
        put(hx, "building", null); put(hx, "levels", [0]);
      } else { put(hx, "building", b || null); put(hx, "levels", levels); }
      break;
    }
    case "entry": {
      const area = areaOf(g, $("brush-entry").value);
      if (!area) { ed.undo.pop(); emit("hint", "add an Entry Area first (below the map)"); return null; }
      toggleEntry(area, id);
      break;
    }
    case "control": {
      const side = $("brush-control").value;
      g.initial_control = g.initial_control || {};
      if (!side || g.initial_control[id] === side) delete g.initial_control[id];
      else g.initial_control[id] = side;
      break;
    }
    case "hq": {
      const side = $("brush-hq").value;
      g.hq = g.hq || {};
      if (g.hq[side] === id) delete g.hq[side];
      else { if (g.hq[side]) touched.push(g.hq[side]); g.hq[side] = id; }
      break;
    }
    case "enterable": put(hx, "enterable", hx.enterable === false); break;
    case "block": {
      const b = $("brush-block").value.trim();
      put(hx, "block", hx.block === b ? null : b || null);
      break;
    }
    case "offmap": removeHex(g, id); break;
    default: ed.undo.pop(); return null;
  }
  emit("edited", { hexes: touched, removed: kind === "offmap" ? id : null });
  return touched;
}

function toggleEntry(area, id) {
  const at = area.hexes.indexOf(id);
  if (at >= 0) {
    area.hexes.splice(at, 1);
    if (area.center === id) delete area.center;
  } else {
    area.hexes.push(id);
  }
}

// A hex off the map (DESIGN §9: a hex not listed is off the map), and out of
// every Entry Area, HQ and initial Control that named it.
function removeHex(g, id) {
  g.hexes = g.hexes.filter((x) => x.hex !== id);
  for (const a of g.entry_areas || []) {
    a.hexes = a.hexes.filter((x) => x !== id);
    if (a.center === id) delete a.center;
  }
  for (const [side, hx] of Object.entries(g.hq || {})) if (hx === id) delete g.hq[side];
  if (g.initial_control) delete g.initial_control[id];
}

// ------------------------------------------------------------------ the hex's fields

// The fields of hex ``id`` (null: none selected), each edit applied as typed.
export function renderHex(id) {
  const box = $("hex-fields");
  const g = group();
  const hx = g && id ? hexOf(g, id) : null;
  $("hex-pick").value = hx ? hx.hex : $("hex-pick").value;
  if (!hx) {
    box.replaceChildren(h("p", { class: "rule" }, "Click a hex on the map, or type its id above."));
    box.dataset.hex = "";
    return;
  }
  const edit = (fn) => () => {
    remember();
    const touched = fn() || [id];
    emit("edited", { hexes: touched });
  };
  const field = (key, label, control) => h("div", { class: "hex-field", dataset: { field: key } },
    h("label", { for: control.id }, label, " ", h("span", { class: "rule-no" }, ruleOf(key))), control);
  const fields = [];
  // What a map import read of it (DESIGN §15): shown, for the marking.
  const read = [hx.terrain, hx.ground_level !== undefined && hx.ground_level !== null ? `ground level ${hx.ground_level}` : null].filter(Boolean);
  if (read.length) fields.push(h("p", { class: "rule", id: "hex-read" }, `from the map: ${read.join(", ")}`));
  const strategic = h("input", { type: "checkbox", id: "hex-strategic", checked: !!hx.strategic });
  strategic.addEventListener("change", edit(() => put(hx, "strategic", strategic.checked)));
  fields.push(field("strategic", "Strategic Location", strategic));
  const lvp = h("input", { type: "number", id: "hex-lvp", class: "num", min: 0, max: 1000, value: hx.lvp || 0 });
  lvp.addEventListener("input", edit(() => put(hx, "lvp", lvp.value === "" ? 0 : Number(lvp.value))));
  fields.push(field("lvp", "LVP", lvp));
  const levels = h("input", { id: "hex-levels", size: 10, value: (hx.levels || [0]).join(" "), placeholder: "0 1 2" });
  levels.addEventListener("input", edit(() => { const v = levelsOf(levels.value); if (v) put(hx, "levels", v); }));
  fields.push(field("levels", "building levels", levels));
  const building = h("input", { id: "hex-building", size: 8, maxlength: 20, value: hx.building || "" });
  building.addEventListener("input", edit(() => put(hx, "building", building.value.trim() || null)));
  fields.push(field("building", "building", building));
  const enterable = h("input", { type: "checkbox", id: "hex-enterable", checked: hx.enterable !== false });
  enterable.addEventListener("change", edit(() => put(hx, "enterable", enterable.checked)));
  fields.push(field("enterable", "Enterable", enterable));
  if (ruleOf("block") !== null) {
    const block = h("input", { id: "hex-block", size: 4, maxlength: 20, value: hx.block || "" });
    block.addEventListener("input", edit(() => put(hx, "block", block.value.trim() || null)));
    fields.push(field("block", "Block", block));
  }
  const control = h("select", { id: "hex-control" }, sideOptions("none (uncontrolled)"));
  control.value = (g.initial_control || {})[id] || "";
  control.addEventListener("change", edit(() => {
    g.initial_control = g.initial_control || {};
    if (control.value) g.initial_control[id] = control.value; else delete g.initial_control[id];
  }));
  fields.push(field("control", "initial Control", control));
  const hq = h("select", { id: "hex-hq" }, sideOptions("no side's HQ"));
  hq.value = Object.entries(g.hq || {}).find(([, x]) => x === id)?.[0] || "";
  hq.addEventListener("change", edit(() => {
    g.hq = g.hq || {};
    const touched = [id];
    for (const [side, x] of Object.entries(g.hq)) if (x === id) delete g.hq[side];
    if (hq.value) { if (g.hq[hq.value]) touched.push(g.hq[hq.value]); g.hq[hq.value] = id; }
    return touched;
  }));
  fields.push(field("hq", "HQ of", hq));
  const areas = (g.entry_areas || []).map((a) => {
    const box2 = h("input", { type: "checkbox", id: `hex-entry-${a.id}`, checked: a.hexes.includes(id), dataset: { area: a.id } });
    box2.addEventListener("change", edit(() => toggleEntry(a, id)));
    return h("label", { class: "inline" }, box2, `${a.id} (${a.side})`);
  });
  fields.push(h("fieldset", { class: "hex-field", dataset: { field: "entry" } },
    h("legend", {}, "Eligible Entry Areas ", h("span", { class: "rule-no" }, ruleOf("entry"))),
    areas.length ? areas : h("span", { class: "rule" }, "none yet: add one below the map")));
  const off = h("button", { type: "button", id: "hex-remove" }, "remove this hex from the map");
  off.addEventListener("click", () => {
    remember();
    removeHex(g, id);
    emit("edited", { hexes: [id], removed: id });
  });
  box.replaceChildren(h("p", { class: "hex-head" }, h("strong", {}, hx.hex), ` q ${hx.q}, r ${hx.r}`), ...fields, off);
  box.dataset.hex = hx.hex;
}
