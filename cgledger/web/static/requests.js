// Proposals and disputes (DESIGN §5, §13): every proposal that waits for the
// opponent, with approve and reject; disputes, resolved by the opponent of
// the side that filed one or by the referee.
import { h } from "./api.js";
import { act, api, base, body, state } from "./ctx.js";

// DESIGN §13: every proposal that waits for the opponent (undo requests,
// definition amendments, Control, Massacres, CG-Scenario End, New CG Date) in one list:
// approve and reject for the opponent and the referee, withdraw for the side
// that proposed it.
function proposalText(p, endRule) {
  const q = p.proposed || {};
  if (p.kind === "undo-request") {
    const what = q.to_seq !== null && q.to_seq !== undefined
      ? `back to #${q.to_seq} (reverts ${(q.reverts || q.seqs || []).join(", ") || "nothing"})`
      : `events ${(q.seqs || []).join(", ")}`;
    return `undo #${p.seq} by ${p.by} (${p.status}): ${what} — ${q.reason}`;
  }
  if (p.kind === "definition-amendment") return `amendment #${p.seq} by ${p.by} (${p.status}): ${JSON.stringify(q.patch).slice(0, 120)} — ${q.reason}`;
  if (p.kind === "control") {
    const locs = (q.locations || []).map((l) => `${l.hex}${l.level ? `/${l.level}` : ""} → ${l.side ?? "uncontrolled"}`);
    const blocks = (q.blocks || []).map((b) => `Block ${b.block} → ${b.side ?? "uncontrolled"}`);
    const all = [...(q.rule ? [`rule ${q.rule}`] : []), ...locs, ...blocks];
    return `Control #${p.seq} by ${p.by} (${p.status}) of ${q.map_group}: ${all.slice(0, 12).join(", ")}${all.length > 12 ? `, … (${all.length} in all)` : ""}`;
  }
  if (p.kind === "scenario-end") {
    // DESIGN §8: the body as sent; the opponent agrees by approving it (the
    // same as sending the same body) or rejects it, and the side may withdraw
    // it to send a corrected one.
    const b = q.body || {};
    const parts = [`CVP earned ${Object.entries(b.cvp || {}).map(([s, n]) => `${s} ${n}`).join(", ")}`];
    for (const [k, v] of Object.entries(b)) {
      if (k === "cvp" || k === "control") continue;
      parts.push(`${k.replaceAll("_", " ")} ${typeof v === "object" && v !== null ? Object.entries(v).map(([s, n]) => `${s} ${n}`).join(", ") : v}`);
    }
    if ((b.control || []).length) parts.push(`last Control changes in ${b.control.map((c) => c.map_group).join(", ")}`);
    return `CG-Scenario End${endRule ? ` (${endRule})` : ""} #${p.seq} by ${p.by} (${p.status}) on ${q.cg_date}: ${parts.join("; ")}`;
  }
  if (p.kind === "cg-date") return `New CG Date (${q.step || "8.6121"}) #${p.seq} by ${p.by} (${p.status}): ${p.by} is ready for ${q.next} (from ${q.cg_date})`;
  if (p.kind === "massacre") return `Massacre (${q.rule || "A20.4"}) #${p.seq} by ${p.by} (${p.status}): by the ${q.side} on ${q.cg_date}${q.note ? ` — ${q.note}` : ""}`;
  return `${p.kind} #${p.seq} by ${p.by} (${p.status})`;
}

// An undo request and an amendment are answered on their own routes (DESIGN
// §5, §7), which keep their shapes; every other kind on /proposals (§13).
// Withdrawing is /proposals' for every kind.
const OWN = { "undo-request": "undo-requests", "definition-amendment": "definition-amendments" };
function answerPath(p, verb) {
  const own = verb !== "withdraw" && OWN[p.kind];
  return own ? [`/${own}/${p.seq}/${verb}`, `/${own}/{${own === "undo-requests" ? "rid" : "aid"}}/${verb}`] : [`/proposals/${p.seq}/${verb}`, `/proposals/{seq}/${verb}`];
}

function answer(p, verb) {
  const [path, route] = answerPath(p, verb);
  return h("button", { type: "button", class: verb, dataset: { route: `POST ${route}` }, onclick: () => act(() => api.post(`${base}${path}`, {}), "requests-status") }, verb);
}

// DESIGN §5: "The opponent or the referee resolves the dispute by upholding
// the event or reverting it": the side that filed it may not, and a dispute
// the referee filed is the referee's.
function mayResolve(d) {
  const you = state.campaign.you;
  if (you === "referee") return true;
  return state.campaign.sides.includes(you) && d.by !== you && d.by !== "referee";
}

function resolveForm(d) {
  return h("form", { class: "row", onsubmit: (e) => {
    e.preventDefault();
    const f = e.target;
    act(() => api.post(`${base}/disputes/${d.id}/resolve`, { decision: f.decision.value, note: f.note.value }), "requests-status");
  } },
    h("select", { name: "decision", "aria-label": "decision" }, h("option", { value: "uphold" }, "uphold"), h("option", { value: "revert" }, "revert")),
    h("input", { name: "note", required: true, maxlength: 500, placeholder: "ruling", "aria-label": "ruling" }),
    h("button", { type: "submit", dataset: { route: "POST /disputes/{did}/resolve" } }, "resolve"));
}

export function drawRequests(page) {
  const { proposals, disputes } = page;
  const you = state.campaign.you;
  // The RePh step that records CG-Scenario End (Victory Determination: 8.603, 9.603, 2.9).
  const won = ((page.reph && page.reph.steps) || []).find((st) => /Victory/i.test(st.title));
  const undoRows = proposals.items.slice().reverse().map((p) => h("li", { dataset: { proposal: p.seq, kind: p.kind, status: p.status, ...(p.kind === "undo-request" ? { undo: p.seq } : {}) } },
    proposalText(p, won && won.rule), p.answer && p.answer.note ? ` → ${p.answer.note}` : "",
    p.status !== "pending" ? null : p.by === you ? [" ", answer(p, "withdraw")] : [" ", answer(p, "approve"), answer(p, "reject")]));
  const disputeRows = disputes.items.slice().reverse().map((d) => h("li", { dataset: { dispute: d.id, status: d.status } },
    `dispute #${d.id} of event ${d.seq} by ${d.by} (${d.status}): ${d.claim}`,
    d.resolution ? ` → ${d.resolution.decision}: ${d.resolution.note || ""}` : "",
    d.status === "open" && mayResolve(d) ? resolveForm(d) : null));
  body("requests").replaceChildren(
    h("h3", {}, "Proposals (DESIGN §13)"), undoRows.length ? h("ul", {}, undoRows) : h("p", {}, "none"),
    h("h3", {}, "Disputes (DESIGN §5: the opponent or the referee resolves)"), disputeRows.length ? h("ul", {}, disputeRows) : h("p", {}, "none"),
    h("p", { class: "status", id: "requests-status", role: "status" }));
}
