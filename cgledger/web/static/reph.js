// The RePh card (DESIGN §8, §12, §13): every step of the current CG Date with
// each side's status, the actions of each step in place (stepacts.js), the
// Initiative chits, CG-Scenario End and New CG Date, each by agreement.
import { h } from "./api.js";
import { actsFor, api, asSide, base, fmt, mapGroups, state } from "./ctx.js";
import { SIDELESS, actControl, actionsOf, info, loadInfo, looseActions, paintNotes, run, statusSlot } from "./stepacts.js";
import { completeAll, stopSlot } from "./walk.js";

const OPEN = new Set(["current", "pending"]);
// Where the answer to an action of the whole CG Date (its scenario end, the
// next date) shows once the action has taken its own form away.
const DATE_SLOT = "reph-date-status";

export function drawReph(page) {
  const { reph } = page;
  const c = state.campaign;
  loadInfo(() => { if (!document.getElementById("reph").contains(document.activeElement)) drawReph(state.page); });
  const parts = [
    h("p", {}, `CG Date ${reph.cg_date}${reph.initial ? " (Initial Scenario)" : ""}`,
      reph.scenario ? ` · scenario: ${reph.scenario.type}` : "", reph.new_date_due ? " · a New CG Date is due" : "", " ",
      statusSlot(DATE_SLOT)),
    h("div", { class: "scroll" }, h("table", {}, h("tbody", {}, c.sides.map((side) => sideRow(reph, side))))),
    h("div", { class: "scroll" }, stepsTable(page)),
  ];
  const loose = looseActions();
  const late = actsFor().filter((sd) => { const at = reph.current[sd]; return at === "scenario" || at === reph.steps[reph.steps.length - 1].rule; });
  const extra = late.flatMap((sd) => loose.map((path) => actControl(path, sd))).filter(Boolean);
  if (extra.length) parts.push(h("div", { class: "loose" }, h("h3", {}, "Once all on-map setup is done"), extra));
  parts.push(...scenarioEnd(reph));
  body().replaceChildren(...parts);
  paintNotes();
}

const body = () => document.querySelector("#reph .body");

// Each side's current step, with its advance and "complete all steps".
function sideRow(reph, side) {
  const cur = reph.current[side];
  const title = (rule) => (reph.steps.find((st) => st.rule === rule) || {}).title || rule;
  const idx = reph.steps.findIndex((st) => st.rule === cur);
  const next = reph.steps.slice(idx + 1).find((st) => st.status[side] !== "n/a");
  const mine = actsFor().includes(side);
  const acts = mine && cur !== "scenario" ? [
    next ? h("button", { type: "button", class: "advance", dataset: { side, to: next.rule, route: "POST /reph/advance" }, onclick: () => advance(side, next.rule) }, `complete ${cur} → ${next.rule}`) : null,
    h("button", {
      type: "button", dataset: { side, to: "scenario", route: "POST /reph/advance" }, onclick: () => completeAll(side),
      title: "Completes every remaining step, making on the way only the rolls that need no choice (CPP Replenishment, Ammunition Shortage); it stops where a step needs your decision and says why, and before each purchase step where you could buy and have bought nothing (pressed again, it passes that step).",
    }, "complete all steps"),
  ] : [];
  // The row's own slot: where "complete all steps" stopped and why, and the
  // answer to the step's advance.
  if (mine) acts.push(statusSlot(stopSlot(side)));
  return h("tr", { dataset: { side } }, h("th", { scope: "row" }, side),
    h("td", { class: "step" }, cur === "scenario" ? "all steps done" : `${cur} ${title(cur)}`), h("td", {}, acts));
}

const advance = (side, to) => run(() => api.post(`${base}/reph/advance`, asSide(side, { to })), stopSlot(side), { side });

// Every step, both sides' status as text, the current one marked, and the
// step's actions for the side(s) this page acts for in a row under it.
function stepsTable(page) {
  const { reph } = page;
  const c = state.campaign;
  const mine = actsFor();
  const rs = info.ruleset || {};
  const iniStep = (rs.initiative && rs.initiative.step) || (reph.steps.find((st) => /Initiative/i.test(st.title)) || {}).rule;
  const dateStep = rs.new_date_step || (reph.steps.find((st) => st.joint && /New CG Date|Next CG/i.test(st.title)) || {}).rule;
  const rows = [];
  for (const st of reph.steps) {
    const here = mine.filter((sd) => st.status[sd] === "current");
    rows.push(h("tr", { dataset: { rule: st.rule }, class: here.length ? "current" : null, "aria-current": here.length ? "step" : null },
      h("th", { scope: "row" }, here.length ? `▶ ${st.rule}` : st.rule,
        st.markers.length ? h("span", { class: "markers", title: "the step's markers in the rules' RePh list" }, ` ${st.markers.join("")}`) : null),
      h("td", {}, here.length ? h("strong", {}, st.title) : st.title, st.joint ? " (both sides together)" : ""),
      c.sides.map((sd) => h("td", { dataset: { side: sd, status: st.status[sd] } }, st.status[sd]))));
    const acts = [];
    for (const path of actionsOf(st)) {
      if (SIDELESS.has(path)) { if (mine.some((sd) => OPEN.has(st.status[sd]))) acts.push(actControl(path, null)); continue; }
      for (const sd of mine) if (OPEN.has(st.status[sd])) acts.push(actControl(path, sd));
    }
    if (st.rule === iniStep) acts.push(initiative(page, st));
    if (st.rule === dateStep && reph.new_date_due) acts.push(newDate(reph, st));
    const shown = acts.filter(Boolean);
    if (shown.length) rows.push(h("tr", { class: "acts", dataset: { for: st.rule } }, h("td", { colspan: 2 + c.sides.length }, shown)));
  }
  return h("table", { class: "steps" },
    h("caption", {}, "Each side's status of each step: done, current, pending or n/a (▶: your current step)"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "rule, markers"), h("th", { scope: "col" }, "step"),
      c.sides.map((sd) => h("th", { scope: "col" }, sd)))),
    h("tbody", {}, rows));
}

// 8.623 (9.6213): each side's chit, secret until both are chosen.
function initiative(page, st) {
  const { reph, initiative: ini } = page;
  const c = state.campaign;
  const today = ini && ini.items && ini.items.find((it) => it.cg_date === reph.cg_date);
  if (!today && !Object.values(st.status).includes("current")) return null;
  const chosen = today ? today.chosen : {};
  const rule = (info.ruleset && info.ruleset.initiative && info.ruleset.initiative.rule) || st.rule;
  return h("div", { class: "initiative" }, h("h3", {}, `${rule} Initiative chits`),
    h("p", {}, c.sides.map((sd) => `${sd}: ${today && today.chits[sd] ? today.chits[sd] : chosen[sd] ? "chosen" : "not chosen"}`).join(" · "),
      today && today.scenario ? ` → ${today.scenario}` : ""),
    actsFor().filter((sd) => !chosen[sd]).map((sd) => h("span", {}, `${sd}: `,
      h("button", { type: "button", dataset: { route: "POST /initiative" }, onclick: () => chit(sd, "attack") }, "Attack"),
      h("button", { type: "button", dataset: { route: "POST /initiative" }, onclick: () => chit(sd, "idle") }, "Idle"))),
    statusSlot(INI_SLOT));
}
const INI_SLOT = "reph-initiative-status";
const chit = (side, kind) => run(() => api.post(`${base}/initiative`, asSide(side, { chit: kind })), INI_SLOT);

// 8.6121 (9.6121, 4.0): a side says it is ready; the date begins when
// every side is, or at once when the referee calls it.
function newDate(reph, st) {
  const c = state.campaign;
  const ready = reph.new_date_ready || {};
  const named = Object.values(ready)[0];
  const said = Object.entries(ready).map(([sd, d]) => `${sd} is ready for ${d}`);
  const side = c.sides.includes(c.you);
  const parts = [h("strong", {}, `${st.rule} ${st.title}`),
    h("span", {}, said.length ? `${said.join("; ")}.` : "no side is ready yet.")];
  // DESIGN §13: a side's readiness is a proposal: its proposer withdraws it,
  // the opponent or the referee rejects it (or agrees below).
  const pending = ((state.page && state.page.proposals && state.page.proposals.items) || [])
    .filter((p) => p.kind === "cg-date" && p.status === "pending");
  for (const p of pending) {
    if (p.by === c.you) parts.push(" ", answerButton(p.seq, "withdraw", "new-date-status", `withdraw: not ready for ${ready[p.by] || "it"}`));
    else if (side || c.you === "referee") parts.push(" ", answerButton(p.seq, "reject", "new-date-status", `reject ${p.by}'s ${ready[p.by] || "date"}`));
  }
  if (side && ready[c.you]) {
    parts.push(h("span", {}, ` Waiting for ${c.sides.filter((sd) => !ready[sd]).join(", ")} (or the referee).`));
  } else if (side || c.you === "referee") {
    const last = c.cg_dates && c.cg_dates[c.cg_dates.length - 1] === c.cg_date;
    const ask = !named && c.extendable && last;
    const text = c.you === "referee" ? "begin the next CG Date" : named ? `agree: begin ${named}` : "ready for the next CG Date";
    parts.push(h("form", { class: "row", id: "new-date-form", onsubmit: (e) => {
      e.preventDefault();
      const name = e.target.elements.cg_date;
      const sent = name && name.value.trim() ? { cg_date: name.value.trim() } : {};
      run(async () => {
        const r = await api.post(`${base}/cg-dates`, sent);
        return r.cg_date !== reph.cg_date ? `CG Date ${r.cg_date} began` : `ready: the CG Date begins when the other side is ready too (${st.rule})`;
      }, "new-date-status", { fallback: DATE_SLOT });
    } },
      ask ? h("label", {}, "next CG Date ", h("input", { name: "cg_date", id: "new-date-name", required: true, maxlength: 20, placeholder: "e.g. 6 Afternoon" })) : null,
      h("button", { type: "submit", id: "new-date", dataset: { route: "POST /cg-dates" } }, text)));
  }
  // After the form (or where it was, once this side said it is ready).
  if (side || c.you === "referee") parts.push(statusSlot("new-date-status"));
  if (side) parts.push(h("small", { class: "note" }, "Your call says you are ready (DESIGN §13): the date begins when the other side is ready too, or when the referee begins it."));
  return h("div", { class: "row new-date" }, parts);
}

// A proposal answered in place (DESIGN §13): one request on /proposals.
function answerButton(seq, verb, slot, label) {
  return h("button", { type: "button", class: verb, dataset: { route: `POST /proposals/{seq}/${verb}`, proposal: seq },
    onclick: () => run(() => api.post(`${base}/proposals/${seq}/${verb}`, {}).then((r) => `proposal ${seq} ${r.status}`), slot, { fallback: DATE_SLOT }) }, label);
}

// ------------------------------------------------------------------ CG-Scenario End
// DESIGN §8, §13: the CVP each side earned (and VP where the ruleset keeps
// them), last Control changes and a winner where the rules cannot decide.
// A side's is sent to the opponent, who approves it by sending the same; the
// referee's is recorded at once.
function endRule(reph) {
  const won = reph.steps.find((st) => /Victory/i.test(st.title));
  const marked = reph.steps.filter((st) => st.markers.includes("§"));
  return (won || marked[marked.length - 1] || reph.steps[0]).rule;
}

function describeEnd(b) {
  const parts = [`CVP earned: ${fmt(b.cvp)}`];
  if (b.vp) parts.push(`VP scored: ${fmt(b.vp)}`);
  if (b.vp_required !== undefined) parts.push(`VP required: ${b.vp_required}`);
  if (b.winner) parts.push(`winner: ${b.winner}`);
  for (const ch of b.control || []) {
    parts.push(`Control of ${ch.map_group}: ${(ch.locations || []).map((l) => `${l.hex}${l.level ? `/${l.level}` : ""} → ${l.side ?? "uncontrolled"}`).join(", ")}`);
  }
  return parts.join(" · ");
}

// The rule and text of a paper column of the CG Rosters (2.91's VP).
const paperCol = (key) => Object.values(state.page.rosters || {})
  .flatMap((r) => (r && r.paper ? r.paper.columns : [])).find((col) => col.key === key) || {};

// A VP field the scenario end needs: the browser refuses it empty, saying
// which rule asks for it, so none is sent as 0.
function vpInput(name, key, what) {
  const col = paperCol(key);
  const rule = col.rule ? `${col.rule}: ` : "";
  return h("input", {
    type: "number", min: 0, max: 100000, name, class: "num", required: true, title: `${rule}${col.text || what}`,
    oninvalid: (e) => e.target.setCustomValidity(e.target.validity.valueMissing ? `${rule}state ${what}` : ""),
    oninput: (e) => e.target.setCustomValidity(""),
  });
}

// The VP scored, by the side(s) that score them: one is required (the
// ledger names the side that scores them if another's is sent).
function vpScored(sides) {
  const inputs = sides.map((sd) => vpInput(`vp-${sd}`, "vp", "the VP scored in the scenario"));
  const sync = () => {
    const any = inputs.some((i) => i.value !== "");
    for (const i of inputs) { i.required = !any || i.value !== ""; i.setCustomValidity(""); }
  };
  for (const i of inputs) i.addEventListener("input", sync);
  return sides.map((sd, k) => h("label", {}, `VP scored by ${sd} `, inputs[k]));
}

function scenarioEnd(reph) {
  const c = state.campaign;
  if (reph.new_date_due || !c.sides.every((sd) => reph.current[sd] === "scenario")) return [];
  const out = [];
  const prop = reph.scenario_end_proposal;
  const rule = endRule(reph);
  const canAct = c.sides.includes(c.you) || c.you === "referee";
  if (prop) {
    const theirs = prop.by !== c.you && canAct;
    out.push(h("div", { class: "agreement", dataset: { kind: "scenario-end", proposal: prop.seq, status: "pending" } },
      h("strong", {}, `${rule} CG-Scenario End sent by ${prop.by} (event ${prop.seq}): `), describeEnd(prop.body), " ",
      theirs ? h("button", { type: "button", class: "approve", dataset: { route: "POST /scenario-end" }, onclick: () => run(() => api.post(`${base}/scenario-end`, prop.body).then(() => "CG-Scenario End recorded"), "scenario-end-approve-status", { fallback: DATE_SLOT }) },
        c.you === "referee" ? "record it" : "approve: send the same") : h("span", {}, "waiting for the other side (or the referee). "),
      // DESIGN §13: the opponent or the referee rejects it; its side withdraws it
      // (to send a corrected one).
      theirs ? [" ", answerButton(prop.seq, "reject", "scenario-end-approve-status", "reject")]
        : prop.by === c.you ? answerButton(prop.seq, "withdraw", "scenario-end-status", "withdraw") : null,
      // The proposer's answer shows here, where its form was.
      statusSlot(theirs ? "scenario-end-approve-status" : "scenario-end-status"),
      theirs ? h("small", { class: "note" }, " To disagree, reject it (its side then sends a corrected one), or send your own below: nothing is recorded until both sides send the same, and the refusal shows where they differ.") : null));
  }
  if (!canAct || (prop && prop.by === c.you)) return out;
  const fields = (info.ruleset && info.ruleset.scenario_end_fields) || [];
  const groups = mapGroups();
  const num = (name, label) => h("label", {}, label, h("input", { type: "number", min: 0, max: 100000, name, class: "num", value: name.startsWith("cvp-") ? 0 : "" }));
  out.push(h("form", { id: "scenario-end", class: "row", onsubmit: (e) => {
    e.preventDefault();
    const f = e.target.elements;
    const sent = { cvp: Object.fromEntries(c.sides.map((sd) => [sd, Number(f[`cvp-${sd}`].value || 0)])) };
    // The browser refuses an empty VP field (``required``): none is sent as 0.
    if (fields.includes("vp")) sent.vp = Object.fromEntries(c.sides.filter((sd) => f[`vp-${sd}`].value !== "").map((sd) => [sd, Number(f[`vp-${sd}`].value)]));
    if (fields.includes("vp_required")) sent.vp_required = Number(f.vp_required.value);
    if (f.winner.value) sent.winner = f.winner.value;
    const hexes = f.hexes ? f.hexes.value.split(/[\s,;]+/).filter(Boolean) : [];
    if (hexes.length) {
      const level = Number(f.level.value || 0);
      const side = f.to.value || null;
      sent.control = [{ map_group: f.map_group.value, locations: hexes.map((hex) => ({ hex, level, side })) }];
    }
    run(async () => {
      const r = await api.post(`${base}/scenario-end`, sent);
      return r.status === "proposed" ? "sent: it is recorded when the other side sends the same (or the referee records it)" : "CG-Scenario End recorded";
    }, "scenario-end-status", { fallback: DATE_SLOT });
  } },
    h("strong", {}, `${rule} CG-Scenario End: CVP earned`),
    c.sides.map((sd) => num(`cvp-${sd}`, `${sd} `)),
    fields.includes("vp") ? vpScored(c.sides) : null,
    fields.includes("vp_required") ? h("label", {}, "VP required ", vpInput("vp_required", "vp_required", "the VP required to win the scenario")) : null,
    h("button", { type: "submit", dataset: { route: "POST /scenario-end" } }, c.you === "referee" ? "end the scenario" : "send the scenario end"),
    statusSlot("scenario-end-status"),
    h("label", {}, "winner ", h("select", { name: "winner" }, h("option", { value: "" }, "as the rules decide"), c.sides.map((sd) => h("option", { value: sd }, sd)))),
    groups.length ? h("fieldset", { class: "row" }, h("legend", {}, "last Control changes (optional)"),
      h("label", {}, "map group ", h("select", { name: "map_group" }, groups.map((g) => h("option", { value: g }, g)))),
      h("label", {}, "hexes ", h("input", { name: "hexes", maxlength: 2000, placeholder: "e.g. C1 B2" })),
      h("label", {}, "level ", h("input", { name: "level", type: "number", min: 0, max: 20, value: 0, class: "num" })),
      h("label", {}, "to ", h("select", { name: "to" }, c.sides.map((sd) => h("option", { value: sd }, sd)), h("option", { value: "" }, "uncontrolled")))) : null,
    c.you === "referee" ? null : h("small", { class: "note" }, "A side's scenario end is a proposal: it is recorded when the other side sends the same (DESIGN §13).")));
  return out;
}
