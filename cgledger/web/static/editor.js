// The CG definition editor (DESIGN §15; docs/authoring.md "The editor"):
// start from a grid, a VASL archive, a file or the sample; mark the map with
// clicks; type or paste the RG charts; the definition is checked as one
// types (POST /v1/definition-tools/validate, debounced), with the Setup Areas
// of its initial Control drawn on the map; then download it, create a
// campaign with it, or propose it to a running campaign as an amendment.
// Its parts: editor_source.js (where it starts), editor_map.js (the map),
// editor_hex.js (a click's marks, the hex's fields), editor_fields.js (the
// definition's, the map group's and the Entry Areas' fields),
// editor_chart.js (the charts), editor_use.js (what to do with it).
import { h, setStatus } from "./api.js";
import { loadCharts } from "./editor_chart.js";
import { countEntryAreas, renderDocFields, renderEntryAreas, renderGroupFields } from "./editor_fields.js";
import { brush, fillEntrySelect, paint, renderBrushes, renderHex } from "./editor_hex.js";
import { q, refusal, tool } from "./editor_io.js";
import { EditorMap, PALETTE } from "./editor_map.js";
import { $, ed, group, groups, on } from "./editor_state.js";
import { renderSources } from "./editor_source.js";
import { redrawCpp, renderUse, wireUse } from "./editor_use.js";

const CHECK_MS = 300;
let map = null;
let timer = null;
let asked = 0;
let shown = null;  // the Setup Areas drawn: { gid, view }

// ------------------------------------------------------------------ validation

function schedule(wait = CHECK_MS) {
  clearTimeout(timer);
  asked += 1;  // an answer to an earlier definition is dropped
  ed.checked = null;
  $("validation").dataset.state = "pending";
  setStatus($("check-status"), "checking…");
  setStatus($("map-check"), "checking…");
  timer = setTimeout(check, wait);
}

async function check() {
  if (!ed.doc || !ed.rs) return;
  const mine = asked;
  const g = group();
  let got = null, refused = null;
  try {
    got = await tool("POST", `/v1/definition-tools/validate?${q({ ruleset: ed.rs.id })}`,
      { json: { definition: ed.doc, map_group: g ? g.id : null } });
  } catch (e) {
    refused = e;
  }
  if (mine !== asked) return;  // edited since: a later check answers
  showCheck(got, refused);
}

// Where a refusal's field points on the map: a hex of the map group shown.
function hexOfField(field) {
  const m = /^definition\.map_groups\.([0-9]+)\.(?:hexes\.([0-9]+)|initial_control\.([^.]+)|hq\.[^.]+)/.exec(field || "");
  if (!m) return null;
  const g = (ed.doc.map_groups || [])[Number(m[1])];
  if (!g || g.id !== ed.gid) return null;
  if (m[2] !== undefined) return (g.hexes[Number(m[2])] || {}).hex || null;
  return m[3] || null;
}

function showCheck(got, refused) {
  const box = $("validation");
  const bad = Object.entries(ed.chartBad).filter(([, why]) => why);
  const errors = [];
  if (refused) {
    const p = refused.problem || {};
    const listed = p.problems || p.errors || (p.field ? [{ field: p.field, message: p.detail }] : [{ field: "", message: refusal(refused) }]);
    for (const x of listed) errors.push(x);
  }
  for (const [side, why] of bad) errors.push({ field: `rg_chart.${side}`, message: `the table is not read: ${why}` });
  $("check-errors").replaceChildren(...errors.map((x) => {
    const at = hexOfField(x.field);
    return h("li", { dataset: { field: x.field } }, h("code", {}, x.field), " ", x.message, at ? " " : null,
      at ? h("button", { type: "button", onclick: () => pick(at) }, `show ${at}`) : null);
  }));
  if (got && !errors.length) {
    ed.checked = got;  // its definition, normalised, is what an amendment compares
    box.dataset.state = "valid";
    box.dataset.hash = got.hash;
    const charts = Object.entries(got.rg_chart).map(([s, n]) => `${s} ${n}`).join(", ") || "none";
    const groups = Object.entries(got.map_groups).map(([g, n]) => `${g} ${n}`).join(", ") || "none";
    setStatus($("check-status"), `✓ valid, as a campaign would hold it. Chart lines: ${charts}; hexes: ${groups}. Hash (definition_hash): ${got.hash}`, "ok");
  } else {
    box.dataset.state = "invalid";
    delete box.dataset.hash;
    setStatus($("check-status"), `✗ ${errors.length} problem${errors.length === 1 ? "" : "s"}: a campaign would refuse it`, "error");
  }
  // The same verdict under the map, where the clicks are.
  const ok = box.dataset.state === "valid";
  setStatus($("map-check"), ok ? "✓ valid; the Setup Areas below are its initial Control's" : `✗ ${errors.length} problem${errors.length === 1 ? "" : "s"} (see Validation)${got ? "" : "; the Setup Areas below are the last valid definition's"}`, ok ? "ok" : "error");
  if (got) {
    shown = { gid: ed.gid, view: got.setup_areas };
    map.areas(got.setup_areas);
    showAreas(got.setup_areas);
  }
  box.dataset.checks = String(Number(box.dataset.checks || 0) + 1);
}

// Each side's Setup Areas in words, under the status (8.605, 9.605).
function showAreas(view) {
  const box = $("check-areas");
  if (!view) {
    box.replaceChildren(h("p", { class: "rule" }, ed.rs && group() ? `${ed.rs.id} draws no Setup Areas.` : ""));
    return;
  }
  const rows = Object.entries(view.sides || {}).map(([side, x]) => h("li", { dataset: { side } },
    `${side}: ${x.areas} Setup Area${x.areas === 1 ? "" : "s"}, ${x.hexes} hexes`,
    x.non_isolated_strategic !== undefined && x.non_isolated_strategic !== null ? `, ${x.non_isolated_strategic} non-Isolated Strategic Locations` : "",
    x.note ? ` (${x.note})` : ""));
  box.replaceChildren(h("p", {}, `Setup Areas of ${view.map_group} from the initial Control `, h("span", { class: "rule-no" }, view.step)), h("ul", {}, rows));
}

function legend() {
  const sw = (cls, text, style) => h("span", { class: "key" }, h("span", { class: `swatch ${cls}`, style }), text);
  const sides = ed.rs ? ed.rs.sides : [];
  $("map-legend").replaceChildren(
    ...sides.map((side, i) => sw(`st-${i % PALETTE.length}`, `${side} Setup Area`)),
    sw("st-nml", "No Man's Land"), sw("st-unc", "Uncontrolled Territory"),
    sw("k-strategic", "Strategic Location (thick outline, in its initial Controller's colour)"),
    sw("k-entry", "Eligible Entry Area (dashed, in its side's colour)"), sw("k-blocked", "not Enterable"));
}

// ------------------------------------------------------------------ drawing

function fillGroups() {
  const drawn = groups();
  $("group-select").replaceChildren(...drawn.map((g) => h("option", { value: g.id, selected: g.id === ed.gid }, `${g.id}${g.title ? ": " + g.title : ""} (${g.hexes.length} hexes)`)));
  $("group-delete").disabled = !drawn.length;
}

function drawGroup() {
  const g = group();
  fillGroups();
  if (g) {
    map.draw(g, ed.rs.sides);
    map.areas(shown && shown.gid === g.id ? shown.view : null);
  } else {
    $("editor-map").replaceChildren(h("p", { class: "rule" }, "No map group: make one from a grid or an archive."));
  }
  renderGroupFields();
  renderEntryAreas();
  renderHex(map.selected);
}

function load({ doc, gid }) {
  ed.doc = doc;
  const drawn = groups();
  ed.gid = gid && drawn.some((g) => g.id === gid) ? gid : drawn.length ? drawn[0].id : null;
  shown = null;
  map.select(null);
  drawGroup();
  renderDocFields();
  loadCharts().then(() => redrawCpp());
  renderUse();
  $("undo-button").disabled = !ed.undo.length;
  schedule(0);
}

function pick(id) {
  map.select(id);
  renderHex(id);
}

function onHex(id) {
  paint(id);  // "edited" redraws what it changed
  pick(id);
  document.body.dataset.clicks = String(Number(document.body.dataset.clicks || 0) + 1);
}

on("load", load);
on("undoable", (n) => { $("undo-button").disabled = !n; });
on("hint", (text) => setStatus($("hex-status"), text, "error"));
on("chart-pending", () => schedule(10_000));  // checked once the table is read
on("edited", (what = {}) => {
  if (what.removed) { map.remove(what.removed); renderHex(null); }
  if (what.group) { fillGroups(); map.container.querySelector("svg")?.setAttribute("data-map-group", ed.gid); }
  if (what.areas) renderEntryAreas();
  if (what.hexes) { map.redraw(what.hexes); countEntryAreas(); }
  if (what.chart) redrawCpp();
  const g = group();
  if (g && $("group-lvp")) $("group-lvp").textContent = `${g.hexes.length} hexes; their LVP add up to ${g.hexes.reduce((n, x) => n + (x.lvp || 0), 0)}`;
  schedule();
});

async function chooseRuleset() {
  ed.rs = ed.rulesets.find((r) => r.id === $("ruleset").value) || ed.rulesets[0];
  ed.schema = await tool("GET", ed.rs.definition_schema_url);
  renderBrushes();
  legend();
  renderUse();
  if (ed.doc) load({ doc: ed.doc, gid: ed.gid });
}

async function main() {
  map = new EditorMap($("editor-map"), { onHex });
  ed.rulesets = await tool("GET", "/v1/rulesets");
  $("ruleset").replaceChildren(...ed.rulesets.map((r) => h("option", { value: r.id }, `${r.title} (${r.id})`)));
  $("ruleset").addEventListener("change", () => chooseRuleset().catch((e) => setStatus($("check-status"), refusal(e), "error")));
  renderSources();
  wireUse();
  $("group-select").addEventListener("change", () => {
    ed.gid = $("group-select").value;
    drawGroup();
    schedule(0);
  });
  $("group-delete").addEventListener("click", () => {
    const g = group();
    if (!g || !confirm(`Delete map group ${g.id} and its ${g.hexes.length} hexes?`)) return;
    ed.undo.push(JSON.stringify(ed.doc));
    ed.doc.map_groups = ed.doc.map_groups.filter((x) => x !== g);
    load({ doc: ed.doc, gid: null });
  });
  $("check-button").addEventListener("click", () => schedule(0));
  $("undo-button").addEventListener("click", () => {
    const before = ed.undo.pop();
    if (before) load({ doc: JSON.parse(before), gid: ed.gid });
  });
  const hexPick = () => {
    const typed = $("hex-pick").value.trim();
    const id = map.cells.has(typed) ? typed : typed.toUpperCase();
    if (!map.cells.has(id)) { setStatus($("hex-status"), `no hex ${id} on map group ${ed.gid || "(none)"}`, "error"); return null; }
    setStatus($("hex-status"), "");
    return id;
  };
  $("hex-show").addEventListener("click", () => { const id = hexPick(); if (id) pick(id); });
  $("hex-paint").addEventListener("click", () => { const id = hexPick(); if (id) onHex(id); });
  $("hex-pick").addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    const id = hexPick();
    if (id) (brush() === "select" ? pick : onHex)(id);
  });
  await chooseRuleset();
  fillEntrySelect();
  document.body.dataset.ready = "true";
}

main().catch((e) => setStatus($("check-status"), refusal(e), "error"));
