"""ABtF Setup Area Determination by Block Control (9.605-9.6055), and the
sudden death of 9.6212. Linear in the hexes of the map group.

- 9.605: "Setup areas are determined by Control of city blocks." A hex of a
  Block that a side Controls is in that side's Setup Area; a Setup Area is a
  connected group of such hexes.
- Block Control. The seed's 9.605 is cut by its OCR after "Each side may at any
  time during/"; its EX under 9.6053 shows the rule at work: "Since the German
  does not Control all Strategic Locations within the Block ... The British
  player retains Control of the Block". The reading taken: a side gains Control
  of a Block when it Controls every Strategic Location within it (ground
  level), and keeps it until the other side does; at the CG's start, a Block is
  Controlled by the side whose ``initial_control`` holds all its Strategic
  Locations. 9.6051 BLOCK CONTROL FORFEITURE switches a Block by its occupants,
  which only the players see: they record it (``POST /control`` ``blocks``).
- 9.6052 UNCONTROLLED TERRITORY: "portions of the map that are not bounded by
  either side's setup area ... primarily road hexes and those areas not
  containing any Strategic Locations": a hex in no Block, or in a Block no side
  Controls. ABtF has no No Man's Land.
- Isolation. 9.6053 ISOLATED UNIT is cut after "An Isolated unit/"; 9.60541
  retains an Escaping unit along "a path of contiguous, Enterable,
  Uncontrolled-Territory/" hexes to a Friendly Setup Area or an Eligible Entry
  Area. The reading taken: an area is Isolated when none of its hexes traces
  such a path (Uncontrolled Territory or the side's own Setup Area) to the
  side's Eligible Entry Area.
- 9.6212 SUDDEN DEATH VICTORY: "The Germans win any CG at the end of any CG
  Scenario Game Turn by Controlling all Strategic Locations within Block H".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cgledger.domain.territory import UNCONTROLLED, ControlState, MapGroupData, area_ids

__all__ = ["SUDDEN_DEATH_BLOCK", "block_control", "setup_areas", "sudden_death"]

RULE = "9.605"
#: 9.6212: "all Strategic Locations within Block H".
SUDDEN_DEATH_BLOCK = "H"
SUDDEN_DEATH_SIDE = "German"


def _holder(
    data: MapGroupData, sides: Mapping[tuple[str, int], str | None], block: str
) -> str | None:
    """The side that Controls every Strategic Location of ``block`` (ground
    level), if one does."""
    found: set[str | None] = set()
    for i, b in enumerate(data.block):
        if b == block and data.strategic[i]:
            found.add(sides.get((data.grid.ids[i], data.ground(i))))
            if len(found) > 1:
                return None
    if len(found) != 1:
        return None
    return next(iter(found))


def block_control(data: MapGroupData, control: ControlState) -> dict[str, str | None]:
    """Each Block's Controlling side (``None``: no side): recorded (9.6051 or a
    switch by Control of all its Strategic Locations), else by the
    definition's ``initial_control``."""
    blocks = sorted({b for b in data.block if b is not None})
    initial = {
        (hx, data.ground(data.grid.index[hx])): side
        for hx, side in data.initial_control.items()
        if hx in data.grid.index
    }
    out: dict[str, str | None] = {}
    for block in blocks:
        out[block] = (
            control.blocks[block] if block in control.blocks else _holder(data, initial, block)
        )
    return out


def switched_blocks(
    data: MapGroupData, before: ControlState, after: ControlState
) -> dict[str, str]:
    """The Blocks whose Control a Control record switches: a side now Controls
    every Strategic Location of a Block it did not Control."""
    held = block_control(data, before)
    out: dict[str, str] = {}
    for block, side in held.items():
        now = _holder(data, after.sides, block)
        if now is not None and now != side:
            out[block] = now
    return out


def setup_areas(data: MapGroupData, control: ControlState, sides: Sequence[str]) -> dict[str, Any]:
    """Each hex's status and each side's Setup Areas (9.605-9.6053)."""
    grid = data.grid
    n = len(grid)
    ids = grid.ids
    held = block_control(data, control)
    status = [UNCONTROLLED] * n
    for i, block in enumerate(data.block):
        side = held.get(block) if block is not None else None
        if side is not None:
            status[i] = side
    area_of: list[str | None] = [None] * n
    isolated_hex: list[bool | None] = [None] * n
    areas: list[dict[str, Any]] = []
    summary: dict[str, Any] = {}
    for side in sides:
        passable = [data.enterable[i] and status[i] in (UNCONTROLLED, side) for i in range(n)]
        targets = sorted(data.entry.get(side, frozenset()))
        reached = grid.reach(targets, passable) if targets else None
        groups = grid.components([s == side for s in status])
        for area_id, group in zip(area_ids(len(groups)), groups, strict=True):
            isolated = None if reached is None else not any(reached[j] for j in group)
            for j in group:
                area_of[j] = area_id
                isolated_hex[j] = isolated
            blocks = sorted({data.block[j] or "" for j in group})
            areas.append(
                {
                    "id": area_id,
                    "side": side,
                    "hexes": [ids[j] for j in group],
                    "isolated": isolated,
                    "blocks": blocks,
                }
            )
        summary[side] = {
            "areas": len(groups),
            "hexes": sum(len(g) for g in groups),
            "blocks": sorted(b for b, s in held.items() if s == side),
            "isolation": (
                "9.6053 (read with 9.60541): to an Eligible Entry Area"
                if targets
                else "no Eligible Entry Area on this map group; Isolation is not decided"
            ),
            "note": None,
        }
    hexes = []
    for i in range(n):
        hx = ids[i]
        ground = data.ground(i)
        uppers = [
            {"level": lv, "controlled_by": control.sides[(hx, lv)], "isolated": isolated_hex[i],
             "area": area_of[i]}
            for lv in data.levels[i]
            if lv > ground and control.sides.get((hx, lv)) is not None
        ]  # fmt: skip
        hexes.append(
            {
                "hex": hx,
                "status": status[i],
                "area": area_of[i],
                "strategic": data.strategic[i]
                or any((hx, lv) in control.markers for lv in data.levels[i]),
                "marker": control.markers.get((hx, ground)),
                "controlled_by": control.sides.get((hx, ground)),
                "isolated": isolated_hex[i],
                "surrounded": False,
                "enterable": data.enterable[i],
                "block": data.block[i],
                "levels": uppers,
            }
        )
    return {"hexes": hexes, "areas": areas, "sides": summary, "blocks": held}


def sudden_death(
    data: MapGroupData,
    control: ControlState,
    side: str = SUDDEN_DEATH_SIDE,
    block: str = SUDDEN_DEATH_BLOCK,
) -> bool:
    """9.6212: ``side`` (the German) Controls every Strategic Location within
    ``block`` (Block H; the CG definition's ``sudden_death_blocks``) of this
    map group; a map group without that Block decides nothing."""
    if block not in data.block:
        return False
    return _holder(data, control.sides, block) == side
