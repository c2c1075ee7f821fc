// "complete all steps" (DESIGN §8): each side's remaining RePh steps, as far
// as the page may go without choosing for the player. It makes on the way
// only the rolls that take no input; it stops where a step needs the
// player's decision, saying where and why: a refusal of the ledger (the RG
// rolls, the chits, the New CG Date), and before each purchase step where
// the side could still buy and has bought nothing. Pressed again there, it
// passes that purchase step with nothing bought.
import { ApiError } from "./api.js";
import { api, asSide, base, makeIt, redraw, state } from "./ctx.js";
import { fortTypes } from "./forts.js";
import { actionsOf, info, neededPath, run, stepOfRule } from "./stepacts.js";

// Rolls a step requires that take no input and leave nothing to choose.
const AUTO = new Set(["cpp-replenishments", "ammunition-shortage"]);
export const stopSlot = (side) => `reph-stop-${side.replace(/[^A-Za-z0-9_-]/g, "_")}`;

// Where the walk stopped before a purchase step: pressed again with the side
// still there, it passes that step.
const told = new Set();
const key = (side, rule) => `${state.page.reph.cg_date}|${side}|${rule}`;

// A stop of the page's own, not a refusal of the ledger.
class Stop extends Error {
  constructor(detail, rule) { super(detail); this.problem = { detail, rule }; }
}

export function completeAll(side) {
  return run(() => walk(side), stopSlot(side), { side });
}

// ------------------------------------------------------------------ purchase steps
// The side's line of the CG Date on its CG Roster, and its RG bought that
// date on its RG Purchase Record: what it bought, as far as this page may see.
function today(side) {
  const date = state.page.reph.cg_date;
  const lines = ((state.page.rosters || {})[side] || {}).lines || [];
  const rows = ((state.page.rg_records || {})[side] || {}).rows || [];
  return { line: lines.find((l) => l.cg_date === date) || {}, rgs: rows.filter((r) => r.cg_date === date) };
}
const num = (v) => (typeof v === "number" ? v : null);
const some = (v) => Boolean(v && (Array.isArray(v) ? v.length : typeof v === "object" ? Object.keys(v).length : v));

// Each purchase action: whether the side could still buy in its step (the
// page offers it the form, and what the roster shows leaves something to pay
// with), and whether it bought in it.
const PURCHASES = {
  "rg-purchases": {
    could: (side, { line }) => (((state.definition || {}).rg_chart || {})[side] || []).length > 0 && num(line.left) !== 0,
    bought: ({ line, rgs }) => rgs.length > 0 || some(line.rg_purchased),
  },
  "fortification-purchases": {
    could: (side, { line }) => fortTypes((info.ruleset || {}).fortification_table, side).length > 0
      && (num(line.fpp) === null || line.fpp - (num(line.fpp_spent) || 0) > 0),
    bought: ({ line }) => some(line.fortifications) || (num(line.fpp_spent) || 0) > 0,
  },
  recon: {
    could: (side, { line }) => num(line.left) !== 0,
    bought: ({ line }) => (num(line.recon_cpp) || 0) > 0 || some(line.recon),
  },
};

// The first step from the side's current one where it could still buy and
// has bought nothing (and the walk has not stopped before yet), or null.
function purchaseStop(reph, side) {
  const seen = today(side);
  const from = reph.steps.findIndex((st) => st.rule === reph.current[side]);
  if (from < 0) return null;
  for (const st of reph.steps.slice(from)) {
    if (!["current", "pending"].includes(st.status[side]) || told.has(key(side, st.rule))) continue;
    const path = actionsOf(st).find((p) => PURCHASES[p]);
    if (path && PURCHASES[path].could(side, seen) && !PURCHASES[path].bought(seen)) return st.rule;
  }
  return null;
}

// ------------------------------------------------------------------ the walk
async function walk(side) {
  let reph = state.page.reph;
  const order = (id) => (id === "scenario" ? Infinity : reph.steps.findIndex((st) => st.rule === id));
  const title = (id) => `${id} ${(reph.steps.find((st) => st.rule === id) || {}).title || ""}`.trim();
  // Pressed again where it stopped before a purchase step, it passes that
  // step: ``purchaseStop`` skips the steps it was told of.
  let goal = purchaseStop(reph, side) || "scenario";  // where it goes; ``blocker``: why it stops once there
  let blocker = null;
  let walking = false;    // one step at a time (1.2: where the sides take each step in turn)
  for (let i = 0; i < 60; i++) {
    const cur = reph.current[side];
    if (cur === "scenario") return "all steps done";
    if (cur === goal && !blocker) throw bought(side, cur, title);
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
        // The page again (not the RePh alone): the roll may leave the side
        // something to buy with.
        await redraw(false);
        reph = state.page.reph;
        if (!blocker) goal = purchaseStop(reph, side) || "scenario";
        continue;
      }
      const at = stepOfRule(e.problem.rule);
      if (at === cur || walking) throw stopped(e, reph.current[side], title);
      if (at && order(at) > order(cur) && order(at) < order(goal)) { goal = at; blocker = e; continue; }
      walking = true;
      continue;
    }
    if (to === goal) {
      if (goal === "scenario") return "all steps done";
      throw blocker ? stopped(blocker, goal, title) : bought(side, goal, title);
    }
  }
  throw new Error("stopped after 60 requests");
}

// The refusal that stopped the walk, saying where it stopped.
function stopped(e, at, title) {
  return new ApiError(e.status, { ...e.problem, detail: `stopped at ${title(at)}: ${e.message}` });
}

// Before a purchase step with nothing bought in it: the player's to buy or pass.
function bought(side, at, title) {
  told.add(key(side, at));
  return new Stop(`stopped at ${title(at)}: ${at}: nothing bought in this step yet; buy, or press "complete all steps" again to pass it with nothing bought`, at);
}
