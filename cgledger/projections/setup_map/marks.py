"""The marks that say who Controls a Location and where a Fortification is,
in shapes and letters as well as colours (DESIGN §12: nothing by colour
alone):

- a **Control tag**: a small white tag at the bottom of each hex whose ground
  Location a side Controls (Control in force: DESIGN §13, a pending proposal
  changes nothing), with the side's short name in its colour (A26.11); where
  that side is not the one whose Setup Area holds the hex, the hex is also
  hatched in its colour inside a dashed outline, so that a German-Controlled
  hex painted as U.S. Setup Area says so at a glance;
- a **Fortification mark**: a triangle at the right of the hex, hollow and
  dashed for one set up in secret (8.6242, 9.621), which only its owner and
  the referee are given, solid for one placed on-map (8.6073, 9.6073), which
  everyone is. Each item names its rule (``rule``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from cgledger.projections.setup_map.frame import Frame
from cgledger.projections.setup_map.style import TEXT, esc, num

#: The dash of a Control outline by the side's index: every side its own.
_DASHES: Final = ("4 2", "1.5 1.5", "6 2 1.5 2", "3 3", "1 3")
#: Fortification marks: the fill of a hidden one (only its owner sees it) and a shown one.
FORT_HIDDEN_FILL: Final = "#ffffff"
FORT_SHOWN_FILL: Final = "#222222"


def side_tags(sides: Iterable[str]) -> dict[str, str]:
    """Each side's short name for its Control tag: its first three letters
    (fewer if the name is shorter), longer where two sides would share one."""
    names = list(dict.fromkeys(sides))
    out: dict[str, str] = {}
    for side in names:
        n = min(3, len(side)) or 1
        while n < len(side) and any(o != side and o[:n] == side[:n] for o in names):
            n += 1
        out[side] = side[:n] or "?"
    return out


def dash(index: int) -> str:
    """The dash pattern of the Control outline of the side of that index."""
    return _DASHES[index % len(_DASHES)]


def control_tag(
    side: str, tag: str, cx: float, cy: float, frame: Frame, size: float | None = None
) -> str:
    """A side's Control tag centred at (cx, cy): its short name in its colour
    on white, framed in its colour (``size``: the hex radius it is drawn for)."""
    s = frame.geo.size if size is None else size
    stroke = frame.colours[side][1]
    font = 0.24 * s
    w = max(0.3 * s, 0.62 * font * len(tag) + 0.12 * s)
    h = 0.3 * s
    return (
        f'<g class="control-mark" data-side="{esc(side)}">'
        f'<rect x="{num(cx - w / 2)}" y="{num(cy - h / 2)}" width="{num(w)}" height="{num(h)}"'
        f' rx="{num(0.08 * s)}" fill="#ffffff" stroke="{stroke}" stroke-width="1"/>'
        f'<text x="{num(cx)}" y="{num(cy + 0.33 * font)}" font-size="{num(font)}"'
        f' font-weight="bold" text-anchor="middle" fill="{stroke}">{esc(tag)}</text></g>'
    )


def control_patterns(colours: Mapping[str, tuple[str, str]]) -> str:
    """The hatch of each side's Control over another side's Setup Area, in
    its colour, the other way from No Man's Land's (ids by the side's index),
    and a grey one for the legend."""
    out = []
    strokes = [stroke for _, stroke in colours.values()]
    for key, stroke in [*((str(i), c) for i, c in enumerate(strokes)), ("any", TEXT)]:
        out.append(
            f'<pattern id="cgl-ctl-{key}" patternUnits="userSpaceOnUse" width="7" height="7"'
            ' patternTransform="rotate(-45)">'
            f'<line x1="1.5" y1="0" x2="1.5" y2="7" stroke="{stroke}" stroke-width="1.6"/>'
            "</pattern>"
        )
    return "".join(out)


def control_outline(side: str, cx: float, cy: float, frame: Frame) -> str:
    """A hex Controlled by another side than the one whose Setup Area holds
    it: hatched in the Controller's colour, inside a dashed outline of it."""
    index = list(frame.colours).index(side)
    return (
        f'<polygon class="control-outline" data-side="{esc(side)}"'
        f' points="{frame.geo.points(cx, cy, 0.9)}" fill="url(#cgl-ctl-{index})"'
        f' fill-opacity="0.6" stroke="{frame.colours[side][1]}" stroke-width="2"'
        f' stroke-dasharray="{dash(index)}"/>'
    )


def fort_triangle(cx: float, cy: float, size: float, *, shown: bool, cls: str) -> str:
    """A Fortification triangle of side ``size`` centred at (cx, cy)."""
    h = size * 0.866
    pts = (
        f"{num(cx)},{num(cy - h / 2)} {num(cx + size / 2)},{num(cy + h / 2)}"
        f" {num(cx - size / 2)},{num(cy + h / 2)}"
    )
    if shown:
        paint = f'fill="{FORT_SHOWN_FILL}" stroke="{TEXT}" stroke-width="1"'
    else:
        paint = (
            f'fill="{FORT_HIDDEN_FILL}" stroke="{TEXT}" stroke-width="1.2" stroke-dasharray="2 1.2"'
        )
    return f'<polygon class="{cls}" points="{pts}" {paint}/>'


def fort_mark(items: Sequence[Mapping[str, Any]], cx: float, cy: float, frame: Frame) -> str:
    """The Fortification mark of one hex: solid if any of its items was placed
    on-map (8.6073), else hollow and dashed (set up in secret, 8.6242)."""
    s = frame.geo.size
    shown = any(i.get("shown") is True for i in items)
    sides = sorted({str(i.get("side")) for i in items})
    return (
        f'<g class="fort-mark" data-shown="{"true" if shown else "false"}"'
        f' data-side="{esc(" ".join(sides))}">'
        + fort_triangle(cx + 0.55 * s, cy + 0.08 * s, 0.36 * s, shown=shown, cls="fort")
        + "</g>"
    )


def fort_text(item: Mapping[str, Any]) -> str:
    """One Fortification as the hex's tooltip lists it."""
    level = item.get("level") or 0
    where = f" at level {level}" if level else ""
    count = item.get("count")
    what = f"{count} {item.get('type')}" if count is not None else str(item.get("type"))
    rule = f" ({item.get('rule')})" if item.get("rule") else ""
    if item.get("shown") is True:
        return f"{item.get('side')} Fortification placed on-map{rule}: {what}{where}"
    return f"{item.get('side')} Fortification set up in secret{rule}: {what}{where}"
