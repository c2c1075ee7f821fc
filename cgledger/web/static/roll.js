// Rolling (DESIGN §2, §2a): a roll on one of the ruleset's tables with its
// inputs and DRMs, or a free DR/dr, secret or not.
import { ApiError, h, setStatus } from "./api.js";
import { $, api, base, body, fmt, state } from "./ctx.js";

let redraw = async () => {};
export function onRolled(fn) { redraw = fn; }

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
    await redraw(true);
  } catch (e) {
    const lost = !(e instanceof ApiError) || e.status >= 500;
    setStatus(out, lost ? `${e.message}: the answer was lost; rolling again repeats the same request (same key and nonce), so it cannot roll twice` : e.message, "error");
  }
}

export async function drawRoll() {
  const c = state.campaign;
  if (!state.tables.length) state.tables = await api.get(`/v1/rulesets/${encodeURIComponent(c.ruleset)}/tables`);
  if ($("roll-form")) return;
  body("roll").replaceChildren(
    h("form", { id: "roll-form", onsubmit: rollOnTable },
      h("label", {}, "Table ", h("select", { id: "roll-table", onchange: showTable }, state.tables.map((t) => h("option", { value: t.id }, `${t.rule} ${t.title}`)))),
      h("div", { id: "roll-drms" }), h("button", { type: "submit", dataset: { route: "POST /tables/{table_id}/rolls" } }, "roll on the table")),
    h("form", { id: "free-form", onsubmit: freeRoll, class: "row" },
      h("select", { id: "free-dice", "aria-label": "dice" }, h("option", { value: 2 }, "DR"), h("option", { value: 1 }, "dr")),
      h("input", { id: "free-purpose", required: true, maxlength: 200, placeholder: "purpose, e.g. Escape of 7-4-7 in H5", "aria-label": "purpose of the roll" }),
      h("label", { class: "inline" }, h("input", { type: "checkbox", id: "free-secret", "aria-describedby": "free-secret-note" }), " secret"),
      h("button", { type: "submit", dataset: { route: "POST /rolls" } }, "roll"),
      h("small", { id: "free-secret-note", class: "note" }, "A Secret roll is sealed (cgledger-dice/2): the opponent sees that you rolled, never its purpose, its dice or how many, until you reveal it.")),
    h("p", { id: "roll-result", class: "status", role: "status" }));
  if (c.you === "referee") body("roll").prepend(h("p", { class: "rule" }, "The referee rolls as the referee."));
  showTable();
}

