import { Api, h, setStatus } from "./api.js";

const api = new Api();
const $ = (id) => document.getElementById(id);
let rulesets = [];

function fillCampaigns() {
  const rs = rulesets.find((r) => r.id === $("ruleset").value);
  $("campaign").replaceChildren(...(rs ? rs.campaigns : []).map((c) => h("option", { value: c.name }, c.name)));
}

async function readDefinition() {
  const choice = document.querySelector("input[name=definition]:checked").value;
  if (choice === "sample") return undefined;  // the server records its sample
  const file = $("definition-file").files[0];
  if (!file) throw new Error("choose the JSON file of your CG definition");
  try { return JSON.parse(await file.text()); }
  catch (e) { throw new Error(`the file is not JSON: ${e.message}`); }
}

// The clipboard API needs https or localhost; elsewhere the link is selected
// for the player to copy.
function copy(input, link) {
  input.select();
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(link).catch(() => {});
  else setStatus($("create-status"), "the link is selected: copy it with Ctrl+C (⌘C)", "info");
}

async function create(event) {
  event.preventDefault();
  const status = $("create-status");
  $("create-button").disabled = true;
  setStatus(status, "creating…");
  try {
    const body = { ruleset: $("ruleset").value, campaign: $("campaign").value, title: $("title").value };
    const definition = await readDefinition();
    if (definition !== undefined) body.definition = definition;
    const made = await api.post("/v1/campaigns", body);
    if (!made.tokens) {
      // A retry after a lost answer replays the creation without its tokens
      // (only their hashes are kept): that campaign cannot be opened.
      setStatus(status, `campaign ${made.id} was created, but its links were lost with the answer; create the campaign again`, "error");
      api.pending.clear();
      return;
    }
    setStatus(status, `created campaign ${made.id}`, "ok");
    $("create-form").reset();
    fillCampaigns();
    const base = `${location.origin}/c/${encodeURIComponent(made.id)}#token=`;
    $("token-list").replaceChildren(...Object.entries(made.tokens).map(([role, token]) => {
      const link = base + encodeURIComponent(token);
      return h("li", { dataset: { role } },
        h("strong", {}, role), " ",
        h("a", { href: link, target: "_blank", rel: "noopener" }, "open as " + role), " ",
        h("input", { readonly: true, value: link, "aria-label": `${role} link`, class: "token" }),
        h("button", { type: "button", onclick: (e) => copy(e.target.previousElementSibling, link) }, "copy"));
    }));
    $("tokens").classList.remove("hidden");
  } catch (e) {
    setStatus(status, e.message, "error");
  } finally {
    $("create-button").disabled = false;
  }
}

async function main() {
  rulesets = await api.get("/v1/rulesets");
  $("ruleset").replaceChildren(...rulesets.map((r) => h("option", { value: r.id }, `${r.title} (${r.id})`)));
  $("ruleset").addEventListener("change", fillCampaigns);
  fillCampaigns();
  $("create-form").addEventListener("submit", create);
  document.body.dataset.ready = "true";
}

main().catch((e) => setStatus($("create-status"), e.message, "error"));
