// The paper forms (DESIGN §12): each side's CG Roster and RG Purchase Record,
// as the caller may see them, with the purchases of 8.619/9.617 and the
// determination rolls of 8.620/9.618.
import { h } from "./api.js";
import { $, act, api, base, body, fmt, mapGroups, state } from "./ctx.js";

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

// DESIGN §4, §2a: each secret request is one sealed record the opponent
// sees, so the page never makes one per RG. Secret purchases are composed
// here (nothing sent) and sealed as one batch, even an empty one; the hidden
// rolls are made with one request for the whole step.
let batch = [];

function batchList() {
  return h("ul", { id: "rg-batch", class: "batch" }, batch.map((item, i) => h("li", { dataset: { rg: item.rg } },
    `${item.rg}${item.map_group ? ` (${item.map_group})` : ""} `,
    h("button", { type: "button", class: "remove", onclick: () => { batch.splice(i, 1); $("rg-batch").replaceWith(batchList()); } }, "remove"))));
}

function sealBatch() {
  const rgs = batch.slice();
  return act(async () => {
    await api.post(`${base}/rg-purchases`, { rgs, secret: true });
    batch = [];
    return `sealed: ${rgs.length} RG in one record`;
  }, "purchases-status");
}

export function drawPurchases(page) {
  const c = state.campaign;
  const views = c.sides.map((sd) => page.rg_records[sd]);
  // Which of the side's own RG were bought in the open: their purchase is an
  // RGPurchased event, a secret one's a sealed record (the record's rows do
  // not say). Only those get a "roll it" of their own.
  const open = new Set(page.open_purchases);
  const parts = [];
  const chart = ((state.definition || {}).rg_chart || {})[c.you] || [];
  if (chart.length) {
    const groups = mapGroups();
    const label = (secret) => (secret ? "add to the batch" : "buy");
    parts.push(h("form", { id: "buy-form", class: "row", onsubmit: (e) => {
      e.preventDefault();
      const f = e.target.elements;
      const item = { rg: f.rg.value };
      if (groups.length) item.map_group = f.map_group.value;
      if (f.secret.checked) { batch.push(item); $("rg-batch").replaceWith(batchList()); return; }
      act(() => api.post(`${base}/rg-purchases`, { ...item, secret: false }), "purchases-status");
    } },
      h("label", {}, "RG ", h("select", { name: "rg" }, chart.map((e) => h("option", { value: e.id }, `${e.id} ${e.name} (${e.cpp} CPP)`)))),
      groups.length ? h("label", {}, "map group ", h("select", { name: "map_group" }, groups.map((g) => h("option", { value: g }, g)))) : null,
      h("label", { class: "inline" }, h("input", { type: "checkbox", name: "secret", checked: true, onchange: (e) => { e.target.form.querySelector("button[type=submit]").textContent = label(e.target.checked); } }), " secret"),
      h("button", { type: "submit" }, label(true))));
    parts.push(h("div", { class: "row", id: "secret-acts" },
      batchList(),
      h("button", { type: "button", id: "seal-batch", onclick: sealBatch }, "seal the batch"),
      h("button", { type: "button", id: "secret-rolls", onclick: () => act(() => api.roll(`${base}/rg-determinations`, { secret: true }), "purchases-status") }, "roll the secret rolls")),
      h("p", { class: "note" }, "Secret RG go into one batch, sealed with one request (even an empty one), and the hidden rolls are made all at once: one of each per step keeps the opponent from counting them."));
  }
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

