"""The Setup Areas of a map group drawn as an SVG map (DESIGN §9,
``GET /setup-areas.svg``), as the players mark their reduced-size map
("MARKING THE MAP" after 8.6057; 9.6055).

:func:`render_svg` is a pure function of the ``GET /setup-areas`` answer and
the hexes' axial coordinates:

- each hex is a flat-topped hexagon (the map's hex columns are vertical) with
  its id; each side's Setup-Area hexes are filled in that side's colour, No
  Man's Land (8.6051) is hatched yellow like the players' highlighter,
  Uncontrolled Territory (8.6053) is left plain and a hex that is not
  Enterable is shaded dark;
- each Setup Area's boundary is drawn in its side's colour and its id
  ("<side> <id>") is written once, at the hex nearest its centre; an Isolated
  area's label is in italics (8.6052);
- each Strategic Location is outlined thickly in the colour of the side that
  Controls it (black if none), with its marker letter in a small square
  (E, F, G, V: MARKING THE MAP);
- each Isolated hex gets a dashed outline and a cross (8.6052);
- an upper-level Location (8.6057) Controlled by another side than the
  ground's, or Isolated, gets a small badge in its side's colour with its level.

Every hex is a ``<g>`` with ``data-hex``, ``data-status``, ``data-area``, the
classes ``hex status-<status>`` and a ``<title>`` tooltip. All text is XML
escaped. The output is deterministic and linear in the number of hexes.
"""

from __future__ import annotations

import colorsys
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final
from xml.sax.saxutils import escape

from cgledger.domain.territory import MARKERS, NML, UNCONTROLLED

__all__ = ["HEX_SIZE", "render_svg", "side_colours"]

#: The hex radius (centre to corner), in px.
HEX_SIZE: Final = 24.0
MARGIN: Final = 12.0
SQRT3: Final = math.sqrt(3.0)

#: (fill, stroke) of the sides by their index in ``sides``.
PALETTE: Final = (
    ("#f4c4c2", "#b52b27"),  # red
    ("#c3d7f2", "#1f4e99"),  # blue
    ("#cde8c6", "#2e7d32"),  # green
    ("#e2d0f0", "#6a3d9a"),  # purple
    ("#fddcb0", "#b35400"),  # orange
    ("#c2ebe7", "#00695c"),  # teal
)
NML_FILL: Final = "url(#cgl-nml-hatch)"
NML_PALE: Final = "#fff7b3"
NML_LINE: Final = "#f0c419"
UNCONTROLLED_FILL: Final = "#fbfbfb"
BLOCKED_SHADE: Final = "#4a4a4a"
GRID_STROKE: Final = "#8a8a8a"
TEXT: Final = "#222222"
NO_SIDE: Final = "#000000"
ISO_MARK: Final = "#c00000"
#: A white outline under a text, to keep it legible on any fill.
HALO: Final = ' stroke="#ffffff" stroke-width="2" stroke-linejoin="round" paint-order="stroke"'

GRID_WIDTH: Final = 0.8
AREA_WIDTH: Final = 2.0
STRATEGIC_WIDTH: Final = 3.5

#: Short names of the markers for the legend (MARKING THE MAP).
MARKER_LEGEND: Final = (
    ("E", "Entrenchment"),
    ("F", "Fortification"),
    ("G", "Gun"),
    ("V", "Immobile vehicle"),
)

#: Axial neighbour across edge i of a flat-topped hex whose corner i is at
#: 60*i degrees (y down): lower-right, below, lower-left, upper-left, above,
#: upper-right.
_EDGE_NEIGHBOUR: Final = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
_CORNERS: Final = tuple(
    (math.cos(math.radians(60 * i)), math.sin(math.radians(60 * i))) for i in range(6)
)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_NOT_CLASS = re.compile(r"[^a-z0-9_-]+")

_TITLE_FONT: Final = 16.0
_LEGEND_FONT: Final = 12.0
_LEGEND_ROW: Final = 20.0
_LEGEND_CELL: Final = 200.0


def _esc(value: object) -> str:
    """``value`` as XML text or attribute content: escaped, and stripped of
    the characters that XML 1.0 cannot hold."""
    text = _NOT_XML.sub("\ufffd", str(value))
    return escape(text, {'"': "&quot;", "'": "&apos;"})


def _n(value: float) -> str:
    """A coordinate with one decimal, without a trailing ``.0`` or ``-0``."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def _hex_colour(h: float, lightness: float, saturation: float) -> str:
    r, g, b = colorsys.hls_to_rgb(h, lightness, saturation)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def _colour(index: int) -> tuple[str, str]:
    if index < len(PALETTE):
        return PALETTE[index]
    hue = (index * 0.381966) % 1.0  # golden-angle steps: far from the previous hues
    return _hex_colour(hue, 0.85, 0.6), _hex_colour(hue, 0.3, 0.7)


def side_colours(sides: Iterable[str]) -> dict[str, tuple[str, str]]:
    """``{side: (fill, stroke)}`` by each side's index in ``sides``."""
    out: dict[str, tuple[str, str]] = {}
    for side in sides:
        if side not in out:
            out[side] = _colour(len(out))
    return out


def _status_class(status: str) -> str:
    return "status-" + (_NOT_CLASS.sub("-", status.lower()).strip("-") or "none")


def _status_text(status: str, area: object) -> str:
    if status == NML:
        return "No Man's Land"
    if status == UNCONTROLLED:
        return "Uncontrolled Territory"
    return f"{status} Setup Area" if area is None else f"{status} Setup Area {area}"


def _tooltip(h: Mapping[str, Any], status: str, area: object, ground: object) -> str:
    parts = [str(h.get("hex")), _status_text(status, area)]
    if h.get("strategic"):
        marker = h.get("marker")
        if marker is not None:
            parts.append(f"Strategic ({marker}: {MARKERS.get(str(marker), marker)})")
        else:
            parts.append("Strategic")
    if ground is not None and ground != status:
        parts.append(f"Controlled by {ground}")
    if h.get("isolated") is True:
        parts.append("Isolated")
    if h.get("enterable") is False:
        parts.append("not Enterable")
    for level in h.get("levels") or ():
        text = f"level {level.get('level')}: {level.get('controlled_by') or 'uncontrolled'}"
        if level.get("isolated") is True:
            text += ", Isolated"
        parts.append(text)
    return " - ".join(parts)


class _Geometry:
    """Pixel positions of axial (q, r) hexes, shifted so that the drawing
    starts at (``left``, ``top``)."""

    def __init__(self, size: float, q_min: float, y_min: float, left: float, top: float) -> None:
        self.size = size
        self.dx = left + size - size * 1.5 * q_min
        self.dy = top + size * SQRT3 / 2 - y_min

    def centre(self, q: int, r: int) -> tuple[float, float]:
        s = self.size
        return s * 1.5 * q + self.dx, s * SQRT3 * (r + q / 2) + self.dy

    def points(self, cx: float, cy: float, scale: float = 1.0) -> str:
        s = self.size * scale
        return " ".join(f"{_n(cx + s * c)},{_n(cy + s * d)}" for c, d in _CORNERS)

    def edge(self, cx: float, cy: float, i: int) -> str:
        s = self.size
        (c0, d0), (c1, d1) = _CORNERS[i], _CORNERS[(i + 1) % 6]
        return f"M{_n(cx + s * c0)} {_n(cy + s * d0)}L{_n(cx + s * c1)} {_n(cy + s * d1)}"


def render_svg(
    answer: Mapping[str, Any],
    coords: Mapping[str, tuple[int, int]],
    sides: Sequence[str],
    *,
    title: str,
    highlight: str = NML,
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
    8.6057; Uncontrolled Territory by 9.6055); the other is plain."""
    s = HEX_SIZE
    hexes: list[Mapping[str, Any]] = list(answer.get("hexes") or ())
    areas: list[Mapping[str, Any]] = list(answer.get("areas") or ())
    colours = _all_colours(sides, hexes, areas)
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

    # Header: the title line, then the legend in as many columns as fit.
    content_w = max(map_w, 3 * _LEGEND_CELL)
    legend = _legend(colours, highlight)
    per_row = max(1, int(content_w // _LEGEND_CELL))
    header_h = _TITLE_FONT + 12 + -(-len(legend) // per_row) * _LEGEND_ROW + 8
    width = content_w + 2 * MARGIN
    height = MARGIN + header_h + map_h + MARGIN
    geo = _Geometry(s, q_min, y_min, MARGIN, MARGIN + header_h)

    state = "frozen" if answer.get("frozen") else "live"
    heading = f"{title} - CG Date {answer.get('cg_date') or '?'} - {state}"
    if answer.get("at") is not None:
        heading += f" - at #{answer.get('at')}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}"'
        f' viewBox="0 0 {_n(width)} {_n(height)}" font-family="Helvetica, Arial, sans-serif"'
        f' role="img" aria-label="{_esc(heading)}" class="setup-map"'
        f' data-map-group="{_esc(answer.get("map_group") or "")}">'
        f"<title>{_esc(heading)}</title>"
        "<defs>"
        '<pattern id="cgl-nml-hatch" patternUnits="userSpaceOnUse" width="6" height="6"'
        ' patternTransform="rotate(45)">'
        f'<rect width="6" height="6" fill="{NML_PALE}"/>'
        f'<line x1="1.5" y1="0" x2="1.5" y2="6" stroke="{NML_LINE}" stroke-width="1.8"/>'
        "</pattern></defs>"
        '<rect width="100%" height="100%" fill="#ffffff"/>'
        f'<text class="map-title" x="{_n(MARGIN)}" y="{_n(MARGIN + _TITLE_FONT)}"'
        f' font-size="{_n(_TITLE_FONT)}" font-weight="bold" fill="{TEXT}">{_esc(heading)}</text>'
        '<g class="legend">'
    ]
    top = MARGIN + _TITLE_FONT + 12
    out += [
        item(MARGIN + (k % per_row) * _LEGEND_CELL, top + (k // per_row) * _LEGEND_ROW)
        for k, item in enumerate(legend)
    ]
    # The hexes, then the area boundaries, then the area labels above them.
    out.append('</g><g class="hexes">')
    out += [_hex(h, geo, at_hex, colours, highlight) for h in hexes]
    out.append("</g>")
    out.append(_boundaries(hexes, at_hex, geo, colours))
    out.append(_labels(areas, at_hex, geo, colours))
    out.append("</svg>")
    return "".join(out)


def _all_colours(
    sides: Sequence[str], hexes: Sequence[Mapping[str, Any]], areas: Sequence[Mapping[str, Any]]
) -> dict[str, tuple[str, str]]:
    """The sides' colours in their order, then those of any other side that
    the answer names, in the order it first names them."""
    colours = side_colours(sides)

    def note(side: object) -> None:
        if side is not None and str(side) not in colours:
            colours[str(side)] = _colour(len(colours))

    for h in hexes:
        if h.get("status") not in (NML, UNCONTROLLED):
            note(h.get("status"))
        note(h.get("controlled_by"))
        for level in h.get("levels") or ():
            note(level.get("controlled_by"))
    for area in areas:
        note(area.get("side"))
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


def _hex(
    h: Mapping[str, Any],
    geo: _Geometry,
    at_hex: Mapping[str, tuple[int, int]],
    colours: Mapping[str, tuple[str, str]],
    highlight: str = NML,
) -> str:
    """One hex's group: its polygon, id, shading and marks."""
    s = geo.size
    hx = str(h.get("hex"))
    status = str(h.get("status") or UNCONTROLLED)
    area = h.get("area")
    ground = h.get("controlled_by")
    q, r = at_hex[hx]
    cx, cy = geo.centre(q, r)
    if status == highlight:
        fill = NML_FILL
    elif status in (NML, UNCONTROLLED):
        fill = UNCONTROLLED_FILL
    else:
        fill = colours[status][0]
    strategic = bool(h.get("strategic"))
    isolated = h.get("isolated") is True
    classes = f"hex {_status_class(status)}"
    if strategic:
        classes += " strategic"
    if isolated:
        classes += " isolated"
    parts = [
        f'<g class="{classes}" data-hex="{_esc(hx)}" data-status="{_esc(status)}"'
        f' data-area="{_esc("" if area is None else area)}">'
        f"<title>{_esc(_tooltip(h, status, area, ground))}</title>"
        f'<polygon class="cell" points="{geo.points(cx, cy)}" fill="{fill}"'
        f' stroke="{GRID_STROKE}" stroke-width="{_n(GRID_WIDTH)}"/>'
    ]
    if h.get("enterable") is False:
        parts.append(
            f'<polygon class="blocked" points="{geo.points(cx, cy)}" fill="{BLOCKED_SHADE}"'
            ' fill-opacity="0.5"/>'
        )
    if strategic:
        stroke = NO_SIDE if ground is None else colours[str(ground)][1]
        parts.append(
            f'<polygon class="strategic-outline" points="{geo.points(cx, cy, 0.84)}"'
            f' fill="none" stroke="{stroke}" stroke-width="{_n(STRATEGIC_WIDTH)}"/>'
        )
    if isolated:
        parts.append(
            f'<polygon class="iso-outline" points="{geo.points(cx, cy, 0.68)}" fill="none"'
            f' stroke="{ISO_MARK}" stroke-width="1.5" stroke-dasharray="3 2"/>'
            f'<text class="iso-mark" x="{_n(cx + 0.3 * s)}" y="{_n(cy + 0.64 * s)}"'
            f' font-size="{_n(0.44 * s)}" font-weight="bold" text-anchor="middle"'
            f' fill="{ISO_MARK}"{HALO}>\u2715</text>'
        )
    parts.append(
        f'<text class="hex-id" x="{_n(cx)}" y="{_n(cy - 0.5 * s)}" font-size="{_n(0.3 * s)}"'
        f' text-anchor="middle" fill="{TEXT}"{HALO}>{_esc(hx)}</text>'
    )
    marker = h.get("marker")
    if marker is not None:
        m = 0.38 * s
        mx, my = cx - 0.42 * s, cy + 0.48 * s
        parts.append(
            f'<g class="marker" data-marker="{_esc(marker)}">'
            f'<rect x="{_n(mx - m / 2)}" y="{_n(my - m / 2)}" width="{_n(m)}" height="{_n(m)}"'
            f' fill="#ffffff" stroke="{TEXT}" stroke-width="1"/>'
            f'<text x="{_n(mx)}" y="{_n(my + 0.13 * s)}" font-size="{_n(0.34 * s)}"'
            f' font-weight="bold" text-anchor="middle" fill="{TEXT}">{_esc(marker)}</text></g>'
        )
    parts += _badges(h.get("levels") or (), ground, cx, cy, s, colours)
    parts.append("</g>")
    return "".join(parts)


#: Where the upper-level badges go in a hex, in hex radii from its centre.
_BADGE_SLOTS: Final = ((0.5, -0.5), (-0.5, -0.5), (0.64, -0.1), (-0.64, -0.1))


def _badges(
    levels: Iterable[Mapping[str, Any]],
    ground: object,
    cx: float,
    cy: float,
    s: float,
    colours: Mapping[str, tuple[str, str]],
) -> list[str]:
    """8.6057: a badge in its side's colour for each upper-level Location
    Controlled by another side than the ground's, or Isolated (dashed)."""
    out: list[str] = []
    for level in levels:
        side = level.get("controlled_by")
        upper_isolated = level.get("isolated") is True
        if side is None or (side == ground and not upper_isolated):
            continue
        dx, dy = _BADGE_SLOTS[len(out) % len(_BADGE_SLOTS)]
        bx, by = cx + dx * s, cy + dy * s
        fill_c, stroke_c = colours[str(side)]
        dash = ' stroke-dasharray="2 1.5"' if upper_isolated else ""
        out.append(
            f'<g class="level-badge" data-level="{_esc(level.get("level"))}"'
            f' data-side="{_esc(side)}" data-isolated="{"true" if upper_isolated else "false"}">'
            f'<circle cx="{_n(bx)}" cy="{_n(by)}" r="{_n(0.17 * s)}" fill="{fill_c}"'
            f' stroke="{stroke_c}" stroke-width="1.5"{dash}/>'
            f'<text x="{_n(bx)}" y="{_n(by + 0.1 * s)}" font-size="{_n(0.28 * s)}"'
            f' font-weight="bold" text-anchor="middle" fill="{TEXT}">'
            f"{_esc(level.get('level'))}</text></g>"
        )
    return out


def _boundaries(
    hexes: Sequence[Mapping[str, Any]],
    at_hex: Mapping[str, tuple[int, int]],
    geo: _Geometry,
    colours: Mapping[str, tuple[str, str]],
) -> str:
    """8.605 (MARKING THE MAP): each Setup Area's boundary, one path per side:
    every edge between a side's hex and a hex that is not in the same area."""
    owner: dict[tuple[int, int], tuple[str, object]] = {}
    for h in hexes:
        status = h.get("status")
        if status is not None and status not in (NML, UNCONTROLLED):
            owner[at_hex[str(h.get("hex"))]] = (str(status), h.get("area"))
    paths: dict[str, list[str]] = {}
    for (q, r), key in owner.items():
        cx, cy = geo.centre(q, r)
        for i, (dq, dr) in enumerate(_EDGE_NEIGHBOUR):
            if owner.get((q + dq, r + dr)) != key:
                paths.setdefault(key[0], []).append(geo.edge(cx, cy, i))
    parts = ['<g class="area-boundaries" fill="none" stroke-linecap="round">']
    for side, edges in paths.items():
        parts.append(
            f'<path data-side="{_esc(side)}" d="{"".join(edges)}" stroke="{colours[side][1]}"'
            f' stroke-width="{_n(AREA_WIDTH)}"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _labels(
    areas: Sequence[Mapping[str, Any]],
    at_hex: Mapping[str, tuple[int, int]],
    geo: _Geometry,
    colours: Mapping[str, tuple[str, str]],
) -> str:
    """Each Setup Area's id, once, at its hex nearest the area's centre;
    Isolated areas (8.6052) in italics."""
    s = geo.size
    parts = ['<g class="area-labels">']
    for area in areas:
        centres = [
            geo.centre(*at_hex[hx]) for hx in map(str, area.get("hexes") or ()) if hx in at_hex
        ]
        if not centres:
            continue
        mx = math.fsum(c[0] for c in centres) / len(centres)
        my = math.fsum(c[1] for c in centres) / len(centres)
        cx, cy = min(centres, key=lambda c: (c[0] - mx) ** 2 + (c[1] - my) ** 2)
        side = area.get("side")
        stroke = NO_SIDE if side is None else colours[str(side)][1]
        isolated = area.get("isolated") is True
        style = ' font-style="italic"' if isolated else ""
        label = f"{side} {area.get('id')}" if side is not None else str(area.get("id"))
        parts.append(
            f'<text class="area-label{" isolated" if isolated else ""}"'
            f' data-area="{_esc(area.get("id"))}" data-side="{_esc(side or "")}"'
            f' x="{_n(cx)}" y="{_n(cy + 0.14 * s)}" font-size="{_n(0.42 * s)}"'
            f' font-weight="bold"{style} text-anchor="middle" fill="{stroke}"'
            f' stroke="#ffffff" stroke-width="2.5" paint-order="stroke">{_esc(label)}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


class _Item:
    """One legend entry: a swatch and its text at (x, y)."""

    def __init__(self, swatch: str, text: str, kind: str, side: str | None = None) -> None:
        self.swatch = swatch
        self.text = text
        self.kind = kind
        self.side = side

    def __call__(self, x: float, y: float) -> str:
        side = "" if self.side is None else f' data-side="{_esc(self.side)}"'
        swatch = self.swatch.format(x=_n(x), y=_n(y), cx=_n(x + 9), cy=_n(y + 7))
        return (
            f'<g class="legend-item legend-{self.kind}"{side}>{swatch}'
            f'<text x="{_n(x + 24)}" y="{_n(y + 11.5)}" font-size="{_n(_LEGEND_FONT)}"'
            f' fill="{TEXT}">{_esc(self.text)}</text></g>'
        )


def _fill(status: str, highlight: str) -> str:
    return NML_FILL if status == highlight else UNCONTROLLED_FILL


def _legend(colours: Mapping[str, tuple[str, str]], highlight: str = NML) -> list[_Item]:
    box = '<rect class="swatch" x="{x}" y="{y}" width="18" height="14" '
    items = [
        _Item(
            box + f'fill="{fill}" stroke="{stroke}" stroke-width="{_n(AREA_WIDTH)}"/>',
            f"{side} Setup Area",
            "side",
            side,
        )
        for side, (fill, stroke) in colours.items()
    ]
    items += [
        _Item(
            box + f'fill="{_fill(NML, highlight)}" stroke="{GRID_STROKE}"/>',
            "No Man's Land",
            "nml",
        ),
        _Item(
            box + f'fill="{_fill(UNCONTROLLED, highlight)}" stroke="{GRID_STROKE}"/>',
            "Uncontrolled Territory",
            "uncontrolled",
        ),
        _Item(
            box + f'fill="{BLOCKED_SHADE}" fill-opacity="0.5" stroke="{GRID_STROKE}"/>',
            "Not Enterable",
            "blocked",
        ),
        _Item(
            box + f'fill="none" stroke="{NO_SIDE}" stroke-width="{_n(STRATEGIC_WIDTH)}"/>',
            "Strategic (Controller's colour)",
            "strategic",
        ),
        _Item(
            box + f'fill="none" stroke="{ISO_MARK}" stroke-width="1.5" stroke-dasharray="3 2"/>'
            '<text x="{cx}" y="{cy}" dy="5" font-size="12" font-weight="bold"'
            f' text-anchor="middle" fill="{ISO_MARK}">\u2715</text>',
            "Isolated",
            "isolated",
        ),
        _Item(
            f'<circle cx="{{cx}}" cy="{{cy}}" r="6" fill="#ffffff" stroke="{TEXT}"'
            ' stroke-width="1.5"/><text x="{cx}" y="{cy}" dy="3.5" font-size="9"'
            f' text-anchor="middle" fill="{TEXT}">2</text>',
            "Upper level (its Controller)",
            "level",
        ),
    ]
    items += [
        _Item(
            '<rect x="{x}" y="{y}" width="14" height="14" fill="#ffffff"'
            f' stroke="{TEXT}"/><text x="{{x}}" dx="7" y="{{y}}" dy="11" font-size="10"'
            f' font-weight="bold" text-anchor="middle" fill="{TEXT}">{letter}</text>',
            f"{letter}: {name}",
            "marker",
        )
        for letter, name in MARKER_LEGEND
    ]
    return items
