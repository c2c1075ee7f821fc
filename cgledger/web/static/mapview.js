// The Setup Areas map on the page (DESIGN §12): the server's SVG (GET
// /setup-areas.svg, imported inert by importSvg) in a viewport that zooms and
// pans, so that hex ids are readable on a 1,200-hex map, with the legend and
// the title outside the zoomed area. The zoom and the pan of each map group
// survive a redraw: the page redraws the map from the live feed.
//
//   showMap(container, svgText) -> the svg.setup-map element inserted
//   showMapElement(container, svg) -> the same for an SVG element built on the page
//
// Controls: the +, − and fit buttons; the mouse wheel (at the pointer); drag
// to pan; double-click to zoom in there; and, with the map focused, + / − to
// zoom, 0 to fit and the arrow keys to pan.
import { h, importSvg, s } from "./api.js";

// The most a map unit is magnified, in CSS px: a hex id (0.3 of a 24-unit
// hex radius, 7.2 units) is then about 21 px high.
export const MAX_SCALE = 3;
const STEP = 1.5;         // one button press or key: ×1.5
const PAN_PX = 60;        // one arrow key, in CSS px
const EPS = 1e-6;

const views = new WeakMap();  // container -> its view (parts and each map group's zoom)

export function showMap(container, svgText) {
  return showMapElement(container, importSvg(svgText));
}

// The same for an SVG element the page drew itself (the definition editor's
// map): its ``g.map-area`` with ``data-box``, and ``data-map-group``.
export function showMapElement(container, svg) {
  let view = views.get(container);
  if (!view || !container.contains(view.root)) {
    view = build(container);
    views.set(container, view);
  }
  view.show(svg);
  return svg;
}

// The zoom and pan of a container's map, for tests and for the page:
// { group, zoom (1: the whole map), scale (CSS px per map unit), box }.
export function mapState(container) {
  const view = views.get(container);
  return view ? view.describe() : null;
}

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

function boxOf(svg) {
  const area = svg.querySelector("g.map-area");
  const raw = (area && area.getAttribute("data-box")) || svg.getAttribute("viewBox") || "0 0 1 1";
  const [x, y, w, h] = raw.trim().split(/[\s,]+/).map(Number);
  return { x: x || 0, y: y || 0, w: w > 0 ? w : 1, h: h > 0 ? h : 1 };
}

function build(container) {
  const btn = (cls, label, text, hint) =>
    h("button", { type: "button", class: cls, "aria-label": label, title: hint }, text);
  const zoomIn = btn("zoom-in", "zoom in", "+", "zoom in (+)");
  const zoomOut = btn("zoom-out", "zoom out", "−", "zoom out (−)");
  const zoomFit = btn("zoom-fit", "fit the whole map", "fit", "fit the whole map (0)");
  const level = h("output", { class: "zoom-level", "aria-live": "polite" }, "100%");
  const caption = h("p", { class: "map-caption" });
  const viewport = h("div", {
    class: "map-viewport",
    tabindex: 0,
    role: "group",
    "aria-label": "Setup Areas map: drag or arrow keys to pan, + and − to zoom, 0 to fit",
  });
  const key = h("div", { class: "map-key" });
  const root = h("div", { class: "map-view" },
    h("div", { class: "map-tools", role: "toolbar", "aria-label": "map zoom" },
      zoomIn, zoomOut, zoomFit, h("span", { class: "rule" }, "zoom "), level),
    caption, viewport, key);
  container.replaceChildren(root);

  const states = new Map();  // map group -> { k, cx, cy }
  let svg = null, box = { x: 0, y: 0, w: 1, h: 1 }, state = { k: 1, cx: 0.5, cy: 0.5 };

  function fitScale() {
    const W = viewport.clientWidth, H = viewport.clientHeight;
    return W && H ? Math.min(W / box.w, H / box.h) : 0;
  }

  function apply() {
    if (!svg) return;
    const W = viewport.clientWidth, H = viewport.clientHeight;
    const fit = fitScale();
    if (!fit) return;  // not laid out yet: the ResizeObserver applies it
    const kmax = Math.max(1, MAX_SCALE / fit);
    state.k = clamp(state.k, 1, kmax);
    const scale = fit * state.k;
    const vw = W / scale, vh = H / scale;
    // The whole map when it fits that way; else the view's centre stays over
    // the map, so that the point under the pointer stays put even at an edge.
    const centre = (c, x0, w, v) => (v >= w ? x0 + w / 2 : clamp(c, x0, x0 + w));
    state.cx = centre(state.cx, box.x, box.w, vw);
    state.cy = centre(state.cy, box.y, box.h, vh);
    const r = (v) => Math.round(v * 100) / 100;
    svg.setAttribute("viewBox", `${r(state.cx - vw / 2)} ${r(state.cy - vh / 2)} ${r(vw)} ${r(vh)}`);
    root.dataset.zoom = state.k.toFixed(3);
    root.dataset.scale = scale.toFixed(4);
    level.textContent = `${Math.round(state.k * 100)}%`;
    zoomIn.disabled = state.k >= kmax - EPS;
    zoomOut.disabled = state.k <= 1 + EPS;
    zoomFit.disabled = zoomOut.disabled;
    viewport.classList.toggle("zoomed", state.k > 1 + EPS);
  }

  // Zoom by ``factor`` keeping the map point under (px, py) (CSS px in the
  // viewport; default its centre) where it is.
  function zoomBy(factor, px, py) {
    const fit = fitScale();
    if (!fit || !svg) return false;
    const W = viewport.clientWidth, H = viewport.clientHeight;
    px = px === undefined ? W / 2 : px;
    py = py === undefined ? H / 2 : py;
    const before = fit * state.k;
    const k = clamp(state.k * factor, 1, Math.max(1, MAX_SCALE / fit));
    if (Math.abs(k - state.k) < EPS) return false;
    const ux = state.cx - W / 2 / before + px / before;
    const uy = state.cy - H / 2 / before + py / before;
    const after = fit * k;
    state.k = k;
    state.cx = ux - px / after + W / 2 / after;
    state.cy = uy - py / after + H / 2 / after;
    apply();
    return true;
  }

  function panBy(dx, dy) {
    const fit = fitScale();
    if (!fit) return;
    state.cx -= dx / (fit * state.k);
    state.cy -= dy / (fit * state.k);
    apply();
  }

  function fit() {
    state.k = 1;
    state.cx = box.x + box.w / 2;
    state.cy = box.y + box.h / 2;
    apply();
  }

  zoomIn.addEventListener("click", () => zoomBy(STEP));
  zoomOut.addEventListener("click", () => zoomBy(1 / STEP));
  zoomFit.addEventListener("click", fit);

  viewport.addEventListener("wheel", (e) => {
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    const at = viewport.getBoundingClientRect();
    // Over a zoomed map the wheel only zooms; over the whole map, wheeling
    // out (it cannot zoom out further) scrolls the page on.
    const zoomed = zoomBy(Math.exp(-e.deltaY * unit * 0.002), e.clientX - at.left, e.clientY - at.top);
    if (zoomed || state.k > 1 + EPS) e.preventDefault();
  }, { passive: false });

  viewport.addEventListener("dblclick", (e) => {
    const at = viewport.getBoundingClientRect();
    zoomBy(STEP * STEP, e.clientX - at.left, e.clientY - at.top);
  });

  let drag = null;
  viewport.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || state.k <= 1 + EPS) return;
    drag = { id: e.pointerId, x: e.clientX, y: e.clientY };
    viewport.setPointerCapture(e.pointerId);
    viewport.classList.add("dragging");
  });
  viewport.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    panBy(e.clientX - drag.x, e.clientY - drag.y);
    drag.x = e.clientX;
    drag.y = e.clientY;
  });
  const stop = (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    drag = null;
    viewport.classList.remove("dragging");
  };
  viewport.addEventListener("pointerup", stop);
  viewport.addEventListener("pointercancel", stop);

  viewport.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const keys = {
      "+": () => zoomBy(STEP), "=": () => zoomBy(STEP),
      "-": () => zoomBy(1 / STEP), "_": () => zoomBy(1 / STEP), "−": () => zoomBy(1 / STEP),
      "0": fit,
      ArrowLeft: () => panBy(PAN_PX, 0), ArrowRight: () => panBy(-PAN_PX, 0),
      ArrowUp: () => panBy(0, PAN_PX), ArrowDown: () => panBy(0, -PAN_PX),
    };
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  });

  if (typeof ResizeObserver === "function") new ResizeObserver(() => apply()).observe(viewport);

  function show(next) {
    const group = next.getAttribute("data-map-group") || "";
    box = boxOf(next);
    // The title and the legend go outside the zoomed area, each in its own place.
    const title = next.querySelector("text.map-title");
    caption.textContent = title ? title.textContent : next.getAttribute("aria-label") || "";
    if (title) title.remove();
    const legend = next.querySelector("g.legend");
    if (legend) {
      const [lx, ly, lw, lh] = (legend.getAttribute("data-box") || "0 0 0 0").split(/\s+/).map(Number);
      const keySvg = s("svg", {
        class: "map-legend", viewBox: `${lx} ${ly} ${lw} ${lh}`, width: lw, height: lh,
        role: "group", "aria-label": "legend of the Setup Areas map",
        "font-family": next.getAttribute("font-family"),
      });
      keySvg.append(legend);
      key.replaceChildren(keySvg);
    } else {
      key.replaceChildren();
    }
    next.removeAttribute("width");
    next.removeAttribute("height");
    next.setAttribute("preserveAspectRatio", "xMidYMid meet");
    viewport.style.aspectRatio = `${box.w} / ${box.h}`;
    state = states.get(group) || { k: 1, cx: box.x + box.w / 2, cy: box.y + box.h / 2 };
    states.set(group, state);
    viewport.replaceChildren(next);
    svg = next;
    apply();
  }

  function describe() {
    return {
      group: svg ? svg.getAttribute("data-map-group") : null,
      zoom: state.k,
      scale: fitScale() * state.k,
      max: Math.max(1, MAX_SCALE / (fitScale() || MAX_SCALE)),
      box: { ...box },
    };
  }

  return { root, show, describe };
}
