"""The Fortifications of a CPP roster (docs/DESIGN.md §10): bought with the
FPP its RG grant (8.621), their setup Locations recorded in secret (8.6242),
and the hidden ones placed on-map in the opponent's Setup Area (8.6073).

State, kept in the ruleset's state (JSON, snapshotted): each CPP line's
``fort_halves`` (FPP spent), ``forts`` (``{type: count}`` bought) and
``fort_seqs``; ``placed``: ``{side: [{"seq", "map_group", "items",
"revealed": [i]}]}``; ``forts_shown``: what was placed on-map, by side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from cgledger.domain import purchases as book
from cgledger.domain.context import Ctx
from cgledger.domain.errors import InvalidInput, RuleViolation
from cgledger.domain.rulesets.base import Engine
from cgledger.domain.rulesets.cpp.bodies import (
    FortificationPurchaseCreate,
    FortificationSetupCreate,
    FortLocation,
    HiddenFortificationCreate,
)
from cgledger.domain.rulesets.sequence import IDLE
from cgledger.domain.visibility import REFEREE

#: 8.6073: "Each such minefield is marked ... to reveal its presence but not its strength/type".
MINEFIELD = "minefield"


#: The values of a setup record that sets nothing up (8.6242): what a side that
#: completes the step without one gets sealed, and what an empty request records.
NOTHING_PLACED: Mapping[str, Any] = MappingProxyType(
    {"map_group": None, "items": [], "retained": {}}
)


class Fortifying:
    """The Fortification commands of a CPP roster; ``Purchasing`` includes them."""

    purchases: book.PurchaseRules
    ruleset_id: str

    @staticmethod
    def apply_fortification(
        state: dict[str, Any],
        kind: str,
        seq: int,
        values: dict[str, Any],
        line: dict[str, Any],
        table: book.FortTable | None,
    ) -> bool:
        """Apply a Fortification event (``line``: the side's current CPP line;
        ``table``: the Fortification Purchase Table); ``False`` if ``kind`` is
        not one."""
        side = values.get("side")
        if kind == "FortificationsPurchased":
            line["fort_halves"] = line.get("fort_halves", 0) + values["cost_halves"]
            forts = line.setdefault("forts", {})
            for item in values["items"]:
                forts[item["type"]] = forts.get(item["type"], 0) + item["count"]
            line.setdefault("fort_seqs", []).append(seq)
            return True
        if kind == "FortificationsPlaced":
            # One entry per map group the record sets up in (``more``: the others).
            for part in [values, *values.get("more", ())]:
                state.setdefault("placed", {}).setdefault(side, []).append(
                    {
                        "seq": seq,
                        "map_group": part["map_group"],
                        "cg_date": values["cg_date"],
                        "items": part["items"],
                        "revealed": [],
                    }
                )
            return True
        if kind == "FortificationsRevealed":
            for entry in values["revealed"]:
                side_of = entry["side"]
                shown = {"map_group": values["map_group"], **entry}
                state.setdefault("forts_shown", {}).setdefault(side_of, []).append(shown)
                for placed in state["placed"][side_of]:
                    if placed["map_group"] != values["map_group"]:
                        continue
                    for i, item in enumerate(placed["items"]):
                        ft = None if table is None else table.get(item["type"])
                        what = MINEFIELD if ft is not None and ft.mine else item["type"]
                        at = (item["hex"], item["level"], what)
                        if at == (entry["hex"], entry["level"], entry["type"]):
                            placed["revealed"].append(i)
            return True
        return False

    # -------------------------------------------------------------- 8.621

    def fortify(self, engine: Engine, ctx: Ctx, body: FortificationPurchaseCreate) -> int:
        rules = self.purchases
        assert rules.fortify is not None
        assert rules.fort_table is not None
        side = engine.require_side(ctx, body.side)
        if not body.items and not body.secret:
            raise InvalidInput(
                "name at least one Fortification (or make the purchase secret)", field="items"
            )
        items = [(i.type, i.count) for i in body.items]
        cost = book.fort_cost_halves(rules.fort_table, side, items)
        # Refusals first: the side passes the steps between (their empty
        # sealed records) only once nothing below can refuse.
        engine.check_step_order(side, rules.fortify, ruling=ctx.actor == REFEREE)
        line = _current_line(engine, side)
        held = line.get("fpp_halves", 0) - line.get("fort_halves", 0)
        if cost > held:
            raise RuleViolation(
                f"{rules.fortify}: these Fortifications cost {book.fpp(cost)} FPP but {side} "
                f"holds {book.fpp(held)} FPP on {engine.cg_date} (FPP are bought in "
                f"{rules.buy})",
                rule=rules.fortify,
            )
        values = {
            "items": [{"type": t, "count": n} for t, n in items],
            "cost_halves": cost,
            "fpp_spent": book.fpp(cost),
        }
        payload = engine.rule_payload(side, rules.fortify)
        engine.check_step_order(side, rules.fortify, ruling=ctx.actor == REFEREE, ctx=ctx)
        return engine.append(
            ctx, "FortificationsPurchased", payload, values, owner=side if body.secret else None
        )

    # -------------------------------------------------------------- 8.6242

    def set_up(self, engine: Engine, ctx: Ctx, body: FortificationSetupCreate) -> int:
        """8.6242: record the setup Locations of new Fortifications, in the
        side's Setup Areas, within what it bought and by the table's
        footnotes (i: only some may go to an Isolated Location; S: within the
        squad-equivalents Retained in the Setup Area).

        One request holds every map group's Locations (``more``) and may hold
        none: the step's one sealed record then tells the opponent neither in
        how many map groups the side set up nor whether it did (DESIGN §4)."""
        rules = self.purchases
        assert rules.place is not None
        side = engine.require_side(ctx, body.side)
        first = engine.setup_areas_view(body.map_group)
        named = [first["map_group"]]
        for i, more in enumerate(body.more):
            if more.map_group in named:
                raise InvalidInput(
                    f"map group {more.map_group} is named twice", field=f"more.{i}.map_group"
                )
            named.append(more.map_group)
        # Refusals first: the side passes the steps between (their empty
        # sealed records) only once nothing below can refuse.
        engine.check_step_order(side, rules.place, ruling=ctx.actor == REFEREE)
        # 8.6242, 9.6214: setup follows the Initiative that generated a CG Scenario
        # (ABtF's 9.621 holds both), so an Idle date never holds a setup record.
        scenario = engine.facts(side).scenario
        if not engine.is_initial_date() and scenario in (None, IDLE):
            raise RuleViolation(
                f"{rules.place}: Fortifications are set up for a CG Scenario, once the "
                f"Initiative of {engine.cg_date} has generated one "
                f"({'not determined yet' if scenario is None else 'this CG Date is Idle'})",
                rule=rules.place,
            )
        groups = [(first, body.items, body.retained, "")]
        groups += [
            (engine.setup_areas_view(g.map_group), g.items, g.retained, f"more.{i}.")
            for i, g in enumerate(body.more)
        ]
        placed = _placed(engine, side)
        written: list[dict[str, Any]] = []
        for view, items, retained, at in groups:
            written.append(self._setup_group(engine, side, view, items, retained, placed, at))
        if not body.items and not body.more:
            # Nothing set up: the same values as the record the step seals for a
            # side that completes it without one.
            written = [dict(NOTHING_PLACED)]
        values = {**written[0], **({"more": written[1:]} if written[1:] else {})}
        payload = {**engine.rule_payload(side, rules.place)}
        engine.check_step_order(side, rules.place, ruling=ctx.actor == REFEREE, ctx=ctx)
        return engine.append(ctx, "FortificationsPlaced", payload, values, owner=side)

    def _setup_group(
        self,
        engine: Engine,
        side: str,
        view: Mapping[str, Any],
        items: Sequence[FortLocation],
        retained: Mapping[str, int],
        placed: dict[str, int],
        at: str,
    ) -> dict[str, Any]:
        """The checked setup Locations of one map group (``placed`` counts what
        the side has set up so far, this request included)."""
        rules = self.purchases
        table = rules.fort_table
        assert table is not None
        assert rules.place is not None
        group = view["map_group"]
        areas = [a for a in view["areas"] if a["side"] == side]
        area_of = {hx: a for a in areas for hx in a["hexes"]}
        known = {h["hex"]: h for h in view["hexes"]}
        bought = _bought(engine, side)
        per_area: dict[str, int] = _placed_per_area(engine, side, area_of, table)
        rule = rules.fortify or rules.place
        # Footnote i: only where the table marks items 'i' is an Isolated Location limited.
        isolating = "i" in "".join(t.flags for t in table.types)
        for i, item in enumerate(items):
            ft = table.get(item.type)
            if ft is None:
                raise InvalidInput(
                    f"{rule}: no Fortification type {item.type!r}", field=f"{at}items.{i}.type"
                )
            if item.hex not in known:
                raise InvalidInput(
                    f"{item.hex!r} is not a hex of map group {group}", field=f"{at}items.{i}.hex"
                )
            placed[item.type] = placed.get(item.type, 0) + item.count
            if placed[item.type] > bought.get(item.type, 0):
                raise RuleViolation(
                    f"{rule}: {side} bought {bought.get(item.type, 0)} {ft.name} and would set "
                    f"up {placed[item.type]}",
                    rule=rule,
                )
            area = area_of.get(item.hex)
            if area is None:
                raise RuleViolation(
                    f"{rule}: a Fortification must be added to a Setup Area of {side}; "
                    f"{item.hex} is not in one",
                    rule=rule,
                )
            if isolating and area["isolated"] and "i" not in ft.flags:
                raise RuleViolation(
                    f"{rule}: only items marked 'i' may be added to an Isolated Location; "
                    f"{ft.name} is not, and {item.hex} is in Isolated Setup Area "
                    f"{area['id']}",
                    rule=rule,
                )
            if "S" in ft.flags:
                held = retained.get(area["id"], 0)
                if held < 1:
                    raise RuleViolation(
                        f"{rule}: {ft.name} may be added only to a Setup Area that contains ≥ "
                        f"one Retained squad-equivalent; state them for area {area['id']} "
                        "(retained)",
                        rule=rule,
                    )
                per_area[area["id"]] = per_area.get(area["id"], 0) + (
                    book.fortifications_counted(table, item.type, item.count)
                )
                if per_area[area["id"]] > held:
                    raise RuleViolation(
                        f"{rule}: the Fortifications added to Setup Area {area['id']} this "
                        f"RePh ({per_area[area['id']]}) would exceed the {held} "
                        "squad-equivalents Retained within it",
                        rule=rule,
                    )
        return {
            "map_group": group,
            "items": [
                {
                    "type": i.type,
                    "hex": i.hex,
                    "level": i.level,
                    "count": i.count,
                    "area": area_of[i.hex]["id"],
                }
                for i in items
            ],
            "retained": dict(retained),
        }

    # -------------------------------------------------------------- 8.6073

    def reveal_hidden(self, engine: Engine, ctx: Ctx, body: HiddenFortificationCreate) -> int:
        """8.6073: "Each still-hidden Fortification within a Setup Area of the
        purchaser's opponent is placed on-map. Each such minefield is marked
        ... to reveal its presence but not its strength/type." Anyone may ask;
        the ledger looks at every side's hidden Locations."""
        rules = self.purchases
        assert rules.hidden is not None
        view = engine.setup_areas_view(body.map_group)
        group = view["map_group"]
        if not view["frozen"]:
            raise RuleViolation(
                f"{rules.hidden}: hidden Fortifications are placed on-map once the Setup Areas "
                f"are determined after a CG-Scenario End ({view['step']})",
                rule=rules.hidden,
            )
        if ctx.actor != REFEREE and rules.hidden_step is not None:
            # Made in RePh step 8.607 by a side that has not passed it.
            engine.check_step_order(ctx.actor, rules.hidden_step)
        table = rules.fort_table
        assert table is not None
        # One entry per Location and type, summed, with nothing that tells which
        # placement or how many items it held; a Location's mines are one
        # "minefield", whatever their types and factors.
        found: dict[tuple[str, str, int, str], int] = {}
        for side, placements in engine.rules.get("placed", {}).items():
            enemy = {hx for a in view["areas"] if a["side"] != side for hx in a["hexes"]}
            for placed in placements:
                if placed["map_group"] != group:
                    continue
                for i, item in enumerate(placed["items"]):
                    if i in placed["revealed"] or item["hex"] not in enemy:
                        continue
                    ft = table.get(item["type"])
                    kind = MINEFIELD if ft is not None and ft.mine else item["type"]
                    key = (side, item["hex"], item["level"], kind)
                    found[key] = found.get(key, 0) + item["count"]
        out = []
        for (side, hx, level, kind), count in sorted(found.items()):
            entry: dict[str, Any] = {"side": side, "hex": hx, "level": level, "type": kind}
            if kind != MINEFIELD:
                entry["count"] = count
            out.append(entry)
        payload = {
            "by": ctx.actor,  # asked for by anyone; moves no side
            "cg_date": engine.cg_date,
            "rule": f"{self.ruleset_id}:{rules.hidden}",
            "map_group": group,
            "revealed": out,
        }
        return engine.append(ctx, "FortificationsRevealed", payload, {}, owner=None)


# ---------------------------------------------------------------- helpers


def _current_line(engine: Engine, side: str) -> dict[str, Any]:
    lines: list[dict[str, Any]] = engine.rules["cpp"][side]
    return lines[-1]


def _bought(engine: Engine, side: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for line in engine.rules["cpp"][side]:
        for kind, n in (line.get("forts") or {}).items():
            out[kind] = out.get(kind, 0) + n
    return out


def _placed(engine: Engine, side: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for placed in engine.rules.get("placed", {}).get(side, []):
        for item in placed["items"]:
            out[item["type"]] = out.get(item["type"], 0) + item["count"]
    return out


def _placed_per_area(
    engine: Engine, side: str, area_of: Mapping[str, Any], table: book.FortTable
) -> dict[str, int]:
    """Footnote S counts the Fortifications added to each Setup Area "during
    a RePh": those placed on the current CG Date."""
    out: dict[str, int] = {}
    for placed in engine.rules.get("placed", {}).get(side, []):
        if placed["cg_date"] != engine.cg_date:
            continue
        for item in placed["items"]:
            ft = table.get(item["type"])
            if ft is None or "S" not in ft.flags or item["area"] is None:
                continue
            out[item["area"]] = out.get(item["area"], 0) + book.fortifications_counted(
                table, item["type"], item["count"]
            )
    return out
