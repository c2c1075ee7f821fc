"""The paper forms (DESIGN §12): the columns of a ruleset's CG Roster and RG
Purchase Record as a player files them (each ruleset's ``paper``, in
``cgledger.domain.rulesets.paper``), or, for a ruleset that names none, its
own fields by name with no rule.
"""

from __future__ import annotations

from typing import Any

from cgledger.domain.rulesets import Ruleset
from cgledger.domain.rulesets.paper import LVP_KEYS, Column, Form

__all__ = ["LVP_KEYS", "Column", "Form", "record_form", "roster_form"]

#: The columns of a ruleset not described here: its own fields, by name.
GENERIC_RECORD = (
    "cg_date", "rg", "name", "cpp", "map_group", "strength", "units", "quality", "models",
    "sw", "equipment", "leader", "needs",
)  # fmt: skip
PIECES = {"sw": "pieces", "equipment": "pieces", "rg_purchased": "rg_list", "needs": "list",
          "fortifications": "fortifications"}  # fmt: skip


def _named(keys: list[str] | tuple[str, ...], rule: str | None) -> Form:
    return Form("", rule, tuple(
        Column(k, k.replace("_", " "), rule, k.replace("_", " "), PIECES.get(k, "text"),
               paper=False)
        for k in keys
    ))  # fmt: skip


def roster_form(rs: Ruleset, columns: list[str]) -> dict[str, Any]:
    """The paper CG Roster of ``rs`` (``columns``: the roster's own,
    for a ruleset not described here). The Fortifications tally names each
    type by its id, as the line does: a table of the types' names in every
    answer would put the ids of what may be bought in secret into the
    opponent's reads, which tests/test_purchases_secrecy.py scans for."""
    form = rs.paper.roster if rs.paper is not None else _named(columns, None)
    return Form(form.title or "CG Roster", form.rule, form.columns).view()


def record_form(rs: Ruleset, rule: str | None, fort_rule: str | None) -> dict[str, Any]:
    """The paper RG Purchase Record of ``rs`` and the rules of its
    Fortifications set up (``setup``: 8.6242; ``on_map``: 8.6073)."""
    form = rs.paper.record if rs.paper is not None else _named(GENERIC_RECORD, rule)
    named = None if rs.paper is None else rs.paper.setup
    setup, on_map = named if named is not None else (fort_rule, fort_rule)
    return Form(form.title or "RG Purchase Record", form.rule or rule, form.columns).view(
        fortifications={"rule": fort_rule, "setup": setup, "on_map": on_map}
    )
