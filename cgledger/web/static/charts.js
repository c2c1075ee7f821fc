// Inline SVG charts (DESIGN §12): the LVP by CG Date, and the dice against
// what fair dice give. Built node by node; no data is parsed as markup.
import { s } from "./api.js";

export const SIDE_COLOURS = ["#b52b27", "#1f4e99", "#2b7a2b", "#8a5a00"];

export function lvpChart(rows, sides) {
  const W = 480, H = 220, L = 40, R = 10, T = 14, B = 34;
  const values = rows.flatMap((r) => sides.map((sd) => (r.cg_lvp || {})[sd]).filter((v) => typeof v === "number"));
  const max = Math.max(10, ...values);
  const x = (i) => L + (rows.length <= 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (rows.length - 1));
  const y = (v) => T + (H - T - B) * (1 - v / max);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": "CG-LVP Total of each side by CG Date" });
  for (let k = 0; k <= 4; k++) {
    const v = Math.round((max * k) / 4);
    svg.append(s("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" }, v));
  }
  rows.forEach((r, i) => svg.append(s("text", { x: x(i), y: H - 18, "text-anchor": "middle", class: "tick" }, r.cg_date)));
  sides.forEach((sd, n) => {
    const pts = rows.map((r, i) => [i, (r.cg_lvp || {})[sd]]).filter(([, v]) => typeof v === "number");
    const colour = SIDE_COLOURS[n % SIDE_COLOURS.length];
    if (pts.length) {
      svg.append(s("polyline", { points: pts.map(([i, v]) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: colour, "stroke-width": 2.5 }));
    }
    for (const [i, v] of pts) {
      svg.append(s("circle", { cx: x(i), cy: y(v), r: 4, fill: colour, "data-side": sd, "data-value": v }, s("title", {}, `${sd} ${rows[i].cg_date}: ${v}`)));
    }
    svg.append(s("text", { x: L + 8 + n * 120, y: H - 3, fill: colour, class: "legend" }, `■ ${sd}`));
  });
  return svg;
}

// Observed DR totals as bars, the count fair dice would give as a line.
export function diceChart(stats) {
  const totals = stats.totals || {};
  const expected = stats.expected_per_cell || {};
  const keys = Object.keys(totals).map(Number).sort((a, b) => a - b);
  const W = 480, H = 200, L = 34, R = 8, T = 10, B = 26;
  const max = Math.max(1, ...keys.map((k) => totals[k]), ...keys.map((k) => expected[k] || 0));
  const bw = (W - L - R) / Math.max(1, keys.length);
  const y = (v) => T + (H - T - B) * (1 - v / max);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": "DR totals rolled against the 2d6 distribution" });
  svg.append(s("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "axis" }));
  keys.forEach((k, i) => {
    const v = totals[k];
    svg.append(s("rect", { x: L + i * bw + 3, y: y(v), width: bw - 6, height: y(0) - y(v), class: "bar", "data-total": k, "data-count": v }, s("title", {}, `${k}: ${v} rolled, ${(expected[k] || 0).toFixed(1)} expected`)));
    svg.append(s("text", { x: L + i * bw + bw / 2, y: H - 8, "text-anchor": "middle", class: "tick" }, k));
  });
  const pts = keys.map((k, i) => `${L + i * bw + bw / 2},${y(expected[k] || 0)}`).join(" ");
  svg.append(s("polyline", { points: pts, class: "expected", fill: "none" }));
  svg.append(s("text", { x: L, y: T + 4, class: "tick" }, `max ${max.toFixed(max < 10 ? 1 : 0)}`));
  return svg;
}
