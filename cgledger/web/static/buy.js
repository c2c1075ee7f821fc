// Buying RG (8.619, 9.617, SG 3.3): off the side's own chart, in the open or
// in one sealed batch, and the hidden rolls of the step all at once.
import { h } from "./api.js";
import { $, act, api, base, mapGroups, state } from "./ctx.js";

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

// The purchase forms of the caller's side (none for the referee or a side
// whose chart is empty).
export function buyForms() {
  const c = state.campaign;
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
  return parts;
}
