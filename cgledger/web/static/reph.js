// The RePh card (DESIGN §8, §12): the sequence of the current CG Date with
// each side's status, the Initiative chits, CG-Scenario End and New CG Date.
import { h } from "./api.js";
import { $, act, api, base, body, state } from "./ctx.js";

export function drawReph(page) {
  const { reph, initiative: ini } = page;
  const c = state.campaign;
  const mine = c.sides.includes(c.you) ? [c.you] : c.sides;
  const title = (rule) => (reph.steps.find((st) => st.rule === rule) || {}).title || rule;
  const rows = c.sides.map((side) => {
    const cur = reph.current[side];
    const idx = reph.steps.findIndex((st) => st.rule === cur);
    const next = reph.steps.slice(idx + 1).find((st) => st.status[side] !== "n/a");
    const acts = mine.includes(side) && cur !== "scenario" ? [
      next ? h("button", { type: "button", class: "advance", dataset: { side, to: next.rule }, onclick: () => advance(side, next.rule) }, `complete ${cur} → ${next.rule}`) : null,
      h("button", { type: "button", dataset: { side, to: "scenario" }, onclick: () => advance(side, "scenario") }, "complete all steps"),
    ] : [];
    return h("tr", { dataset: { side } }, h("th", {}, side),
      h("td", { class: "step" }, cur === "scenario" ? "all steps done" : `${cur} ${title(cur)}`), h("td", {}, acts));
  });
  const parts = [
    h("p", {}, `CG Date ${reph.cg_date}${reph.initial ? " (Initial Scenario)" : ""}`,
      reph.scenario ? ` · scenario: ${reph.scenario.type}` : "", reph.new_date_due ? " · a New CG Date is due" : ""),
    h("div", { class: "scroll" }, h("table", {}, h("tbody", {}, rows))),
    h("p", { class: "status", id: "reph-status", role: "status" }),
  ];
  const today = ini && ini.items && ini.items.find((it) => it.cg_date === reph.cg_date);
  if (today || (ini && reph.steps.some((st) => /Initiative/i.test(st.title) && Object.values(st.status).includes("current")))) {
    const chosen = today ? today.chosen : {};
    parts.push(h("div", { class: "initiative" }, h("h3", {}, "Initiative chits"),
      h("p", {}, c.sides.map((sd) => `${sd}: ${today && today.chits[sd] ? today.chits[sd] : chosen[sd] ? "chosen" : "not chosen"}`).join(" · "),
        today && today.scenario ? ` → ${today.scenario}` : ""),
      mine.filter((sd) => !chosen[sd]).map((sd) => h("span", {}, `${sd}: `,
        h("button", { type: "button", onclick: () => chit(sd, "attack") }, "Attack"),
        h("button", { type: "button", onclick: () => chit(sd, "idle") }, "Idle")))));
  }
  if (!reph.new_date_due && c.sides.every((sd) => reph.current[sd] === "scenario")) {
    // DESIGN §8 CG-Scenario End: each side's CVP earned; in play both sides send
    // the same numbers (the first proposes), or the referee records them.
    parts.push(h("form", { id: "scenario-end", class: "row", onsubmit: (e) => {
      e.preventDefault();
      const cvp = Object.fromEntries(c.sides.map((sd) => [sd, Number(e.target.elements[`cvp-${sd}`].value || 0)]));
      act(() => api.post(`${base}/scenario-end`, { cvp }), "reph-status");
    } }, h("strong", {}, "CG-Scenario End: CVP earned"),
      c.sides.map((sd) => h("label", {}, `${sd} `, h("input", { type: "number", min: 0, name: `cvp-${sd}`, class: "num", value: 0 }))),
      h("button", { type: "submit" }, "end the scenario")));
  }
  if (c.you === "referee" && reph.new_date_due) {
    parts.push(h("button", { type: "button", id: "new-date", onclick: () => act(() => api.post(`${base}/cg-dates`, {}), "reph-status") }, "begin the next CG Date"));
  }
  body("reph").replaceChildren(...parts);
}

const advance = (side, to) => act(() => api.post(`${base}/reph/advance`, state.campaign.sides.includes(state.campaign.you) ? { to } : { to, side }), "reph-status");
const chit = (side, kind) => act(() => api.post(`${base}/initiative`, state.campaign.you === "referee" ? { chit: kind, side } : { chit: kind }), "reph-status");

