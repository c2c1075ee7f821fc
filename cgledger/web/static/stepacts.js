// The actions of each RePh step, offered in place on the RePh card (DESIGN §8,
// §12). Each control sends one request; its answer, or the ledger's refusal
// with its rule, shows in the control's own status slot next to it and stays
// there across redraws ("complete all steps": walk.js).
import { ApiError, h, setStatus } from "./api.js";
import { $, api, asSide, base, makeIt, mapGroups, redraw, state } from "./ctx.js";
import { fortPurchase, fortSetup } from "./forts.js";

// ------------------------------------------------------------------ the ruleset
// GET /v1/rulesets, read once: each action's path and rule, the Fortification
// Purchase Table, the Initiative's step, the New CG Date's step.
export const info = { ruleset: null, loading: null };
export function loadInfo(onLoaded) {
  if (info.ruleset || info.loading) return;
  const id = state.campaign.ruleset;
  info.loading = api.get("/v1/rulesets")
    .then((all) => { info.ruleset = all.find((r) => r.id === id) || null; onLoaded(); })
    .catch(() => { info.loading = null; });
}
const ruleOf = (path) => ((info.ruleset && info.ruleset.actions.find((a) => a.path === path)) || {}).rule || "";

// The actions of a step: those whose rule is the step's (8.621) or within it
// (8.6073 in 8.607), and the one it requires (``step.action``).
export function actionsOf(step) {
  const found = (info.ruleset ? info.ruleset.actions : []).filter((a) => stepOfRule(a.rule) === step.rule).map((a) => a.path);
  if (step.action && !found.includes(step.action)) found.push(step.action);
  return found;
}
// Actions no step holds (CG14 Fanaticism: declared once all on-map setup is done).
export function looseActions() {
  return (info.ruleset ? info.ruleset.actions : []).filter((a) => !stepOfRule(a.rule)).map((a) => a.path);
}
// The step a rule number belongs to: itself, or the longest step id it extends.
export function stepOfRule(rule) {
  const steps = (info.ruleset || {}).reph_steps || (state.page ? state.page.reph.steps : []);
  let best = null;
  for (const st of steps) {
    if ((rule === st.rule || String(rule).startsWith(st.rule)) && (!best || st.rule.length > best.length)) best = st.rule;
  }
  return best;
}

// ------------------------------------------------------------------ answers
// Each control has its own status slot next to it (``statusSlot``): the
// answer, or the ledger's refusal with its rule, shows where the player
// acted. What each slot last said is painted again after every redraw until
// the next action in that slot, or the next CG Date.
const notes = new Map();
const TABLE = /\(POST \/v1\/campaigns\/[^/]+\/tables\/([^/]+)\/rolls\)/;
export const neededPath = (e) => ((/\(POST \/v1\/campaigns\/[^/]+\/([a-z-]+)\)/.exec((e && e.message) || "")) || [])[1] || null;
export const slug = (s) => String(s).replace(/[^A-Za-z0-9_-]/g, "_");

// A status slot: polite, so a screen reader says the answer once it is there.
export const statusSlot = (id, tag = "span") => h(tag, { class: "status", id, role: "status", "aria-live": "polite" });

// ``slot``: the id of the status slot next to the control. ``side``: the
// answer goes once that side has moved on from the step it was given at.
// ``fallback``: where the answer shows if the action took its control away
// (a CG-Scenario End recorded, a CG Date begun). Every answer goes with the
// CG Date it was given on.
export async function run(fn, slot, { side = null, fallback = null } = {}) {
  notes.set(slot, { text: "…", kind: "info", date: state.page.reph.cg_date });  // painted again if the card redraws meanwhile
  paintNotes();
  let note;
  try {
    const said = await fn();
    note = { text: typeof said === "string" ? said : "done", kind: "ok" };
  } catch (e) {
    const lost = !(e instanceof ApiError || e.problem) || e.status >= 500;
    note = {
      text: lost ? `${e.message}: the answer was lost; trying again repeats the same request, it never acts twice` : e.message,
      kind: "error", rule: e.problem ? e.problem.rule : undefined, table: (TABLE.exec(e.message || "") || [])[1],
    };
  }
  // A refusal leaves the forms as the player typed them: the card redraws
  // only if the player is not in one ("complete all steps" may have moved on
  // before it stopped, so the page still reads what happened).
  await redraw(note.kind === "ok").catch(() => {});
  note.date = state.page.reph.cg_date;
  if (side) Object.assign(note, { side, at: state.page.reph.current[side] });
  notes.delete(slot);
  notes.set(!$(slot) && fallback ? fallback : slot, note);
  paintNotes();
}

export function paintNotes() {
  const reph = state.page.reph;
  for (const [slot, note] of notes) {
    if (note.date !== reph.cg_date || (note.side && reph.current[note.side] !== note.at)) { notes.delete(slot); continue; }
    const el = $(slot);
    if (!el) continue;
    setStatus(el, note.text, note.kind);
    if (note.rule) el.dataset.rule = note.rule; else delete el.dataset.rule;
    // A roll the rules require on a table (9.6201): open it on the Roll card.
    if (note.table && $("roll-table")) el.append(" ", h("button", { type: "button", onclick: () => openTable(note.table) }, `open ${note.table} on the Roll card`));
  }
}

function openTable(id) {
  const sel = $("roll-table");
  sel.value = id;
  sel.dispatchEvent(new Event("change"));
  sel.scrollIntoView({ block: "center" });
  sel.focus();
}

// ------------------------------------------------------------------ the controls
const NAMES = {
  "cpp-replenishments": "CPP Replenishment", "ammunition-shortage": "Ammunition Shortage",
  "rg-purchases": "Purchasing RG", "rg-determinations": "RG determination rolls",
  "fortification-purchases": "Purchasing Fortifications", "recon": "Purchasing Reconnaissance",
  "fortification-setups": "new Fortification setup Locations", "hidden-fortifications": "Hidden Fortifications placed on-map",
  "fanaticism": "German Fanaticism",
};
// CG14: "the German may declare"; the ledger refuses another side (403).
const ONLY = { fanaticism: "German" };
// Bodies without ``side``: one control for the page, not one per side.
export const SIDELESS = new Set(["hidden-fortifications"]);

// ``route``: the POST it sends, as every action control names it (data-route).
const btn = (text, onclick, cls = null, route = null) => h("button", { type: "button", class: cls, onclick, dataset: route ? { route } : null }, text);
const groupSelect = () => {
  const groups = mapGroups();
  return groups.length ? h("label", {}, "map group ", h("select", { name: "map_group" }, groups.map((g) => h("option", { value: g }, g)))) : null;
};
// The id of the status slot of action ``path`` for ``side`` (null: sideless).
export const actSlot = (path, side) => `reph-act-${path}-${side ? slug(side) : "all"}`;

// The control(s) of action ``path`` for ``side`` (null: a sideless one), or
// null; its answer shows in its own status slot, at its end.
export function actControl(path, side) {
  if (ONLY[path] && side && side !== ONLY[path]) return null;
  const rule = ruleOf(path);
  const slot = actSlot(path, side);
  const send = (body, roll = false) => run(() => (roll ? api.roll(`${base}/${path}`, body) : api.post(`${base}/${path}`, body)), slot);
  const own = (body = {}) => (side ? asSide(side, body) : body);
  const table = (info.ruleset || {}).fortification_table;
  const build = BUILD[path] || ((s) => [btn(`POST ${path}`, () => s.send(own()), null, `POST /${path}`)]);
  const parts = build({ path, side, send, own, slot, table });
  if (!parts) return null;
  const who = side && state.campaign.you === "referee" ? `${side}: ` : "";
  return h("div", { class: "row act", dataset: { action: path, side: side || "" } },
    h("strong", {}, `${who}${rule} ${NAMES[path] || path}`), parts, statusSlot(slot));
}

// A form elsewhere on the page, brought into view for ``side`` (the
// referee's page first names the side it acts for).
function bringUp(side, id) {
  const sel = $("buy-side");
  if (sel && side && sel.value !== side) { sel.value = side; sel.dispatchEvent(new Event("change")); }
  const el = $(id);
  if (!el) return;
  el.scrollIntoView({ block: "center" });
  (el.matches("form") ? el.querySelector("select, input, button") : el).focus();
}
// Whether the RG Purchase Record offers ``side`` its purchase forms (its chart has a line).
const buysHere = (side) => (((state.definition || {}).rg_chart || {})[side] || []).length > 0;

const BUILD = {
  "cpp-replenishments": ({ path, own, slot }) => [btn("make the CPP Replenishment DR", () => run(() => makeIt(path, own()), slot), null, `POST /${path}`)],
  "ammunition-shortage": ({ path, own, slot }) => [btn("make the Ammunition Shortage DR", () => run(() => makeIt(path, own()), slot), null, `POST /${path}`)],
  "rg-purchases": ({ side }) => (side === state.campaign.you
    ? [btn("buy on the RG Purchase Record", () => bringUp(side, "buy-form"), "to-buy")]
    : [h("span", { class: "note" }, "each side buys on its own page (RG Purchase Record)")]),
  // The step's secret rolls are made once, with the secret batch they roll
  // for (RG Purchase Record): here, the way there.
  "rg-determinations": ({ side, send, own }) => [
    buysHere(side) ? btn("to the secret rolls (RG Purchase Record)", () => bringUp(side, "secret-rolls"), "to-secret-rolls") : null,
    btn("roll the next roll an RG needs", () => send(own(), true), "next-roll", "POST /rg-determinations"),
    h("small", { class: "note" }, "The secret rolls of the step go in one sealed record (even none), made with the secret batch on the RG Purchase Record; an RG bought in the open has its own \"roll it\" there too."),
  ],
  "fortification-purchases": fortPurchase,
  "recon": ({ send, own }) => [h("form", { class: "row", onsubmit: (e) => {
    e.preventDefault();
    const f = e.target.elements;
    send(own({ cpp: Number(f.cpp.value), lax: f.lax.checked, secret: f.secret.checked }), true);
  } },
    h("label", {}, "spend ", h("select", { name: "cpp" }, h("option", { value: 1 }, "1 CPP"), h("option", { value: 2 }, "2 CPP (+5 drm)"))),
    h("label", { class: "inline" }, h("input", { type: "checkbox", name: "lax" }), " Majority Squad Type Lax (−1)"),
    h("label", { class: "inline" }, h("input", { type: "checkbox", name: "secret", checked: true }), " secret"),
    h("button", { type: "submit", dataset: { route: "POST /recon" } }, "buy Recon and make its dr"))],
  "fortification-setups": fortSetup,
  "hidden-fortifications": ({ send }) => [h("form", { class: "row", onsubmit: (e) => {
    e.preventDefault();
    const g = e.target.elements.map_group;
    send(g ? { map_group: g.value } : {});
  } }, groupSelect(), h("button", { type: "submit", dataset: { route: "POST /hidden-fortifications" } }, "place them on-map"))],
  "fanaticism": ({ send, own }) => [btn("declare all German Personnel Fanatic for this scenario", () => send(own()), null, "POST /fanaticism")],
};
