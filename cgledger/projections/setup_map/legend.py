"""The map's legend, in its own region below the map: a swatch and a text
for each fill (the sides' Setup Areas, No Man's Land, Uncontrolled
Territory), for each Control mark and for each kind of mark (MARKING THE
MAP, Fortifications), in sections with their rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from cgledger.domain.territory import NML, UNCONTROLLED
from cgledger.projections.setup_map.frame import Frame
from cgledger.projections.setup_map.marks import control_tag, dash, fort_triangle
from cgledger.projections.setup_map.style import (
    AREA_WIDTH,
    BLOCKED_SHADE,
    GRID_STROKE,
    ISO_MARK,
    NO_SIDE,
    STRATEGIC_WIDTH,
    TEXT,
    esc,
    num,
    status_fill,
)

#: Short names of the markers for the legend (MARKING THE MAP).
MARKER_LEGEND: Final = (
    ("E", "Entrenchment"),
    ("F", "Fortification"),
    ("G", "Gun"),
    ("V", "Immobile vehicle"),
)

LEGEND_FONT: Final = 11.0
LEGEND_ROW: Final = 20.0
LEGEND_CELL: Final = 250.0
LEGEND_PAD: Final = 8.0

Swatch = str | Callable[[float, float], str]


class Item:
    """One legend entry: a swatch and its text at (x, y). The swatch is a
    template (``{x}``, ``{y}``: its corner; ``{cx}``, ``{cy}``: its centre) or
    a function of (x, y)."""

    def __init__(self, swatch: Swatch, text: str, kind: str, side: str | None = None) -> None:
        self.swatch = swatch
        self.text = text
        self.kind = kind
        self.side = side

    def __call__(self, x: float, y: float) -> str:
        side = "" if self.side is None else f' data-side="{esc(self.side)}"'
        if callable(self.swatch):
            swatch = self.swatch(x, y)
        else:
            swatch = self.swatch.format(x=num(x), y=num(y), cx=num(x + 9), cy=num(y + 7))
        return (
            f'<g class="legend-item legend-{self.kind}"{side}>{swatch}'
            f'<text x="{num(x + 24)}" y="{num(y + 11)}" font-size="{num(LEGEND_FONT)}"'
            f' fill="{TEXT}">{esc(self.text)}</text></g>'
        )


#: A legend section: its heading and its entries.
Section = tuple[str, list[Item]]

_BOX = '<rect class="swatch" x="{x}" y="{y}" width="18" height="14" '


def _fills(colours: Mapping[str, tuple[str, str]], highlight: str) -> list[Item]:
    """What a hex's fill says: a side's Setup Area, No Man's Land, Uncontrolled
    Territory, not Enterable."""
    items = [
        Item(
            _BOX + f'fill="{fill}" stroke="{stroke}" stroke-width="{num(AREA_WIDTH)}"/>',
            f"{side} Setup Area",
            "side",
            side,
        )
        for side, (fill, stroke) in colours.items()
    ]
    items += [
        Item(
            _BOX + f'fill="{status_fill(status, highlight, colours)}" stroke="{GRID_STROKE}"/>',
            text,
            kind,
        )
        for status, text, kind in (
            (NML, "No Man's Land", "nml"),
            (UNCONTROLLED, "Uncontrolled Territory", "uncontrolled"),
        )
    ]
    items.append(
        Item(
            _BOX + f'fill="{BLOCKED_SHADE}" fill-opacity="0.5" stroke="{GRID_STROKE}"/>',
            "Not Enterable",
            "blocked",
        )
    )
    return items


def _control(frame: Frame) -> list[Item]:
    """What says who Controls a Location: its side's tag, the outline where it
    differs from the Setup Area, the Strategic outline and the upper levels."""
    s = frame.geo.size

    def tag_of(side: str, tag: str) -> Callable[[float, float], str]:
        return lambda x, y: control_tag(side, tag, x + 9, y + 7, frame, 40)

    items = [
        Item(tag_of(side, tag), f"Controlled by {side}", "control", side)
        for side, tag in frame.tags.items()
    ]
    items.append(
        Item(
            lambda x, y: (
                f'<polygon class="swatch" points="{frame.geo.points(x + 9, y + 7, 8 / s)}"'
                f' fill="url(#cgl-ctl-any)" stroke="{TEXT}" stroke-width="1.5"'
                f' stroke-dasharray="{dash(0)}"/>'
            ),
            "Hatched: another side Controls it",
            "control-other",
        )
    )
    items += [
        Item(
            _BOX + f'fill="none" stroke="{NO_SIDE}" stroke-width="{num(STRATEGIC_WIDTH)}"/>',
            "Strategic (Controller's outline)",
            "strategic",
        ),
        Item(
            f'<circle cx="{{cx}}" cy="{{cy}}" r="6" fill="#ffffff" stroke="{TEXT}"'
            ' stroke-width="1.5"/><text x="{cx}" y="{cy}" dy="3.5" font-size="9"'
            f' text-anchor="middle" fill="{TEXT}">2</text>',
            "Upper level (its Controller)",
            "level",
        ),
    ]
    return items


def _marks() -> list[Item]:
    """Isolated, and the letters that made a Location Strategic."""
    items = [
        Item(
            _BOX + f'fill="none" stroke="{ISO_MARK}" stroke-width="1.5" stroke-dasharray="3 2"/>'
            '<text x="{cx}" y="{cy}" dy="5" font-size="12" font-weight="bold"'
            f' text-anchor="middle" fill="{ISO_MARK}">\u2715</text>',
            "Isolated",
            "isolated",
        )
    ]
    items += [
        Item(
            '<rect x="{x}" y="{y}" width="14" height="14" fill="#ffffff"'
            f' stroke="{TEXT}"/><text x="{{x}}" dx="7" y="{{y}}" dy="11" font-size="10"'
            f' font-weight="bold" text-anchor="middle" fill="{TEXT}">{letter}</text>',
            f"{letter}: {name}",
            "marker",
        )
        for letter, name in MARKER_LEGEND
    ]
    return items


def _forts(rules: Mapping[str, str]) -> list[Item]:
    """8.6242 (set up in secret) and 8.6073 (placed on-map): always both, so
    that the legend says nothing of what the viewer was given."""

    def tri(shown: bool) -> Callable[[float, float], str]:
        return lambda x, y: fort_triangle(x + 9, y + 7, 14, shown=shown, cls="swatch")

    set_up = f" ({rules['set_up']})" if rules.get("set_up") else ""
    on_map = f" ({rules['on_map']})" if rules.get("on_map") else ""
    return [
        Item(tri(False), f"Set up in secret{set_up}", "fort-hidden"),
        Item(tri(True), f"Placed on-map{on_map}", "fort-shown"),
    ]


def sections(frame: Frame, fort_rules: Mapping[str, str] | None) -> list[Section]:
    """The legend's sections: fills, Control, marks and (where the ruleset
    keeps them) Fortifications."""
    setup = f"Fill: Setup Areas ({frame.step})" if frame.step else "Fill: Setup Areas"
    out: list[Section] = [
        (setup, _fills(frame.colours, frame.highlight)),
        ("Control in force (A26.11); a pending proposal changes nothing", _control(frame)),
        ("Marks (MARKING THE MAP)", _marks()),
    ]
    if fort_rules is not None:
        out.append(("Fortifications you are given", _forts(fort_rules)))
    return out


def layout(found: Sequence[Section], width: float) -> tuple[int, float]:
    """Entries per row in ``width``, and the legend's height."""
    per_row = max(1, int((width - 2 * LEGEND_PAD) // LEGEND_CELL))
    rows = sum(1 + -(-len(items) // per_row) for _, items in found)
    return per_row, rows * LEGEND_ROW + 2 * LEGEND_PAD


def draw(found: Sequence[Section], x: float, y: float, width: float) -> str:
    """The legend in its own framed region at (x, y), ``width`` wide, below the
    map: each section's heading, then its entries in as many columns as fit."""
    per_row, height = layout(found, width)
    out = [
        f'<g class="legend" data-box="{num(x)} {num(y)} {num(width)} {num(height)}">'
        f'<rect class="legend-frame" x="{num(x)}" y="{num(y)}" width="{num(width)}"'
        f' height="{num(height)}" fill="#ffffff" stroke="{GRID_STROKE}" stroke-width="1"/>'
    ]
    top = y + LEGEND_PAD
    left = x + LEGEND_PAD
    for heading, items in found:
        out.append(
            f'<text class="legend-heading" x="{num(left)}" y="{num(top + 13)}"'
            f' font-size="{num(LEGEND_FONT + 1)}" font-weight="bold" fill="{TEXT}">'
            f"{esc(heading)}</text>"
        )
        top += LEGEND_ROW
        for k, item in enumerate(items):
            out.append(item(left + (k % per_row) * LEGEND_CELL, top + (k // per_row) * LEGEND_ROW))
        top += -(-len(items) // per_row) * LEGEND_ROW
    out.append("</g>")
    return "".join(out)
