// Inline SVG charts (DESIGN §12): the LVP by CG Date, and the dice against
// what fair dice give. Built node by node; no data is parsed as markup.
// Axes have round ticks (1, 2 or 5 × 10^k apart) and every label fits inside
// the chart; the sides are told apart by marker shape and line dash as well
// as colour, with a legend.
import { s } from "./api.js";

export const SIDE_COLOURS = ["#b52b27", "#1f4e99", "#2b7a2b", "#8a5a00"];
// Per side, by its index: a marker shape and a line dash.
export const SIDE_MARKERS = ["circle", "square", "triangle", "diamond"];
export const SIDE_DASHES = [null, "7 4", "2 3", "9 3 2 3"];

const FONT = 11;            // px, as .chart .tick in style.css
const CHAR = 0.62 * FONT;   // a generous width of one character at that size

// Round ticks over [lo, hi]: about ``count`` steps of 1, 2 or 5 × 10^k
// (``integer``: never less than 1), from a multiple of the step at or below
// ``lo`` to one at or above ``hi``. Returns { step, ticks, lo, hi }.
export function niceTicks(lo, hi, count = 5, { integer = false } = {}) {
  lo = Number(lo); hi = Number(hi);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) { lo = 0; hi = 1; }
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) hi = lo + (integer ? 1 : Math.abs(lo) || 1);
  const raw = (hi - lo) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 5, 10].map((m) => m * mag).find((v) => v >= raw * (1 - 1e-9));
  if (integer) step = Math.max(1, Math.round(step));
  const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const fix = (v) => Number(v.toFixed(digits));
  const first = Math.floor(lo / step + 1e-9), last = Math.ceil(hi / step - 1e-9);
  const ticks = [];
  for (let k = first; k <= last; k++) ticks.push(fix(k * step));
  return { step: fix(step), ticks, lo: ticks[0], hi: ticks[ticks.length - 1] };
}

// How wide a text is, at most, at the charts' font size.
export const textWidth = (text) => String(text).length * CHAR;

// A data point's marker: a circle, square, triangle or diamond of radius ``r`` at (x, y).
function marker(shape, x, y, r, attrs, ...children) {
  if (shape === "square") return s("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, ...attrs }, ...children);
  if (shape === "triangle") return s("polygon", { points: `${x},${y - r * 1.15} ${x + r * 1.1},${y + r * 0.75} ${x - r * 1.1},${y + r * 0.75}`, ...attrs }, ...children);
  if (shape === "diamond") return s("polygon", { points: `${x},${y - r * 1.25} ${x + r * 1.25},${y} ${x},${y + r * 1.25} ${x - r * 1.25},${y}`, ...attrs }, ...children);
  return s("circle", { cx: x, cy: y, r, ...attrs }, ...children);
}

// A legend row (wrapping) from (x0, y0) within [x0, right]: each entry a
// swatch function (x, y) -> node and a text. Returns { node, height }.
function legend(entries, x0, y0, right) {
  const g = s("g", { class: "legend" });
  let x = x0, y = y0;
  for (const { swatch, text, attrs } of entries) {
    const w = 30 + textWidth(text);
    if (x > x0 && x + w > right) { x = x0; y += 16; }
    g.append(s("g", { class: "legend-item", ...attrs }, swatch(x, y), s("text", { x: x + 26, y: y + 4, class: "legend" }, text)));
    x += w + 12;
  }
  return { node: g, height: y - y0 + 16 };
}

// The left edge of the plot (``L``): room for the y axis's rotated label and
// its widest tick label.
function yAxisWidth(ticks) {
  return 6 + FONT + 6 + Math.max(...ticks.map((t) => textWidth(t))) + 6;
}

// A y axis with its round ticks, grid lines and a rotated label.
function drawYAxis(svg, ticks, y, L, right, label, top, bottom) {
  for (const v of ticks) {
    svg.append(s("line", { x1: L, x2: right, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: L - 5, y: y(v) + 4, "text-anchor": "end", class: "tick" }, v));
  }
  svg.append(s("line", { x1: L, x2: L, y1: top, y2: bottom, class: "axis" }));
  const cy = (top + bottom) / 2;
  svg.append(s("text", { x: 6 + FONT - 2, y: cy, transform: `rotate(-90 ${6 + FONT - 2} ${cy})`, "text-anchor": "middle", class: "axis-label" }, label));
}

// Which of ``n`` evenly spaced labels ``dx`` apart to show so that none
// overlaps (``w``: the widest): every k-th, and always the first and the last.
function shownLabels(n, dx, w) {
  const k = Math.max(1, Math.ceil((w + 6) / Math.max(dx, 1e-9)));
  const shown = [];
  for (let i = 0; i < n; i += k) shown.push(i);
  const last = n - 1;
  if (n && shown[shown.length - 1] !== last) {
    if (shown.length > 1 && (last - shown[shown.length - 1]) * dx < w + 6) shown.pop();
    shown.push(last);
  }
  return new Set(shown);
}

export function lvpChart(rows, sides) {
  const W = 480, H = 250, R = 10;
  const values = rows.flatMap((r) => sides.map((sd) => (r.cg_lvp || {})[sd]).filter((v) => typeof v === "number"));
  const { ticks, lo, hi } = niceTicks(Math.min(0, ...values), Math.max(10, ...values), 5, { integer: true });
  const yLabel = "CG-LVP Total (8.6033)";
  const L = yAxisWidth(ticks);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart lvp-chart", role: "img", "aria-label": "CG-LVP Total of each side by CG Date" });
  const key = legend(sides.map((sd, n) => ({
    attrs: { "data-side": sd },
    text: sd,
    swatch: (x, y) => s("g", {},
      s("line", { x1: x, x2: x + 22, y1: y, y2: y, stroke: SIDE_COLOURS[n % SIDE_COLOURS.length], "stroke-width": 2.5, "stroke-dasharray": SIDE_DASHES[n % SIDE_DASHES.length] }),
      marker(SIDE_MARKERS[n % SIDE_MARKERS.length], x + 11, y, 4, { fill: SIDE_COLOURS[n % SIDE_COLOURS.length] })),
  })), L, 12, W - R);
  const T = 12 + key.height + 4, B = 40;
  // The first and last CG Date labels must fit: pad the plot by half of each.
  const labels = rows.map((r) => String(r.cg_date));
  const widest = Math.max(0, ...labels.map(textWidth));
  const padL = rows.length > 1 ? Math.max(8, textWidth(labels[0]) / 2 - L + 4) : 0;
  const padR = rows.length > 1 ? Math.max(8, textWidth(labels[labels.length - 1]) / 2 - R + 4) : 0;
  const x0 = L + padL, x1 = W - R - padR;
  const x = (i) => (rows.length <= 1 ? (L + W - R) / 2 : x0 + (i * (x1 - x0)) / (rows.length - 1));
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  drawYAxis(svg, ticks, y, L, W - R, yLabel, T, H - B);
  const shown = shownLabels(rows.length, rows.length > 1 ? (x1 - x0) / (rows.length - 1) : W, widest);
  rows.forEach((r, i) => {
    if (shown.has(i)) svg.append(s("text", { x: x(i), y: H - B + 15, "text-anchor": "middle", class: "tick" }, r.cg_date));
  });
  svg.append(s("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", class: "axis-label" }, "CG Date"));
  sides.forEach((sd, n) => {
    const pts = rows.map((r, i) => [i, (r.cg_lvp || {})[sd]]).filter(([, v]) => typeof v === "number");
    const colour = SIDE_COLOURS[n % SIDE_COLOURS.length];
    const shape = SIDE_MARKERS[n % SIDE_MARKERS.length];
    if (pts.length) {
      svg.append(s("polyline", { points: pts.map(([i, v]) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: colour, "stroke-width": 2.5, "stroke-dasharray": SIDE_DASHES[n % SIDE_DASHES.length], "data-side": sd, class: "series" }));
    }
    for (const [i, v] of pts) {
      svg.append(marker(shape, x(i), y(v), 4, { fill: colour, stroke: "#fff", "stroke-width": 1, "data-side": sd, "data-value": v, class: "point" },
        s("title", {}, `${sd} ${rows[i].cg_date}: ${v} CG-LVP`)));
    }
  });
  svg.append(key.node);
  return svg;
}

// Observed DR totals as bars, the count fair dice would give as a dashed
// line with hollow diamonds; the y axis counts rolls.
export function diceChart(stats) {
  const totals = stats.totals || {};
  const expected = stats.expected_per_cell || {};
  const keys = Object.keys(totals).map(Number).sort((a, b) => a - b);
  const W = 480, H = 230, R = 8;
  const top = Math.max(1, ...keys.map((k) => totals[k]), ...keys.map((k) => expected[k] || 0));
  const { ticks, hi } = niceTicks(0, top, 5, { integer: true });
  const yLabel = "rolls (count)";
  const L = yAxisWidth(ticks);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart dice-chart", role: "img", "aria-label": "DR totals rolled (count) against the count fair 2d6 give" });
  const key = legend([
    { text: "rolled", attrs: { "data-series": "rolled" }, swatch: (x, y) => s("rect", { x: x + 4, y: y - 6, width: 14, height: 12, class: "bar" }) },
    { text: "fair 2d6 (expected)", attrs: { "data-series": "expected" }, swatch: (x, y) => s("g", {}, s("line", { x1: x, x2: x + 22, y1: y, y2: y, class: "expected" }), marker("diamond", x + 11, y, 3.5, { class: "expected-point" })) },
  ], L, 12, W - R);
  const T = 12 + key.height + 4, B = 40;
  const bw = (W - L - R) / Math.max(1, keys.length);
  const y = (v) => T + (H - T - B) * (1 - v / hi);
  drawYAxis(svg, ticks, y, L, W - R, yLabel, T, H - B);
  svg.append(s("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "axis" }));
  keys.forEach((k, i) => {
    const v = totals[k];
    svg.append(s("rect", { x: L + i * bw + 3, y: y(v), width: Math.max(0, bw - 6), height: y(0) - y(v), class: "bar", "data-total": k, "data-count": v }, s("title", {}, `${k}: ${v} rolled, ${(expected[k] || 0).toFixed(1)} expected`)));
    svg.append(s("text", { x: L + i * bw + bw / 2, y: H - B + 15, "text-anchor": "middle", class: "tick" }, k));
  });
  const pts = keys.map((k, i) => [L + i * bw + bw / 2, y(expected[k] || 0), k]);
  svg.append(s("polyline", { points: pts.map(([px, py]) => `${px},${py}`).join(" "), class: "expected", fill: "none" }));
  for (const [px, py, k] of pts) svg.append(marker("diamond", px, py, 3.5, { class: "expected-point", "data-total": k }));
  svg.append(s("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", class: "axis-label" }, "DR total (2d6)"));
  svg.append(key.node);
  return svg;
}
