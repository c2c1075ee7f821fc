// The paper forms (DESIGN §12): each side's CG Roster and RG Purchase Record,
// as the caller may see them, with the purchases of 8.619/9.617 and the
// determination rolls of 8.620/9.618.
import { h } from "./api.js";
import { buyForms } from "./buy.js";
import { act, api, base, body, fmt, state } from "./ctx.js";

export function drawRosters(page) {
  const c = state.campaign;
  const views = c.sides.map((sd) => page.rosters[sd]);
  body("rosters").replaceChildren(...views.map((v, i) => {
    const side = c.sides[i];
    if (v instanceof Error) return h("div", { class: "roster", dataset: { side } }, h("h3", {}, side), h("p", { class: "status error" }, v.message));
    const cols = v.columns;
    const rows = v.lines.map((line) => h("tr", { dataset: { date: line.cg_date } }, cols.map((col) => {
      const hidden = (line.hidden || []).includes(col);
      return h("td", { dataset: { col }, class: hidden ? "hidden-value" : null, title: hidden ? "hidden from you until revealed" : null }, hidden ? "hidden" : fmt(line[col]));
    })));
    return h("div", { class: "roster", dataset: { side } }, h("h3", {}, `${side} CG Roster${side === c.you ? " (yours)" : ""}`),
      h("div", { class: "scroll" }, h("table", { class: "paper" },
        h("thead", {}, h("tr", {}, cols.map((col) => h("th", { scope: "col" }, col.replaceAll("_", " "))))),
        h("tbody", {}, rows))));
  }));
}

// ------------------------------------------------------------------ RG Purchase Record
// 8.619/8.6198 (9.617/9.6178): buy off the side's own chart, then make the
// rolls each RG needs (8.620, 9.618). The opponent's record is stubs.
const RECORD = ["seq", "cg_date", "rg", "name", "cpp", "map_group", "strength", "units", "quality", "models", "sw", "equipment", "leader", "needs"];

function pieces(v) {
  return Array.isArray(v) && v.length && typeof v[0] === "object" && v[0] !== null
    ? v.map((p) => `${p.piece || p.name || "?"}${p.received === false ? " (lost)" : ""}`).join(", ")
    : fmt(v);
}

export function drawPurchases(page) {
  const c = state.campaign;
  const views = c.sides.map((sd) => page.rg_records[sd]);
  // Which of the side's own RG were bought in the open: their purchase is an
  // RGPurchased event, a secret one's a sealed record (the record's rows do
  // not say). Only those get a "roll it" of their own.
  const open = new Set(page.open_purchases);
  const parts = [];
  parts.push(...buyForms());
  parts.push(h("p", { class: "status", id: "purchases-status", role: "status" }));
  views.forEach((v, i) => {
    const side = c.sides[i];
    if (v instanceof Error) { parts.push(h("p", { class: "status error" }, `${side}: ${v.message}`)); return; }
    const rows = v.rows.map((row) => {
      if (row.redacted) return h("tr", { class: "redacted", dataset: { seq: row.seq } }, h("td", {}, row.seq), h("td", {}, row.cg_date), h("td", { colspan: RECORD.length - 2 }, "a secret purchase"));
      const cells = RECORD.map((col) => {
        const hidden = (row.hidden || []).includes(col) || (col === "needs" && row.needs === null);
        const value = col === "sw" || col === "equipment" ? pieces(row[col]) : col === "needs" ? (row.needs || []).join("; ") || "–" : fmt(row[col]);
        return h("td", { dataset: { col }, class: hidden ? "hidden-value" : null }, hidden ? "hidden" : value);
      });
      // Only a public RG's roll is one request of its own; a secret one's go
      // with "roll the secret rolls".
      if (side === c.you && row.needs && row.needs.length && (row.ob || open.has(row.seq))) {
        cells[cells.length - 1].append(" ", h("button", { type: "button", class: "determine", onclick: () => act(() => api.roll(`${base}/rg-determinations`, { for_purchase: row.seq, item: row.item }), "purchases-status") }, "roll it"));
      }
      return h("tr", { dataset: { seq: row.seq, rg: row.rg } }, cells);
    });
    parts.push(h("div", { class: "record", dataset: { side } }, h("h3", {}, `${side}${side === c.you ? " (yours)" : ""}`),
      rows.length ? h("div", { class: "scroll" }, h("table", { class: "paper" },
        h("thead", {}, h("tr", {}, RECORD.map((col) => h("th", { scope: "col" }, col.replaceAll("_", " "))))),
        h("tbody", {}, rows))) : h("p", {}, "nothing bought yet")));
  });
  body("purchases").replaceChildren(...parts);
}

