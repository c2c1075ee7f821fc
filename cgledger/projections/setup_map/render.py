"""The whole map: :func:`render_svg` lays out the title, the map and the
legend below it, then draws the hexes, the area boundaries and the area
labels, and the legend."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cgledger.domain.territory import NML, UNCONTROLLED
from cgledger.projections.setup_map.areas import boundaries, labels
from cgledger.projections.setup_map.frame import Frame, Geometry
from cgledger.projections.setup_map.hexes import hex_group
from cgledger.projections.setup_map.legend import LEGEND_CELL, LEGEND_PAD, draw, layout, sections
from cgledger.projections.setup_map.marks import control_patterns, side_tags
from cgledger.projections.setup_map.style import (
    BOX_PAD,
    HEX_SIZE,
    LEGEND_GAP,
    MARGIN,
    NML_LINE,
    NML_PALE,
    SQRT3,
    TEXT,
    TITLE_FONT,
    colour,
    esc,
    num,
    side_colours,
)


def render_svg(
    answer: Mapping[str, Any],
    coords: Mapping[str, tuple[int, int]],
    sides: Sequence[str],
    *,
    title: str,
    highlight: str = NML,
    control: Mapping[str, str | None] | None = None,
    fortifications: Mapping[str, Any] | None = None,
) -> str:
    """The ``GET /setup-areas`` answer (DESIGN §9) drawn as a standalone SVG
    document, as the players mark the reduced-size map (MARKING THE MAP after
    8.6057; 9.6055): Setup Areas (8.605) in their side's colour, No Man's Land
    (8.6051) hatched yellow, Uncontrolled Territory (8.6053) plain, Strategic
    Locations outlined in the Controlling side's colour with their marker,
    Isolated hexes and areas (8.6052) marked, upper-level Locations (8.6057)
    as badges. ``coords`` maps every hex id to its axial (q, r); a hex of the
    answer without coordinates is a ``ValueError``. ``highlight``: the status
    the players highlight in yellow (No Man's Land by MARKING THE MAP after
    8.6057; Uncontrolled Territory by 9.6055); the other is plain.

    Each hex also says who Controls its ground Location (``marks``): from
    ``control`` (hex -> side, the Control in force; a hex not in it is
    uncontrolled) or, without it, from the answer's ``controlled_by``.
    ``fortifications``: ``{"rules": {"set_up", "on_map"}, "items": [{"side",
    "hex", "level", "type", "count", "shown", "rule"}]}``, the Fortifications
    the viewer is given (``None``: the ruleset keeps none; no legend for them).

    The title is on top, the map below it in its own region (``g.map-area``,
    whose ``data-box`` is its x, y, width and height: the page zooms into it),
    and the legend below the map in another (``g.legend``, its ``data-box`` too)."""
    s = HEX_SIZE
    hexes: list[Mapping[str, Any]] = list(answer.get("hexes") or ())
    areas: list[Mapping[str, Any]] = list(answer.get("areas") or ())
    colours = _all_colours(sides, hexes, areas, control)
    at_hex = _placed(hexes, coords)
    if at_hex:
        q_min = min(q for q, _ in at_hex.values())
        q_max = max(q for q, _ in at_hex.values())
        ys = [SQRT3 * s * (r + q / 2) for q, r in at_hex.values()]
        y_min, y_max = min(ys), max(ys)
        map_w = s * 1.5 * (q_max - q_min) + 2 * s
        map_h = y_max - y_min + SQRT3 * s
    else:
        q_min, y_min, map_w, map_h = 0, 0.0, 0.0, 0.0

    forts: dict[str, list[Mapping[str, Any]]] = {}
    for item in (fortifications or {}).get("items") or ():
        if str(item.get("hex")) in at_hex:
            forts.setdefault(str(item.get("hex")), []).append(item)
    step = answer.get("step")
    frame = Frame(
        Geometry(s, q_min, y_min, MARGIN, MARGIN + TITLE_FONT + 12),
        at_hex,
        colours,
        highlight,
        tags=side_tags(colours),
        step=None if step is None else str(step),
        control=control,
        forts=forts,
        frozen=bool(answer.get("frozen")),
    )
    found = sections(frame, None if fortifications is None else fortifications.get("rules") or {})
    # The legend: at most three columns wide, so that the page shows it unscaled.
    legend_w = min(max(map_w, 2 * LEGEND_CELL), 3 * LEGEND_CELL) + 2 * LEGEND_PAD
    content_w = max(map_w, legend_w)
    map_top = MARGIN + TITLE_FONT + 12
    legend_top = map_top + map_h + LEGEND_GAP
    _, legend_h = layout(found, legend_w)
    width = content_w + 2 * MARGIN
    height = legend_top + legend_h + MARGIN

    state = "frozen" if answer.get("frozen") else "live"
    heading = f"{title} - CG Date {answer.get('cg_date') or '?'} - {state}"
    if answer.get("at") is not None:
        heading += f" - at #{answer.get('at')}"
    pad = BOX_PAD
    box = f"{num(MARGIN - pad)} {num(map_top - pad)} {num(map_w + 2 * pad)} {num(map_h + 2 * pad)}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(height)}"'
        f' viewBox="0 0 {num(width)} {num(height)}" font-family="Helvetica, Arial, sans-serif"'
        f' role="img" aria-label="{esc(heading)}" class="setup-map"'
        f' data-map-group="{esc(answer.get("map_group") or "")}">'
        f"<title>{esc(heading)}</title>"
        "<defs>"
        '<pattern id="cgl-nml-hatch" patternUnits="userSpaceOnUse" width="6" height="6"'
        ' patternTransform="rotate(45)">'
        f'<rect width="6" height="6" fill="{NML_PALE}"/>'
        f'<line x1="1.5" y1="0" x2="1.5" y2="6" stroke="{NML_LINE}" stroke-width="1.8"/>'
        f"</pattern>{control_patterns(colours)}</defs>"
        '<rect class="paper" width="100%" height="100%" fill="#ffffff"/>'
        f'<text class="map-title" x="{num(MARGIN)}" y="{num(MARGIN + TITLE_FONT)}"'
        f' font-size="{num(TITLE_FONT)}" font-weight="bold" fill="{TEXT}">{esc(heading)}</text>'
        f'<g class="map-area" data-box="{box}">'
    ]
    # The hexes, then the area boundaries, then the area labels above them.
    out.append('<g class="hexes">')
    out += [hex_group(h, frame) for h in hexes]
    out.append("</g>")
    out.append(boundaries(hexes, frame))
    out.append(labels(areas, frame))
    out.append("</g>")
    out.append(draw(found, MARGIN, legend_top, legend_w))
    out.append("</svg>")
    return "".join(out)


def _all_colours(
    sides: Sequence[str],
    hexes: Sequence[Mapping[str, Any]],
    areas: Sequence[Mapping[str, Any]],
    control: Mapping[str, str | None] | None,
) -> dict[str, tuple[str, str]]:
    """The sides' colours in their order, then those of any other side that
    the answer names, in the order it first names them."""
    colours = side_colours(sides)

    def note(side: object) -> None:
        if side is not None and str(side) not in colours:
            colours[str(side)] = colour(len(colours))

    for h in hexes:
        if h.get("status") not in (NML, UNCONTROLLED):
            note(h.get("status"))
        note(h.get("controlled_by"))
        for level in h.get("levels") or ():
            note(level.get("controlled_by"))
    for area in areas:
        note(area.get("side"))
    for side in (control or {}).values():
        note(side)
    return colours


def _placed(
    hexes: Sequence[Mapping[str, Any]], coords: Mapping[str, tuple[int, int]]
) -> dict[str, tuple[int, int]]:
    """Each hex's axial (q, r); ``ValueError`` for a hex without them."""
    at_hex: dict[str, tuple[int, int]] = {}
    for h in hexes:
        hx = str(h.get("hex"))
        qr = coords.get(hx)
        if qr is None:
            raise ValueError(f"hex {hx!r} has no coordinates")
        at_hex[hx] = (int(qr[0]), int(qr[1]))
    return at_hex
