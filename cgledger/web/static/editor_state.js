// What the definition editor's parts share (DESIGN §15): the ruleset and its
// definition schema, the definition being edited, the map group shown, an
// undo list, and a tiny event bus ("edited": the definition changed,
// "loaded": a new definition or map group to draw).
export const $ = (id) => document.getElementById(id);

export const ed = {
  rulesets: [],
  rs: null,       // the ruleset (GET /v1/rulesets item)
  schema: null,   // its definition's JSON Schema
  doc: null,      // the definition being edited
  gid: null,      // the id of the map group shown
  undo: [],       // earlier definitions, as JSON text
  chartBad: {},   // side -> what is wrong with its chart table (null: nothing)
  checked: null,  // the validation's answer for the definition as it is, when valid
};

const listeners = new Map();
export function on(name, fn) {
  if (!listeners.has(name)) listeners.set(name, []);
  listeners.get(name).push(fn);
}
export function emit(name, arg) {
  for (const fn of listeners.get(name) || []) fn(arg);
}

// The map groups the editor can draw: objects with a list of hexes, each an
// object (a file may hold anything; the check names what is wrong with it).
export const groups = () => (ed.doc && Array.isArray(ed.doc.map_groups) ? ed.doc.map_groups : [])
  .filter((g) => g && typeof g === "object" && Array.isArray(g.hexes) && g.hexes.every((x) => x && typeof x === "object"));
export const group = () => groups().find((g) => g.id === ed.gid) || null;

// Keep the definition as it is before an edit, for *undo* (the last 50).
export function remember() {
  if (!ed.doc) return;
  ed.undo.push(JSON.stringify(ed.doc));
  if (ed.undo.length > 50) ed.undo.shift();
  emit("undoable", ed.undo.length);
}

// The rule numbers the editor prints next to a map field, as each ruleset
// names them (its definition model, cgledger/domain/rulesets/*/definition.py,
// and its Setup Area rules); DESIGN §9 where the ruleset names none. A field
// set to null is not one of the ruleset's (Blocks are 9.605's only).
const MAP_RULES = {
  kgp: {
    strategic: "8.6051, MARKING THE MAP", lvp: "8.6033", levels: "8.6057", building: "8.6057",
    enterable: "8.6052", block: null, entry: "8.6052, SSR CG6", hq: "8.6052", control: "8.605",
  },
  abtf: {
    strategic: "9.605, 9.6212", lvp: "DESIGN §9", levels: "DESIGN §9", building: "DESIGN §9",
    enterable: "9.60541", block: "9.605", entry: "9.6053", hq: "DESIGN §9", control: "9.605",
  },
};
const GENERIC = {
  strategic: "DESIGN §9", lvp: "DESIGN §9", levels: "DESIGN §9", building: "DESIGN §9",
  enterable: "DESIGN §9", block: null, entry: "DESIGN §9", hq: "DESIGN §9", control: "DESIGN §9",
};
export const ruleOf = (field) => ((ed.rs && MAP_RULES[ed.rs.id]) || GENERIC)[field];

// The JSON Schema of a definition's part: "map_group", "entry_area" or
// "rg_line" (resolved through $defs), or null.
export function schemaOf(part) {
  const schema = ed.schema;
  if (!schema) return null;
  const deref = (node) => {
    while (node && node.$ref) node = schema.$defs[node.$ref.split("/").pop()];
    if (node && node.anyOf) node = node.anyOf.find((x) => x.$ref || x.type === "object") || node;
    while (node && node.$ref) node = schema.$defs[node.$ref.split("/").pop()];
    return node;
  };
  const groupNode = deref(schema.properties.map_groups && schema.properties.map_groups.items);
  if (part === "map_group") return groupNode;
  if (part === "entry_area") return groupNode && deref(groupNode.properties.entry_areas.items);
  if (part === "rg_line") {
    const chart = schema.properties.rg_chart;
    return deref(chart && chart.additionalProperties && chart.additionalProperties.items);
  }
  return null;
}

// The rule numbers that open a schema description ("8.6191/9.6171 ID, …",
// "SSR CG6c: …"), or "".
export function ruleIn(description) {
  const m = /^((?:SSR CG ?[0-9]+[a-z]?|[0-9]+\.[0-9]+[a-z]?)(?:[/, ]+(?:SSR CG ?[0-9]+[a-z]?|[0-9]+\.[0-9]+[a-z]?))*)/.exec(description || "");
  return m ? m[1].replace(/[ ,/]+$/, "") : "";
}
