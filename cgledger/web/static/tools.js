// What a player does besides the RePh's steps, each with its rule: undo back
// to a point (DESIGN §5), amend the CG definition, a reading or any field
// (§7, §14), record a Massacre (SSR CG4), reveal a Secret roll by its
// index (§3), and keep the signed checkpoint and the export as files (§5,
// §12). Answers and refusals show under the form the player used. A pending
// proposal shows under Proposals (requests.js), where the opponent answers it.
import { h, setStatus } from "./api.js";
import { $, act, api, base, body, cid, state } from "./ctx.js";

// The ruleset rule that records a Massacre (A20.4), where one does; the
// others refuse the route. tests/test_browser_tools.py checks it against
// each ruleset's ``massacre_rule``.
export const MASSACRE = { kgp: "CG4" };

const tool = (id, title, ...children) => h("div", { class: "tool", id }, h("h3", {}, title), ...children);
const status = (id) => h("p", { class: "status", id, role: "status" });
const route = (r) => ({ route: r });

// ------------------------------------------------------------------ undo back to a point
function undoTo() {
  return tool("undo-to-tool", "Undo back to a point (DESIGN §5)",
    h("p", { class: "note" }, "Every event after the one named is reverted (nothing is deleted: they stay in the log, struck through). Anything the opponent saw makes it a request the opponent or the referee answers under Proposals; the referee's applies at once."),
    h("form", { id: "undo-to", class: "row", onsubmit: (e) => {
      e.preventDefault();
      const f = e.target.elements;
      const to = Number(f.to_seq.value);
      act(async () => {
        const r = await api.post(`${base}/undo-requests`, { to_seq: to, reason: f.reason.value });
        const reverts = ((r.planned && r.planned.reverts) || r.seqs || []).join(", ") || "nothing";
        return r.status === "applied" ? `undone (#${r.id}): every event after #${to} is reverted` : `asked (#${r.id}, ${r.status}): it reverts ${reverts} once the opponent or the referee approves it`;
      }, "undo-to-status");
    } },
      h("label", {}, "back to event # ", h("input", { name: "to_seq", type: "number", min: 0, required: true, class: "num" })),
      h("label", {}, "why ", h("input", { name: "reason", required: true, maxlength: 500 })),
      h("button", { type: "submit", dataset: route("POST /undo-requests") }, "request undo back to it")),
    status("undo-to-status"));
}

// ------------------------------------------------------------------ amendments
function proposed(r) {
  return r.status === "applied" ? `in force (#${r.id})` : `proposed (#${r.id}, ${r.status}): it applies once the opponent or the referee approves it under Proposals`;
}

// DESIGN §14: a reading is agreed data; changing one is an amendment of the
// definition's ``readings``. The list is read when the form is first opened.
let readings = null;
async function loadReadings(form) {
  if (readings) return;
  const got = await api.get(`/v1/rulesets/${encodeURIComponent(state.campaign.ruleset)}/readings`);
  readings = got;
  form.elements.reading.replaceChildren(...got.map((r) => h("option", { value: r.id }, `${r.rule} ${r.id}`)));
}

function showReading(form) {
  const r = (readings || []).find((x) => x.id === form.elements.reading.value);
  if (!r) return;
  const now = ((state.definition && state.definition.readings) || {})[r.id] ?? r.default;
  form.elements.choice.replaceChildren(...Object.entries(r.choices).map(([id, what]) => h("option", { value: id, selected: id === now }, `${id}${id === now ? " (in force)" : ""}: ${what}`)));
  $("reading-text").replaceChildren(h("span", { class: "rule" }, `${r.rule}: “${r.text}”`), h("br"), `In force: ${now}${now === r.default ? " (the default)" : ""}. Why the default: ${r.why}`);
}

function readingForm() {
  const form = h("form", { id: "reading-form", onsubmit: (e) => {
    e.preventDefault();
    const f = e.target.elements;
    act(async () => proposed(await api.post(`${base}/definition-amendments`, { patch: { readings: { [f.reading.value]: f.choice.value } }, reason: f.reason.value })), "amend-status");
  } },
    h("label", {}, "reading ", h("select", { name: "reading", required: true, onchange: (e) => showReading(e.target.form) })),
    h("label", {}, "choice ", h("select", { name: "choice", required: true })),
    h("p", { id: "reading-text", class: "note" }),
    h("div", { class: "row" }, h("label", {}, "why ", h("input", { name: "reason", required: true, maxlength: 500 })),
      h("button", { type: "submit", dataset: route("POST /definition-amendments") }, "propose this reading")));
  const box = h("details", { id: "reading-tool" }, h("summary", {}, "change a reading (DESIGN §14)"), form);
  box.addEventListener("toggle", () => {
    if (box.open) loadReadings(form).then(() => showReading(form)).catch((e) => setStatus($("amend-status"), e.message, "error"));
  });
  return box;
}

function patchForm() {
  const form = h("form", { id: "patch-form", onsubmit: (e) => {
    e.preventDefault();
    const f = e.target.elements;
    let patch;
    try { patch = JSON.parse(f.patch.value); } catch (err) { setStatus($("amend-status"), `not JSON: ${err.message}`, "error"); return; }
    if (patch === null || typeof patch !== "object" || Array.isArray(patch)) { setStatus($("amend-status"), "a JSON Merge Patch is an object, e.g. {\"attack_chits\": {\"German\": 4}}", "error"); return; }
    act(async () => proposed(await api.post(`${base}/definition-amendments`, { patch, reason: f.reason.value })), "amend-status");
  } },
    h("label", {}, "JSON Merge Patch (RFC 7396; a member set to null is removed) ",
      h("textarea", { name: "patch", rows: 4, cols: 40, required: true, maxlength: 100000, placeholder: "{\"attack_chits\": {\"German\": 4}}" })),
    h("div", { class: "row" }, h("label", {}, "why ", h("input", { name: "reason", required: true, maxlength: 500 })),
      h("button", { type: "submit", dataset: route("POST /definition-amendments") }, "propose the patch")));
  return h("details", { id: "patch-tool" }, h("summary", {}, "amend any field (JSON Merge Patch)"), form);
}

function amendments() {
  return tool("amend-tool", "Amend the CG definition (DESIGN §7, §13)",
    h("p", { class: "note" }, "A side's amendment waits for the opponent (or the referee) under Proposals; the referee's is in force at once."),
    readingForm(), patchForm(), status("amend-status"));
}

// ------------------------------------------------------------------ Massacre (SSR CG4)
function massacre(c) {
  const rule = MASSACRE[c.ruleset];
  if (!rule) return null;
  return tool("massacre-tool", `Massacre (${c.ruleset.toUpperCase()} SSR ${rule}, A20.4)`,
    h("p", { class: "note" }, `${rule}: if a Massacre (A20.4) occurs, all effects of A20.3-4 apply for the rest of the CG. A side's record is a proposal the opponent answers under Proposals; the referee's is recorded at once.`),
    h("form", { id: "massacre-form", class: "row", onsubmit: (e) => {
      e.preventDefault();
      const f = e.target.elements;
      const payload = { by: f.by.value };
      if (f.note.value.trim()) payload.note = f.note.value.trim();
      act(async () => {
        const r = await api.post(`${base}/massacres`, payload);
        return r.status === "pending" ? `proposed (#${r.seq}): it applies once the opponent approves it` : `recorded (#${r.seq})`;
      }, "massacre-status");
    } },
      h("label", {}, "massacred by ", h("select", { name: "by" }, c.sides.map((sd) => h("option", { value: sd }, sd)))),
      h("label", {}, "what happened ", h("input", { name: "note", maxlength: 500, placeholder: "optional" })),
      h("button", { type: "submit", dataset: route("POST /massacres") }, "record a Massacre")),
    status("massacre-status"));
}

// ------------------------------------------------------------------ reveal a roll
function revealRoll() {
  return tool("reveal-roll-tool", "Reveal a Secret roll (DESIGN §2, §3)",
    h("p", { class: "note" }, "Publishes the seed of one of your Secret rolls, by its roll index (the referee: anyone's). The event log's reveal does the same for any secret of yours (POST /events/{seq}/reveal). A reveal cannot be taken back."),
    h("form", { id: "reveal-roll", class: "row", onsubmit: (e) => {
      e.preventDefault();
      const index = Number(e.target.elements.index.value);
      if (!window.confirm(`Reveal roll ${index} to everyone? A reveal cannot be taken back.`)) return;
      act(async () => {
        const r = await api.post(`${base}/rolls/${index}/reveal`, {});
        return `revealed roll ${r.index}${r.dice ? `: [${r.dice.join(", ")}]` : ""} (event ${r.revealed_seq ?? r.seq})`;
      }, "reveal-roll-status");
    } },
      h("label", {}, "roll index ", h("input", { name: "index", type: "number", min: 0, required: true, class: "num" })),
      h("button", { type: "submit", dataset: route("POST /rolls/{index}/reveal") }, "reveal the roll")),
    status("reveal-roll-status"));
}

// ------------------------------------------------------------------ files
// Read with the token in the Authorization header and saved from a Blob URL:
// the token never goes into a URL.
async function download(path, name, type) {
  const bytes = await api.get(`${base}${path}`, { raw: true });
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = h("a", { href: url, download: typeof name === "function" ? name(bytes) : name, class: "hidden" });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return a.download;
}

function files() {
  const save = (path, name, type, what) => async () => {
    const out = $("download-status");
    setStatus(out, "reading…");
    try { setStatus(out, `saved ${await download(path, name, type)}: ${what}`, "ok"); }
    catch (e) { setStatus(out, e.message, "error"); }
  };
  const checkpointName = (bytes) => `cgledger-${cid}-checkpoint-${JSON.parse(new TextDecoder().decode(bytes)).seq}.json`;
  return tool("files-tool", "Keep the log (DESIGN §5 audit, §12)",
    h("div", { class: "row" },
      h("button", { type: "button", id: "download-checkpoint", dataset: route("GET /checkpoint"),
        onclick: save("/checkpoint", checkpointName, "application/json", "the server's signature over the log's head; `cgledger verify EXPORT --checkpoint FILE` proves later that the log was not rewritten under it") }, "download the signed checkpoint"),
      h("button", { type: "button", id: "download-export", dataset: route("GET /export"),
        onclick: save("/export", `cgledger-${cid}-export.jsonl`, "application/x-ndjson", "the whole log as you may see it; `cgledger verify FILE` checks it, or drop it on Verify an export") }, "download the export")),
    status("download-status"));
}

// The card is drawn once: what it offers depends only on the role.
export function setupTools() {
  const c = state.campaign;
  const acts = c.sides.includes(c.you) || c.you === "referee";
  body("tools").replaceChildren(...(acts ? [undoTo(), amendments(), massacre(c), revealRoll()] : []).filter(Boolean), files());
}
