// The definition editor's map (DESIGN §9, §15): a map group's hexes drawn on
// the page with the geometry of the server's Setup Areas map
// (cgledger/projections/setup_map/frame.py: flat-topped hexes of radius 24,
// the centre of axial (q, r) at (1.5·s·q, √3·s·(r + q/2))), each hex's marks
// (Strategic Location, LVP, levels and building, Entry Area, HQ, initial
// Control, not Enterable, Block) and the Setup Areas the check answers,
// filled in each side's colour. A click redraws only the hex it changed; the
// zoom and the pan are the campaign page's (mapview.js).
//
//   const map = new EditorMap(container, { onHex(id, event) })
//   map.draw(group, sides)      the whole map group
//   map.redraw(ids)             the marks of these hexes
//   map.areas(setupAreas|null)  the Setup Areas' fills
//   map.select(id|null)
import { s } from "./api.js";
import { showMapElement } from "./mapview.js";

export const SIZE = 24;
const SQRT3 = Math.sqrt(3);
const MARGIN = 12;
const ID_FONT = SIZE * 0.3;
// (fill, stroke) of the sides by their index, as the server's map (style.py).
export const PALETTE = [
  ["#f4c4c2", "#b52b27"], ["#c3d7f2", "#1f4e99"], ["#cde8c6", "#2e7d32"],
  ["#e2d0f0", "#6a3d9a"], ["#fddcb0", "#b35400"], ["#c2ebe7", "#00695c"],
];
export const sideColour = (sides, side) => PALETTE[Math.max(0, sides.indexOf(side)) % PALETTE.length];

const corners = (cx, cy, scale = 1) => {
  const out = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    out.push(`${(cx + SIZE * scale * Math.cos(a)).toFixed(1)},${(cy + SIZE * scale * Math.sin(a)).toFixed(1)}`);
  }
  return out.join(" ");
};

// Where each hex is named outside its own fields: its Entry Areas, the side
// whose HQ it is, the side that Controls it first.
function places(group) {
  const entry = new Map();
  for (const a of group.entry_areas || []) {
    for (const hx of a.hexes || []) {
      if (!entry.has(hx)) entry.set(hx, []);
      entry.get(hx).push(a);
    }
  }
  const hq = new Map(Object.entries(group.hq || {}).map(([side, hx]) => [hx, side]));
  return { entry, hq, control: group.initial_control || {} };
}

// The marks of a hex as words: its tooltip, and what a test or a screen
// reader reads (data-marks).
function words(h, areas, hqSide, side) {
  const out = [];
  if (h.strategic) out.push("Strategic");
  if (h.lvp) out.push(`LVP ${h.lvp}`);
  if (h.levels && (h.levels.length !== 1 || h.levels[0] !== 0)) out.push(`levels ${h.levels.join(" ")}`);
  if (h.building) out.push(`building ${h.building}`);
  if (h.enterable === false) out.push("not Enterable");
  if (h.block) out.push(`Block ${h.block}`);
  // What a map import read (DESIGN §15), shown, not edited.
  if (h.terrain) out.push(h.terrain);
  if (h.ground_level !== undefined && h.ground_level !== null && h.ground_level !== 0) out.push(`ground level ${h.ground_level}`);
  for (const a of areas || []) out.push(`Entry Area ${a.id} (${a.side})`);
  if (hqSide) out.push(`HQ ${hqSide}`);
  if (side) out.push(`Control ${side}`);
  return out;
}

export class EditorMap {
  constructor(container, { onHex }) {
    this.container = container;
    this.onHex = onHex;
    this.cells = new Map();   // hex id -> its <g>
    this.at = new Map();      // "q,r" -> hex id
    this.group = null;
    this.sides = [];
    this.selected = null;
    let down = null;
    container.addEventListener("pointerdown", (e) => { down = { x: e.clientX, y: e.clientY }; });
    container.addEventListener("click", (e) => {
      // A drag that panned the map is no click on a hex.
      if (down && Math.hypot(e.clientX - down.x, e.clientY - down.y) > 5) return;
      const id = this.hexAt(e.clientX, e.clientY);
      if (id !== null) this.onHex(id, e);
    });
  }

  // The hex under a point of the screen, from the geometry (not the event's
  // target: the zoomed viewport captures the pointer).
  hexAt(clientX, clientY) {
    const svg = this.svg;
    if (!svg || !svg.isConnected) return null;
    const ctm = svg.getScreenCTM();
    if (!ctm) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
    const qf = (p.x - this.dx) / (1.5 * SIZE);
    const rf = (p.y - this.dy) / (SQRT3 * SIZE) - qf / 2;
    const sf = -qf - rf;
    let q = Math.round(qf), r = Math.round(rf);
    const sr = Math.round(sf);
    const dq = Math.abs(q - qf), dr = Math.abs(r - rf), ds = Math.abs(sr - sf);
    if (dq > dr && dq > ds) q = -r - sr;
    else if (dr > ds) r = -q - sr;
    return this.at.get(`${q},${r}`) ?? null;
  }

  centre(h) {
    return [1.5 * SIZE * h.q + this.dx, SQRT3 * SIZE * (h.r + h.q / 2) + this.dy];
  }

  draw(group, sides) {
    this.group = group;
    this.sides = sides;
    this.cells.clear();
    this.at.clear();
    const hexes = group.hexes;
    let qMin = Infinity, qMax = -Infinity, yMin = Infinity, yMax = -Infinity;
    for (const h of hexes) {
      const y = SQRT3 * SIZE * (h.r + h.q / 2);
      qMin = Math.min(qMin, h.q); qMax = Math.max(qMax, h.q);
      yMin = Math.min(yMin, y); yMax = Math.max(yMax, y);
    }
    if (!hexes.length) { qMin = qMax = yMin = yMax = 0; }
    this.dx = MARGIN + SIZE - 1.5 * SIZE * qMin;
    this.dy = MARGIN + (SIZE * SQRT3) / 2 - yMin;
    const w = 1.5 * SIZE * (qMax - qMin) + 2 * SIZE + 2 * MARGIN;
    const hgt = yMax - yMin + SIZE * SQRT3 + 2 * MARGIN;
    const area = s("g", { class: "map-area", "data-box": `0 0 ${w.toFixed(1)} ${hgt.toFixed(1)}` });
    for (const h of hexes) {
      const [cx, cy] = this.centre(h);
      const g = s("g", { class: "hex", "data-hex": h.hex },
        s("polygon", { class: "cell", points: corners(cx, cy) }),
        s("text", { class: "hid", x: cx.toFixed(1), y: (cy - SIZE * 0.52).toFixed(1), "font-size": ID_FONT }, h.hex),
        s("g", { class: "marks" }));
      this.cells.set(h.hex, g);
      this.at.set(`${h.q},${h.r}`, h.hex);
      area.append(g);
    }
    const svg = s("svg", {
      class: "editor-map", xmlns: "http://www.w3.org/2000/svg", viewBox: `0 0 ${w.toFixed(1)} ${hgt.toFixed(1)}`,
      "data-map-group": group.id, role: "img", "aria-label": `map group ${group.id}: ${hexes.length} hexes`,
    }, area);
    this.svg = svg;
    this.redraw(hexes.map((h) => h.hex));
    if (this.selected && !this.cells.has(this.selected)) this.selected = null;
    if (this.selected) this.cells.get(this.selected).classList.add("selected");
    showMapElement(this.container, svg);
    this.container.dataset.hexes = String(hexes.length);
  }

  // The marks of the hexes ``ids``, from the map group as it is now.
  redraw(ids) {
    const group = this.group;
    const byId = ids.length > 8 ? new Map(group.hexes.map((h) => [h.hex, h])) : null;
    const at = places(group);
    for (const id of ids) {
      const g = this.cells.get(id);
      if (!g) continue;
      const h = byId ? byId.get(id) : group.hexes.find((x) => x.hex === id);
      if (h) this.mark(g, h, at.entry.get(id), at.hq.get(id), at.control[id]);
    }
  }

  mark(g, h, areas, hqSide, side) {
    const [cx, cy] = this.centre(h);
    const marks = [];
    const colour = (x) => sideColour(this.sides, x)[1];
    const text = (x, y, cls, said, fill) => s("text", { class: cls, x: x.toFixed(1), y: y.toFixed(1), fill }, said);
    if (h.enterable === false) marks.push(s("polygon", { class: "blocked", points: corners(cx, cy) }));
    const area = areas && areas[0];
    if (area) {
      marks.push(s("polygon", { class: "entry", points: corners(cx, cy, 0.72), stroke: colour(area.side) }));
      if (area.center === h.hex) marks.push(text(cx - SIZE * 0.55, cy + 3, "arrow", "➤", colour(area.side)));
    }
    if (h.strategic) marks.push(s("polygon", { class: "strategic", points: corners(cx, cy, 0.88), stroke: side ? colour(side) : "#000" }));
    if (h.lvp) marks.push(text(cx, cy + 3, "lvp", `${h.lvp} LVP`));
    const levels = h.levels && (h.levels.length !== 1 || h.levels[0] !== 0) ? `L${h.levels.join("/")}` : "";
    if (levels || h.building) marks.push(text(cx, cy - SIZE * 0.2, "bldg", [h.building, levels].filter(Boolean).join(" ")));
    if (h.block) marks.push(text(cx + SIZE * 0.55, cy + 3, "block", h.block));
    if (hqSide) marks.push(text(cx + SIZE * 0.5, cy - SIZE * 0.2, "hq", "HQ", colour(hqSide)));
    if (side) marks.push(text(cx, cy + SIZE * 0.62, "tag", side.slice(0, 3), colour(side)));
    const said = words(h, areas, hqSide, side);
    if (said.length) marks.push(s("title", {}, `${h.hex}: ${said.join(", ")}`));
    g.querySelector("g.marks").replaceChildren(...marks);
    if (said.length) g.dataset.marks = said.join("; ");
    else delete g.dataset.marks;
  }

  // The Setup Areas as fills: a side's area in its colour, No Man's Land
  // hatched, Uncontrolled Territory plain; Isolated areas dashed (8.6052).
  areas(view) {
    const by = new Map(((view && view.hexes) || []).map((x) => [x.hex, x]));
    for (const [id, g] of this.cells) {
      const x = by.get(id);
      let cls = "hex";
      if (x) {
        const i = this.sides.indexOf(x.status);
        cls += i >= 0 ? ` st-${i % PALETTE.length}` : x.status === "nml" ? " st-nml" : "";
        if (x.isolated === true) cls += " iso";
      }
      if (id === this.selected) cls += " selected";
      g.setAttribute("class", cls);
      if (x) g.dataset.status = x.status; else delete g.dataset.status;
      if (x && x.area) g.dataset.area = x.area; else delete g.dataset.area;
    }
    this.container.dataset.areas = view ? String(view.areas.length) : "";
  }

  select(id) {
    if (this.selected && this.cells.has(this.selected)) this.cells.get(this.selected).classList.remove("selected");
    this.selected = id && this.cells.has(id) ? id : null;
    if (this.selected) this.cells.get(this.selected).classList.add("selected");
  }

  remove(id) {
    const g = this.cells.get(id);
    if (g) g.remove();
    this.cells.delete(id);
    for (const [k, v] of this.at) if (v === id) this.at.delete(k);
    if (this.selected === id) this.selected = null;
  }
}
