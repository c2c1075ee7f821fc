"""A CG definition checked before any campaign holds it (DESIGN §7, §15): the
definition editor sends its draft as one types and shows every problem, the
hash a campaign would record, and the Setup Areas that the draft's initial
Control gives on one map group (§9), computed by the ruleset's own rules, as
``GET /setup-areas`` would answer at the campaign's first event. Nothing is
kept: the tool answers and forgets."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from cgledger.domain.campaign.core import definition_problem
from cgledger.domain.definitions import definition_hash
from cgledger.domain.errors import InvalidInput, short_field
from cgledger.domain.rulesets import Ruleset
from cgledger.domain.territory import ControlState, map_group_data
from cgledger.service.authoring import ruleset

#: The problems a 422 lists (the detail names the first).
MAX_PROBLEMS = 50


class InvalidDefinition(InvalidInput):
    """A definition with problems: ``problems`` lists each, ``{"field",
    "message"}`` (not ``errors``, which lists the fields of a request that do
    not match the OpenAPI document: this one does, its definition is what the
    ruleset refuses)."""

    def __init__(self, problems: list[dict[str, str]], total: int) -> None:
        first = problems[0]
        detail = f"{first['field']}: {first['message']}"
        if total > 1:
            more = f"{total - 1} more problem{'s' if total > 2 else ''}"
            detail += f" (and {more}, listed in problems)"
        super().__init__(detail, field=first["field"])
        self.problems = problems

    def extra(self) -> dict[str, Any]:
        return {"problems": self.problems}


def check_definition(
    ruleset_id: str, definition: Any, map_group: str | None, cg_date: str | None
) -> dict[str, Any]:
    """The definition checked as a campaign checks it (every problem at once,
    as a 422 whose ``problems`` name each field), its hash and counts, the
    definition as the ledger normalises it (what a campaign records), and, for
    ``map_group``, the Setup Areas of its initial Control on ``cg_date``
    (SSR CG6c: the Entry Areas Eligible then; none: all of them)."""
    rs = ruleset(ruleset_id)
    try:
        model = rs.definition.model_validate(definition)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        problems = []
        for err in errors[:MAX_PROBLEMS]:
            where, msg = definition_problem(err)
            problems.append({"field": short_field(where), "message": msg})
        raise InvalidDefinition(problems, len(errors)) from None
    doc: dict[str, Any] = model.model_dump(mode="json")
    groups = {g["id"]: g for g in doc.get("map_groups") or ()}
    return {
        "valid": True,
        "ruleset": rs.id,
        "hash": definition_hash(doc),
        "sample": bool(doc.get("sample")),
        "rg_chart": {side: len(lines) for side, lines in (doc.get("rg_chart") or {}).items()},
        "map_groups": {gid: len(g["hexes"]) for gid, g in groups.items()},
        "setup_areas": None if map_group is None else _setup_areas(rs, groups, map_group, cg_date),
        "definition": doc,
    }


def _setup_areas(
    rs: Ruleset, groups: dict[str, dict[str, Any]], map_group: str, cg_date: str | None
) -> dict[str, Any] | None:
    rules = rs.rules
    if rules.setup_area_step is None:
        return None  # a ruleset without Setup Areas (its VP instead)
    if map_group not in groups:
        known = ", ".join(groups) or "none"
        raise InvalidInput(
            f"map_group: no map group {map_group!r} in the definition (its map groups: {known})",
            field="map_group",
        )
    date = ""
    if cg_date is not None:
        found = rs.normalize_date(cg_date)
        if found is None:
            raise InvalidInput(f"cg_date: {cg_date!r} is no {rs.id} CG Date", field="cg_date")
        date = found
    data = map_group_data(groups[map_group])
    answer = rules.setup_areas(data, ControlState.of(data, {}), rs.sides, date)
    return {
        "map_group": data.id,
        "title": data.title,
        "cg_date": date,
        "step": rules.setup_area_step,
        **answer,
    }
