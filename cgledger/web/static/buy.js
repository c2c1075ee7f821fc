// Buying RG (8.619, 9.617, 3.4): off the side's own chart, one RG or a
// batch, in the open or in one sealed batch, with the 8.6194 CPP-cost
// modifiers and the 8.6198 Objective Hex; and the hidden rolls of the step
// all at once.
import { h } from "./api.js";
import { $, act, actsFor, api, asSide, base, mapGroups, state } from "./ctx.js";
import { info } from "./stepacts.js";

// The ruleset's purchase rules come with GET /v1/rulesets (its ``purchases``),
// which the page reads once (stepacts.js): the rule numbers of buying
// (``buy``), the price and its modifiers (``price``), the RG Purchase Record
// that keeps the Objective Hex (``record``) and the determination rolls
// (``determine``), and the 8.6194 CPP-cost modifiers the purchaser may choose
// (``modifiers``, each with its ``rule``, ``title``, ``sides`` and what it
// does, ``text``). Which RG each is for (and its amount) is the ledger's,
// under the readings in force: it refuses one that does not apply with a 422
// naming the rule, shown where the player bought. Until they have come, the
// form is drawn without them, and again once they are here.
const purchases = () => (info.ruleset && info.ruleset.purchases) || {};
const ruleOf = (key) => purchases()[key] || "";
const modifiers = () => purchases().modifiers || [];
let awaited = false;
function whenLoaded() {
  if (info.ruleset || !info.loading || awaited) return;
  awaited = true;
  info.loading.then(() => {
    awaited = false;
    const el = $("buy");
    if (el && info.ruleset && !el.contains(document.activeElement)) el.replaceWith(buyPart());
  });
}

// A chart line's RG ID as a purchase names it: with its KG where the line has
// one (9.6173: "I1(X)"), else its ID.
const lineId = (e) => (e.kg ? `${e.id}(${e.kg})` : e.id);

// DESIGN §4, §2a: each secret request is one sealed record the opponent
// sees, so the page never makes one per RG. Secret purchases are composed
// here (nothing sent) and sealed as one batch, even an empty one; the hidden
// rolls are made with one request for the whole step. An open batch is one
// request too (all or nothing, 8.6195/8.6196 counted over the batch). Each
// side the page acts for has its own two batches (the referee's page: both).
const batches = {};
const batchOf = (side) => (batches[side] ||= { secret: [], open: [] });
let chosen = null;  // the side the referee's page buys for

function itemText(item) {
  const parts = [item.rg];
  if (item.map_group) parts.push(item.map_group);
  for (const id of item.modifiers || []) {
    const m = modifiers().find((x) => x.id === id);
    parts.push(m ? `${m.rule} ${m.title}` : id);
  }
  if (item.objective_hex) parts.push(`Objective Hex ${item.objective_hex}`);
  if (item.cpp !== undefined) parts.push(`${item.cpp} CPP`);
  return parts.join(" · ");
}

function batchList(side, kind) {
  const list = batchOf(side)[kind];
  const id = kind === "secret" ? "rg-batch" : "rg-open-batch";
  return h("ul", { id, class: "batch", "aria-label": kind === "secret" ? "secret batch" : "open batch" }, list.map((item, i) => h("li", { dataset: { rg: item.rg } },
    `${itemText(item)} `,
    h("button", { type: "button", class: "remove", "aria-label": `remove ${item.rg} from the batch`, onclick: () => { list.splice(i, 1); redrawBatches(side); } }, "remove"))));
}

function redrawBatches(side) {
  $("rg-batch").replaceWith(batchList(side, "secret"));
  $("rg-open-batch").replaceWith(batchList(side, "open"));
  const open = batchOf(side).open.length;
  $("buy-open-batch").disabled = open === 0;
  $("buy-open-batch").textContent = `buy the open batch (${open} RG, one request)`;
}

function sealBatch(side) {
  const b = batchOf(side);
  const rgs = b.secret.slice();
  return act(async () => {
    await api.post(`${base}/rg-purchases`, asSide(side, { rgs, secret: true }));
    b.secret = [];
    return `sealed: ${rgs.length} RG in one record`;
  }, "purchases-status");
}

function buyOpenBatch(side) {
  const b = batchOf(side);
  const rgs = b.open.slice();
  return act(async () => {
    const r = await api.post(`${base}/rg-purchases`, asSide(side, { rgs, secret: false }));
    b.open = [];
    return `bought in the open: ${rgs.length} RG (event ${r.seq})`;
  }, "purchases-status");
}

// What the form says of one RG (an RGItem of the rg-purchases body).
function itemOf(form, groups) {
  const f = form.elements;
  const item = { rg: f.rg.value };
  if (groups.length) item.map_group = f.map_group.value;
  const mods = [...form.querySelectorAll("input[name=modifier]:checked")].map((el) => el.value);
  if (mods.length) item.modifiers = mods;
  if (f.objective_hex.value.trim()) item.objective_hex = f.objective_hex.value.trim();
  if (f.cpp.value !== "") item.cpp = Number(f.cpp.value);
  return item;
}

// The purchase forms of the side(s) this page acts for, in one ``#buy``
// part of the card (none for a side whose chart is empty). The referee's
// page names the side it buys for, and only this part is drawn again when it
// changes.
export function buyForms() {
  if (!actsFor().length) return [];
  whenLoaded();
  return [buyPart()];
}

function buyPart() {
  const c = state.campaign;
  const sides = actsFor();
  const side = sides.includes(chosen) ? chosen : sides[0];
  const chart = ((state.definition || {}).rg_chart || {})[side] || [];
  const parts = [];
  if (c.you === "referee") {
    parts.push(h("label", {}, "buy for ", h("select", { id: "buy-side", onchange: (e) => { chosen = e.target.value; $("buy").replaceWith(buyPart()); } },
      sides.map((sd) => h("option", { value: sd, selected: sd === side }, sd)))));
  }
  if (chart.length) parts.push(...chartForms(side, chart));
  return h("div", { id: "buy" }, parts);
}

function chartForms(side, chart) {
  const parts = [];
  const groups = mapGroups();
  const mods = modifiers().filter((m) => m.sides.includes(side));
  const label = (secret) => (secret ? "add to the batch" : "buy");
  const add = (kind) => (form) => { batchOf(side)[kind].push(itemOf(form, groups)); redrawBatches(side); };
  parts.push(h("form", { id: "buy-form", class: "row", onsubmit: (e) => {
    e.preventDefault();
    const form = e.target;
    if (form.elements.secret.checked) { add("secret")(form); return; }
    act(() => api.post(`${base}/rg-purchases`, asSide(side, { ...itemOf(form, groups), secret: false })), "purchases-status");
  } },
    h("strong", {}, `${ruleOf("buy")} Purchasing RG`),
    h("label", {}, "RG ", h("select", { name: "rg" }, chart.map((e) => { const id = lineId(e); return h("option", { value: id }, `${id} ${e.name} (${e.cpp} CPP)`); }))),
    groups.length ? h("label", {}, "map group ", h("select", { name: "map_group" }, groups.map((g) => h("option", { value: g }, g)))) : null,
    mods.map((m) => h("label", { class: "inline", title: m.text }, h("input", { type: "checkbox", name: "modifier", value: m.id }), ` ${m.rule} ${m.title}`)),
    h("label", {}, `${ruleOf("record")} Objective Hex `, h("input", { name: "objective_hex", maxlength: 20, class: "num", placeholder: "optional", "aria-describedby": "objective-note" })),
    h("label", {}, "CPP ", h("input", { name: "cpp", type: "number", min: 0, max: 10000, class: "num", placeholder: "optional", "aria-describedby": "cpp-note" })),
    h("label", { class: "inline" }, h("input", { type: "checkbox", name: "secret", checked: true, onchange: (e) => {
      const form = e.target.form;
      form.querySelector("button[type=submit]").textContent = label(e.target.checked);
      form.querySelector("#add-open").classList.toggle("hidden", e.target.checked);
    } }), " secret"),
    h("button", { type: "submit", dataset: { route: "POST /rg-purchases" } }, label(true)),
    h("button", { type: "button", id: "add-open", class: "hidden", onclick: (e) => add("open")(e.target.form) }, "add to the open batch"),
    h("small", { id: "objective-note", class: "note" }, `${ruleOf("record")}: the Objective Hex of an 'I' or 'HW' RG, a hex of its map group.`),
    h("small", { id: "cpp-note", class: "note" }, `CPP: if given, the ledger checks it equals the chart's cost after the modifiers (${ruleOf("price")}).`)));
  parts.push(h("div", { class: "row", id: "secret-acts" },
    h("strong", {}, `secret batch (${ruleOf("buy")}; its rolls ${ruleOf("determine")})`), batchList(side, "secret"),
    h("button", { type: "button", id: "seal-batch", dataset: { route: "POST /rg-purchases" }, onclick: () => sealBatch(side) }, "seal the batch"),
    h("button", { type: "button", id: "secret-rolls", dataset: { route: "POST /rg-determinations" }, onclick: () => act(() => api.roll(`${base}/rg-determinations`, asSide(side, { secret: true })), "purchases-status") },
      "roll the secret rolls")),
  h("p", { class: "note" }, "Secret RG go into one batch, sealed with one request (even an empty one), and the hidden rolls are made all at once: one of each per step keeps the opponent from counting them (DESIGN §4)."));
  const open = batchOf(side).open.length;
  parts.push(h("div", { class: "row", id: "open-acts" },
    h("strong", {}, `open batch (${ruleOf("buy")}: all or nothing)`), batchList(side, "open"),
    h("button", { type: "button", id: "buy-open-batch", disabled: open === 0, dataset: { route: "POST /rg-purchases" }, onclick: () => buyOpenBatch(side) }, `buy the open batch (${open} RG, one request)`)));
  return parts;
}
