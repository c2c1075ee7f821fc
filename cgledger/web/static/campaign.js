// The campaign page (DESIGN §12): everything the token's role may see, kept
// live by the SSE feed. Every value on the page comes from the REST API as
// this token sees it, so a secret can only appear where the API shows it.
// A redraw is one request (GET /page, DESIGN §12 Cost); each card draws its
// part of that answer (reph.js, forms.js, requests.js, log.js, roll.js).
import { h, setStatus } from "./api.js";
import { diceChart, lvpChart } from "./charts.js";
import { $, act, api, base, body, cid, fmt, mapGroups, onRedraw, problem, state } from "./ctx.js";
import { setupExport } from "./exports.js";
import { drawPurchases, drawRosters } from "./forms.js";
import { drawLog, logAfter, olderEvents, reloadLog } from "./log.js";
import { showMap } from "./mapview.js";
import { drawReph } from "./reph.js";
import { drawRequests } from "./requests.js";
import { drawRoll, onRolled } from "./roll.js";
import { info } from "./stepacts.js";
import { setupTools } from "./tools.js";

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

// ------------------------------------------------------------------ header
function drawHeader(c) {
  document.title = `${c.title || c.campaign} · cgledger`;
  $("title").textContent = `${c.title || "(untitled)"} · ${c.ruleset} ${c.campaign}`;
  $("cg-date").textContent = c.cg_date;
  $("role").textContent = `you: ${c.you}`;
  const at = $("map-at");
  const live = Number(at.value) >= Number(at.max);
  at.max = c.version;
  if (live) { at.value = c.version; $("map-at-label").textContent = "live"; }
}

// ------------------------------------------------------------------ LVP
function drawLvp(page) {
  const v = page.lvp;
  const sides = state.campaign.sides;
  const rows = v.rows || [];
  body("lvp").replaceChildren(
    rows.length ? lvpChart(rows, sides) : h("p", {}, "no CG-Scenario End yet"),
    h("div", { class: "scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "CG Date"), sides.map((sd) => h("th", {}, `${sd} CG-LVP`)), h("th", {}, "winner"))),
      h("tbody", {}, rows.map((r) => h("tr", {}, h("td", {}, r.cg_date), sides.map((sd) => h("td", { dataset: { side: sd } }, fmt((r.cg_lvp || {})[sd]))), h("td", {}, fmt(r.winner))))))));
}

// ------------------------------------------------------------------ Setup Areas map
const mapLive = () => Number($("map-at").value) >= Number($("map-at").max);

// The live map comes with GET /page, and only when it changed (its digest).
function drawMap(page) {
  if (!page.map || !mapLive()) return;
  $("map-at-label").textContent = "live";
  state.mapDigest = page.map.digest;
  if (page.map.svg !== null) showMap(body("map"), page.map.svg);
}

// The map as it was at an earlier event (the slider): its own request.
async function loadMapAt(fresh = () => true) {
  if (mapLive()) { state.mapDigest = null; await refresh(true); return; }
  const at = $("map-at").value;
  const q = new URLSearchParams({ at });
  if ($("map-group").value) q.set("map_group", $("map-group").value);
  $("map-at-label").textContent = `seq ${at}`;
  const text = await api.get(`${base}/setup-areas.svg?${q}`, { text: true });
  if (!fresh()) return;
  state.mapDigest = null;
  showMap(body("map"), text);
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
function drawDice(v) {
  const DR = v.DR || {};
  const p = (x) => (x === null || x === undefined ? "–" : x.toFixed(3));
  body("dice").replaceChildren(
    diceChart(DR),
    h("p", {}, `${v.rolls} rolls you can see (${v.hidden} hidden from you). DR: ${DR.count} rolled, mean ${DR.mean === null ? "–" : DR.mean.toFixed(2)} (fair: 7.00), χ² p = ${p(DR.p_value)}`,
      DR.low_counts ? " — too few rolls for the test to mean much" : ""),
    h("p", {}, `dr: ${v.dr.count} rolled, mean ${v.dr.mean === null ? "–" : v.dr.mean.toFixed(2)} (fair: 3.50), χ² p = ${p(v.dr.p_value)}`));
}

// All sides' come with the page; one side's is its own request.
async function loadDice(page, fresh = () => true) {
  const side = $("dice-side").value;
  const v = side ? await api.get(`${base}/dice-stats?side=${encodeURIComponent(side)}`) : page.dice_stats;
  if (!fresh()) return;
  drawDice(v);
}

// ------------------------------------------------------------------ live feed
let pending = null;
function refreshSoon(always = false) {
  clearTimeout(pending);
  // From the feed: only if no redraw meanwhile (the player's own action's)
  // has shown it. A card left stale while the player typed: always.
  pending = setTimeout(() => { if (always || state.feedAt > state.campaign.version) refresh().catch(() => {}); }, 100);
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
          await redraw(now.force).catch((e) => setStatus($("page-status"), e.message, "error"));
        }
      } finally {
        running = null;
      }
    })();
  }
  return running;
}
onRedraw(refresh);
onRolled(refresh);

// The definition in force, read again only when an amendment changed it.
async function definitionFor(c, page) {
  if (state.definitionHash === c.definition_hash && state.definition !== null) return;
  state.definition = (await api.get(`${base}/definition`).catch(() => ({ definition: null }))).definition;
  state.definitionHash = c.definition_hash;
  const groups = mapGroups();
  const shown = page.map ? page.map.map_group : "";
  $("map-group").replaceChildren(...(groups.length ? groups : [""]).map((g) => h("option", { value: g, selected: g === shown }, g || "(the map)")));
}

async function redraw(force) {
  const q = new URLSearchParams();
  const asked = logAfter();
  if (asked !== null) q.set("log_after", asked);
  if ($("map-group").value) q.set("map_group", $("map-group").value);
  if (state.mapDigest && mapLive()) q.set("map_digest", state.mapDigest);
  const page = await api.get(`${base}/page?${q}`);
  state.page = page;
  state.campaign = { ...page.campaign, version: page.version };
  drawHeader(state.campaign);
  await definitionFor(state.campaign, page);
  const opts = { force };
  const now = (fn) => async (fresh) => { if (fresh()) fn(page); };
  await Promise.all([
    guarded("reph", now(drawReph), opts), guarded("rosters", now(drawRosters)),
    guarded("purchases", now(drawPurchases), opts), guarded("lvp", now(drawLvp)),
    guarded("dice", (fresh) => loadDice(page, fresh)), guarded("requests", now(drawRequests), opts),
    guarded("log", (fresh) => drawLog(page, asked, fresh), opts), guarded("map", now(drawMap)),
  ]);
  document.body.dataset.version = String(page.version);
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
  await refresh();  // the first GET /page, and the definition in force
  const c = state.campaign;
  if (!c) return;  // refused (the reason is shown)
  $("map-group").addEventListener("change", () => { state.mapDigest = null; refresh(true); });
  $("map-at").addEventListener("input", () => guarded("map", loadMapAt, { force: true }));
  $("dice-side").append(...c.sides.map((sd) => h("option", { value: sd }, sd)));
  $("dice-side").addEventListener("change", () => guarded("dice", (fresh) => loadDice(state.page, fresh), { force: true }));
  $("log-actor").append(...[...c.sides, "referee"].map((a) => h("option", { value: a }, a)));
  for (const id of ["log-type", "log-actor", "log-reverted"]) {
    $(id).addEventListener("change", () => { state.oldest = null; guarded("log", reloadLog, { force: true }); });
  }
  $("log-older").addEventListener("click", () => guarded("log", olderEvents, { force: true }));
  setupControl(c);
  setupExport();
  setupTools();
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
    $(id).addEventListener("focusout", () => setTimeout(() => { if ($(id).dataset.stale && !busy(id)) refreshSoon(true); }, 300));
    $(id).addEventListener("toggle", () => { if ($(id).dataset.stale && !busy(id)) refreshSoon(true); }, true);
  }
  await guarded("roll", drawRoll);
  state.feedAt = state.campaign.version;
  follow();
  // Ready once the ruleset (GET /v1/rulesets, asked for by the first redraw)
  // is in: the cards that read it (the RePh's actions, the purchases' rules)
  // are drawn with it by then.
  await info.loading;
  document.body.dataset.ready = "true";
}

main().catch((e) => setStatus($("page-status"), e.message, "error"));
