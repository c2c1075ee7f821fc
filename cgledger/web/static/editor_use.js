// What the definition editor does with the definition (DESIGN §7, §15):
// download it as a file, create a campaign with it (POST /v1/campaigns, the
// tokens shown once, as the landing page shows them), or propose it to a
// running campaign as an amendment (POST …/definition-amendments, a JSON
// Merge Patch from the definition in force, with a token the player pastes).
import { Api, h, setStatus, tokenFromFragment } from "./api.js";
import { definitionText, mergePatch, refusal, saveFile, slug } from "./editor_io.js";
import { $, ed } from "./editor_state.js";
import { initialCpp, renderInitialCpp, renderStartDate, showTokens, startDate } from "./landing_fields.js";

const campaignOf = () => (ed.rs ? ed.rs.campaigns.find((c) => c.name === $("use-campaign").value) : null);

export function download() {
  const name = `${slug(ed.doc.title) || "cg-definition"}.json`;
  saveFile(name, definitionText(ed.doc));
  setStatus($("download-status"), `saved ${name}`, "ok");
  return name;
}

// The creation form's fields that follow the ruleset and the definition:
// its campaigns, the start CG Date and each side's initial CPP (the
// landing page's fields, landing_fields.js).
export function renderUse() {
  if (!ed.rs) return;
  const select = $("use-campaign");
  const kept = select.value;
  select.replaceChildren(...ed.rs.campaigns.map((c) => h("option", { value: c.name }, c.name)));
  if ([...select.options].some((o) => o.value === kept)) select.value = kept;
  renderStartDate(campaignOf());
  redrawCpp();
}

export function redrawCpp() {
  if (ed.rs && ed.doc) renderInitialCpp(ed.rs, campaignOf(), ed.doc, $("start-date").value);
}

async function create(event) {
  event.preventDefault();
  const status = $("create-status");
  const button = $("create-button");
  button.disabled = true;
  setStatus(status, "creating…");
  try {
    const body = { ruleset: ed.rs.id, campaign: $("use-campaign").value, title: $("use-title").value, definition: ed.doc };
    const start = startDate();
    if (start !== undefined) body.start_date = start;
    const cpp = initialCpp();
    if (cpp !== undefined) body.initial_cpp = cpp;
    const made = await new Api().post("/v1/campaigns", body);
    if (!made.tokens) {
      setStatus(status, `campaign ${made.id} was created, but its links were lost with the answer; create it again`, "error");
      return;
    }
    setStatus(status, `created campaign ${made.id} (${made.campaign}, starting on ${made.cg_date}), definition ${made.definition_hash}`, "ok");
    showTokens(made);
  } catch (e) {
    setStatus(status, refusal(e), "error");
  } finally {
    button.disabled = false;
  }
}

// A campaign link (/c/<id>#token=…) or a campaign id and a token typed apart.
function target() {
  const link = $("amend-link").value.trim();
  let id = $("amend-campaign").value.trim();
  let token = $("amend-token").value.trim();
  const m = /\/c\/([^/#?]+)/.exec(link);
  if (m) id = decodeURIComponent(m[1]);
  const fromLink = link.includes("#") ? tokenFromFragment(link.slice(link.indexOf("#"))) : null;
  if (fromLink) token = fromLink;
  return { id, token };
}

async function amend(event) {
  event.preventDefault();
  const status = $("amend-status");
  const { id, token } = target();
  if (!id || !token) { setStatus(status, "paste the campaign's link (with its #token=…), or its id and a token", "error"); return; }
  // Both as the ledger normalises them, so the patch holds only what differs.
  const mine = ed.checked && ed.checked.definition;
  if (!mine) { setStatus(status, "the definition is not valid yet (see Validation): a campaign would refuse it", "error"); return; }
  const api = new Api(token);
  const path = `/v1/campaigns/${encodeURIComponent(id)}`;
  setStatus(status, "reading the definition in force…");
  try {
    const now = await api.get(`${path}/definition`);
    const patch = mergePatch(now.definition || {}, mine);
    if (!Object.keys(patch).length) { setStatus(status, "the definition in force is this one already: nothing to propose", "info"); return; }
    const made = await api.post(`${path}/definition-amendments`, { patch, reason: $("amend-reason").value });
    const fields = Object.keys(patch).join(", ");
    setStatus(status, `amendment ${made.id} ${made.status || "sent"} (changes ${fields}); the opponent or the referee approves it on the campaign page`, "ok");
    $("amend-status").dataset.amendment = String(made.id);
  } catch (e) {
    setStatus(status, refusal(e), "error");
  }
}

export function wireUse() {
  $("download-button").addEventListener("click", () => download());
  $("use-campaign").addEventListener("change", () => { renderStartDate(campaignOf()); redrawCpp(); });
  $("start-date").addEventListener("change", redrawCpp);
  $("create-form").addEventListener("submit", create);
  $("amend-form").addEventListener("submit", amend);
}
