// The landing page: create a campaign with everything POST /v1/campaigns
// takes (DESIGN §12: ruleset, campaign, title, start date, initial CPP, a
// definition, readings), and show its tokens once.
import { Api, h, setStatus } from "./api.js";
import {
  chosenReadings, controlOf, initialCpp, renderInitialCpp, renderReadings, renderStartDate,
  showFileReadings, showTokens, startDate,
} from "./landing_fields.js";

const api = new Api();
const $ = (id) => document.getElementById(id);
let rulesets = [];
// Per ruleset, its readings and its sample definition, fetched once.
const fetched = new Map();
// The uploaded definition file as parsed (null: none, or not JSON) and what
// its readings hold that the selects cannot show.
let file = { doc: null, error: null, extra: {} };
let drawn = 0;  // the latest redraw; an older one that finishes late is dropped

const ruleset = () => rulesets.find((r) => r.id === $("ruleset").value);
const campaign = () => (ruleset()?.campaigns || []).find((c) => c.name === $("campaign").value);
const source = () => document.querySelector("input[name=definition]:checked").value;

function ofRuleset(id) {
  if (!fetched.has(id)) {
    const got = Promise.all([
      api.get(`/v1/rulesets/${encodeURIComponent(id)}/readings`),
      api.get(`/v1/rulesets/${encodeURIComponent(id)}/sample-definition`),
    ]).then(([readings, sample]) => ({ readings, sample }));
    got.catch(() => fetched.delete(id));  // a failed fetch is tried again next time
    fetched.set(id, got);
  }
  return fetched.get(id);
}

// The definition the CPP prefill reads: the uploaded file's, else the sample.
function chartSource(sample) {
  return source() === "file" && file.doc && typeof file.doc === "object" ? file.doc : sample;
}

function drawCpp(sample) {
  renderInitialCpp(ruleset(), campaign(), chartSource(sample), $("start-date").value);
}

function drawCampaign(sample) {
  const c = campaign();
  $("campaign-rule").textContent = c ? `${c.rule}: ${c.name}, CG Dates ${c.cg_dates.join(", ")}${c.extendable ? " (more are named when begun)" : ""}` : "";
  renderStartDate(c);
  drawCpp(sample);
}

function fillCampaigns() {
  const rs = ruleset();
  $("campaign").replaceChildren(...(rs ? rs.campaigns : []).map((c) => h("option", { value: c.name }, c.name)));
}

// A new ruleset: its campaigns, then (once fetched) its readings and the
// fields that read its sample definition.
async function drawRuleset() {
  const mine = ++drawn;
  const rs = ruleset();
  fillCampaigns();
  clearRefusal();
  $("initial-cpp-sides").replaceChildren();  // another ruleset: its own prefill, nothing kept
  $("create-form").dataset.loaded = "";
  if (!rs) return;
  const { readings, sample } = await ofRuleset(rs.id);
  if (mine !== drawn) return;
  renderReadings(readings);
  file.extra = source() === "file" && file.doc ? showFileReadings(file.doc.readings) : {};
  drawCampaign(sample);
  $("definition-note").textContent = `${rs.id}'s sample: “${sample.title}”. ${sample.notes || ""}`.trim();
  $("create-form").dataset.loaded = rs.id;
}

// Another campaign redraws its start date too; another date or definition
// only the CPP fields (a number typed stays).
async function redraw(whole) {
  const rs = ruleset();
  if (!rs) return;
  const { sample } = await ofRuleset(rs.id);
  if (whole) drawCampaign(sample);
  else drawCpp(sample);
}

// The chosen file, parsed at once so its readings and chart show in the form.
async function loadFile() {
  const chosen = $("definition-file").files[0];
  file = { doc: null, error: null, extra: {} };
  if (chosen) {
    document.querySelector("input[name=definition][value=file]").checked = true;
    try { file.doc = JSON.parse(await chosen.text()); }
    catch (e) { file.error = `the file is not JSON: ${e.message}`; }
    if (file.doc && typeof file.doc === "object") file.extra = showFileReadings(file.doc.readings);
  }
  await redraw(false);
  const form = $("create-form");
  form.dataset.fileLoads = String(Number(form.dataset.fileLoads || 0) + 1);  // for a test to wait on
}

// The body's definition: none where the server's sample will do; else the
// sample or the file, with the readings that differ from their defaults.
async function definitionOf(rs) {
  const readings = chosenReadings();
  if (source() === "sample") {
    if (!Object.keys(readings).length) return undefined;  // the server records its sample
    const { sample } = await ofRuleset(rs.id);
    return { ...sample, readings };
  }
  if (!$("definition-file").files[0]) throw new Error("choose the JSON file of your CG definition");
  if (file.error) throw new Error(file.error);
  const doc = file.doc;
  // JSON null would read as "no definition" and quietly create the sample.
  if (doc === null) throw new Error("the file holds null, not a CG definition");
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) return doc;  // the API says why not
  const own = doc.readings;
  if (own !== undefined && (own === null || typeof own !== "object" || Array.isArray(own))) return doc;
  const merged = { ...file.extra, ...readings };
  const out = { ...doc };
  if (Object.keys(merged).length) out.readings = merged;
  else delete out.readings;
  return out;
}

function clearRefusal() {
  $("create-errors").replaceChildren();
  for (const el of document.querySelectorAll("#create-form [aria-invalid]")) el.removeAttribute("aria-invalid");
}

// The API's refusal beside the form: its detail, and each field it names
// with its message, the control marked invalid.
function showRefusal(e) {
  const problem = e.problem || {};
  const errors = problem.errors || (problem.field ? [{ field: problem.field, message: problem.detail }] : []);
  const head = e.status ? `refused (${e.status}${problem.title ? " " + problem.title : ""}): ` : "";
  setStatus($("create-status"), head + e.message, "error");
  $("create-errors").replaceChildren(...errors.map((x) => h("li", { dataset: { field: x.field } },
    h("code", {}, x.field), " ", x.message)));
  const controls = errors.map((x) => controlOf(x.field)).filter(Boolean);
  for (const el of controls) el.setAttribute("aria-invalid", "true");
  if (controls.length && !controls[0].disabled) controls[0].focus();
}

async function create(event) {
  event.preventDefault();
  const status = $("create-status");
  $("create-button").disabled = true;
  clearRefusal();
  setStatus(status, "creating…");
  try {
    const rs = ruleset();
    const body = { ruleset: $("ruleset").value, campaign: $("campaign").value, title: $("title").value };
    const start = startDate();
    if (start !== undefined) body.start_date = start;
    const cpp = initialCpp();
    if (cpp !== undefined) body.initial_cpp = cpp;
    if (rs) {
      const definition = await definitionOf(rs);
      if (definition !== undefined) body.definition = definition;
    }
    const made = await api.post("/v1/campaigns", body);
    if (!made.tokens) {
      // A retry after a lost answer replays the creation without its tokens
      // (only their hashes are kept): that campaign cannot be opened.
      setStatus(status, `campaign ${made.id} was created, but its links were lost with the answer; create the campaign again`, "error");
      api.pending.clear();
      return;
    }
    setStatus(status, `created campaign ${made.id} (${made.campaign}, starting on ${made.cg_date})`, "ok");
    $("create-form").reset();
    file = { doc: null, error: null, extra: {} };
    await drawRuleset();
    showTokens(made);
  } catch (e) {
    showRefusal(e);
  } finally {
    $("create-button").disabled = false;
  }
}

async function main() {
  rulesets = await api.get("/v1/rulesets");
  $("ruleset").replaceChildren(...rulesets.map((r) => h("option", { value: r.id }, `${r.title} (${r.id})`)));
  $("ruleset").addEventListener("change", () => drawRuleset().catch(showRefusal));
  $("campaign").addEventListener("change", () => redraw(true).catch(showRefusal));
  $("start-date").addEventListener("change", () => redraw(false).catch(showRefusal));
  $("definition-file").addEventListener("change", () => loadFile().catch(showRefusal));
  for (const radio of document.querySelectorAll("input[name=definition]")) {
    radio.addEventListener("change", () => redraw(false).catch(showRefusal));
  }
  $("create-form").addEventListener("submit", create);
  await drawRuleset();
  document.body.dataset.ready = "true";
}

main().catch((e) => setStatus($("create-status"), e.message, "error"));
