"""One hex of the map: its cell filled by its status, its id, tooltip and
marks (Strategic Location, marker, Isolated, not Enterable, upper levels)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

from cgledger.domain.territory import MARKERS, NML, UNCONTROLLED
from cgledger.projections.setup_map.frame import Frame
from cgledger.projections.setup_map.marks import (
    control_outline,
    control_tag,
    fort_mark,
    fort_text,
)
from cgledger.projections.setup_map.style import (
    BLOCKED_SHADE,
    GRID_STROKE,
    GRID_WIDTH,
    HALO,
    HEX_ID_FONT,
    ISO_MARK,
    NO_SIDE,
    STRATEGIC_WIDTH,
    TEXT,
    esc,
    num,
    status_fill,
)

_NOT_CLASS = re.compile(r"[^a-z0-9_-]+")

#: Where the upper-level badges go in a hex, in hex radii from its centre.
_BADGE_SLOTS: Final = ((0.5, -0.5), (-0.5, -0.5), (0.64, -0.1), (-0.64, -0.1))


def _status_class(status: str) -> str:
    return "status-" + (_NOT_CLASS.sub("-", status.lower()).strip("-") or "none")


def _status_text(status: str, area: object) -> str:
    if status == NML:
        return "No Man's Land"
    if status == UNCONTROLLED:
        return "Uncontrolled Territory"
    return f"{status} Setup Area" if area is None else f"{status} Setup Area {area}"


def _control_text(status: str, ground: object, frame: Frame, shown: object) -> str:
    """Who Controls the hex's ground Location (A26.11), in force; why its
    Setup Area can be another side's; and, on a frozen map, who did when the
    Setup Areas were determined."""
    if ground is None:
        text = "not Controlled"
    else:
        text = f"Controlled by {ground} (A26.11"
        if shown != ground and frame.control is not None and frame.frozen:
            text += f"; {shown or 'nobody'} when the Setup Areas were determined"
        text += ")"
        if status not in (NML, UNCONTROLLED) and status != ground:
            by = f" by {frame.step}" if frame.step else ""
            text += f", yet in the {status} Setup Area{by}"
    return text


def _tooltip(h: Mapping[str, Any], status: str, area: object, ground: object, frame: Frame) -> str:
    parts = [str(h.get("hex")), _status_text(status, area)]
    parts.append(_control_text(status, ground, frame, h.get("controlled_by")))
    if h.get("strategic"):
        marker = h.get("marker")
        if marker is not None:
            parts.append(f"Strategic ({marker}: {MARKERS.get(str(marker), marker)})")
        else:
            parts.append("Strategic")
    if h.get("isolated") is True:
        parts.append("Isolated")
    if h.get("enterable") is False:
        parts.append("not Enterable")
    for level in h.get("levels") or ():
        text = f"level {level.get('level')}: {level.get('controlled_by') or 'uncontrolled'}"
        if level.get("isolated") is True:
            text += ", Isolated"
        parts.append(text)
    parts += [fort_text(item) for item in frame.forts.get(str(h.get("hex")), ())]
    return " - ".join(parts)


def hex_group(h: Mapping[str, Any], frame: Frame) -> str:
    """One hex's group: its polygon, id, shading and marks."""
    geo, colours = frame.geo, frame.colours
    s = geo.size
    hx = str(h.get("hex"))
    status = str(h.get("status") or UNCONTROLLED)
    area = h.get("area")
    ground = h.get("controlled_by") if frame.control is None else frame.control.get(hx)
    cx, cy = frame.at(hx)
    fill = status_fill(status, frame.highlight, colours)
    strategic = bool(h.get("strategic"))
    isolated = h.get("isolated") is True
    classes = f"hex {_status_class(status)}"
    if strategic:
        classes += " strategic"
    if isolated:
        classes += " isolated"
    if ground is not None:
        classes += " controlled"
    other = ground is not None and status not in (NML, UNCONTROLLED) and status != ground
    if other:
        classes += " control-other"
    parts = [
        f'<g class="{classes}" data-hex="{esc(hx)}" data-status="{esc(status)}"'
        f' data-area="{esc("" if area is None else area)}"'
        f' data-control="{esc("" if ground is None else ground)}">'
        f"<title>{esc(_tooltip(h, status, area, ground, frame))}</title>"
        f'<polygon class="cell" points="{geo.points(cx, cy)}" fill="{fill}"'
        f' stroke="{GRID_STROKE}" stroke-width="{num(GRID_WIDTH)}"/>'
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
            f' fill="none" stroke="{stroke}" stroke-width="{num(STRATEGIC_WIDTH)}"/>'
        )
    if other:
        parts.append(control_outline(str(ground), cx, cy, frame))
    if isolated:
        parts.append(
            f'<polygon class="iso-outline" points="{geo.points(cx, cy, 0.68)}" fill="none"'
            f' stroke="{ISO_MARK}" stroke-width="1.5" stroke-dasharray="3 2"/>'
            f'<text class="iso-mark" x="{num(cx + 0.44 * s)}" y="{num(cy + 0.7 * s)}"'
            f' font-size="{num(0.36 * s)}" font-weight="bold" text-anchor="middle"'
            f' fill="{ISO_MARK}"{HALO}>\u2715</text>'
        )
    parts.append(
        f'<text class="hex-id" x="{num(cx)}" y="{num(cy - 0.48 * s)}"'
        f' font-size="{num(HEX_ID_FONT * s)}" text-anchor="middle" fill="{TEXT}"{HALO}>'
        f"{esc(hx)}</text>"
    )
    if ground is not None:
        tag = frame.tags.get(str(ground)) or str(ground)[:3]
        parts.append(control_tag(str(ground), tag, cx, cy + 0.6 * s, frame))
    forts = frame.forts.get(hx)
    if forts:
        parts.append(fort_mark(forts, cx, cy, frame))
    marker = h.get("marker")
    if marker is not None:
        m = 0.34 * s
        mx, my = cx - 0.55 * s, cy + 0.08 * s
        parts.append(
            f'<g class="marker" data-marker="{esc(marker)}">'
            f'<rect x="{num(mx - m / 2)}" y="{num(my - m / 2)}" width="{num(m)}" height="{num(m)}"'
            f' fill="#ffffff" stroke="{TEXT}" stroke-width="1"/>'
            f'<text x="{num(mx)}" y="{num(my + 0.11 * s)}" font-size="{num(0.3 * s)}"'
            f' font-weight="bold" text-anchor="middle" fill="{TEXT}">{esc(marker)}</text></g>'
        )
    parts += _badges(h.get("levels") or (), ground, cx, cy, s, colours)
    parts.append("</g>")
    return "".join(parts)


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
            f'<g class="level-badge" data-level="{esc(level.get("level"))}"'
            f' data-side="{esc(side)}" data-isolated="{"true" if upper_isolated else "false"}">'
            f'<circle cx="{num(bx)}" cy="{num(by)}" r="{num(0.17 * s)}" fill="{fill_c}"'
            f' stroke="{stroke_c}" stroke-width="1.5"{dash}/>'
            f'<text x="{num(bx)}" y="{num(by + 0.1 * s)}" font-size="{num(0.28 * s)}"'
            f' font-weight="bold" text-anchor="middle" fill="{TEXT}">'
            f"{esc(level.get('level'))}</text></g>"
        )
    return out
