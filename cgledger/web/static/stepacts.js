// The actions of each RePh step, offered in place on the RePh card (DESIGN §8,
// §12), and "complete all steps", which goes as far as it may without
// choosing for the player. Each control sends one request; its answer, or the
// ledger's refusal with its rule, stays shown next to it across redraws.
import { ApiError, h, setStatus } from "./api.js";
import { $, api, asSide, base, makeIt, mapGroups, redraw, state } from "./ctx.js";

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
// What each slot (a status element's id) last said, painted again after
// every redraw until the next action in that slot.
const notes = new Map();
const TABLE = /\(POST \/v1\/campaigns\/[^/]+\/tables\/([^/]+)\/rolls\)/;
export const neededPath = (e) => ((/\(POST \/v1\/campaigns\/[^/]+\/([a-z-]+)\)/.exec((e && e.message) || "")) || [])[1] || null;

// With ``side``, the answer goes once that side has moved on from the step
// it was given at.
export async function run(fn, slot = "reph-status", side = null) {
  notes.set(slot, { text: "…", kind: "info" });  // painted again if the card redraws meanwhile
  paintNotes();
  let note;
  try {
    const said = await fn();
    note = { text: typeof said === "string" ? said : "done", kind: "ok" };
  } catch (e) {
    const lost = !(e instanceof ApiError) || e.status >= 500;
    note = {
      text: lost ? `${e.message}: the answer was lost; trying again repeats the same request, it never acts twice` : e.message,
      kind: "error", rule: e.problem ? e.problem.rule : undefined, table: (TABLE.exec(e.message || "") || [])[1],
    };
  }
  // A refusal leaves the forms as the player typed them: the card redraws
  // only if the player is not in one ("complete all steps" may have moved on
  // before it stopped, so the page still reads what happened).
  await redraw(note.kind === "ok").catch(() => {});
  if (side) Object.assign(note, { side, at: state.page.reph.current[side] });
  notes.set(slot, note);
  paintNotes();
}

export function paintNotes() {
  for (const [slot, note] of notes) {
    if (note.side && state.page.reph.current[note.side] !== note.at) { notes.delete(slot); continue; }
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

// ------------------------------------------------------------------ complete all steps
// Rolls a step requires that take no input and leave nothing to choose: made
// on the way. Anything else (a purchase, the RG rolls with their stated DRMs,
// a chit, the New CG Date) is the player's: the walk stops there and says why.
const AUTO = new Set(["cpp-replenishments", "ammunition-shortage"]);
export const stopSlot = (side) => `reph-stop-${side.replace(/[^A-Za-z0-9_-]/g, "_")}`;

export function completeAll(side) {
  return run(() => walk(side), stopSlot(side), side);
}

async function walk(side) {
  let reph = state.page.reph;
  const order = (id) => (id === "scenario" ? Infinity : reph.steps.findIndex((st) => st.rule === id));
  const title = (id) => `${id} ${(reph.steps.find((st) => st.rule === id) || {}).title || ""}`.trim();
  let goal = "scenario";  // where it goes; ``blocker``: why it stops once there
  let blocker = null;
  let walking = false;    // one step at a time (SG 1.2: the sides take each step in turn)
  for (let i = 0; i < 60; i++) {
    const cur = reph.current[side];
    if (cur === "scenario") return "all steps done";
    let to = goal;
    if (walking) {
      const nxt = reph.steps.find((st) => order(st.rule) > order(cur) && st.status[side] !== "n/a");
      if (nxt && order(nxt.rule) < order(goal)) to = nxt.rule;
    }
    try {
      reph = await api.post(`${base}/reph/advance`, asSide(side, { to }));
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 409) throw e;
      const path = neededPath(e);
      if (path && AUTO.has(path)) {
        await makeIt(path, asSide(side));
        reph = await api.get(`${base}/reph`);
        continue;
      }
      const at = stepOfRule(e.problem.rule);
      if (at === cur || walking) throw stopped(e, reph.current[side], title);
      if (at && order(at) > order(cur) && at !== goal) { goal = at; blocker = e; continue; }
      walking = true;
      blocker = blocker || e;
      continue;
    }
    if (to === goal) {
      if (goal === "scenario") return "all steps done";
      throw stopped(blocker, goal, title);
    }
  }
  throw new Error("stopped after 60 requests");
}

// The refusal that stopped the walk, saying where it stopped.
function stopped(e, at, title) {
  const out = new ApiError(e.status, { ...e.problem, detail: `stopped at ${title(at)}: ${e.message}` });
  return out;
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

// The control(s) of action ``path`` for ``side`` (null: a sideless one), or null.
export function actControl(path, side) {
  if (ONLY[path] && side && side !== ONLY[path]) return null;
  const rule = ruleOf(path);
  const slot = "reph-status";
  const send = (body, roll = false) => run(() => (roll ? api.roll(`${base}/${path}`, body) : api.post(`${base}/${path}`, body)), slot);
  const own = (body = {}) => (side ? asSide(side, body) : body);
  const build = BUILD[path] || ((s) => [btn(`POST ${path}`, () => s.send(own()), null, `POST /${path}`)]);
  const parts = build({ path, side, send, own });
  if (!parts) return null;
  const who = side && state.campaign.you === "referee" ? `${side}: ` : "";
  return h("div", { class: "row act", dataset: { action: path, side: side || "" } },
    h("strong", {}, `${who}${rule} ${NAMES[path] || path}`), parts);
}

const BUILD = {
  "cpp-replenishments": ({ path, own }) => [btn("make the CPP Replenishment DR", () => run(() => makeIt(path, own())), null, `POST /${path}`)],
  "ammunition-shortage": ({ path, own }) => [btn("make the Ammunition Shortage DR", () => run(() => makeIt(path, own())), null, `POST /${path}`)],
  "rg-purchases": ({ side }) => (side === state.campaign.you
    ? [btn("buy on the RG Purchase Record", () => { const f = $("buy-form"); if (f) { f.scrollIntoView({ block: "center" }); f.querySelector("select").focus(); } }, "to-buy")]
    : [h("span", { class: "note" }, "each side buys on its own page (RG Purchase Record)")]),
  "rg-determinations": ({ send, own }) => [
    btn("roll the secret rolls", () => send(own({ secret: true }), true), "secret-rolls", "POST /rg-determinations"),
    btn("roll the next roll an RG needs", () => send(own(), true), "next-roll", "POST /rg-determinations"),
    h("small", { class: "note" }, "The secret rolls of the step go in one sealed record (even none); an RG bought in the open also has its own \"roll it\" on the RG Purchase Record."),
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

// The items of the Fortification Purchase Table the side may buy, with their FPP.
const fortTypes = (side) => ((info.ruleset && info.ruleset.fortification_table) || { types: [] }).types
  .filter((t) => t.fpp[side] !== undefined);

function fortPurchase({ side, send, own }) {
  const types = fortTypes(side || state.campaign.you);
  const table = (info.ruleset || {}).fortification_table;
  return [h("details", {}, h("summary", {}, `choose the items (${table ? `${table.rule} ${table.title}` : "Fortification Purchase Table"})`),
    h("form", { class: "fort-buy", onsubmit: (e) => {
      e.preventDefault();
      const f = e.target;
      const items = types.map((t) => ({ type: t.id, count: Number(f.elements[`fort-${t.id}`].value || 0) })).filter((it) => it.count > 0);
      send(own({ items, secret: f.elements.secret.checked }));
    } },
      types.map((t) => h("label", {}, h("input", { type: "number", min: 0, max: 1000, value: 0, class: "num", name: `fort-${t.id}` }),
        ` ${t.name} (${t.fpp[side || state.campaign.you]} FPP each${t.flags ? `; ${t.flags}` : ""})`)),
      h("label", { class: "inline" }, h("input", { type: "checkbox", name: "secret", checked: true }), " secret (kept on your own CG Roster)"),
      h("button", { type: "submit", dataset: { route: "POST /fortification-purchases" } }, "buy Fortifications"),
      h("small", { class: "note" }, "FPP come with the RG bought in the purchase step; unspent FPP are forfeit when this step is completed.")))];
}

function locationRow(types) {
  return h("div", { class: "row fort-loc" },
    h("label", {}, "type ", h("select", { name: "type" }, types.map((t) => h("option", { value: t.id }, t.name)))),
    h("label", {}, "hex ", h("input", { name: "hex", maxlength: 20, size: 6 })),
    h("label", {}, "level ", h("input", { name: "level", type: "number", min: -9, max: 99, value: 0, class: "num" })),
    h("label", {}, "count ", h("input", { name: "count", type: "number", min: 1, max: 1000, value: 1, class: "num" })));
}

function fortSetup({ side, send, own }) {
  const types = fortTypes(side || state.campaign.you);
  const list = h("div", { class: "fort-locs" }, locationRow(types));
  return [h("details", {}, h("summary", {}, "record the Locations (secret)"),
    h("form", { class: "fort-setup", onsubmit: (e) => {
      e.preventDefault();
      const f = e.target;
      const items = [...list.querySelectorAll(".fort-loc")].map((row) => ({
        type: row.querySelector("[name=type]").value, hex: row.querySelector("[name=hex]").value.trim(),
        level: Number(row.querySelector("[name=level]").value || 0), count: Number(row.querySelector("[name=count]").value || 1),
      })).filter((it) => it.hex);
      const retained = Object.fromEntries(f.elements.retained.value.split(/[\s,;]+/).filter(Boolean)
        .map((pair) => pair.split(":")).map(([area, n]) => [area, Number(n || 0)]));
      const body = { items, retained };
      if (f.elements.map_group) body.map_group = f.elements.map_group.value;
      send(own(body));
    } },
      groupSelect(), list,
      h("button", { type: "submit", dataset: { route: "POST /fortification-setups" } }, "record the setup"),
      h("button", { type: "button", onclick: () => list.append(locationRow(types)) }, "add a Location"),
      h("label", {}, "Retained squad-equivalents by Setup Area ", h("input", { name: "retained", placeholder: "e.g. A:4 B:2", maxlength: 400 })),
      h("small", { class: "note" }, "One sealed record per side and step, even with no Location: the opponent learns nothing from it until 8.6073 or your reveal.")))];
}
