"""The look of the Setup Areas map: sizes, the sides' colours and the marks'
colours, and how a text or a number is written into the SVG."""

from __future__ import annotations

import colorsys
import math
import re
from collections.abc import Iterable, Mapping
from typing import Final
from xml.sax.saxutils import escape

from cgledger.domain.territory import NML, UNCONTROLLED

#: The hex radius (centre to corner), in px.
HEX_SIZE: Final = 24.0
MARGIN: Final = 12.0
#: Around the map's region (its ``data-box``), for the strokes at its edge.
BOX_PAD: Final = 4.0
#: Between the map and the legend below it.
LEGEND_GAP: Final = 16.0
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

TITLE_FONT: Final = 16.0
#: A hex id's font size, in hex radii (the page zooms the map to read it).
HEX_ID_FONT: Final = 0.3

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def esc(value: object) -> str:
    """``value`` as XML text or attribute content: escaped, and stripped of
    the characters that XML 1.0 cannot hold."""
    text = _NOT_XML.sub("\ufffd", str(value))
    return escape(text, {'"': "&quot;", "'": "&apos;"})


def num(value: float) -> str:
    """A coordinate with one decimal, without a trailing ``.0`` or ``-0``."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def status_fill(status: str, highlight: str, colours: Mapping[str, tuple[str, str]]) -> str:
    """A hex's fill by its status: hatched yellow for the ``highlight``ed one
    (No Man's Land or Uncontrolled Territory), plain for the other, and a
    side's Setup Area in that side's colour."""
    if status == highlight:
        return NML_FILL
    if status in (NML, UNCONTROLLED):
        return UNCONTROLLED_FILL
    return colours[status][0]


def _hex_colour(h: float, lightness: float, saturation: float) -> str:
    r, g, b = colorsys.hls_to_rgb(h, lightness, saturation)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def colour(index: int) -> tuple[str, str]:
    """The (fill, stroke) of the side of that index."""
    if index < len(PALETTE):
        return PALETTE[index]
    hue = (index * 0.381966) % 1.0  # golden-angle steps: far from the previous hues
    return _hex_colour(hue, 0.85, 0.6), _hex_colour(hue, 0.3, 0.7)


def side_colours(sides: Iterable[str]) -> dict[str, tuple[str, str]]:
    """``{side: (fill, stroke)}`` by each side's index in ``sides``."""
    out: dict[str, tuple[str, str]] = {}
    for side in sides:
        if side not in out:
            out[side] = colour(len(out))
    return out
