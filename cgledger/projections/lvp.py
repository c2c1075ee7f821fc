"""The LVP totals rebuilt from the event log alone (DESIGN §9; 8.6032-8.6033):
a read model that anyone holding an export can run, independent of the server's
aggregate. ``cgledger verify`` uses it to re-count every CG-Scenario End's
Current-LVP and CG-LVP Totals from the Control events before it.

It folds the records in order, in time linear in the events: each Control
change moves a Location's LVP from one side's total to the other's; an undo
(``UndoApplied``) rebuilds the Control from the events still in force.

An Idle date (``InitiativeDetermined`` of scenario ``idle``) calculates the
totals too where the ruleset says so (``Initiative.idle_lvp_rule``; e.g.
8.6232 note 2: "each side calculates its Current-LVP and
CG-LVP Totals"), so the next CG-Scenario End adds to its CG-LVP (8.6033
"its preceding CG Date's CG-LVP Total"); its event records the row, which is
compared. An Idle date whose event records none (a ruleset whose Idle rule,
e.g. 9.62132 note 2, calculates no totals, or a log written before the
ledger kept the row) is
counted both ways: the next CG-Scenario End may add to it or skip it.
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
    {
        "CampaignCreated", "DefinitionAmended", "ControlRecorded", "ScenarioEnded",
        "UndoApplied", "InitiativeDetermined",
    }
)  # fmt: skip
#: The scenario type of two Idle chits (8.6232 note 2, 9.62132 note 2).
IDLE = "idle"


@dataclass(frozen=True)
class LvpMismatch:
    """A CG-Scenario End (or Idle date) whose recorded LVP the log does not give."""

    seq: int
    what: str
    recorded: Any
    rebuilt: Any
    event: str = "CG-Scenario End"


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
        #: Idle dates whose recorded LVP was compared (8.6232 note 2).
        self.idle_checked = 0

    @property
    def rows(self) -> dict[int, dict[str, Any]]:
        """The rebuilt row of each CG-Scenario End still in force (an undo may
        revert one, and an undo of that undo restore it)."""
        return {
            seq: row
            for seq, row in self._ended.items()
            if seq not in self._reverted and not row.get("unrecorded")
        }

    def _in_force(self) -> dict[int, dict[str, Any]]:
        """Every row in force, with the Idle dates whose event records none."""
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
        elif kind == "InitiativeDetermined" and p.get("scenario") == IDLE:
            self._idle_date(seq, p)
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

    def _row(
        self, seq: int, payload: Mapping[str, Any], last: dict[str, Any] | None
    ) -> dict[str, Any]:
        """The row 8.6033 gives now after the row ``last`` (``None``: the first)."""
        if last is not None:
            start, before = last["current_lvp"], last["cg_lvp"]
        else:
            start, before = self._initial_totals(), dict.fromkeys(self.sides, 0)
        current = dict(self.totals)
        return {
            "seq": seq,
            "cg_date": payload.get("cg_date"),
            "start_lvp": start,
            "current_lvp": current,
            "cg_lvp": {side: before.get(side, 0) + current.get(side, 0) for side in self.sides},
        }

    def _candidates(self, seq: int, payload: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The rows the log allows: after the last row in force and, where it is
        an Idle date whose event records none, also after the last row before
        the trailing such dates (the Idle date that calculates no totals)."""
        in_force = self._in_force()
        ordered = [in_force[s] for s in sorted(in_force)]
        rows = [self._row(seq, payload, ordered[-1] if ordered else None)]
        if ordered and ordered[-1].get("unrecorded"):
            while ordered and ordered[-1].get("unrecorded"):
                ordered.pop()
            rows.append(self._row(seq, payload, ordered[-1] if ordered else None))
        return rows

    def _compare(
        self, seq: int, recorded: Mapping[str, Any], rows: list[dict[str, Any]], event: str
    ) -> dict[str, Any]:
        """The candidate row the recorded one matches, else the first, its
        differences listed in ``mismatches``."""
        keys = ("start_lvp", "current_lvp", "cg_lvp")
        for row in rows:
            if all(recorded.get(what) == row[what] for what in keys):
                return row
        row = rows[0]
        for what in keys:
            if recorded.get(what) != row[what]:
                self.mismatches.append(LvpMismatch(seq, what, recorded.get(what), row[what], event))
        return row

    def _scenario_end(self, seq: int, payload: Mapping[str, Any]) -> None:
        recorded = payload.get("lvp")
        if recorded is None:
            return
        rows = self._candidates(seq, payload)
        self._ended[seq] = self._compare(seq, recorded, rows, "CG-Scenario End")
        self.checked += 1

    def _idle_date(self, seq: int, payload: Mapping[str, Any]) -> None:
        """8.6232 note 2: an Idle date's totals. Its event records them
        (where the ruleset's Idle rule calculates them), records none
        (``"lvp": null``: nothing counts LVP), or has no ``lvp`` at all: a row
        kept as ``unrecorded`` (see the module's head)."""
        if "lvp" not in payload:
            # As the ledger reads such a date (``scenario_end.unrecorded_idle_row``):
            # the last row's Current-LVP, CG-LVP added to it by 8.6033.
            in_force = self._in_force()
            if in_force:
                last = in_force[max(in_force)]
                current = dict(last["current_lvp"])
                self._ended[seq] = {
                    "seq": seq,
                    "cg_date": payload.get("cg_date"),
                    "start_lvp": current,
                    "current_lvp": current,
                    "cg_lvp": {s: last["cg_lvp"].get(s, 0) + current.get(s, 0) for s in self.sides},
                    "unrecorded": True,
                }
            return
        recorded = payload["lvp"]
        if recorded is None:
            return
        rows = self._candidates(seq, payload)
        self._ended[seq] = self._compare(seq, recorded, rows, "Idle date (8.6232 note 2)")
        self.idle_checked += 1
