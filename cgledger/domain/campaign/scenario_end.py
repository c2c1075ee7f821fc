"""CG-Scenario End (DESIGN §8; 8.603, 9.603, 2.9) and the LVP
(8.6032-8.6033, 8.6234, 9.6212): while the scenario is in play both sides
send the same body (the agreement protocol's joint form) or the referee
calls it; it records each side's CVP, the last Control changes and the LVP.

Slice: ``scenario_ends`` (each CG-Scenario End's CVP, by CG Date) and
``lvp_rows`` (its LVP, by CG Date).
"""

from __future__ import annotations

import copy
from typing import Any

from cgledger.domain.campaign.agreement import SCENARIO_END, Agreement, approves
from cgledger.domain.campaign.core import Applied, reads
from cgledger.domain.campaign.sequence import Sequence
from cgledger.domain.campaign.territory import Territory, book_control
from cgledger.domain.context import Ctx
from cgledger.domain.errors import InvalidInput, RuleViolation
from cgledger.domain.rulesets.base import IDLE, SCENARIO
from cgledger.domain.territory import ControlState
from cgledger.domain.visibility import REFEREE


class ScenarioEnd(Territory, Sequence, Agreement):
    def end_scenario(self, ctx: Ctx, body: dict[str, Any]) -> int:
        """CG-Scenario End (DESIGN §8; 8.603, 9.603, 2.9): while the
        scenario is in play (every side has completed its steps), both sides send
        the same body or the referee calls it. It records each side's CVP earned
        (and the ruleset's ``scenario_end_fields``, e.g. 2.91's VP), moves every
        side to the first step of the next RePh, and the sequence then waits for
        the New CG Date."""
        self._require_role(ctx)
        rs = self.ruleset
        for side in self.sides:
            at = self.current_step(side)
            if at != SCENARIO:
                raise RuleViolation(
                    f"{at}: {side} has not completed its RePh steps (it is at {at}, "
                    f"{rs.step(at).title}); the CG scenario is not in play",
                    rule=at,
                )
        cvp = body.get("cvp") or {}
        if set(cvp) != set(self.sides):
            raise InvalidInput(
                f"cvp names each side's CVP earned: {', '.join(self.sides)}", field="cvp"
            )
        extra = {
            k for k, v in body.items() if k not in ("cvp", "winner", "control") and v is not None
        }
        needed = rs.rules.scenario_end_fields
        if extra - needed:
            field = sorted(extra - needed)[0]
            raise InvalidInput(f"{rs.id} records no {field!r} at scenario end", field=field)
        if needed - extra:
            field = sorted(needed - extra)[0]
            raise InvalidInput(f"{rs.id} records {field!r} at scenario end", field=field)
        sent = {"cvp": dict(cvp), **{k: body[k] for k in sorted(extra)}}
        stated = body.get("winner")
        if stated is not None:
            if stated not in self.sides:
                raise InvalidInput(
                    f"{stated!r} is not a side of this campaign ({', '.join(self.sides)})",
                    field="winner",
                )
            if rs.rules.no_scenario_winner is not None:
                raise RuleViolation(
                    rs.rules.no_scenario_winner, rule=rs.rules.no_scenario_winner.split(":")[0]
                )
            sent["winner"] = stated
        book, changes = self._last_control(ctx.actor, body.get("control") or [])
        if changes:
            sent["control"] = body["control"]
        rule = f"{rs.id}:{rs.reph_steps[0].id}"
        # What the scenario end records, computed now so that a body the rules
        # refuse (a stated winner they contradict) is refused to the first
        # side too, not only when the second side agrees.
        scenario = self.scenario_of(self.cg_date) or ("initial" if self.is_initial_date() else None)
        lvp = self._scenario_lvp(scenario, stated, ctx.actor, book)
        recorded = dict(sent)
        if changes:
            recorded["control"] = changes
        if lvp is not None:
            recorded["lvp"] = lvp
        extras = rs.rules.scenario_end(self.engine, recorded)
        proposal = self.scenario_end_proposal
        first = rs.reph_steps[0].id
        waiting = self.joint(
            ctx.actor,
            [] if proposal is None else [proposal["side"]],
            refuse=f"{first}: {ctx.actor} sent the scenario end already; "
            "waiting for the other side (or the referee)",
            rule=first,
        )
        if waiting:
            proposed = {"by": ctx.actor, "cg_date": self.cg_date, "rule": rule, "body": sent}
            return self.append(ctx, "ScenarioEndProposed", proposed, {}, owner=None)
        if proposal is not None and ctx.actor != REFEREE and proposal["body"] != sent:
            # Nothing of either body is recorded, its Control least of all
            # (DESIGN §13): the detail shows where the two differ.
            theirs, mine = differing(proposal["body"], sent)
            raise RuleViolation(
                f"{first}: {proposal['side']} sent {theirs}, "
                f"{ctx.actor} sends {mine}: both must send the same scenario end",
                rule=first,
            )
        # The proposal it applies (DESIGN §13): the pending one, unless the
        # referee records a different scenario end (which rejects it).
        applies = None if proposal is None or proposal["body"] != sent else proposal["seq"]
        payload = {
            "by": ctx.actor,
            "cg_date": self.cg_date,
            "rule": rule,
            "scenario": scenario,
            **recorded,
            **extras,
            "proposal": applies,
        }
        return self.append(ctx, "ScenarioEnded", payload, {}, owner=None)

    @approves(SCENARIO_END)
    def approve_scenario_end(self, ctx: Ctx, seq: int) -> int:
        """The opponent (or the referee) approves a side's CG-Scenario End:
        the same as sending the same body (DESIGN §8, §13)."""
        proposal = self.pending_proposal(ctx, SCENARIO_END, seq)
        self.check_approver(ctx, SCENARIO_END, proposal)
        return self.end_scenario(ctx, copy.deepcopy(proposal["body"]))

    def _last_control(
        self, actor: str, items: list[dict[str, Any]]
    ) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
        """DESIGN §8: the last Control changes sent with a scenario end, each
        checked as ``POST /control`` checks it (422 naming ``control[i]...``),
        and the Control they give, in which the LVP is counted."""
        if not items:
            return self.control, []
        book = copy.deepcopy(self.control)
        changes = []
        for i, item in enumerate(items):
            change = self.control_change(
                actor,
                item["map_group"],
                item["locations"],
                blocks=item.get("blocks"),
                where=f"control[{i}].",
                book=book,
            )
            book_control(book, 0, change)
            changes.append(change)
        return book, changes

    def current_lvp(self, book: dict[str, dict[str, Any]] | None = None) -> dict[str, int] | None:
        """8.6032: each side's Current-LVP Total, the LVP of the Locations it
        Controls now, over every map group; ``None`` where the CG definition
        has no map group. A hex's LVP goes with Control of its ground Location
        (level 0, or its lowest level: the reading taken, DESIGN §9 stores LVP
        per hex)."""
        groups = self.definition_doc().get("map_groups") or ()
        has_lvp = any(h.get("lvp") for g in groups for h in g["hexes"])
        if not groups or (not has_lvp and self.ruleset.rules.setup_area_step is None):
            return None  # no LVP to count, nor Control that decides a winner (SG: VP)
        return self._lvp_totals(self.control if book is None else book)

    def _lvp_totals(self, book: dict[str, dict[str, Any]]) -> dict[str, int]:
        """Each side's LVP from Control: the definition's ``initial_control``
        and the Control in ``book`` (recorded since; ``{}``: none), read over
        each map group's index (``MapGroupData``: LVP and ground level by hex)."""
        totals = dict.fromkeys(self.sides, 0)
        for group in self.definition_doc().get("map_groups") or ():
            data = self.map_group_data(group["id"])
            since = book.get(data.id, {})
            for i, hx in enumerate(data.grid.ids):
                if not data.lvp[i]:
                    continue
                entry = since.get(f"{hx}/{data.ground(i)}")
                side = entry["side"] if entry is not None else data.initial_control.get(hx)
                if side in totals:
                    totals[side] += data.lvp[i]
        return totals

    def _scenario_lvp(
        self,
        scenario: str | None,
        stated: str | None = None,
        by: str = "",
        book: dict[str, dict[str, Any]] | None = None,
    ) -> dict[str, Any] | None:
        """What CG-Scenario End records of LVP: the Current-LVP Totals at the
        scenario's start (the last scenario end's, or from ``initial_control``)
        and now, the new CG-LVP Totals (8.6033: "adding its Current-LVP Total to
        its preceding CG Date's CG-LVP Total") and the winner the ruleset's
        victory rules give (8.6234, 9.6212), with the rule that decided. Where
        the rules cannot decide, the winner the sides sent (``stated``) is
        recorded as theirs; where they decide, a different one is refused."""
        book = self.control if book is None else book
        current = self.current_lvp(book)
        if current is None:
            return None
        start, before = self._preceding_lvp()
        territory = []
        for group in self.definition_doc().get("map_groups") or ():
            data = self.map_group_data(group["id"])
            territory.append((data, ControlState.of(data, book.get(data.id, {}))))
        rules = self.ruleset.rules
        winner, rule = rules.scenario_winner(
            scenario or "", start, current, territory, self.definition_doc()
        )
        if stated is not None and winner is not None and stated != winner:
            raise RuleViolation(
                f"{rule.split(':')[0]}: the rules name {winner} the winner, not {stated}",
                rule=rule.split(":")[0],
            )
        if stated is not None and winner is None:
            who = "the referee" if by == REFEREE else "both sides"
            winner, rule = stated, f"{rule}; the winner stated by {who}"
        return {
            "start_lvp": start,
            "current_lvp": current,
            "cg_lvp": {side: before.get(side, 0) + current[side] for side in self.sides},
            "winner": winner,
            "rule": rule,
        }

    def _preceding_lvp(self) -> tuple[dict[str, int], dict[str, int]]:
        """The Current-LVP and CG-LVP Totals of the preceding CG Date that
        calculated them (a CG-Scenario End, or an Idle date whose ruleset
        calculates its totals: ``Initiative.idle_lvp_rule``),
        or the totals of ``initial_control`` and none before the first."""
        last = list(self.lvp_rows.values())[-1] if self.lvp_rows else None
        if last is not None:
            return dict(last["current_lvp"]), dict(last["cg_lvp"])
        return self._lvp_totals({}), dict.fromkeys(self.sides, 0)

    def idle_lvp(self) -> dict[str, Any] | None:
        """An Idle date's LVP row where the ruleset's Idle date calculates the
        totals (``Initiative.idle_lvp_rule`` names the rule): Current-LVP from
        Control now, CG-LVP as at a CG-Scenario End, the Current-LVP added to
        the preceding CG Date's CG-LVP; ``None`` where the ruleset's Idle date
        calculates none (no ``idle_lvp_rule``) or nothing counts LVP."""
        ini = self.ruleset.initiative
        current = self.current_lvp()
        if ini is None or ini.idle_lvp_rule is None or current is None:
            return None
        start, before = self._preceding_lvp()
        return {
            "start_lvp": start,
            "current_lvp": current,
            "cg_lvp": {side: before.get(side, 0) + current[side] for side in self.sides},
            "winner": None,
            "rule": f"{ini.idle_lvp_rule}: an Idle date generates no scenario",
        }

    # ------------------------------------------------------------------ apply

    @reads("cg_date", "scenario", "lvp")
    def _on_idle_date(self, e: Applied) -> None:
        """An Idle date's LVP row (8.6232 note 2) as its InitiativeDetermined
        records it. One recorded before the ledger kept the row (no ``lvp``)
        gets the row the rule gives from the last one (``unrecorded_idle_row``)."""
        v = e.values
        ini = self.ruleset.initiative
        if v["scenario"] != IDLE or ini is None or ini.idle_lvp_rule is None:
            return
        if "lvp" in v:
            row = v["lvp"]
        elif self.lvp_rows:
            last = list(self.lvp_rows.values())[-1]
            row = unrecorded_idle_row(last, self.sides, ini.idle_lvp_rule)
        else:
            row = None
        if row is not None:
            self.lvp_rows[v["cg_date"]] = dict(row)

    @reads("cg_date", "cvp", "lvp")
    def _on_scenario_ended(self, e: Applied) -> None:
        v = e.values
        self.scenario_ends[v["cg_date"]] = dict(v.get("cvp") or {})
        if v.get("lvp") is not None:
            self.lvp_rows[v["cg_date"]] = dict(v["lvp"])


def unrecorded_idle_row(last: dict[str, Any], sides: list[str], rule: str) -> dict[str, Any]:
    """The row of an Idle date whose event records none (written before the
    ledger kept it): 8.6232 note 2's totals with the Current-LVP of the last
    row (that release read Control only at CG-Scenario End, and its Idle row
    showed that Current-LVP), CG-LVP by 8.6033 (the Current-LVP plus the
    preceding CG Date's CG-LVP). ``cgledger verify`` counts it the same way
    (``projections.lvp``)."""
    current = dict(last["current_lvp"])
    return {
        "start_lvp": dict(last["current_lvp"]),
        "current_lvp": current,
        "cg_lvp": {s: last["cg_lvp"].get(s, 0) + current.get(s, 0) for s in sides},
        "winner": None,
        "rule": f"{rule}: an Idle date generates no scenario",
    }


#: How many Locations a refusal names where two bodies' Control differs.
SHOWN = 10


def differing(
    first: dict[str, Any], second: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two scenario-end bodies where they differ (DESIGN §8: the 409 shows the
    difference): the fields that differ and, of ``control``, the Locations and
    Blocks that one sends otherwise than the other (``"not sent"``: the other
    sends it), keyed ``"<map group> <hex>/<level>"``, the first ``SHOWN``."""
    a: dict[str, Any] = {}
    b: dict[str, Any] = {}
    for key in sorted(set(first) | set(second)):
        x, y = first.get(key), second.get(key)
        if x == y:
            continue
        if key == "control":
            mine, other = _by_location(x or []), _by_location(y or [])
            names = sorted(n for n in set(mine) | set(other) if mine.get(n) != other.get(n))
            if names:  # else the same Control in another order: shown as sent
                x = {n: mine.get(n, "not sent") for n in names[:SHOWN]}
                y = {n: other.get(n, "not sent") for n in names[:SHOWN]}
                if len(names) > SHOWN:
                    x["..."] = y["..."] = f"{len(names) - SHOWN} more"
        a[key], b[key] = x, y
    return a, b


def _by_location(changes: list[dict[str, Any]]) -> dict[str, Any]:
    """The Control changes of a body by Location (and Block), as sent."""
    out: dict[str, Any] = {}
    for change in changes:
        group = change["map_group"]
        for loc in change.get("locations") or ():
            what = {k: v for k, v in loc.items() if k not in ("hex", "level")}
            out[f"{group} {loc['hex']}/{loc['level']}"] = what
        for block in change.get("blocks") or ():
            out[f"{group} Block {block['block']}"] = {"side": block["side"]}
    return out
