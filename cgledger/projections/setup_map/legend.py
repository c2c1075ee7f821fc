"""The map's legend: a swatch and a text for each side's Setup Areas and for
each kind of mark (MARKING THE MAP)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from cgledger.domain.territory import NML, UNCONTROLLED
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

LEGEND_FONT: Final = 12.0
LEGEND_ROW: Final = 20.0
LEGEND_CELL: Final = 200.0


class Item:
    """One legend entry: a swatch and its text at (x, y)."""

    def __init__(self, swatch: str, text: str, kind: str, side: str | None = None) -> None:
        self.swatch = swatch
        self.text = text
        self.kind = kind
        self.side = side

    def __call__(self, x: float, y: float) -> str:
        side = "" if self.side is None else f' data-side="{esc(self.side)}"'
        swatch = self.swatch.format(x=num(x), y=num(y), cx=num(x + 9), cy=num(y + 7))
        return (
            f'<g class="legend-item legend-{self.kind}"{side}>{swatch}'
            f'<text x="{num(x + 24)}" y="{num(y + 11.5)}" font-size="{num(LEGEND_FONT)}"'
            f' fill="{TEXT}">{esc(self.text)}</text></g>'
        )


def legend(colours: Mapping[str, tuple[str, str]], highlight: str = NML) -> list[Item]:
    box = '<rect class="swatch" x="{x}" y="{y}" width="18" height="14" '
    items = [
        Item(
            box + f'fill="{fill}" stroke="{stroke}" stroke-width="{num(AREA_WIDTH)}"/>',
            f"{side} Setup Area",
            "side",
            side,
        )
        for side, (fill, stroke) in colours.items()
    ]
    items += [
        Item(
            box + f'fill="{status_fill(status, highlight, colours)}" stroke="{GRID_STROKE}"/>',
            text,
            kind,
        )
        for status, text, kind in (
            (NML, "No Man's Land", "nml"),
            (UNCONTROLLED, "Uncontrolled Territory", "uncontrolled"),
        )
    ]
    items += [
        Item(
            box + f'fill="{BLOCKED_SHADE}" fill-opacity="0.5" stroke="{GRID_STROKE}"/>',
            "Not Enterable",
            "blocked",
        ),
        Item(
            box + f'fill="none" stroke="{NO_SIDE}" stroke-width="{num(STRATEGIC_WIDTH)}"/>',
            "Strategic (Controller's colour)",
            "strategic",
        ),
        Item(
            box + f'fill="none" stroke="{ISO_MARK}" stroke-width="1.5" stroke-dasharray="3 2"/>'
            '<text x="{cx}" y="{cy}" dy="5" font-size="12" font-weight="bold"'
            f' text-anchor="middle" fill="{ISO_MARK}">\u2715</text>',
            "Isolated",
            "isolated",
        ),
        Item(
            f'<circle cx="{{cx}}" cy="{{cy}}" r="6" fill="#ffffff" stroke="{TEXT}"'
            ' stroke-width="1.5"/><text x="{cx}" y="{cy}" dy="3.5" font-size="9"'
            f' text-anchor="middle" fill="{TEXT}">2</text>',
            "Upper level (its Controller)",
            "level",
        ),
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
