// Proposals and disputes (DESIGN §5, §13): every proposal that waits for the
// opponent, with approve and reject; disputes and the referee's ruling.
import { h } from "./api.js";
import { act, api, base, body, state } from "./ctx.js";

// DESIGN §13: every proposal that waits for the opponent (undo requests,
// definition amendments, Control) in one list: approve and reject for the
// opponent and the referee, withdraw for the side that proposed it.
function proposalText(p) {
  const q = p.proposed || {};
  if (p.kind === "undo-request") return `undo #${p.seq} by ${p.by} (${p.status}): ${q.seqs ? `events ${q.seqs.join(", ")}` : `back to ${q.to_seq}`} — ${q.reason}`;
  if (p.kind === "definition-amendment") return `amendment #${p.seq} by ${p.by} (${p.status}): ${JSON.stringify(q.patch).slice(0, 120)} — ${q.reason}`;
  if (p.kind === "control") {
    const locs = (q.locations || []).map((l) => `${l.hex}${l.level ? `/${l.level}` : ""} → ${l.side ?? "uncontrolled"}`);
    const blocks = (q.blocks || []).map((b) => `Block ${b.block} → ${b.side ?? "uncontrolled"}`);
    const all = [...(q.rule ? [`rule ${q.rule}`] : []), ...locs, ...blocks];
    return `Control #${p.seq} by ${p.by} (${p.status}) of ${q.map_group}: ${all.slice(0, 12).join(", ")}${all.length > 12 ? `, … (${all.length} in all)` : ""}`;
  }
  return `${p.kind} #${p.seq} by ${p.by} (${p.status})`;
}

function answer(p, verb) {
  return h("button", { type: "button", class: verb, onclick: () => act(() => api.post(`${base}/proposals/${p.seq}/${verb}`, {}), "requests-status") }, verb);
}

export function drawRequests(page) {
  const { proposals, disputes } = page;
  const you = state.campaign.you;
  const undoRows = proposals.items.slice().reverse().map((p) => h("li", { dataset: { proposal: p.seq, kind: p.kind, status: p.status, ...(p.kind === "undo-request" ? { undo: p.seq } : {}) } },
    proposalText(p), p.answer && p.answer.note ? ` → ${p.answer.note}` : "",
    p.status !== "pending" ? null : p.by === you ? [" ", answer(p, "withdraw")] : [" ", answer(p, "approve"), answer(p, "reject")]));
  const disputeRows = disputes.items.slice().reverse().map((d) => h("li", { dataset: { dispute: d.id, status: d.status } },
    `dispute #${d.id} of event ${d.seq} by ${d.by} (${d.status}): ${d.claim}`,
    d.resolution ? ` → ${d.resolution.decision}: ${d.resolution.note || ""}` : "",
    d.status === "open" && you === "referee" ? h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); const f = e.target; act(() => api.post(`${base}/disputes/${d.id}/resolve`, { decision: f.decision.value, note: f.note.value }), "requests-status"); } },
      h("select", { name: "decision" }, h("option", { value: "uphold" }, "uphold"), h("option", { value: "revert" }, "revert")),
      h("input", { name: "note", required: true, maxlength: 500, placeholder: "ruling" }), h("button", { type: "submit" }, "resolve")) : null));
  body("requests").replaceChildren(
    h("h3", {}, "Proposals"), undoRows.length ? h("ul", {}, undoRows) : h("p", {}, "none"),
    h("h3", {}, "Disputes"), disputeRows.length ? h("ul", {}, disputeRows) : h("p", {}, "none"),
    h("p", { class: "status", id: "requests-status", role: "status" }));
}

