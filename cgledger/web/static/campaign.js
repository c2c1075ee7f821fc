// The campaign page (DESIGN §12): everything the token's role may see, kept
// live by the SSE feed. Every value on the page comes from the REST API as
// this token sees it, so a secret can only appear where the API shows it.
import { Api, ApiError, h, importSvg, setStatus, tokenFromFragment } from "./api.js";
import { diceChart, lvpChart } from "./charts.js";
import { showMap } from "./mapview.js";
import { SEALED, verifyExport, verifyRoll, verifySealed } from "./proto.js";

const $ = (id) => document.getElementById(id);
const cid = (() => {
  try { return decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || ""); } catch { return ""; }
})();
const base = `/v1/campaigns/${encodeURIComponent(cid)}`;

// The token comes in the fragment (never sent to a server), is kept for this
// tab only (sessionStorage), and leaves the address bar, so a screenshot or a
// shared screen in a dispute does not show it. A new link pasted into the same
// tab is a new token: the page reloads with it.
function takeToken() {
  const key = `cgledger:token:${cid}`;
  const fresh = tokenFromFragment();
  if (fresh) {
    try {
      sessionStorage.setItem(key, fresh);
      history.replaceState(null, "", location.pathname + location.search);
    } catch { /* storage off: the token stays in the fragment, or a reload would lose it */ }
    return fresh;
  }
  try { return sessionStorage.getItem(key); } catch { return null; }
}
window.addEventListener("hashchange", () => { if (tokenFromFragment()) location.reload(); });
const api = new Api(takeToken(), `cgledger:pending:${cid}`);
const state = { campaign: null, definition: null, tables: [], oldest: null, logKey: null, commitments: null, feedAt: 0, revealed: new Set() };
const body = (id) => document.querySelector(`#${id} .body`);

function problem(el, e) {
  el.replaceChildren(h("p", { class: "status error" }, e instanceof ApiError ? `${e.status}: ${e.message}` : String(e.message || e)));
}

// A card the player is typing in (or has a form open in) is not redrawn
// under their fingers; it catches up when they leave it.
const FORMS = new Set(["reph", "purchases", "requests", "log"]);
function busy(id) {
  if (!FORMS.has(id)) return false;
  const card = $(id);
  const el = document.activeElement;
  // Only the card's forms count: its filters (in .controls) are not typing.
  const forms = card.querySelector(".body");
  const typing = el && forms.contains(el) && ["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName);
  return typing || forms.querySelector("details[open]") !== null;
}

// Answers can come back out of order (a slow map, a quick slider): each card
// draws only the answer to its newest request (``fresh()``).
const tickets = {};
async function guarded(id, fn, { force = false } = {}) {
  if (!force && busy(id)) { $(id).dataset.stale = "true"; return; }
  delete $(id).dataset.stale;
  const ticket = (tickets[id] = (tickets[id] || 0) + 1);
  // Still the newest request, and the player has not begun typing meanwhile.
  const fresh = () => {
    if (tickets[id] !== ticket) return false;
    if (!force && busy(id)) { $(id).dataset.stale = "true"; return false; }
    return true;
  };
  try { await fn(fresh); } catch (e) { if (fresh()) problem(body(id), e); }
}

function fmt(v) {
  if (v === null || v === undefined) return "–";
  if (Array.isArray(v)) return v.length ? v.map(fmt).join(", ") : "–";
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k}: ${fmt(x)}`).join("; ") || "–";
  return String(v);
}

// ------------------------------------------------------------------ header
async function loadCampaign() {
  const c = await api.get(base);
  state.campaign = c;
  document.title = `${c.title || c.campaign} · cgledger`;
  $("title").textContent = `${c.title || "(untitled)"} · ${c.ruleset} ${c.campaign}`;
  $("cg-date").textContent = c.cg_date;
  $("role").textContent = `you: ${c.you}`;
  const at = $("map-at");
  const live = Number(at.value) >= Number(at.max);
  at.max = c.version;
  if (live) { at.value = c.version; $("map-at-label").textContent = "live"; }
  return c;
}

// ------------------------------------------------------------------ RePh
async function loadReph(fresh = () => true) {
  const [reph, ini] = await Promise.all([api.get(`${base}/reph`), api.get(`${base}/initiative`).catch(() => null)]);
  if (!fresh()) return;
  const c = state.campaign;
  const mine = c.sides.includes(c.you) ? [c.you] : c.sides;
  const title = (rule) => (reph.steps.find((st) => st.rule === rule) || {}).title || rule;
  const rows = c.sides.map((side) => {
    const cur = reph.current[side];
    const idx = reph.steps.findIndex((st) => st.rule === cur);
    const next = reph.steps.slice(idx + 1).find((st) => st.status[side] !== "n/a");
    const acts = mine.includes(side) && cur !== "scenario" ? [
      next ? h("button", { type: "button", class: "advance", dataset: { side, to: next.rule }, onclick: () => advance(side, next.rule) }, `complete ${cur} → ${next.rule}`) : null,
      h("button", { type: "button", dataset: { side, to: "scenario" }, onclick: () => advance(side, "scenario") }, "complete all steps"),
    ] : [];
    return h("tr", { dataset: { side } }, h("th", {}, side),
      h("td", { class: "step" }, cur === "scenario" ? "all steps done" : `${cur} ${title(cur)}`), h("td", {}, acts));
  });
  const parts = [
    h("p", {}, `CG Date ${reph.cg_date}${reph.initial ? " (Initial Scenario)" : ""}`,
      reph.scenario ? ` · scenario: ${reph.scenario.type}` : "", reph.new_date_due ? " · a New CG Date is due" : ""),
    h("div", { class: "scroll" }, h("table", {}, h("tbody", {}, rows))),
    h("p", { class: "status", id: "reph-status", role: "status" }),
  ];
  const today = ini && ini.items && ini.items.find((it) => it.cg_date === reph.cg_date);
  if (today || (ini && reph.steps.some((st) => /Initiative/i.test(st.title) && Object.values(st.status).includes("current")))) {
    const chosen = today ? today.chosen : {};
    parts.push(h("div", { class: "initiative" }, h("h3", {}, "Initiative chits"),
      h("p", {}, c.sides.map((sd) => `${sd}: ${today && today.chits[sd] ? today.chits[sd] : chosen[sd] ? "chosen" : "not chosen"}`).join(" · "),
        today && today.scenario ? ` → ${today.scenario}` : ""),
      mine.filter((sd) => !chosen[sd]).map((sd) => h("span", {}, `${sd}: `,
        h("button", { type: "button", onclick: () => chit(sd, "attack") }, "Attack"),
        h("button", { type: "button", onclick: () => chit(sd, "idle") }, "Idle")))));
  }
  if (!reph.new_date_due && c.sides.every((sd) => reph.current[sd] === "scenario")) {
    // DESIGN §8 CG-Scenario End: each side's CVP earned; in play both sides send
    // the same numbers (the first proposes), or the referee records them.
    parts.push(h("form", { id: "scenario-end", class: "row", onsubmit: (e) => {
      e.preventDefault();
      const cvp = Object.fromEntries(c.sides.map((sd) => [sd, Number(e.target.elements[`cvp-${sd}`].value || 0)]));
      act(() => api.post(`${base}/scenario-end`, { cvp }), "reph-status");
    } }, h("strong", {}, "CG-Scenario End: CVP earned"),
      c.sides.map((sd) => h("label", {}, `${sd} `, h("input", { type: "number", min: 0, name: `cvp-${sd}`, class: "num", value: 0 }))),
      h("button", { type: "submit" }, "end the scenario")));
  }
  if (c.you === "referee" && reph.new_date_due) {
    parts.push(h("button", { type: "button", id: "new-date", onclick: () => act(() => api.post(`${base}/cg-dates`, {}), "reph-status") }, "begin the next CG Date"));
  }
  body("reph").replaceChildren(...parts);
}

async function act(fn, statusId) {
  const el = $(statusId);
  let said;
  try {
    said = await fn();
  } catch (e) {
    if (!el) return false;
    const lost = !(e instanceof ApiError) || e.status >= 500;
    setStatus(el, lost ? `${e.message}: the answer was lost; trying again repeats the same request, it never acts twice` : e.message, "error");
    const needed = /\(POST \/v1\/campaigns\/[^/]+\/([a-z-]+)\)/.exec(e.message || "");
    if (needed && needed[1] !== "cg-dates") {
      el.append(" ", h("button", { type: "button", class: "needed", onclick: () => act(() => makeIt(needed[1]), statusId) }, `make it: POST ${needed[1]}`));
    }
    return false;
  }
  await refresh(true).catch(() => {});  // the player's own action: redraw even the card they acted in
  const now = $(statusId);
  if (now) setStatus(now, typeof said === "string" ? said : "done", "ok");
  return true;
}

// An action a step requires, with the page's own client nonce where its body
// takes one (read off the OpenAPI document once): most are rolls.
let bodies = null;
async function makeIt(path) {
  if (bodies === null) bodies = (await api.get("/openapi.json")).paths;
  const op = (bodies[`/v1/campaigns/{campaign_id}/${path}`] || {}).post;
  const schema = op && op.requestBody ? op.requestBody.content["application/json"].schema : {};
  const takesNonce = Boolean(schema.properties && schema.properties.client_nonce);
  return takesNonce ? api.roll(`${base}/${path}`, {}) : api.post(`${base}/${path}`, {});
}
const advance = (side, to) => act(() => api.post(`${base}/reph/advance`, state.campaign.sides.includes(state.campaign.you) ? { to } : { to, side }), "reph-status");
const chit = (side, kind) => act(() => api.post(`${base}/initiative`, state.campaign.you === "referee" ? { chit: kind, side } : { chit: kind }), "reph-status");

// ------------------------------------------------------------------ rosters
async function loadRosters(fresh = () => true) {
  const c = state.campaign;
  const views = await Promise.all(c.sides.map((sd) => api.get(`${base}/roster?side=${encodeURIComponent(sd)}`).catch((e) => e)));
  if (!fresh()) return;
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

async function loadPurchases(fresh = () => true) {
  const c = state.campaign;
  const views = await Promise.all(c.sides.map((sd) => api.get(`${base}/rg-record?side=${encodeURIComponent(sd)}`).catch((e) => e)));
  // Which of the side's own RG were bought in the open: their purchase is an
  // RGPurchased event, a secret one's a sealed record (the record's rows do
  // not say). Only those get a "roll it" of their own.
  const mine = views[c.sides.indexOf(c.you)];
  const open = new Set();
  if (mine && !(mine instanceof Error) && mine.rows.some((row) => row.needs && row.needs.length && !row.ob)) {
    const q = new URLSearchParams({ type: "RGPurchased", actor: c.you, limit: "500" });
    for (const e of (await api.get(`${base}/events?${q}`)).items) open.add(e.seq);
  }
  if (!fresh()) return;
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

// ------------------------------------------------------------------ LVP
async function loadLvp(fresh = () => true) {
  const v = await api.get(`${base}/lvp`);
  if (!fresh()) return;
  const sides = state.campaign.sides;
  const rows = v.rows || [];
  body("lvp").replaceChildren(
    rows.length ? lvpChart(rows, sides) : h("p", {}, "no CG-Scenario End yet"),
    h("div", { class: "scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "CG Date"), sides.map((sd) => h("th", {}, `${sd} CG-LVP`)), h("th", {}, "winner"))),
      h("tbody", {}, rows.map((r) => h("tr", {}, h("td", {}, r.cg_date), sides.map((sd) => h("td", { dataset: { side: sd } }, fmt((r.cg_lvp || {})[sd]))), h("td", {}, fmt(r.winner))))))));
}

// ------------------------------------------------------------------ Setup Areas map
function mapGroups() {
  return ((state.definition && state.definition.map_groups) || []).map((g) => g.id);
}

async function loadMap(fresh = () => true) {
  const group = $("map-group").value;
  const at = $("map-at");
  const live = Number(at.value) >= Number(at.max);
  const q = new URLSearchParams();
  if (group) q.set("map_group", group);
  if (!live) q.set("at", at.value);
  $("map-at-label").textContent = live ? "live" : `seq ${at.value}`;
  const text = await api.get(`${base}/setup-areas.svg?${q}`, { text: true });
  if (!fresh()) return;
  showMap(body("map"), text);  // mapview.js: keeps the zoom and pan across redraws
}

// DESIGN §9, §13: Control of the map group shown, for the hexes typed; a
// side's is a proposal the opponent answers under Proposals, the referee's
// is recorded at once.
function setupControl(c) {
  const form = $("control-form");
  if (!mapGroups().length || !(c.sides.includes(c.you) || c.you === "referee")) { form.classList.add("hidden"); return; }
  form.elements.side.replaceChildren(...c.sides.map((sd) => h("option", { value: sd }, sd)), h("option", { value: "" }, "uncontrolled"));
  if (c.you === "referee") form.querySelector("button").textContent = "record Control";
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const f = form.elements;
    const level = Number(f.level.value || 0);
    const side = f.side.value || null;
    const locations = f.hexes.value.split(/[\s,;]+/).filter(Boolean).map((hex) => ({ hex, level, side }));
    act(async () => {
      const r = await api.post(`${base}/control`, { map_group: $("map-group").value, locations });
      return r.status === "pending" ? `proposed (#${r.seq}): it applies once the opponent approves it` : "recorded";
    }, "control-status");
  });
}

// ------------------------------------------------------------------ dice
async function loadDice(fresh = () => true) {
  const side = $("dice-side").value;
  const v = await api.get(`${base}/dice-stats${side ? `?side=${encodeURIComponent(side)}` : ""}`);
  if (!fresh()) return;
  const DR = v.DR || {};
  const p = (x) => (x === null || x === undefined ? "–" : x.toFixed(3));
  body("dice").replaceChildren(
    diceChart(DR),
    h("p", {}, `${v.rolls} rolls you can see (${v.hidden} hidden from you). DR: ${DR.count} rolled, mean ${DR.mean === null ? "–" : DR.mean.toFixed(2)} (fair: 7.00), χ² p = ${p(DR.p_value)}`,
      DR.low_counts ? " — too few rolls for the test to mean much" : ""),
    h("p", {}, `dr: ${v.dr.count} rolled, mean ${v.dr.mean === null ? "–" : v.dr.mean.toFixed(2)} (fair: 3.50), χ² p = ${p(v.dr.p_value)}`));
}

// ------------------------------------------------------------------ rolling
function drmControl(d) {
  const label = `${d.text} (${d.id})`;
  // A DRM the ledger computes is applied from the record; stating it is refused.
  if (d.decided_by === "ledger") return h("p", { class: "drm ledger" }, `${label}: the ledger computes it — ${d.why}`);
  const you = state.campaign.you;
  if (d.sides && you !== "referee" && !d.sides.includes(you)) return null;
  if (d.kind === "fixed") return h("label", { class: "drm" }, h("input", { type: "checkbox", dataset: { drm: d.id, kind: d.kind } }), ` ${d.value > 0 ? "+" : ""}${d.value} ${label}`);
  const what = d.kind === "per" ? "count" : "value";
  return h("label", { class: "drm" }, `${label}: `, h("input", { type: "number", dataset: { drm: d.id, kind: what }, class: "num", placeholder: what }));
}

function inputControl(inp) {
  if (inp.choices && inp.choices.length) {
    return h("label", {}, `${inp.text}: `, h("select", { dataset: { input: inp.id } }, h("option", { value: "" }, "–"), inp.choices.map((c) => h("option", { value: c }, c))));
  }
  return h("label", {}, `${inp.text}: `, h("input", { type: "number", min: inp.lo, max: inp.hi, dataset: { input: inp.id }, class: "num" }));
}

function showTable() {
  const t = state.tables.find((x) => x.id === $("roll-table").value);
  const box = $("roll-drms");
  if (!t) { box.replaceChildren(); return; }
  box.replaceChildren(
    h("p", { class: "rule" }, `${t.rule} ${t.title}: ${t.dice}${t.secret ? ", a Secret roll" : ""}`,
      t.endpoint ? ` · its campaign action is POST ${t.endpoint}; a roll here records the dice but fills no record` : ""),
    ...(t.inputs || []).map(inputControl), ...(t.drms || []).map(drmControl).filter(Boolean));
}

async function rollOnTable(event) {
  event.preventDefault();
  const id = $("roll-table").value;
  const drm = [];
  for (const el of $("roll-drms").querySelectorAll("[data-drm]")) {
    if (el.dataset.kind === "fixed") { if (el.checked) drm.push({ id: el.dataset.drm }); }
    else if (el.value !== "") drm.push({ id: el.dataset.drm, [el.dataset.kind]: Number(el.value) });
  }
  const inputs = {};
  for (const el of $("roll-drms").querySelectorAll("[data-input]")) {
    if (el.value !== "") inputs[el.dataset.input] = el.tagName === "SELECT" ? el.value : Number(el.value);
  }
  const payload = { drm };
  if (Object.keys(inputs).length) payload.inputs = inputs;
  await showRoll(() => api.roll(`${base}/tables/${encodeURIComponent(id)}/rolls`, payload));
}

async function freeRoll(event) {
  event.preventDefault();
  const payload = { dice: Number($("free-dice").value), purpose: $("free-purpose").value, secret: $("free-secret").checked };
  await showRoll(() => api.roll(`${base}/rolls`, payload));
}

async function showRoll(fn) {
  const out = $("roll-result");
  try {
    const r = await fn();
    const roll = r.roll || r;
    out.replaceChildren(h("span", { class: "dice" }, roll.dice ? roll.dice.join(" ") : "secret"),
      r.final !== undefined && r.final !== null ? ` Final ${r.final}` : "",
      r.table && r.outcome ? ` → ${fmt(r.outcome.result ?? r.outcome)}` : "", ` (roll ${roll.index}, event ${r.seq})`);
    out.classList.remove("error"); out.classList.add("ok");
    await refresh();
  } catch (e) {
    const lost = !(e instanceof ApiError) || e.status >= 500;
    setStatus(out, lost ? `${e.message}: the answer was lost; rolling again repeats the same request (same key and nonce), so it cannot roll twice` : e.message, "error");
  }
}

async function loadRoll() {
  const c = state.campaign;
  if (!state.tables.length) state.tables = await api.get(`/v1/rulesets/${encodeURIComponent(c.ruleset)}/tables`);
  if ($("roll-form")) return;
  body("roll").replaceChildren(
    h("form", { id: "roll-form", onsubmit: rollOnTable },
      h("label", {}, "Table ", h("select", { id: "roll-table", onchange: showTable }, state.tables.map((t) => h("option", { value: t.id }, `${t.rule} ${t.title}`)))),
      h("div", { id: "roll-drms" }), h("button", { type: "submit" }, "roll on the table")),
    h("form", { id: "free-form", onsubmit: freeRoll, class: "row" },
      h("select", { id: "free-dice", "aria-label": "dice" }, h("option", { value: 2 }, "DR"), h("option", { value: 1 }, "dr")),
      h("input", { id: "free-purpose", required: true, maxlength: 200, placeholder: "purpose, e.g. Escape of 7-4-7 in H5" }),
      h("label", { class: "inline" }, h("input", { type: "checkbox", id: "free-secret", "aria-describedby": "free-secret-note" }), " secret"),
      h("button", { type: "submit" }, "roll"),
      h("small", { id: "free-secret-note", class: "note" }, "A Secret roll is sealed (cgledger-dice/2): the opponent sees that you rolled, never its purpose, its dice or how many, until you reveal it.")),
    h("p", { id: "roll-result", class: "status", role: "status" }));
  if (c.you === "referee") body("roll").prepend(h("p", { class: "rule" }, "The referee rolls as the referee."));
  showTable();
}

// ------------------------------------------------------------------ proposals & disputes
// DESIGN §13: every proposal that waits for the opponent (undo requests,
// definition amendments, Control) in one list: approve and reject for the
// opponent and the referee, withdraw for the side that proposed it.
function proposalText(p) {
  const q = p.proposed || {};
  if (p.kind === "undo-request") return `undo #${p.seq} by ${p.by} (${p.status}): ${q.seqs ? `events ${q.seqs.join(", ")}` : `back to ${q.to_seq}`} — ${q.reason}`;
  if (p.kind === "definition-amendment") return `amendment #${p.seq} by ${p.by} (${p.status}): ${JSON.stringify(q.patch).slice(0, 120)} — ${q.reason}`;
  if (p.kind === "control") {
    const locs = (q.locations || []).map((l) => `${l.hex}${l.level ? `/${l.level}` : ""} → ${l.side ?? "uncontrolled"}`);
    const blocks = (q.blocks || []).map((b) => `Block ${b.block} → ${b.side ?? "uncontrolled"}`);
    const all = [...(q.rule ? [`rule ${q.rule}`] : []), ...locs, ...blocks];
    return `Control #${p.seq} by ${p.by} (${p.status}) of ${q.map_group}: ${all.slice(0, 12).join(", ")}${all.length > 12 ? `, … (${all.length} in all)` : ""}`;
  }
  return `${p.kind} #${p.seq} by ${p.by} (${p.status})`;
}

function answer(p, verb) {
  return h("button", { type: "button", class: verb, onclick: () => act(() => api.post(`${base}/proposals/${p.seq}/${verb}`, {}), "requests-status") }, verb);
}

async function loadRequests(fresh = () => true) {
  const [proposals, disputes] = await Promise.all([api.get(`${base}/proposals?limit=1000`), api.get(`${base}/disputes?limit=100`)]);
  if (!fresh()) return;
  const you = state.campaign.you;
  const undoRows = proposals.items.slice().reverse().map((p) => h("li", { dataset: { proposal: p.seq, kind: p.kind, status: p.status, ...(p.kind === "undo-request" ? { undo: p.seq } : {}) } },
    proposalText(p), p.answer && p.answer.note ? ` → ${p.answer.note}` : "",
    p.status !== "pending" ? null : p.by === you ? [" ", answer(p, "withdraw")] : [" ", answer(p, "approve"), answer(p, "reject")]));
  const disputeRows = disputes.items.slice().reverse().map((d) => h("li", { dataset: { dispute: d.id, status: d.status } },
    `dispute #${d.id} of event ${d.seq} by ${d.by} (${d.status}): ${d.claim}`,
    d.resolution ? ` → ${d.resolution.decision}: ${d.resolution.note || ""}` : "",
    d.status === "open" && you === "referee" ? h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); const f = e.target; act(() => api.post(`${base}/disputes/${d.id}/resolve`, { decision: f.decision.value, note: f.note.value }), "requests-status"); } },
      h("select", { name: "decision" }, h("option", { value: "uphold" }, "uphold"), h("option", { value: "revert" }, "revert")),
      h("input", { name: "note", required: true, maxlength: 500, placeholder: "ruling" }), h("button", { type: "submit" }, "resolve")) : null));
  body("requests").replaceChildren(
    h("h3", {}, "Proposals"), undoRows.length ? h("ul", {}, undoRows) : h("p", {}, "none"),
    h("h3", {}, "Disputes"), disputeRows.length ? h("ul", {}, disputeRows) : h("p", {}, "none"),
    h("p", { class: "status", id: "requests-status", role: "status" }));
}

// ------------------------------------------------------------------ event log
function summary(ev) {
  const p = ev.payload || {};
  const parts = [];
  if (p.cg_date) parts.push(p.cg_date);
  if (ev.type === "RecordSealed") {
    // A sealed record (DESIGN §2a): its act and rolls only to whoever may see them.
    const secret = ev.secret;
    const dice = secret && secret.rolls ? secret.rolls.flatMap((r) => r.dice) : null;
    parts.push(secret ? `sealed ${secret.kind}` : "sealed", p.step ? `step ${p.step}` : "");
    const purposes = secret && secret.rolls ? secret.rolls.map((r) => r.purpose).filter(Boolean).join("; ") : "";
    if (p.roll) parts.push(purposes ? `roll ${p.roll.index}: ${purposes}` : `roll ${p.roll.index}`, dice ? `[${dice.join(", ")}]` : "[sealed]");
  } else if (p.roll) {
    const secret = ev.secret || {};
    const dice = p.roll.dice || secret.dice;
    parts.push(`roll ${p.roll.index}: ${p.roll.purpose}`, dice ? `[${dice.join(", ")}]` : p.roll.secret ? "[secret]" : "");
    const fin = p.final ?? secret.final;
    if (fin !== undefined && fin !== null) parts.push(`Final ${fin}`);
  } else if (ev.type === "RePhAdvanced") parts.push(`${p.side}: ${p.from} → ${p.step}`);
  else if (ev.type === "CommitmentsPublished") parts.push(`${p.commitments.length} commitments from roll ${p.first_index}`);
  else if (ev.type === "CampaignCreated") parts.push(`${p.ruleset} ${p.campaign_name}: ${p.title || ""}`);
  else {
    const shown = Object.entries(p).filter(([k]) => !["definition", "campaign", "cg_date", "owner"].includes(k)).slice(0, 5);
    parts.push(shown.map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v).slice(0, 60) : v}`).join("; "));
  }
  if (ev.secret === null && ev.secret_digest) parts.push("(hidden part)");
  return parts.filter(Boolean).join(" · ");
}

// What a row shows that can change after it was drawn: undone, revealed, its secret readable.
function rowKey(ev) {
  return [ev.seq, ev.reverted_by || "", ev.secret === null ? "" : JSON.stringify(ev.secret), state.revealed.has(ev.seq)].join("|");
}

function eventRow(ev) {
  const p = ev.payload || {};
  const li = h("li", { value: ev.seq, dataset: { seq: ev.seq, type: ev.type, key: rowKey(ev) }, class: ev.reverted_by ? "reverted" : null },
    h("span", { class: "seq" }, `#${ev.seq}`), " ", h("time", { datetime: ev.recorded_at }, ev.recorded_at.slice(0, 19).replace("T", " ")), " ",
    h("span", { class: "actor" }, ev.actor), " ", h("strong", {}, ev.type), " ", h("span", { class: "summary" }, summary(ev)),
    ev.reverted_by ? h("span", { class: "tag" }, ` reverted by #${ev.reverted_by}`) : "");
  const tools = h("span", { class: "tools" });
  const said = `row-status-${ev.seq}`;
  if (p.roll || ev.type === "RecordSealed") {
    const result = h("span", { class: "verdict", role: "status" });
    const check = ev.type === "RecordSealed" ? () => verifySealedRecord(ev, result) : () => verify(p.roll.index, result);
    tools.append(h("button", { type: "button", class: "verify", onclick: check }, "verify"), result);
  }
  // A secret part this page can read, of its own side (or any, for the
  // referee): it may publish it (POST /events/{seq}/reveal; a roll's seed too).
  const you = state.campaign.you;
  if (ev.secret !== null && ev.secret_digest && (p.owner === you || you === "referee") && !state.revealed.has(ev.seq)) {
    const reveal = () => {
      if (!window.confirm(`Reveal event ${ev.seq} to everyone? A reveal cannot be taken back.`)) return;
      act(() => api.post(`${base}/events/${ev.seq}/reveal`, {}), said);
    };
    tools.append(h("button", { type: "button", class: "reveal", onclick: reveal }, "reveal"));
  }
  // A request sent closes the row's forms: the row is kept across redraws, and
  // a card with an open form waits for the player before it redraws.
  const ask = (path, payload) => async (e) => {
    e.preventDefault();
    if (await act(() => api.post(`${base}/${path}`, payload(e.target.text.value)), said)) e.target.closest("details").open = false;
  };
  tools.append(h("details", {}, h("summary", {}, "dispute / undo"),
    h("form", { class: "row", onsubmit: ask("disputes", (claim) => ({ seq: ev.seq, claim })) },
      h("input", { name: "text", required: true, maxlength: 1000, placeholder: "your claim" }), h("button", { type: "submit" }, "open dispute")),
    h("form", { class: "row", onsubmit: ask("undo-requests", (reason) => ({ seqs: [ev.seq], reason })) },
      h("input", { name: "text", required: true, maxlength: 500, placeholder: "why undo it" }), h("button", { type: "submit" }, "request undo"))));
  li.append(" ", tools, h("span", { class: "status", id: said, role: "status" }));
  return li;
}

// The commitments published so far, read on from the last batch seen.
async function publishedCommitment(index) {
  const known = state.commitments || (state.commitments = { byIndex: new Map(), after: 0 });
  if (!known.byIndex.has(index)) {
    const batches = await eventsBetween({ type: "CommitmentsPublished", actor: "", reverted: true }, known.after);
    for (const ev of batches) {
      ev.payload.commitments.forEach((c, i) => known.byIndex.set(ev.payload.first_index + i, { c, seq: ev.seq }));
      known.after = Math.max(known.after, ev.seq);
    }
  }
  return known.byIndex.get(index) ?? { c: null, seq: null };
}

// One click: fetch the roll, then check it here with WebCrypto (proto.js).
async function verify(index, out) {
  setStatus(out, "checking…");
  try {
    const roll = await api.get(`${base}/rolls/${index}`);
    if (!roll.seed || !roll.dice) { setStatus(out, "⧗ the seed is still secret: it can be checked once revealed", "info"); return; }
    const res = await verifyRoll(cid, roll, await publishedCommitment(index));
    if (res.ok) setStatus(out, `✓ verified: the seed opens the commitment published before the roll and, with the nonce ${roll.client_nonce} (${roll.nonce_source === "client" ? "the roller's own" : "drawn by the server"}), gives [${res.recomputed.join(", ")}]`, "ok");
    else setStatus(out, `✗ ${res.problems.join("; ")}`, "error");
  } catch (e) { setStatus(out, `✗ ${e.message}`, "error"); }
}

// A sealed record (cgledger-dice/2): find its reveal in the log, then check it
// here (proto.js verifySealed): the revealed part is the one whose digest was
// recorded, the seed opens the commitment published before the record, and
// the dice of its rolls, in order, are the first dice of the seed's stream.
async function verifySealedRecord(ev, out) {
  setStatus(out, "checking…");
  try {
    const reveals = await eventsBetween({ type: "SecretRevealed", actor: "", reverted: true }, ev.seq);
    const reveal = reveals.find((r) => r.payload && r.payload.of_seq === ev.seq && r.payload.protocol === SEALED);
    if (!reveal) { setStatus(out, "⧗ sealed: it can be checked once revealed", "info"); return; }
    const roll = ev.payload.roll;
    const res = await verifySealed(cid, ev, reveal, roll ? await publishedCommitment(roll.index) : null);
    if (!res.ok) { setStatus(out, `✗ ${res.problems.join("; ")}`, "error"); return; }
    const q = reveal.payload;
    setStatus(out, roll
      ? `✓ verified (revealed at event ${reveal.seq}): the sealed part is the one recorded, the seed opens the commitment published before the record and, with the nonce ${q.client_nonce} (${q.sealed.nonce_source === "client" ? "the roller's own" : "drawn by the server"}), its stream gives [${res.recomputed.join(", ")}], the dice of its rolls in order`
      : `✓ verified (revealed at event ${reveal.seq}): the sealed part is the one recorded; it drew no dice`, "ok");
  } catch (e) { setStatus(out, `✗ ${e.message}`, "error"); }
}

// The log's filters, read once per load so one load never mixes two.
function logFilters() {
  return { type: $("log-type").value, actor: $("log-actor").value, reverted: $("log-reverted").checked };
}
function logQuery(f, after, limit, before) {
  const q = new URLSearchParams({ after, limit });
  if (before) q.set("before", before);
  if (f.type) q.set("type", f.type);
  if (f.actor) q.set("actor", f.actor);
  if (!f.reverted) q.set("reverted", "false");
  return q;
}
const isFiltered = (f) => Boolean(f.type || f.actor || !f.reverted);
const PAGE = 50;

// Every matching event with after < seq < before, oldest first.
async function eventsBetween(f, after, before) {
  const items = [];
  for (;;) {
    const page = await api.get(`${base}/events?${logQuery(f, after, 500, before)}`);
    items.push(...page.items);
    if (page.next_after === null || page.next_after === undefined) return items;
    after = page.next_after;
  }
}

// The newest PAGE matching events below ``before``, read back from the newest
// end a window at a time (DESIGN §3 paging, with ``before``); and the lowest
// seq from which every match is now shown.
async function pageBack(f, before) {
  const found = [];
  let upto = before;
  while (found.length < PAGE && upto > 1) {
    const from = Math.max(0, upto - 1 - (isFiltered(f) ? 500 : PAGE));
    found.unshift(...(await eventsBetween(f, from, upto)));
    upto = from + 1;
  }
  const shown = found.slice(-PAGE);
  return { items: shown, oldest: found.length > PAGE ? shown[0].seq : upto };
}

async function loadLog(fresh = () => true) {
  const version = state.campaign.version;
  const f = logFilters();
  const key = JSON.stringify(f);
  let items;
  let oldest = state.oldest;
  if (oldest !== null && state.logKey === key && version - oldest < 2000) {
    items = await eventsBetween(f, oldest - 1, version + 1);  // keep the older pages shown
  } else {
    const got = await pageBack(f, version + 1);
    items = got.items;
    oldest = got.oldest;
  }
  if (!fresh()) return;
  state.oldest = oldest;
  state.logKey = key;
  noteReveals(items);
  // A row that would draw the same is kept, so a verdict or an open form in it
  // survives a redraw the live feed asked for meanwhile.
  const kept = new Map([...body("log").querySelectorAll(":scope > li")].map((li) => [li.dataset.key, li]));
  body("log").replaceChildren(...items.reverse().map((ev) => kept.get(rowKey(ev)) || eventRow(ev)));
  $("log-older").disabled = state.oldest <= 1;
  const types = new Set([...$("log-type").options].map((o) => o.value));
  for (const ev of items) if (!types.has(ev.type)) { types.add(ev.type); $("log-type").append(h("option", { value: ev.type }, ev.type)); }
}

async function olderEvents(fresh = () => true) {
  const f = logFilters();
  const got = await pageBack(f, state.oldest);
  if (!fresh() || state.logKey !== JSON.stringify(f)) return;
  noteReveals(got.items);
  body("log").append(...got.items.reverse().map(eventRow));
  state.oldest = got.oldest;
  $("log-older").disabled = state.oldest <= 1;
  refreshSoon();  // a live event that came meanwhile
}

// The events a SecretRevealed in view has revealed: no reveal button on them.
function noteReveals(items) {
  for (const ev of items) if (ev.type === "SecretRevealed" && ev.payload) state.revealed.add(ev.payload.of_seq);
}

// ------------------------------------------------------------------ exports
async function checkExport(bytes, label) {
  const out = $("export-result");
  const bar = $("export-progress");
  bar.classList.remove("hidden");
  bar.removeAttribute("value");
  setStatus(out, `checking ${label}…`);
  try {
    const res = await verifyExport(bytes, (done, total) => { bar.max = total; bar.value = done; });
    const whose = res.campaign ? ` of campaign ${res.campaign}${res.campaign === cid ? " (this one)" : " (NOT this campaign)"} as ${res.viewer} sees it` : "";
    if (res.ok) {
      setStatus(out, `✓ ${label}${whose}: ${res.events} events, hash chain intact (head ${res.head.slice(0, 16)}…); ${res.rolls} rolls, ${res.recomputed} recomputed from their seeds, ${res.hidden} with the seed still secret${res.sealed ? `; ${res.sealed} sealed records, ${res.revealed} revealed and checked` : ""}. Table results and LVP are not re-read here: \`cgledger verify\` does that.`, "ok");
    } else {
      setStatus(out, `✗ ${label}${whose}: ${res.seq ? `event ${res.seq}: ` : ""}${res.error}`, "error");
    }
  } catch (e) {
    setStatus(out, `✗ ${label}: ${e.message}`, "error");
  } finally {
    bar.classList.add("hidden");
  }
}

function setupExport() {
  $("export-this").addEventListener("click", async () => {
    try { await checkExport(new Uint8Array(await api.get(`${base}/export`, { raw: true })), "this campaign's export"); }
    catch (e) { setStatus($("export-result"), e.message, "error"); }
  });
  const take = async (file) => {
    if (!file) return;
    try { await checkExport(new Uint8Array(await file.arrayBuffer()), file.name); }
    catch (e) { setStatus($("export-result"), `✗ ${file.name}: ${e.message}`, "error"); }
  };
  $("export-file").addEventListener("change", (e) => take(e.target.files[0]));
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); take(e.dataTransfer.files[0]); });
}

// ------------------------------------------------------------------ live feed
let pending = null;
function refreshSoon() {
  clearTimeout(pending);
  pending = setTimeout(() => refresh().catch(() => {}), 250);
}

// One redraw at a time; what arrives meanwhile asks for one more after it.
// The promise settles once no redraw is wanted, so an action's "done" comes
// after the redraw that shows it.
let running = null;
let wanted = null;
function refresh(force = false) {
  wanted = { force: force || Boolean(wanted && wanted.force) };
  if (!running) {
    running = (async () => {
      try {
        while (wanted) {
          const now = wanted;
          wanted = null;
          await redraw(now.force).catch(() => {});
        }
      } finally {
        running = null;
      }
    })();
  }
  return running;
}

async function redraw(force) {
  await loadCampaign();
  const opts = { force };
  await Promise.all([guarded("reph", loadReph, opts), guarded("rosters", loadRosters), guarded("purchases", loadPurchases, opts), guarded("lvp", loadLvp),
    guarded("dice", loadDice), guarded("requests", loadRequests, opts), guarded("log", loadLog, opts),
    Number($("map-at").value) >= Number($("map-at").max) ? guarded("map", loadMap) : null]);
  document.body.dataset.version = String(state.campaign.version);
}

// SSE over fetch, so the token goes in the Authorization header (an
// EventSource cannot send one); resumes with Last-Event-ID.
async function follow() {
  const live = $("live");
  let delay = 1000;
  for (;;) {
    try {
      const headers = api.headers({ Accept: "text/event-stream" });
      if (state.feedAt) headers["Last-Event-ID"] = String(state.feedAt);
      const r = await fetch(`${base}/stream${state.feedAt ? "" : `?after=${state.campaign.version}`}`, { headers, cache: "no-store" });
      if (!r.ok) throw new Error(`feed: HTTP ${r.status}`);
      live.textContent = "live"; live.className = "pill live on"; delay = 1000;
      const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let cut;
        while ((cut = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, cut); buf = buf.slice(cut + 2);
          const id = /^id: (\d+)$/m.exec(block);
          // An event the page already shows (its own act, read back) redraws nothing,
          // so a verdict just shown is not wiped by the feed catching up.
          if (id) { state.feedAt = Number(id[1]); if (state.feedAt > state.campaign.version) refreshSoon(); }
        }
      }
    } catch { /* reconnect below */ }
    if (!state.feedAt) state.feedAt = state.campaign.version;
    live.textContent = "reconnecting"; live.className = "pill live off";
    await new Promise((ok) => setTimeout(ok, delay));
    delay = Math.min(delay * 2, 15000);
  }
}

// ------------------------------------------------------------------ start
async function main() {
  if (!api.token) {
    setStatus($("page-status"), "This link has no token: open the link with #token=… that was shown when the campaign was created.", "error");
    return;
  }
  const c = await loadCampaign();
  state.definition = (await api.get(`${base}/definition`).catch(() => ({ definition: null }))).definition;
  const groups = mapGroups();
  $("map-group").replaceChildren(...(groups.length ? groups : [""]).map((g) => h("option", { value: g }, g || "(the map)")));
  $("map-group").addEventListener("change", () => guarded("map", loadMap, { force: true }));
  $("map-at").addEventListener("input", () => guarded("map", loadMap, { force: true }));
  $("dice-side").append(...c.sides.map((sd) => h("option", { value: sd }, sd)));
  $("dice-side").addEventListener("change", () => guarded("dice", loadDice, { force: true }));
  $("log-actor").append(...[...c.sides, "referee"].map((a) => h("option", { value: a }, a)));
  for (const id of ["log-type", "log-actor", "log-reverted"]) {
    $(id).addEventListener("change", () => { state.oldest = null; guarded("log", loadLog, { force: true }); });
  }
  $("log-older").addEventListener("click", () => guarded("log", olderEvents, { force: true }));
  setupControl(c);
  setupExport();
  $("my-link").addEventListener("click", () => {
    // The link this page was opened with: the token is kept only in this tab.
    const link = `${location.origin}/c/${encodeURIComponent(cid)}#token=${encodeURIComponent(api.token)}`;
    const out = $("my-link-text");
    out.value = link;
    out.classList.remove("hidden");
    out.select();
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(link).catch(() => {});
  });
  for (const id of ["reph", "purchases", "requests", "log"]) {
    $(id).addEventListener("focusout", () => setTimeout(() => { if ($(id).dataset.stale && !busy(id)) refreshSoon(); }, 300));
    $(id).addEventListener("toggle", () => { if ($(id).dataset.stale && !busy(id)) refreshSoon(); }, true);
  }
  await guarded("roll", loadRoll);
  await refresh();
  state.feedAt = c.version;
  follow();
  document.body.dataset.ready = "true";
}

main().catch((e) => setStatus($("page-status"), e.message, "error"));
