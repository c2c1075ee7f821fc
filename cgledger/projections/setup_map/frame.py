"""Where things are on the map: the pixel geometry of the axial hexes, and
the :class:`Frame` every part of the drawing is placed in."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from cgledger.projections.setup_map.style import SQRT3, num

#: Axial neighbour across edge i of a flat-topped hex whose corner i is at
#: 60*i degrees (y down): lower-right, below, lower-left, upper-left, above,
#: upper-right.
EDGE_NEIGHBOUR: Final = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
_CORNERS: Final = tuple(
    (math.cos(math.radians(60 * i)), math.sin(math.radians(60 * i))) for i in range(6)
)


class Geometry:
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
        return " ".join(f"{num(cx + s * c)},{num(cy + s * d)}" for c, d in _CORNERS)

    def edge(self, cx: float, cy: float, i: int) -> str:
        s = self.size
        (c0, d0), (c1, d1) = _CORNERS[i], _CORNERS[(i + 1) % 6]
        return f"M{num(cx + s * c0)} {num(cy + s * d0)}L{num(cx + s * c1)} {num(cy + s * d1)}"


@dataclass(frozen=True)
class Frame:
    """What every part of one drawing reads: the geometry, each hex's axial
    (q, r), the sides' (fill, stroke) and the status highlighted in yellow;
    the sides' Control tags, the rule that makes Setup Areas (``step``), the
    Control in force by hex (``None``: as the answer has it), the
    Fortifications the viewer is given, by hex, and whether the Setup Areas
    are frozen (determined from the Control of then)."""

    geo: Geometry
    at_hex: Mapping[str, tuple[int, int]]
    colours: Mapping[str, tuple[str, str]]
    highlight: str
    tags: Mapping[str, str] = field(default_factory=dict)
    step: str | None = None
    control: Mapping[str, str | None] | None = None
    forts: Mapping[str, Sequence[Mapping[str, Any]]] = field(default_factory=dict)
    frozen: bool = False

    def at(self, hx: str) -> tuple[float, float]:
        """The centre of hex ``hx``, in px."""
        return self.geo.centre(*self.at_hex[hx])
