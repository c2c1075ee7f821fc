// The paper forms (DESIGN §12): each side's CG Roster and RG Purchase Record
// as the caller may see them, with the columns of the paper forms as a player
// files them (``paper`` in GET /roster and /rg-record: each column's rule and
// what it holds), the purchases of 8.619/9.617 and the determination rolls of
// 8.620/9.618, and printed as paper forms (style.css, "print: paper forms").
// A cell shows the API's value for the column, or "hidden" where the API
// names the column in ``hidden``; a secret purchase is the API's stub.
import { h } from "./api.js";
import { buyForms } from "./buy.js";
import { act, api, base, body, fmt, state } from "./ctx.js";

// ------------------------------------------------------------------ cells

// How a field is written on the paper (the column's ``kind``): "I1 (4), HW1 (3)"
// for the RG Purchased, each SW received, a tally of Fortifications by type.
export function cellText(kind, value) {
  if (value === null || value === undefined) return "–";
  if (kind === "rg_list" && Array.isArray(value)) return value.length ? value.map((p) => `${p.rg} (${p.cpp})`).join(", ") : "–";
  if (kind === "pieces" && Array.isArray(value)) return value.length ? value.map((p) => `${p.name}${p.received === false ? " (forfeit)" : ""}`).join(", ") : "–";
  if (kind === "fortifications" && typeof value === "object") {
    const tally = Object.entries(value).map(([type, n]) => `${type} ×${n}`);
    return tally.length ? tally.join(", ") : "–";
  }
  if (kind === "list" && Array.isArray(value)) return value.length ? value.join("; ") : "–";
  return fmt(value);
}

// A column named in the line's ``hidden`` shows "hidden"; an RG Purchased
// column shows the RG the viewer may see (bought in the open) and "+ hidden".
function cell(col, item) {
  const value = item[col.key];
  const hidden = (item.hidden || []).includes(col.key) || (col.key === "needs" && value === null);
  let text = cellText(col.kind, value);
  if (hidden) text = col.kind === "rg_list" && Array.isArray(value) && value.length ? `${text} + hidden` : "hidden";
  return h("td", { dataset: { col: col.key }, class: hidden ? "hidden-value" : null, title: hidden ? "hidden from you until revealed" : null }, text);
}

// ------------------------------------------------------------------ headers

const slug = (x) => String(x).replace(/[^A-Za-z0-9_-]+/g, "-");
const describe = (col) => `${col.rule ? `${col.rule} ` : ""}${col.label}: ${col.text}${col.paper ? "" : " (the ledger's column; not on the paper form)"}`;

// The column headings: the paper's groups over their columns, each heading
// with its rule number, a tooltip and an accessible description (the
// legend's entry, which prints under the form).
function thead(form, prefix) {
  const cols = form.columns;
  const th = (col, attrs = {}) => h("th", {
    scope: "col", dataset: { col: col.key, rule: col.rule || "" }, class: col.paper ? null : "ledger-col",
    title: describe(col), "aria-describedby": `${prefix}-${slug(col.key)}`, ...attrs,
  }, col.label, col.rule ? h("small", { class: "rule-no" }, col.rule) : null);
  if (!cols.some((c) => c.group)) return h("thead", {}, h("tr", {}, cols.map((c) => th(c))));
  const top = [];
  const below = [];
  for (let i = 0; i < cols.length; i += 1) {
    const col = cols[i];
    if (!col.group) { top.push(th(col, { rowspan: 2 })); continue; }
    let n = 1;
    while (i + n < cols.length && cols[i + n].group === col.group) n += 1;
    top.push(h("th", { scope: "colgroup", colspan: n, class: "group" }, col.group));
    cols.slice(i, i + n).forEach((c) => below.push(th(c)));
    i += n - 1;
  }
  return h("thead", {}, h("tr", {}, top), h("tr", {}, below));
}

// What each column holds, by rule: read out as the headings' descriptions,
// and printed under the form (a tooltip does not print).
function legend(form, prefix) {
  return h("ul", { class: "form-key" }, form.columns.map((col) => {
    const text = describe(col);
    const named = `${col.rule ? `${col.rule} ` : ""}${col.label}`;
    return h("li", { id: `${prefix}-${slug(col.key)}` }, h("b", {}, named), text.slice(named.length));
  }));
}

// A sheet's heading: the side, the form and its rule; on paper also the
// campaign and the CG Date it was printed on.
function heading(side, form) {
  const c = state.campaign;
  return [
    h("h3", {}, `${side} ${form.title}${side === c.you ? " (yours)" : ""}`, form.rule ? h("small", { class: "rule-no" }, form.rule) : null),
    h("p", { class: "print-only sheet-meta" }, `${c.title || "(untitled)"} · ${c.ruleset} ${c.campaign} · CG Date ${c.cg_date} · as ${c.you} sees it · event ${c.version}`),
  ];
}

function failed(cls, side, e) {
  return h("div", { class: `${cls} sheet`, dataset: { side } }, h("h3", {}, side), h("p", { class: "status error" }, e instanceof Error ? e.message : "not kept for this ruleset"));
}

// ------------------------------------------------------------------ CG Roster

// Results that last (DESIGN §8) as the roster gives them, e.g. 8.617's weather.
function conditionNotes(conditions) {
  const notes = [];
  for (const [key, found] of Object.entries(conditions || {})) {
    const entries = found && found.rule ? [[null, found]] : Object.entries(found || {});
    for (const [holder, e] of entries) {
      if (!e || typeof e !== "object") continue;
      const what = e.text || fmt(e.value ?? e.change);
      notes.push(`${e.rule ? `${e.rule} ` : ""}${key.replaceAll("_", " ")}${holder && holder !== "campaign" ? ` (${holder})` : ""}${e.cg_date ? `, ${e.cg_date}` : ""}: ${what}`);
    }
  }
  return notes.length ? h("p", { class: "note conditions" }, notes.join(" · ")) : null;
}

function rosterSheet(side, v) {
  if (!v || v instanceof Error) return failed("roster", side, v);
  const form = v.paper || { title: "CG Roster", rule: null, columns: v.columns.map((key) => ({ key, label: key.replaceAll("_", " "), rule: null, text: key, kind: "text", paper: false })) };
  const prefix = `roster-${slug(side)}`;
  const rows = (v.lines || []).map((line) => h("tr", { dataset: { date: line.cg_date } }, form.columns.map((col) => cell(col, line))));
  const extra = [];
  // SG 3.4: the Purchase Points spent and left, once every purchase is visible.
  if ("purchase_points_spent" in v) {
    const hid = (k) => (v.hidden || []).includes(k);
    extra.push(h("p", { class: "note" }, "3.4 Purchase Points spent: ", h("span", { dataset: { col: "purchase_points_spent" }, class: hid("purchase_points_spent") ? "hidden-value" : null }, hid("purchase_points_spent") ? "hidden" : fmt(v.purchase_points_spent)),
      ", left: ", h("span", { dataset: { col: "purchase_points_left" }, class: hid("purchase_points_left") ? "hidden-value" : null }, hid("purchase_points_left") ? "hidden" : fmt(v.purchase_points_left))));
  }
  return h("div", { class: "roster sheet", dataset: { side } }, heading(side, form),
    rows.length ? h("div", { class: "scroll" }, h("table", { class: "paper" }, thead(form, prefix), h("tbody", {}, rows))) : h("p", {}, v.note || "no line yet"),
    conditionNotes(v.conditions), extra, legend(form, prefix));
}

export function drawRosters(page) {
  const c = state.campaign;
  body("rosters").replaceChildren(
    h("div", { class: "row print-bar" },
      h("button", { type: "button", id: "print-forms", "aria-label": "print the forms: each side's CG Roster and RG Purchase Record, as paper forms", onclick: () => window.print() }, "print the forms")),
    ...c.sides.map((side) => rosterSheet(side, (page.rosters || {})[side])));
}

// ------------------------------------------------------------------ RG Purchase Record
// 8.619/8.6198 (9.617/9.6178): buy off the side's own chart, then make the
// rolls each RG needs (8.620, 9.618). The opponent's record is stubs.

// A Fortification as the setup record gives it: its type, hex and level.
function placedText(item) {
  const level = item.level ? ` level ${item.level}` : "";
  return `${item.type} ${item.hex || ""}${level}${item.count > 1 ? ` ×${item.count}` : ""}`.trim();
}

// 8.621/8.6242/8.6073: the Fortifications set up (a secret record is a stub)
// and those placed on-map.
function fortSheet(forts, rules) {
  const placed = forts.placed || [];
  const onMap = forts.placed_on_map || [];
  if (!placed.length && !onMap.length) return null;
  const parts = [h("h4", {}, "Fortifications set up", rules.setup ? h("small", { class: "rule-no" }, rules.setup) : null)];
  if (placed.length) {
    parts.push(h("table", { class: "paper forts" },
      h("thead", {}, h("tr", {}, ["CG Date", "Map Group", "Fortifications (Location)"].map((t) => h("th", { scope: "col", title: `${rules.setup || ""} ${t}`.trim() }, t)))),
      h("tbody", {}, placed.map((p) => (p.redacted
        ? h("tr", { class: "redacted", dataset: { seq: p.seq } }, h("td", {}, p.cg_date), h("td", { colspan: 2 }, "a secret setup record"))
        : h("tr", { dataset: { seq: p.seq } }, h("td", {}, p.cg_date), h("td", {}, fmt(p.map_group)), h("td", {}, (p.items || []).map((it) => placedText(it)).join(", ") || "none")))))));
  }
  if (onMap.length) {
    parts.push(h("p", { class: "note" }, `${rules.on_map || ""} placed on-map: `.trimStart(), onMap.map((it) => `${placedText(it)}${it.map_group ? ` (${it.map_group})` : ""}`).join(", ")));
  }
  return h("div", { class: "forts-set-up" }, parts);
}

function recordSheet(side, v, open) {
  if (!v || v instanceof Error) return failed("record", side, v);
  const c = state.campaign;
  const form = v.paper || { title: "RG Purchase Record", rule: v.rule, columns: [] };
  const cols = form.columns;
  const prefix = `record-${slug(side)}`;
  const rows = v.rows.map((row) => {
    if (row.redacted) {
      return h("tr", { class: "redacted", dataset: { seq: row.seq } }, h("td", { dataset: { col: "cg_date" } }, row.cg_date),
        h("td", { colspan: Math.max(1, cols.length - 1) }, "a secret purchase"));
    }
    const cells = cols.map((col) => cell(col, row));
    // Only a public RG's roll is one request of its own; a secret one's go
    // with "roll the secret rolls".
    const needs = cells.find((td) => td.dataset.col === "needs");
    if (needs && side === c.you && row.needs && row.needs.length && (row.ob || open.has(row.seq))) {
      needs.append(" ", h("button", { type: "button", class: "determine", dataset: { route: "POST /rg-determinations" }, onclick: () => act(() => api.roll(`${base}/rg-determinations`, { for_purchase: row.seq, item: row.item }), "purchases-status") }, "roll it"));
    }
    return h("tr", { dataset: { seq: row.seq, rg: row.rg } }, cells);
  });
  const forts = (form.fortifications || {});
  return h("div", { class: "record sheet", dataset: { side } }, heading(side, form),
    rows.length ? h("div", { class: "scroll" }, h("table", { class: "paper" }, thead(form, prefix), h("tbody", {}, rows))) : h("p", {}, "nothing bought yet"),
    fortSheet(v.fortifications || {}, forts), legend(form, prefix));
}

export function drawPurchases(page) {
  const c = state.campaign;
  // Which of the side's own RG were bought in the open: their purchase is an
  // RGPurchased event, a secret one's a sealed record (the record's rows do
  // not say). Only those get a "roll it" of their own.
  const open = new Set(page.open_purchases);
  const parts = [...buyForms(), h("p", { class: "status", id: "purchases-status", role: "status" })];
  for (const side of c.sides) parts.push(recordSheet(side, (page.rg_records || {})[side], open));
  body("purchases").replaceChildren(...parts);
}
