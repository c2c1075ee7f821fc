// The definition editor's plumbing (DESIGN §15): the authoring tools' routes
// (no token, nothing kept, so no Idempotency-Key), CSV as the rg-chart route
// reads it, a JSON Merge Patch (RFC 7396) between two definitions, and a file
// saved from the page.
import { ApiError, h } from "./api.js";

// A request to a tool: JSON, CSV text or a zip as the body; the answer as
// JSON or text; a refusal as an ApiError with its problem+json.
export async function tool(method, path, { json, body, type, text = false } = {}) {
  const init = { method, headers: { Accept: text ? "text/csv, application/problem+json" : "application/json" }, cache: "no-store" };
  if (json !== undefined) {
    init.body = JSON.stringify(json);
    init.headers["Content-Type"] = "application/json";
  } else if (body !== undefined) {
    init.body = body;
    init.headers["Content-Type"] = type;
  }
  const r = await fetch(path, init);
  if (!r.ok) {
    let problem = null;
    try { problem = await r.json(); } catch { /* not JSON */ }
    throw new ApiError(r.status, problem);
  }
  return text ? r.text() : r.json();
}

export const q = (params) => new URLSearchParams(Object.entries(params).filter(([, v]) => v !== null && v !== undefined)).toString();

// ------------------------------------------------------------------ CSV

// The separator the rg-chart route picks from the header line: ',' unless
// ';' or tabs are more frequent (a spreadsheet in a decimal-comma locale).
export function delimiterOf(text) {
  const first = text.split("\n", 1)[0];
  let best = ",", most = 0;
  for (const d of [",", ";", "\t"]) {
    const n = first.split(d).length - 1;
    if (n > most) { best = d; most = n; }
  }
  return best;
}

// CSV text as rows of cells (RFC 4180 quotes, as Python's csv module reads
// them): the table shows exactly the cells the route numbers in a refusal.
export function parseCsv(text) {
  text = text.replace(/^\ufeff/, "");
  const d = delimiterOf(text);
  const rows = [];
  let row = [], cell = "", quoted = false, i = 0;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i += 2; continue; }
      if (c === '"') { quoted = false; i += 1; continue; }
      cell += c; i += 1; continue;
    }
    if (c === '"' && cell === "") { quoted = true; i += 1; continue; }
    if (c === d) { row.push(cell); cell = ""; i += 1; continue; }
    if (c === "\r" || c === "\n") {
      row.push(cell); rows.push(row); row = []; cell = "";
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
      continue;
    }
    cell += c; i += 1;
  }
  if (cell !== "" || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

// Rows of cells as CSV, quoted where a cell needs it.
export function writeCsv(rows) {
  const one = (v) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return rows.map((r) => r.map((v) => one(String(v ?? ""))).join(",")).join("\r\n") + "\r\n";
}

// A spreadsheet reference ("C4") as a table position: { col: 2, row: 3 }
// (row 0 is the header).
export function cellAt(ref) {
  const m = /^([A-Z]+)([0-9]+)$/.exec(ref || "");
  if (!m) return null;
  let col = 0;
  for (const ch of m[1]) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { col: col - 1, row: Number(m[2]) - 1 };
}

// ------------------------------------------------------------------ JSON

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// The JSON Merge Patch (RFC 7396) that turns ``from`` into ``to``: members
// that differ, removed ones as null, a changed list whole. ``null`` inside
// ``to`` cannot be said by a merge patch: such a member is removed instead,
// which for a definition's optional fields is the same (null is the default).
export function mergePatch(from, to) {
  const patch = {};
  for (const key of Object.keys(from)) if (!(key in to)) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    const old = from[key];
    if (isObject(value) && isObject(old)) {
      const inner = mergePatch(old, value);
      if (Object.keys(inner).length) patch[key] = inner;
    } else if (JSON.stringify(value) !== JSON.stringify(old)) {
      patch[key] = value;
    }
  }
  return patch;
}

// A definition as a file: each member on its lines and each item of a list
// of objects (hexes, chart lines) on one line, as `cgledger definition`
// prints it, so a map of 1,200 hexes stays 1,200 lines to read and compare.
export function definitionText(doc) {
  const one = (v) => JSON.stringify(v);
  const list = (v) => "[\n" + v.map((x) => `      ${one(x)}`).join(",\n") + "\n    ]";
  const group = (g) => "{\n" + Object.entries(g).map(([k, v]) =>
    `    ${one(k)}: ${Array.isArray(v) && v.length && v.every(isObject) ? list(v) : one(v)}`).join(",\n") + "\n  }";
  const member = ([k, v]) => {
    if (k === "map_groups" && Array.isArray(v) && v.every(isObject)) return `  ${one(k)}: [\n${v.map((g) => "  " + group(g)).join(",\n")}\n  ]`;
    if (isObject(v) && Object.values(v).some((x) => Array.isArray(x) && x.length && x.every(isObject))) {
      return `  ${one(k)}: {\n` + Object.entries(v).map(([s, lines]) =>
        `    ${one(s)}: ${Array.isArray(lines) && lines.length ? "[\n" + lines.map((x) => `      ${one(x)}`).join(",\n") + "\n    ]" : one(lines)}`).join(",\n") + "\n  }";
    }
    return `  ${one(k)}: ${one(v)}`;
  };
  return "{\n" + Object.entries(doc).map(member).join(",\n") + "\n}\n";
}

// Save ``text`` as a file from the page (a Blob URL, no request).
export function saveFile(name, text, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h("a", { href: url, download: name, class: "hidden" });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}

export const slug = (text) => String(text || "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);

// The message of a refusal, with its rule or field: "422: detail".
export function refusal(e) {
  if (e instanceof ApiError) return `${e.status}${e.problem.title ? " " + e.problem.title : ""}: ${e.message}`;
  return String(e && e.message ? e.message : e);
}
