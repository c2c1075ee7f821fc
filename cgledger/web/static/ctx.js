// What every card of the campaign page shares: the API client with this
// tab's token, the campaign's URL, the page's state, and how an action is
// sent and its answer shown where the player acted.
import { Api, ApiError, h, setStatus, tokenFromFragment } from "./api.js";

export const $ = (id) => document.getElementById(id);
export const cid = (() => {
  try { return decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || ""); } catch { return ""; }
})();
export const base = `/v1/campaigns/${encodeURIComponent(cid)}`;

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
export const api = new Api(takeToken(), `cgledger:pending:${cid}`);

// The page's state: ``page`` is the last GET /page answer (DESIGN §12 Cost),
// ``campaign`` its campaign part, ``definition`` the definition in force.
export const state = {
  page: null, campaign: null, definition: null, definitionHash: null, tables: [],
  oldest: null, logKey: null, commitments: null, feedAt: 0, revealed: new Set(), mapDigest: null,
};
export const body = (id) => document.querySelector(`#${id} .body`);

export function problem(el, e) {
  el.replaceChildren(h("p", { class: "status error" }, e instanceof ApiError ? `${e.status}: ${e.message}` : String(e.message || e)));
}

export function fmt(v) {
  if (v === null || v === undefined) return "–";
  if (Array.isArray(v)) return v.length ? v.map(fmt).join(", ") : "–";
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k}: ${fmt(x)}`).join("; ") || "–";
  return String(v);
}

// The side(s) this page acts for: its own side, or every side for the referee.
export function actsFor() {
  const c = state.campaign;
  return c.sides.includes(c.you) ? [c.you] : c.you === "referee" ? c.sides : [];
}
// A body for a route that takes ``side`` from the referee only.
export function asSide(side, payload = {}) {
  return state.campaign.you === "referee" ? { ...payload, side } : payload;
}

let redrawAll = async () => {};
export function onRedraw(fn) { redrawAll = fn; }

// One action is one request (DESIGN §12 Cost): the page then redraws from one
// GET /page. The answer, or the ledger's refusal, shows where the player acted
// (``statusId``); a refusal naming the action a step needs offers to make it.
export async function act(fn, statusId) {
  const el = $(statusId);
  let said;
  try {
    said = await fn();
  } catch (e) {
    if (!el) return false;
    const lost = !(e instanceof ApiError) || e.status >= 500;
    setStatus(el, lost ? `${e.message}: the answer was lost; trying again repeats the same request, it never acts twice` : e.message, "error");
    if (e.problem && e.problem.rule) el.dataset.rule = e.problem.rule;
    const needed = /\(POST \/v1\/campaigns\/[^/]+\/([a-z-]+)\)/.exec(e.message || "");
    if (needed && needed[1] !== "cg-dates") {
      el.append(" ", h("button", { type: "button", class: "needed", onclick: () => act(() => makeIt(needed[1]), statusId) }, `make it: POST ${needed[1]}`));
    }
    return false;
  }
  await redrawAll(true).catch(() => {});  // the player's own action: redraw even the card they acted in
  const now = $(statusId);
  if (now) setStatus(now, typeof said === "string" ? said : "done", "ok");
  return true;
}

// An action a step requires, with the page's own client nonce where its body
// takes one (the rolls).
export const ROLLS = new Set(["cpp-replenishments", "ammunition-shortage", "rg-determinations", "recon"]);
export function makeIt(path, payload = {}) {
  return ROLLS.has(path) ? api.roll(`${base}/${path}`, payload) : api.post(`${base}/${path}`, payload);
}

// The map groups of the definition in force.
export function mapGroups() {
  return ((state.definition && state.definition.map_groups) || []).map((g) => g.id);
}

// A redraw of the whole page from one GET /page, for a card that sends its
// own requests and shows their answers itself (reph.js's steps).
export function redraw(force = true) { return redrawAll(force); }
