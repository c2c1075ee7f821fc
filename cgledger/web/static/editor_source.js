// Where the definition editor starts (DESIGN §15): a grid (POST
// /v1/definition-tools/map-group), a VASL board archive (POST
// /v1/definition-tools/vasl-board, the zip as the raw body), a definition
// file, or the ruleset's sample (GET /v1/rulesets/{r}/sample-definition). A
// new map group either starts a new definition or is added to the one being
// edited. A refusal shows its 422 detail next to the control used.
import { h, setStatus } from "./api.js";
import { refusal, tool } from "./editor_io.js";
import { $, ed, emit, remember } from "./editor_state.js";

const fresh = (title) => ({ title, rg_chart: {}, map_groups: [] });

// A map group from a tool: a new definition, or one more map group (its id
// made unique) of the definition being edited.
function useGroup(made, statusEl) {
  const adding = document.querySelector("input[name=group-into]:checked").value === "add" && ed.doc && Array.isArray(ed.doc.map_groups);
  if (adding) {
    remember();
    // An id is at most 20 characters: the number replaces its last ones.
    let id = made.id, n = 2;
    while (ed.doc.map_groups.some((g) => g.id === id)) { const k = String(n++); id = made.id.slice(0, 20 - k.length) + k; }
    made.id = id;
    ed.doc.map_groups = [...(ed.doc.map_groups || []), made];
    emit("load", { doc: ed.doc, gid: id });
  } else {
    remember();
    const doc = fresh(made.title || made.id);
    doc.map_groups.push(made);
    emit("load", { doc, gid: made.id });
  }
  setStatus(statusEl, `map group ${made.id}: ${made.hexes.length} hexes${adding ? ", added" : ", in a new definition"}`, "ok");
}

async function fromGrid(event) {
  event.preventDefault();
  const status = $("grid-status");
  const body = {
    id: $("grid-id").value.trim(),
    title: $("grid-title").value,
    columns: $("grid-columns").value.trim(),
    rows: [Number($("grid-row-first").value), Number($("grid-row-last").value)],
    first_column_offset: Number($("grid-offset").value),
  };
  setStatus(status, "making the grid…");
  try {
    useGroup(await tool("POST", "/v1/definition-tools/map-group", { json: body }), status);
  } catch (e) {
    setStatus(status, refusal(e), "error");
  }
}

async function fromVasl() {
  const status = $("vasl-status");
  const chosen = $("vasl-file").files[0];
  if (!chosen) return;
  setStatus(status, `reading ${chosen.name}…`);
  $("vasl-notes").replaceChildren();
  try {
    const made = await tool("POST", "/v1/definition-tools/vasl-board", { body: await chosen.arrayBuffer(), type: "application/zip" });
    // The map group, less the import's report (board, readings, notes),
    // which a definition's map_groups does not take.
    const { board, readings, notes, ...group } = made;
    useGroup(group, status);
    // What the importer could not read, or leaves to the players.
    $("vasl-notes").replaceChildren(...(notes || []).map((note) => h("li", {}, note)));
  } catch (e) {
    setStatus(status, refusal(e), "error");
  } finally {
    $("vasl-file").value = "";
  }
}

async function fromFile() {
  const status = $("file-status");
  const chosen = $("definition-file").files[0];
  if (!chosen) return;
  let doc;
  try { doc = JSON.parse(await chosen.text()); } catch (e) { setStatus(status, `${chosen.name} is not JSON: ${e.message}`, "error"); return; }
  // GET /v1/campaigns/{id}/definition answers {definition, hash}: its definition.
  if (doc && typeof doc === "object" && doc.definition && doc.hash) doc = doc.definition;
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) { setStatus(status, `${chosen.name} holds no JSON object`, "error"); return; }
  remember();
  emit("load", { doc, gid: null });
  const count = Array.isArray(doc.map_groups) ? doc.map_groups.length : 0;
  setStatus(status, `${chosen.name}: ${count} map group${count === 1 ? "" : "s"}`, "ok");
  $("definition-file").value = "";
}

async function fromSample() {
  const status = $("sample-status");
  try {
    const doc = await tool("GET", ed.rs.sample_definition_url);
    remember();
    emit("load", { doc, gid: null });
    setStatus(status, `${ed.rs.id}'s sample: “${doc.title}” (synthetic)`, "ok");
  } catch (e) {
    setStatus(status, refusal(e), "error");
  }
}

export function renderSources() {
  const num = (id, label, value, attrs = {}) => h("label", { class: "inline", for: id }, label, h("input", { id, type: "number", class: "num", value, ...attrs }));
  const text = (id, label, value, attrs = {}) => h("label", { class: "inline", for: id }, label, h("input", { id, value, ...attrs }));
  const grid = h("form", { id: "grid-form", novalidate: true },
    h("fieldset", {}, h("legend", {}, "A grid (DESIGN §15): every hex with its ASL id, q and r"),
      h("div", { class: "row" },
        text("grid-id", "map group id", "St", { maxlength: 20, size: 6 }),
        text("grid-title", "title", "", { maxlength: 200, size: 18, placeholder: "Stoumont" }),
        text("grid-columns", "columns", "A-GG", { maxlength: 20, size: 7 }),
        num("grid-row-first", "rows from", 1, { min: 0, max: 999 }),
        num("grid-row-last", "to", 10, { min: 0, max: 999 })),
      h("label", { for: "grid-offset" }, "Columns A, C, … hold "),
      h("select", { id: "grid-offset" },
          h("option", { value: 0 }, "the rows given; B, D, … one more (row 0): a geomorphic board"),
          h("option", { value: 1 }, "one more row (row 0); B, D, … the rows given")),
      h("button", { type: "submit", id: "grid-make", dataset: { route: "POST /v1/definition-tools/map-group" } }, "make the map group"),
      h("p", { class: "status", role: "status", id: "grid-status" })));
  grid.addEventListener("submit", fromGrid);
  const vasl = h("fieldset", {}, h("legend", {}, "A VASL board archive (.zip: BoardMetadata.xml, and LOSData where the board has one)"),
    h("label", { for: "vasl-file" }, "VASL board archive"),
    h("input", { type: "file", id: "vasl-file", accept: ".zip,application/zip", dataset: { route: "POST /v1/definition-tools/vasl-board" } }),
    h("p", { class: "status", role: "status", id: "vasl-status" }),
    h("ul", { class: "rule", id: "vasl-notes" }));
  const file = h("fieldset", {}, h("legend", {}, "A definition file (JSON)"),
    h("label", { for: "definition-file" }, "CG definition file"),
    h("input", { type: "file", id: "definition-file", accept: "application/json,.json" }),
    h("p", { class: "status", role: "status", id: "file-status" }));
  const sample = h("fieldset", {}, h("legend", {}, "The ruleset's sample (synthetic)"),
    h("button", { type: "button", id: "sample-load" }, "load the sample"),
    h("p", { class: "status", role: "status", id: "sample-status" }));
  const into = h("fieldset", { class: "row" }, h("legend", {}, "A map group from a grid or an archive"),
    h("label", { class: "inline" }, h("input", { type: "radio", name: "group-into", value: "new", checked: true }), "starts a new definition"),
    h("label", { class: "inline" }, h("input", { type: "radio", name: "group-into", value: "add" }), "is added to this one"));
  $("sources").replaceChildren(into, grid, vasl, file, sample);
  $("vasl-file").addEventListener("change", () => fromVasl());
  $("definition-file").addEventListener("change", () => fromFile());
  $("sample-load").addEventListener("click", () => fromSample());
}
