"""The LVP totals rebuilt from the event log alone (DESIGN §9; 8.6032-8.6033):
a read model that anyone holding an export can run, independent of the server's
aggregate. ``cgledger verify`` uses it to re-count every CG-Scenario End's
Current-LVP and CG-LVP Totals from the Control events before it.

It folds the records in order, in time linear in the events: each Control
change moves a Location's LVP from one side's total to the other's; an undo
(``UndoApplied``) rebuilds the Control from the events still in force.
Current-LVP of a side is the LVP of the hexes whose ground Location it
Controls (the reading of DESIGN §9: LVP is stored per hex and goes with its
ground Location, level 0 or the hex's lowest level).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["LvpMismatch", "LvpProjection"]

#: The events the projection reads.
EVENTS = frozenset(
    {"CampaignCreated", "DefinitionAmended", "ControlRecorded", "ScenarioEnded", "UndoApplied"}
)


@dataclass(frozen=True)
class LvpMismatch:
    """A CG-Scenario End whose recorded LVP the log does not give."""

    seq: int
    what: str
    recorded: Any
    rebuilt: Any


@dataclass
class _Worth:
    """The LVP of each map group's ground Locations, by ``"hex/level"``, and
    the Control the definition starts from."""

    lvp: dict[str, dict[str, int]] = field(default_factory=dict)
    initial: dict[str, dict[str, str]] = field(default_factory=dict)


def _worth(definition: Mapping[str, Any]) -> _Worth:
    worth = _Worth()
    for group in definition.get("map_groups") or ():
        values: dict[str, int] = {}
        ground: dict[str, int] = {}
        for h in group["hexes"]:
            levels = h.get("levels") or [0]
            ground[h["hex"]] = 0 if 0 in levels else min(levels)
            if h.get("lvp"):
                values[f"{h['hex']}/{ground[h['hex']]}"] = int(h["lvp"])
        worth.lvp[group["id"]] = values
        worth.initial[group["id"]] = {
            f"{hx}/{ground.get(hx, 0)}": side
            for hx, side in (group.get("initial_control") or {}).items()
        }
    return worth


class LvpProjection:
    """Current-LVP Totals by side, and each CG-Scenario End's LVP, from the
    records of one campaign in seq order (``apply``)."""

    def __init__(self) -> None:
        self.sides: list[str] = []
        self._worth = _Worth()
        #: Control by map group, by Location, and each side's Current-LVP.
        self._owner: dict[str, dict[str, str | None]] = {}
        self.totals: dict[str, int] = {}
        #: The Control changes in the log: (seq, map group, locations).
        self._changes: list[tuple[int, str, list[dict[str, Any]]]] = []
        self._reverted: set[int] = set()
        #: Each CG-Scenario End: seq -> its rebuilt row (``rows``: those in force).
        self._ended: dict[int, dict[str, Any]] = {}
        self.mismatches: list[LvpMismatch] = []
        self.events = 0
        #: CG-Scenario Ends whose recorded LVP was compared.
        self.checked = 0

    @property
    def rows(self) -> dict[int, dict[str, Any]]:
        """The rebuilt row of each CG-Scenario End still in force (an undo may
        revert one, and an undo of that undo restore it)."""
        return {seq: row for seq, row in self._ended.items() if seq not in self._reverted}

    def apply_all(self, records: Iterable[Mapping[str, Any]]) -> LvpProjection:
        for record in records:
            self.apply(record)
        return self

    def apply(self, record: Mapping[str, Any]) -> None:
        self.events += 1
        kind = record["type"]
        if kind not in EVENTS:
            return
        seq = int(record["seq"])
        p = record["payload"]
        if kind == "CampaignCreated":
            self.sides = list(p["sides"])
            self._define(p.get("definition") or {})
        elif kind == "DefinitionAmended":
            self._define(p.get("definition") or {})
        elif kind == "ControlRecorded":
            self._change(seq, p["map_group"], p["locations"])
        elif kind == "ScenarioEnded":
            for change in p.get("control") or ():
                self._change(seq, change["map_group"], change["locations"])
            self._scenario_end(seq, p)
        elif kind == "UndoApplied":
            self._reverted.update(int(s) for s in p["reverts"])
            self._reverted.difference_update(int(s) for s in p["restores"])
            self._rebuild()

    # ------------------------------------------------------------------ folding

    def _define(self, definition: Mapping[str, Any]) -> None:
        self._worth = _worth(definition)
        self._rebuild()

    def _change(self, seq: int, group: str, locations: list[dict[str, Any]]) -> None:
        self._changes.append((seq, group, locations))
        self._enter(group, locations)

    def _enter(self, group: str, locations: list[dict[str, Any]]) -> None:
        owner = self._owner.setdefault(group, dict(self._worth.initial.get(group, {})))
        values = self._worth.lvp.get(group, {})
        for loc in locations:
            key = f"{loc['hex']}/{loc['level']}"
            worth = values.get(key)
            before = owner.get(key)
            owner[key] = loc["side"]
            if worth:
                if before in self.totals:
                    self.totals[before] -= worth
                if loc["side"] in self.totals:
                    self.totals[loc["side"]] += worth

    def _rebuild(self) -> None:
        """The Control from the definition and the changes still in force."""
        self._owner = {g: dict(start) for g, start in self._worth.initial.items()}
        self.totals = dict.fromkeys(self.sides, 0)
        for group, owner in self._owner.items():
            for key, side in owner.items():
                worth = self._worth.lvp.get(group, {}).get(key)
                if worth and side in self.totals:
                    self.totals[side] += worth
        for seq, group, locations in self._changes:
            if seq not in self._reverted:
                self._enter(group, locations)

    def _initial_totals(self) -> dict[str, int]:
        totals = dict.fromkeys(self.sides, 0)
        for group, start in self._worth.initial.items():
            values = self._worth.lvp.get(group, {})
            for key, side in start.items():
                if values.get(key) and side in totals:
                    totals[side] += values[key]
        return totals

    def _scenario_end(self, seq: int, payload: Mapping[str, Any]) -> None:
        recorded = payload.get("lvp")
        if recorded is None:
            return
        in_force = self.rows
        last = in_force[max(in_force)] if in_force else None
        if last is not None:
            start, before = last["current_lvp"], last["cg_lvp"]
        else:
            start, before = self._initial_totals(), dict.fromkeys(self.sides, 0)
        current = dict(self.totals)
        row = {
            "seq": seq,
            "cg_date": payload.get("cg_date"),
            "start_lvp": start,
            "current_lvp": current,
            "cg_lvp": {side: before.get(side, 0) + current.get(side, 0) for side in self.sides},
        }
        self._ended[seq] = row
        self.checked += 1
        for what in ("start_lvp", "current_lvp", "cg_lvp"):
            if recorded.get(what) != row[what]:
                self.mismatches.append(LvpMismatch(seq, what, recorded.get(what), row[what]))
