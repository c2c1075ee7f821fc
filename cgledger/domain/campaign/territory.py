"""Control and the Setup Areas (DESIGN §9; 8.605, 9.605): Control
of each Location recorded by map group, the Blocks a side gains, and the
Setup Areas, determined from the Control when the first side completes the
Setup Area step after a CG-Scenario End and kept until the next scenario.

Control binds the opponent (DESIGN §13): a side's is a proposal of the
agreement protocol (``agreement.CONTROL``), which changes nothing until the
opponent or the referee approves it (``approve_control``); the referee's is
recorded at once.

Slice: ``control`` (by map group, by Location "hex/level", or Block),
``setup_frozen`` (the Setup Areas as determined, or ``None``) and ``vacated``
(map groups a rule recorded as left by a side's units, 8.6131).
"""

from __future__ import annotations

import copy
from typing import Any

from cgledger.domain.campaign.agreement import CONTROL, Agreement, approves
from cgledger.domain.campaign.core import Applied, reads
from cgledger.domain.context import Ctx
from cgledger.domain.errors import InvalidInput, NotFound, RuleViolation
from cgledger.domain.rulesets.base import SCENARIO
from cgledger.domain.territory import BLOCK_KEY, ControlState, MapGroupData
from cgledger.domain.visibility import REFEREE

#: The fields of a Control change (``control_change``), as its events hold them.
CHANGE = ("map_group", "locations", "blocks", "rule", "into_setup_areas")


class Territory(Agreement):
    def control_state(self, data: MapGroupData, *, frozen: bool = False) -> ControlState:
        """The Control of a map group now (or as the Setup Areas were
        determined, with ``frozen``): ``initial_control`` and what was recorded."""
        book = self.control
        if frozen and self.setup_frozen is not None:
            book = self.setup_frozen["control"]
        return ControlState.of(data, book.get(data.id, {}))

    def record_control(
        self,
        ctx: Ctx,
        map_group: str,
        locations: list[dict[str, Any]],
        *,
        blocks: list[dict[str, Any]] | None = None,
        rule: str | None = None,
    ) -> int:
        """DESIGN §9: record Control of Locations of a map group, as one public
        event (``side`` null: uncontrolled), with the Locations made Strategic
        or no longer (``marker``: E, F, G, V; ``"none"``), Blazing ones, and
        the Blocks a side gains by 9.6051 (``blocks``). Each Location is a hex
        of the map group at one of its levels. ``rule`` names a rule that
        gives Control at once (8.6131): the ruleset lists its Locations.

        DESIGN §13: the referee's is recorded at once (``ControlRecorded``); a
        side's is a proposal (``ControlProposed``, the same fields), which
        changes nothing until the opponent or the referee approves it. Either
        may be disputed like any event."""
        self._require_role(ctx)
        change = self.control_change(ctx.actor, map_group, locations, blocks=blocks, rule=rule)
        payload = {"by": ctx.actor, "cg_date": self.cg_date, **change}
        kind = "ControlRecorded" if ctx.actor == REFEREE else "ControlProposed"
        return self.append(ctx, kind, payload, {}, owner=None)

    @approves(CONTROL)
    def approve_control(self, ctx: Ctx, seq: int) -> int:
        """The opponent of the proposing side, or the referee, puts a Control
        proposal in force: one ``ControlRecorded`` naming the proposal (``by``
        its proposer, ``approved_by`` the approver), as the proposal showed it
        (``_as_proposed``)."""
        proposal = self.pending_proposal(ctx, CONTROL, seq)
        self.check_approver(ctx, CONTROL, proposal)
        change = self._as_proposed(proposal["by"], seq)
        payload = {
            "by": proposal["by"],
            "cg_date": self.cg_date,
            **change,
            "proposal": seq,
            "approved_by": ctx.actor,
        }
        return self.append(ctx, "ControlRecorded", payload, {}, owner=None)

    def _as_proposed(self, by: str, seq: int) -> dict[str, Any]:
        """The change Control proposal ``seq`` makes now, checked again
        against the CG definition and the Control since: never other than the
        approver was shown (the Blocks it switches, 8.6131's Locations)."""
        shown = {k: v for k, v in self.record(seq)["payload"].items() if k in CHANGE}
        rule = shown.get("rule")
        switched = self.ruleset.rules.setup_area_step
        stated = [b for b in shown.get("blocks") or () if b["rule"] != switched]
        try:
            now = self.control_change(
                by,
                shown["map_group"],
                [] if rule is not None else [dict(loc) for loc in shown["locations"]],
                blocks=stated,
                rule=rule,
            )
        except (InvalidInput, RuleViolation) as exc:
            raise RuleViolation(
                f"Control proposal {seq} no longer holds ({exc.detail}); reject it and propose "
                "again"
            ) from None
        differ = [k for k in CHANGE if now.get(k) != shown.get(k)]
        if differ:
            raise RuleViolation(
                f"the Control changed since Control proposal {seq}: approved now, its "
                f"{' and '.join(differ)} would differ from what was proposed; reject it and "
                "propose again"
            )
        return now

    def control_change(
        self,
        actor: str,
        map_group: str,
        locations: list[dict[str, Any]],
        *,
        blocks: list[dict[str, Any]] | None = None,
        rule: str | None = None,
        where: str = "",
        book: dict[str, dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """A Control change checked against the CG definition (422 naming the
        field under ``where``), with what it switches by the ruleset's rules
        (Blocks, 9.605) over ``book`` (default: the Control recorded)."""
        data = self.map_group_data(map_group, field=f"{where}map_group")
        rules = self.ruleset.rules
        before = ControlState.of(data, (self.control if book is None else book).get(data.id, {}))
        into_setup_areas = False
        if rule is not None:
            if locations:
                raise InvalidInput(
                    f"{rule} names its Locations itself; send no locations with it",
                    field=f"{where}locations",
                )
            locations, into_setup_areas = rules.control_rule(rule, data, before, actor)
        elif not locations and not blocks:
            raise InvalidInput(
                "name at least one Location or Block (or a rule)", field=f"{where}locations"
            )
        seen: set[tuple[str, int]] = set()
        for i, loc in enumerate(locations):
            self._check_location(data, loc, f"{where}locations[{i}]", seen)
        stated = self._check_blocks(data, blocks or [], where)
        after = before.copy()
        for loc in locations:
            after.sides[(loc["hex"], loc["level"])] = loc["side"]
        switched = rules.control_effects(data, before, after)
        change: dict[str, Any] = {
            "map_group": map_group,
            "locations": [
                {k: loc[k] for k in ("hex", "level", "side", "marker", "blazing") if k in loc}
                for loc in locations
            ],
        }
        blocks_changed = [*stated]
        for block, side in sorted(switched.items()):
            if block not in {b["block"] for b in stated}:
                step = rules.setup_area_step or ""
                blocks_changed.append({"block": block, "side": side, "rule": step})
        if blocks_changed:
            change["blocks"] = blocks_changed
        if rule is not None:
            change["rule"] = rule
            change["into_setup_areas"] = into_setup_areas
        return change

    def _check_location(
        self, data: MapGroupData, loc: dict[str, Any], where: str, seen: set[tuple[str, int]]
    ) -> None:
        i = data.grid.index.get(loc["hex"])
        if i is None:
            raise InvalidInput(
                f"{loc['hex']!r} is not a hex of map group {data.id!r}", field=f"{where}.hex"
            )
        if loc["level"] not in data.levels[i]:
            raise InvalidInput(
                f"{loc['hex']} has no level {loc['level']} (its levels: {list(data.levels[i])})",
                field=f"{where}.level",
            )
        if loc["side"] is not None and loc["side"] not in self.sides:
            raise InvalidInput(
                f"{loc['side']!r} is not a side of this campaign ({', '.join(self.sides)}) "
                "nor null (uncontrolled)",
                field=f"{where}.side",
            )
        if (loc["hex"], loc["level"]) in seen:
            raise InvalidInput(
                f"{loc['hex']} level {loc['level']} is listed twice", field=f"{where}.hex"
            )
        seen.add((loc["hex"], loc["level"]))

    def _check_blocks(
        self, data: MapGroupData, blocks: list[dict[str, Any]], where: str = ""
    ) -> list[dict[str, Any]]:
        """Blocks whose Control the players record (9.6051 BLOCK CONTROL
        FORFEITURE switches a Block by its occupants, which the ledger does not
        see)."""
        known = sorted({b for b in data.block if b is not None})
        out: list[dict[str, Any]] = []
        for i, item in enumerate(blocks):
            where_i = f"{where}blocks[{i}]"
            if not known:
                raise InvalidInput(f"map group {data.id!r} has no Blocks", field=f"{where_i}.block")
            if item["block"] not in known:
                raise InvalidInput(
                    f"no Block {item['block']!r} in map group {data.id!r} (its Blocks: "
                    f"{', '.join(known)})",
                    field=f"{where_i}.block",
                )
            if item["side"] is not None and item["side"] not in self.sides:
                raise InvalidInput(
                    f"{item['side']!r} is not a side of this campaign ({', '.join(self.sides)})",
                    field=f"{where_i}.side",
                )
            if item["block"] in {b["block"] for b in out}:
                raise InvalidInput(
                    f"Block {item['block']} is listed twice", field=f"{where_i}.block"
                )
            out.append({"block": item["block"], "side": item["side"], "rule": item["rule"]})
        return out

    def setup_areas_view(self, map_group: str | None) -> dict[str, Any]:
        """``GET /setup-areas`` (DESIGN §9): each hex's status and each side's
        Setup Areas on a map group, by the ruleset's rules, from the current
        Control until a side completes the Setup Area step, then as determined
        (``frozen``) until the next scenario is in play."""
        rules = self.ruleset.rules
        if rules.setup_area_step is None:
            raise NotFound(f"{self.ruleset.id} has no Setup Areas")
        groups = [g["id"] for g in self.definition_doc().get("map_groups") or ()]
        if map_group is None:
            if len(groups) != 1:
                raise InvalidInput(
                    f"name the map group (one of: {', '.join(groups) or 'none'})",
                    field="map_group",
                )
            map_group = groups[0]
        data = self.map_group_data(map_group)
        frozen = self.setup_frozen
        control = self.control_state(data, frozen=True)
        answer = rules.setup_areas(data, control, self.sides, self.cg_date)
        return {
            "map_group": data.id,
            "title": data.title,
            "cg_date": self.cg_date,
            "step": rules.setup_area_step,
            "frozen": frozen is not None,
            "frozen_at": None if frozen is None else frozen["seq"],
            **answer,
            "version": self.version,
        }

    # ------------------------------------------------------------------ apply

    @reads("map_group", "locations", "blocks", "into_setup_areas")
    def _on_control(self, e: Applied) -> None:
        """Control recorded (DESIGN §9): each Location's side, marker (a
        Location made Strategic, MARKING THE MAP) and Blazing, and the Blocks
        it switched. A rule that also enters the Setup Areas already determined
        (8.6131) changes the frozen Control too."""
        self._book(e.seq, e.values)

    @reads("control")
    def _on_scenario_ended(self, e: Applied) -> None:
        """The last Control changes sent with a CG-Scenario End (DESIGN §8)."""
        for change in e.values.get("control") or ():
            self._book(e.seq, change)

    def _book(self, seq: int, values: dict[str, Any]) -> None:
        gid = values["map_group"]
        if "into_setup_areas" in values:
            # A rule gave the whole map group at once: its side left it (8.6131).
            self.vacated[gid] = seq
        book_control(self.control, seq, values)
        if values.get("into_setup_areas") and self.setup_frozen is not None:
            book_control(self.setup_frozen["control"], seq, values)

    @reads()
    def _freeze_setup_areas(self, e: Applied) -> None:
        """MARKING THE MAP (8.605), 9.6055: "once all Setup Areas have been
        correctly marked they remain thus until the start of the next CG
        scenario". They are determined from the Control at the moment the first
        side completes the Setup Area step after a CG-Scenario End, and thaw
        when the next scenario is in play."""
        seq = e.seq
        step = self.ruleset.rules.setup_area_step
        if step is None:
            return
        at = {side: self.steps.get(side) for side in self.sides}
        if all(s == SCENARIO for s in at.values()):
            self.setup_frozen = None
            self.vacated = {}
            return
        if self.setup_frozen is not None or not self.scenario_ends:
            return
        order = self.ruleset.step_order
        for side in self.sides:
            now = at[side]
            if now is not None and (now == SCENARIO or order(now) > order(step)):
                self.setup_frozen = {
                    "seq": seq,
                    "side": side,
                    "control": copy.deepcopy(self.control),
                }
                return


def book_control(control: dict[str, dict[str, Any]], seq: int, values: dict[str, Any]) -> None:
    """Enter one Control change (``{"map_group", "locations", "blocks"?}``) in
    a book of Control by map group: each Location's side, its marker (a
    Location made Strategic, MARKING THE MAP) and Blazing where sent, and the
    Blocks it switched."""
    book = control.setdefault(values["map_group"], {})
    for loc in values["locations"]:
        key = f"{loc['hex']}/{loc['level']}"
        entry = {**book.get(key, {}), "side": loc["side"], "seq": seq}
        for name in ("marker", "blazing"):
            if name in loc:
                if loc[name]:
                    entry[name] = loc[name]
                else:
                    entry.pop(name, None)
        book[key] = entry
    for block in values.get("blocks") or ():
        book[f"{BLOCK_KEY}{block['block']}"] = {
            "side": block["side"],
            "seq": seq,
            "rule": block["rule"],
        }
