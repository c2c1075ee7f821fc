// The definition editor's RG charts (DESIGN §15, §7, §10): one table per
// side, typed in, or filled from CSV pasted from a spreadsheet. The table is
// the CSV: every change is sent to POST /v1/definition-tools/rg-chart (the
// route reads it as the ruleset's chart lines, checked as that side's), and
// the lines it answers become the definition's rg_chart of the side; a
// refusal's cells (each bad cell's row and column) are flagged in the table.
// A definition's chart comes into the table through POST …/rg-chart/csv.
import { h } from "./api.js";
import { cellAt, parseCsv, q, refusal, saveFile, slug, tool, writeCsv } from "./editor_io.js";
import { $, ed, emit, remember, ruleIn, schemaOf } from "./editor_state.js";

const WAIT_MS = 400;
const tables = new Map();  // side -> { rows: [[header…], [cells…]…], timer, sent }

// The columns a chart line may have, with their schema descriptions.
function columns() {
  const node = schemaOf("rg_line");
  return Object.entries((node && node.properties) || {}).map(([name, p]) => ({ name, description: p.description || "" }));
}

export async function loadCharts() {
  const box = $("charts-body");
  const sides = ed.rs.sides;
  tables.clear();
  ed.chartBad = {};
  box.replaceChildren(...sides.map((side) => h("section", { class: "chart-side", id: `chart-${side}`, dataset: { side } },
    h("h3", {}, `${side} RG chart `, h("span", { class: "rule-no" }, ruleIn((ed.schema.properties.rg_chart || {}).description) || "")),
    h("div", { class: "chart-table scroll" }), h("div", { class: "chart-tools" }),
    h("p", { class: "status", role: "status", id: `chart-status-${side}` }),
    h("ul", { class: "errors", id: `chart-errors-${side}`, "aria-live": "polite" }))));
  await Promise.all(sides.map(async (side) => {
    const lines = ((ed.doc.rg_chart || {})[side]) || [];
    let csv = "id,name,cpp\r\n";
    try {
      csv = await tool("POST", `/v1/definition-tools/rg-chart/csv?${q({ ruleset: ed.rs.id, side })}`, { json: { lines }, text: true });
    } catch (e) {
      $(`chart-status-${side}`).textContent = refusal(e);
    }
    tables.set(side, { rows: parseCsv(csv), timer: null, sent: 0 });
    drawTable(side);
  }));
  $("charts").dataset.loaded = String(Number($("charts").dataset.loaded || 0) + 1);
}

function drawTable(side) {
  const t = tables.get(side);
  const section = $(`chart-${side}`);
  const width = Math.max(...t.rows.map((r) => r.length), 1);
  const known = new Map(columns().map((c) => [c.name, c]));
  const cell = (r, c) => {
    const input = h("input", { value: (t.rows[r] || [])[c] ?? "", size: r === 0 ? 10 : 8,
      "aria-label": r === 0 ? `${side} chart: name of column ${c + 1}` : `${side} chart row ${r}, ${(t.rows[0] || [])[c] || "column " + (c + 1)}`,
      dataset: { row: r, col: c } });
    input.addEventListener("input", () => {
      while (t.rows.length <= r) t.rows.push([]);
      while (t.rows[r].length <= c) t.rows[r].push("");
      t.rows[r][c] = input.value;
      changed(side);
    });
    return input;
  };
  const headCells = [];
  for (let c = 0; c < width; c++) {
    const name = (t.rows[0] || [])[c] || "";
    const col = known.get(name.trim().toLowerCase().replace(/[\s-]+/g, "_"));
    const rule = col ? ruleIn(col.description) : "";
    headCells.push(h("th", { scope: "col", title: col ? col.description : "" }, cell(0, c), rule ? h("span", { class: "rule-no" }, rule) : null));
  }
  const body = t.rows.slice(1).map((row, i) => h("tr", { dataset: { row: i + 1 } },
    h("th", { scope: "row" }, String(i + 1)),
    ...Array.from({ length: width }, (_, c) => h("td", {}, cell(i + 1, c))),
    h("td", {}, h("button", { type: "button", "aria-label": `delete ${side} chart row ${i + 1}`, onclick: () => { t.rows.splice(i + 1, 1); drawTable(side); changed(side); } }, "×"))));
  const table = h("table", { class: "chart-grid", dataset: { side } },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "row"), ...headCells, h("th", {}, ""))), h("tbody", {}, body));
  section.querySelector(".chart-table").replaceChildren(table);

  const addRow = h("button", { type: "button", class: "chart-add-row" }, "add a line");
  addRow.addEventListener("click", () => { t.rows.push(Array(width).fill("")); drawTable(side); });
  const pick = h("select", { id: `chart-column-${side}`, "aria-label": `${side} chart: column to add` },
    columns().filter((c) => !(t.rows[0] || []).includes(c.name)).map((c) => h("option", { value: c.name, title: c.description }, `${c.name}${ruleIn(c.description) ? " (" + ruleIn(c.description) + ")" : ""}`)));
  const addCol = h("button", { type: "button" }, "add the column");
  addCol.addEventListener("click", () => {
    if (!pick.value) return;
    t.rows[0] = [...(t.rows[0] || []), pick.value];
    drawTable(side);
    changed(side);
  });
  const paste = h("textarea", { id: `chart-paste-${side}`, rows: 3, cols: 50, spellcheck: "false", placeholder: "id,name,cpp,per_date_max,cg_max\nI1,Inf Pltn,4,2,6" });
  const read = h("button", { type: "button", id: `chart-read-${side}`, dataset: { route: "POST /v1/definition-tools/rg-chart" } }, "put the CSV in the table");
  read.addEventListener("click", () => {
    const rows = parseCsv(paste.value);
    if (!rows.length) return;
    t.rows = rows;
    drawTable(side);
    changed(side, 0);
  });
  const file = h("input", { type: "file", id: `chart-file-${side}`, accept: ".csv,text/csv,text/plain" });
  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    if (!chosen) return;
    paste.value = await chosen.text();
    read.click();
  });
  const save = h("button", { type: "button", id: `chart-save-${side}`, dataset: { route: "POST /v1/definition-tools/rg-chart/csv" } }, "download the chart as CSV");
  save.addEventListener("click", () => saveCsv(side));
  section.querySelector(".chart-tools").replaceChildren(
    h("div", { class: "row" }, addRow, pick, addCol, save),
    h("label", { for: paste.id }, `Paste the ${side} chart as CSV (a header row naming the columns, then a row per line; ',' ';' or tab separated)`),
    paste, h("div", { class: "row" }, read, h("label", { class: "inline", for: file.id }, "or a CSV file", file)));
  flag(side, t.cells || []);
}

// The side's chart as the definition holds it, written as CSV by the
// server (POST …/rg-chart/csv), to edit in a spreadsheet and paste back.
async function saveCsv(side) {
  const status = $(`chart-status-${side}`);
  try {
    const lines = ((ed.doc.rg_chart || {})[side]) || [];
    const csv = await tool("POST", `/v1/definition-tools/rg-chart/csv?${q({ ruleset: ed.rs.id, side })}`, { json: { lines }, text: true });
    status.textContent = `saved ${saveFile(`rg-chart-${slug(ed.rs.id)}-${slug(side)}.csv`, csv, "text/csv")}`;
    status.className = "status ok";
  } catch (e) {
    status.textContent = refusal(e);
    status.className = "status error";
  }
}

// The table changed: its CSV is read again once typing pauses.
function changed(side, wait = WAIT_MS) {
  const t = tables.get(side);
  clearTimeout(t.timer);
  ed.chartBad[side] = "being read";
  emit("chart-pending", side);
  t.timer = setTimeout(() => send(side), wait);
}

async function send(side) {
  const t = tables.get(side);
  const mine = ++t.sent;
  const status = $(`chart-status-${side}`);
  // Every row, empty ones too: the route skips them but counts them, so its
  // row numbers are the table's.
  const csv = writeCsv(t.rows);
  try {
    const got = await tool("POST", `/v1/definition-tools/rg-chart?${q({ ruleset: ed.rs.id, side })}`, { body: csv, type: "text/csv" });
    if (mine !== t.sent) return;
    t.cells = [];
    flag(side, []);
    status.textContent = `${got.lines.length} chart line${got.lines.length === 1 ? "" : "s"} read`;
    status.className = "status ok";
    remember();
    ed.doc.rg_chart = { ...(ed.doc.rg_chart || {}), [side]: got.lines };
    ed.chartBad[side] = null;
    emit("edited", { chart: side });
  } catch (e) {
    if (mine !== t.sent) return;
    const cells = (e.problem && e.problem.cells) || [];
    t.cells = cells;
    ed.chartBad[side] = e.message;
    status.textContent = `not read: ${refusal(e)}`;
    status.className = "status error";
    flag(side, cells);
    emit("edited", { chart: side });
  }
}

// Each bad cell of a refusal: its input (by the cell's spreadsheet
// reference, e.g. C4: column C, row 3 under the header) marked invalid with
// the message, and listed under the table; a cell the refusal cannot place
// (a column the header lacks) marks the header's first cell.
function flag(side, cells) {
  const table = document.querySelector(`#chart-${side} table`);
  if (!table) return;
  for (const el of table.querySelectorAll("[aria-invalid]")) {
    el.removeAttribute("aria-invalid");
    el.removeAttribute("title");
    el.closest("td, th").classList.remove("bad-cell");
  }
  const list = $(`chart-errors-${side}`);
  list.replaceChildren(...cells.map((c) => h("li", { dataset: { row: c.row, column: c.column } },
    c.row === 0 ? "header" : `row ${c.row}`, `, ${c.column}${c.cell ? " (" + c.cell + ")" : ""}: ${c.message}`)));
  for (const c of cells) {
    const at = cellAt(c.cell);
    const input = at ? table.querySelector(`input[data-row="${at.row}"][data-col="${at.col}"]`) : null;
    const target = input || table.querySelector(`input[data-row="0"][data-col="0"]`);
    if (!target) continue;
    target.setAttribute("aria-invalid", "true");
    target.setAttribute("title", c.message);
    target.closest("td, th").classList.add("bad-cell");
  }
}
