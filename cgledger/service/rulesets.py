"""The rulesets this server knows (``GET /v1/rulesets`` and below): each with
its campaigns, sides, RePh steps, Initiative matrix and die tables, its CG
definition's JSON Schema and synthetic sample, and the commands it adds."""

from __future__ import annotations

from typing import Any

from cgledger.domain.errors import NotFound
from cgledger.domain.purchases import PriceModifier, PurchaseRules
from cgledger.domain.rulesets import REGISTRY, Action, Ruleset, drm_sources
from cgledger.domain.tables import Table, describe


def ruleset(ruleset_id: str) -> Ruleset:
    rs = REGISTRY.get(ruleset_id)
    if rs is None:
        raise NotFound(f"unknown ruleset {ruleset_id!r}; known: {', '.join(REGISTRY)}")
    return rs


def _info(rs: Ruleset) -> dict[str, Any]:
    return {
        "id": rs.id,
        "title": rs.title,
        "sides": list(rs.sides),
        "campaigns": [
            {
                "name": c.name,
                "rule": c.rule,
                "cg_dates": list(c.calendar),
                "initial_date": c.initial_date,
                "extendable": c.extendable,
                "notes": c.notes,
            }
            for c in rs.campaigns.values()
        ],
        "roster": rs.rules.has_roster,
        "actions": [
            {"path": a.path, "rule": a.rule, "summary": a.summary}
            for a in rs.rules.actions.values()
        ],
        "reph_steps": [
            {
                "rule": st.id,
                "title": st.title,
                "markers": list(st.markers),
                "sides": list(st.sides) or list(rs.sides),
                "joint": st.joint,
                "action": st.action,
                "from_date": st.from_date,
                "reading": st.reading or None,
            }
            for st in rs.reph_steps
        ],
        "scenario_types": list(rs.scenario_types),
        "new_date_step": rs.new_date_step,
        "scenario_end_fields": sorted(rs.rules.scenario_end_fields),
        "fortification_table": _fort_table(rs),
        "purchases": _purchases(rs),
        "initiative": None
        if rs.initiative is None
        else {
            "rule": rs.initiative.rule,
            "step": rs.initiative.step,
            "matrix": [
                {"chits": dict(zip(rs.sides, pair, strict=True)), "scenario": scenario}
                for pair, scenario in rs.initiative.matrix.items()
            ],
        },
        "tables": len(rs.tables),
        "tables_url": f"/v1/rulesets/{rs.id}/tables",
        "definition_schema_url": f"/v1/rulesets/{rs.id}/definition-schema",
        "sample_definition_url": f"/v1/rulesets/{rs.id}/sample-definition",
        "notes": rs.notes,
        "readings_url": f"/v1/rulesets/{rs.id}/readings",
    }


def _purchases(rs: Ruleset) -> dict[str, Any] | None:
    """The RG purchase rules by number (8.619, 9.617, 3.4), if the ruleset
    buys RG, and the CPP-cost modifiers a purchaser may choose (8.6194), each
    with its rule and what it does."""
    rules: PurchaseRules | None = getattr(rs.rules, "purchases", None)
    if rules is None:
        return None
    return {
        "buy": rules.buy,
        "price": rules.price,
        "date_max": rules.date_max,
        "cg_max": rules.cg_max,
        "record": rules.record,
        "determine": rules.determine,
        "per_map_group": rules.per_map_group,
        "modifiers": [_modifier(m) for m in rules.modifiers],
    }


def _modifier(m: PriceModifier) -> dict[str, Any]:
    """A CPP-cost modifier (8.6194a, 8.6194b) as its chart of readings leaves it
    by default: its percent, rounding and the RG it is for, the readings that
    change them, and a sentence saying so."""
    rgs = [p for p in m.prefixes if p]
    which = " ".join(["/".join(m.sides), *([", ".join(repr(p) for p in rgs)] if rgs else []), "RG"])
    text = f"+{m.percent}% of the RG's CPP cost ({m.rounding}), for each {which}"
    readings = ", ".join(repr(r) for r in (m.amount_reading, m.prefixes_reading) if r)
    if readings:
        text += f" by default (the readings {readings} decide)"
    return {
        "id": m.id,
        "rule": m.rule,
        "title": m.title,
        "sides": list(m.sides),
        "percent": m.percent,
        "rounding": m.rounding,
        "rgs": rgs,
        "text": text,
        "reading": m.reading or None,
        "amount_reading": m.amount_reading,
        "rgs_reading": m.prefixes_reading,
    }


def _fort_table(rs: Ruleset) -> dict[str, Any] | None:
    """The Fortification Purchase Table (8.621, 9.619), if the ruleset has
    one: each type with its FPP cost per side that may buy it."""
    purchases = getattr(rs.rules, "purchases", None)
    table = None if purchases is None else purchases.fort_table
    if table is None:
        return None
    return {
        "rule": table.rule,
        "title": table.title,
        "types": [
            {
                "id": t.id,
                "name": t.name,
                "fpp": {side: halves / 2 for side, halves in t.cost_halves.items()},
                "flags": t.flags,
            }
            for t in table.types
        ],
        "notes": list(table.notes),
    }


def list_rulesets() -> list[dict[str, Any]]:
    """Every ruleset, with its campaigns, sides and CG Date sequences."""
    return [_info(rs) for rs in REGISTRY.values()]


def list_tables(ruleset_id: str) -> list[dict[str, Any]]:
    rs = ruleset(ruleset_id)
    return [_with_deciders(rs, t) for t in rs.tables.values()]


def _with_deciders(rs: Ruleset, table: Table) -> dict[str, Any]:
    """The table as its definition describes it (its ``hash`` unchanged), each
    DRM with who decides it (issue 26): ``decided_by`` ``ledger`` or
    ``roller``, ``why``, and the ``sides`` a side DRM belongs to."""
    out = describe(table)
    for drm in out["drms"]:
        who, why = drm_sources.decided(rs, table, drm["id"])
        drm["decided_by"] = "ledger" if who == drm_sources.LEDGER else "roller"
        drm["why"] = why
        counted = drm_sources.counted_of(rs, table.id, drm["id"])
        only = rs.side_drm(table.id, drm["id"])
        if only is not None and only.reading is not None:
            only = None  # the sides' only under one reading (its ``why`` says which)
        sides = counted.sides if counted is not None else only.sides if only is not None else ()
        if sides:
            drm["sides"] = list(sides)
    return out


def get_table(ruleset_id: str, table_id: str) -> dict[str, Any]:
    table = ruleset(ruleset_id).table(table_id)
    if table is None:
        raise NotFound(f"{ruleset_id} has no table {table_id!r}")
    return _with_deciders(ruleset(ruleset_id), table)


def list_readings(ruleset_id: str) -> list[dict[str, Any]]:
    """The ruleset's readings (DESIGN §14): each with the seed's words, its
    choices, its default and why."""
    return [r.describe() for r in ruleset(ruleset_id).readings]


def definition_schema(ruleset_id: str) -> dict[str, Any]:
    """The JSON Schema of the ruleset's CG definition (DESIGN §7)."""
    schema: dict[str, Any] = ruleset(ruleset_id).definition.model_json_schema()
    return schema


def sample_definition(ruleset_id: str) -> dict[str, Any]:
    return dict(ruleset(ruleset_id).sample_definition)


def actions_by_path() -> dict[str, list[Action]]:
    """Every ruleset command (``Rules.actions``) of every registered ruleset,
    by its path; rulesets that share a command share its path."""
    by_path: dict[str, list[Action]] = {}
    for rs in REGISTRY.values():
        for action in rs.rules.actions.values():
            by_path.setdefault(action.path, []).append(action)
    return by_path
