"""The Setup Areas over the hexes: each area's boundary in its side's
colour, and its id written once (8.605, MARKING THE MAP)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from cgledger.domain.territory import NML, UNCONTROLLED
from cgledger.projections.setup_map.frame import EDGE_NEIGHBOUR, Frame
from cgledger.projections.setup_map.style import AREA_WIDTH, NO_SIDE, esc, num


def boundaries(hexes: Sequence[Mapping[str, Any]], frame: Frame) -> str:
    """8.605 (MARKING THE MAP): each Setup Area's boundary, one path per side:
    every edge between a side's hex and a hex that is not in the same area."""
    owner: dict[tuple[int, int], tuple[str, object]] = {}
    for h in hexes:
        status = h.get("status")
        if status is not None and status not in (NML, UNCONTROLLED):
            owner[frame.at_hex[str(h.get("hex"))]] = (str(status), h.get("area"))
    paths: dict[str, list[str]] = {}
    for (q, r), key in owner.items():
        cx, cy = frame.geo.centre(q, r)
        for i, (dq, dr) in enumerate(EDGE_NEIGHBOUR):
            if owner.get((q + dq, r + dr)) != key:
                paths.setdefault(key[0], []).append(frame.geo.edge(cx, cy, i))
    parts = ['<g class="area-boundaries" fill="none" stroke-linecap="round">']
    for side, edges in paths.items():
        parts.append(
            f'<path data-side="{esc(side)}" d="{"".join(edges)}"'
            f' stroke="{frame.colours[side][1]}" stroke-width="{num(AREA_WIDTH)}"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def labels(areas: Sequence[Mapping[str, Any]], frame: Frame) -> str:
    """Each Setup Area's id, once, at its hex nearest the area's centre;
    Isolated areas (8.6052) in italics."""
    s = frame.geo.size
    parts = ['<g class="area-labels">']
    for area in areas:
        centres = [frame.at(hx) for hx in map(str, area.get("hexes") or ()) if hx in frame.at_hex]
        if not centres:
            continue
        mx = math.fsum(c[0] for c in centres) / len(centres)
        my = math.fsum(c[1] for c in centres) / len(centres)
        cx, cy = min(centres, key=lambda c: (c[0] - mx) ** 2 + (c[1] - my) ** 2)
        side = area.get("side")
        stroke = NO_SIDE if side is None else frame.colours[str(side)][1]
        isolated = area.get("isolated") is True
        style = ' font-style="italic"' if isolated else ""
        label = f"{side} {area.get('id')}" if side is not None else str(area.get("id"))
        parts.append(
            f'<text class="area-label{" isolated" if isolated else ""}"'
            f' data-area="{esc(area.get("id"))}" data-side="{esc(side or "")}"'
            f' x="{num(cx)}" y="{num(cy + 0.14 * s)}" font-size="{num(0.42 * s)}"'
            f' font-weight="bold"{style} text-anchor="middle" fill="{stroke}"'
            f' stroke="#ffffff" stroke-width="2.5" paint-order="stroke">{esc(label)}</text>'
        )
    parts.append("</g>")
    return "".join(parts)
