// The landing page's fields beyond ruleset, campaign and title: the start CG
// Date, each side's initial CPP and the readings (DESIGN §12, §14). Each is
// drawn from what GET /v1/rulesets and its readings say; the rule that fixes
// a value is printed next to it. The server decides: the page only proposes.
import { h, setStatus } from "./api.js";

const $ = (id) => document.getElementById(id);

// The rule of the ruleset's action at ``path`` (e.g. "8.616"), or null.
export function actionRule(rs, path) {
  const a = (rs.actions || []).find((x) => x.path === path);
  return a ? a.rule : null;
}

// A ruleset keeps CPP when it has a CPP Replenishment step (8.616, 9.616);
// SG's Purchase Points come from VP instead (2.92), so it takes none.
export function keepsCpp(rs) {
  return actionRule(rs, "cpp-replenishments") !== null;
}

// ------------------------------------------------------------ start CG Date

// A CG whose Initial Scenario date the rules give starts on it (the API
// refuses another); where the seed leaves it out, the player picks one of
// the CG's dates, the first preselected.
export function renderStartDate(c) {
  const select = $("start-date");
  const note = $("start-date-rule");
  if (!c) { select.replaceChildren(); note.textContent = ""; return; }
  if (c.initial_date) {
    select.replaceChildren(h("option", { value: c.initial_date, selected: true }, c.initial_date));
    select.disabled = true;
    select.dataset.fixed = "true";
    note.textContent = `${c.rule}: ${c.name} starts on ${c.initial_date}, the CG Date of its Initial Scenario. ${c.notes || ""}`.trim();
  } else {
    select.replaceChildren(...c.cg_dates.map((d, i) => h("option", { value: d, selected: i === 0 }, d)));
    select.disabled = false;
    delete select.dataset.fixed;
    note.textContent = `${c.notes || c.rule} Preselected: ${c.cg_dates[0]}, the first CG Date of the chart.`;
  }
}

// What the body's start_date is: only where the player chose it.
export function startDate() {
  const select = $("start-date");
  return select.dataset.fixed || !select.value ? undefined : select.value;
}

// ------------------------------------------------------------ initial CPP

// The chart line a side's purchase form offers first (its price is 8.619's
// "CPP cost"), or null.
function firstLine(definition, side) {
  const chart = definition && definition.rg_chart && definition.rg_chart[side];
  return Array.isArray(chart) && chart.length && Number.isInteger(chart[0].cpp) ? chart[0] : null;
}

// The rules leave each CG's initial CPP to its Initial Scenario OB (8.51-.53,
// 9.51-.53), which the seeds do not hold: the field is prefilled with the
// cost of the first RG on the side's chart in the chosen definition, so that
// purchase can be made on the first CG Date, and the note says so.
export function renderInitialCpp(rs, c, definition, start) {
  const box = $("initial-cpp-sides");
  const note = $("initial-cpp-rule");
  const legend = $("initial-cpp").querySelector("legend");
  if (!rs || !keepsCpp(rs)) {
    box.replaceChildren();
    legend.textContent = "Initial CPP";
    note.textContent = rs ? `This ruleset keeps no CPP. ${rs.notes}` : "";
    return;
  }
  const repl = actionRule(rs, "cpp-replenishments");
  const buy = actionRule(rs, "rg-purchases");
  const ob = c ? c.rule : "the CG";
  const first = start || "the first CG Date";
  legend.textContent = `Initial CPP (${ob}: the CG's Initial Scenario OB; ${repl}: no CPP Replenishment before it)`;
  const old = new Map([...box.querySelectorAll("input")].map((i) => [i.dataset.side, i]));
  box.replaceChildren(...rs.sides.map((side) => {
    const line = firstLine(definition, side);
    const prefill = line ? line.cpp : 0;
    const kept = old.get(side);
    const input = h("input", {
      type: "number", id: `initial-cpp-${side}`, class: "num", min: 0, max: 10000, step: 1,
      inputmode: "numeric", value: prefill, dataset: { side, prefill, first: line ? line.id : "" },
    });
    // A number the player typed stays when the definition changes.
    if (kept && kept.dataset.touched) { input.value = kept.value; input.dataset.touched = "true"; }
    input.addEventListener("input", () => { input.dataset.touched = "true"; });
    return h("label", { class: "inline" }, `${side} `, input);
  }));
  const prefills = rs.sides.map((side) => {
    const line = firstLine(definition, side);
    return line ? `${side} ${line.cpp} (${line.id} ${line.name})` : `${side} 0 (no RG on its chart)`;
  });
  note.textContent = `${ob} is not in the seeds: type the CPP your CG's Initial Scenario OB gives each side, `
    + `which is all it holds on ${first} (${repl}: CPP Replenishment is NA before the Initial Scenario). `
    + `Prefilled with the ${buy} CPP cost of the first RG on each side's chart in the chosen definition, `
    + `so that purchase can be made on ${first}: ${prefills.join(", ")}.`;
}

// The body's initial_cpp: each side's number as typed (a blank is sent as
// null, so the API refuses it rather than the page guessing 0).
export function initialCpp() {
  const inputs = [...$("initial-cpp-sides").querySelectorAll("input")];
  if (!inputs.length) return undefined;
  return Object.fromEntries(inputs.map((i) => [i.dataset.side, i.value === "" ? null : Number(i.value)]));
}

// ------------------------------------------------------------ readings

// One labelled select per reading: its rule and id, the seed's words, each
// choice with its meaning, the default preselected with its "why".
export function renderReadings(readings) {
  $("reading-list").replaceChildren(...readings.map((r) => {
    const id = `reading-${r.id}`;
    // The chosen choice's meaning in full under the select, which cuts it.
    const meaning = h("p", { id: `${id}-meaning`, class: "meaning" });
    const show = () => { meaning.textContent = `${select.value}: ${r.choices[select.value] ?? ""}`; };
    const select = h("select", {
      id, dataset: { reading: r.id, default: r.default }, "aria-describedby": `${id}-meaning ${id}-text ${id}-why`,
      onchange: show,
    }, Object.entries(r.choices).map(([choice, text]) =>
      h("option", { value: choice, selected: choice === r.default },
        `${choice}${choice === r.default ? " (default)" : ""}: ${text}`)));
    show();
    return h("div", { class: "reading", dataset: { reading: r.id } },
      h("label", { for: id }, h("span", { class: "rule-no" }, r.rule), " ", r.id),
      select, meaning,
      h("blockquote", { id: `${id}-text`, class: "seed" }, `“${r.text}”`),
      h("p", { id: `${id}-why`, class: "rule" }, `Default “${r.default}”: ${r.why}`));
  }));
}

// A definition file's own readings, shown in the selects; what the page
// cannot show (an unknown id, or a choice the reading lacks) is kept to be
// sent as it is, so the API names it in its refusal.
export function showFileReadings(readings) {
  const extra = {};
  if (!readings || typeof readings !== "object" || Array.isArray(readings)) return extra;
  const selects = [...$("reading-list").querySelectorAll("select")];
  for (const select of selects) select.value = select.dataset.default;
  for (const [rid, choice] of Object.entries(readings)) {
    const select = $(`reading-${rid}`);
    if (select && [...select.options].some((o) => o.value === choice)) select.value = choice;
    else extra[rid] = choice;
  }
  for (const select of selects) select.dispatchEvent(new Event("change"));
  return extra;
}

// Only the choices that differ from their defaults (DESIGN §14: an id left
// out takes its default).
export function chosenReadings() {
  const out = {};
  for (const select of $("reading-list").querySelectorAll("select")) {
    if (select.value !== select.dataset.default) out[select.dataset.reading] = select.value;
  }
  return out;
}

// ------------------------------------------------------------ refusals

// The control a refusal's field path names (``initial_cpp.German``,
// ``definition.readings.leader-columns``, ``start_date``...), or null.
export function controlOf(field) {
  if (!field) return null;
  const [head, ...rest] = String(field).split(".");
  if (head === "initial_cpp") return $(`initial-cpp-${rest[0]}`) || $("initial-cpp-sides").querySelector("input");
  if (head === "start_date") return $("start-date");
  if (head === "definition") {
    if (rest[0] === "readings" && rest[1] && $(`reading-${rest[1]}`)) return $(`reading-${rest[1]}`);
    return document.querySelector("input[name=definition]:checked").value === "file" ? $("definition-file") : $("reading-list").querySelector("select");
  }
  return $(head) || null;
}

// The clipboard API needs https or localhost; elsewhere the link is selected
// for the player to copy.
function copy(input, link) {
  input.select();
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(link).catch(() => {});
  else setStatus(document.getElementById("create-status"), "the link is selected: copy it with Ctrl+C (⌘C)", "info");
}

// The campaign's links, each shown once (the landing page and the editor).
export function showTokens(made) {
  const base = `${location.origin}/c/${encodeURIComponent(made.id)}#token=`;
  document.getElementById("token-list").replaceChildren(...Object.entries(made.tokens).map(([role, token]) => {
    const link = base + encodeURIComponent(token);
    return h("li", { dataset: { role } },
      h("strong", {}, role), " ",
      h("a", { href: link, target: "_blank", rel: "noopener" }, "open as " + role), " ",
      h("input", { readonly: true, value: link, "aria-label": `${role} link`, class: "token" }),
      h("button", { type: "button", onclick: (ev) => copy(ev.target.previousElementSibling, link) }, "copy"));
  }));
  document.getElementById("tokens").classList.remove("hidden");
}
