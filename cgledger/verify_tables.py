"""Re-reading table rolls in an export (``cgledger verify``): a roll on a table
is read again from the definition recorded before it (``TableDefined``), with
its recorded dice, DRMs and inputs, and must give the recorded Original, DRMs,
Final and outcome. Version 1 table rolls (``TableRolled`` and the rolls of
rule commands) and the table rolls inside a revealed sealed record
(``cgledger-dice/2``) are re-read the same way."""

from __future__ import annotations

from typing import Any

from cgledger import verify_counted
from cgledger.domain import tables as tablebook
from cgledger.domain.errors import DomainError
from cgledger.domain.rulesets import REGISTRY
from cgledger.verify_report import Report, VerificationError


def check_rule_result(
    created: dict[str, Any], obj: dict[str, Any], rolled: list[int], report: Report
) -> None:
    """Re-read a version 1 table roll from its recorded Original roll, then
    check what the ruleset's command took from it (``Rules.verify_result``;
    e.g. 8.616: the Base # off the chart and the CPP Replenished)."""
    seq = obj["seq"]
    values = {**obj["payload"], **(obj["secret"] or {})}
    ruleset = REGISTRY.get(created["ruleset"])
    rule = values.get("rule")
    rules = None if ruleset is None else ruleset.rules
    # A roll for a secret purchase names its table only in its secret part
    # (docs/DESIGN.md §10): read where the viewer's export has it.
    if "table" not in values:
        if (rules is not None and rule in rules.roll_rules()) or obj["type"] == "TableRolled":
            raise VerificationError(f"{rule}: the roll names no table", seq)
        return
    reread(seq, values["table"], rolled, values, report, named=values["rule"])
    if obj["type"] in verify_counted.KINDS:
        verify_counted.check(created, obj["type"], values, seq, report)
    if rules is None:
        return
    problem = rules.verify_result(created, values)
    if problem is not None:
        raise VerificationError(problem, seq)


def reread(
    seq: int,
    ref: dict[str, Any],
    rolled: list[int],
    values: dict[str, Any],
    report: Report,
    *,
    named: object,
    carried: dict[str, Any] | None = None,
) -> None:
    """Re-read one table roll of event ``seq`` (``ref``: the table's id and
    content hash; ``values``: its DRMs, inputs and results; ``named``: the
    table id the roll itself names, which must be the table's) against the
    definition recorded before it, or the one its sealed record carries
    (``carried``, by content hash: a sealed roll defines no table in public)."""
    found = report.tables.get(ref["hash"])
    if carried is not None and ref["hash"] in carried:
        definition = carried[ref["hash"]]
        if not isinstance(definition, dict) or tablebook.table_hash(definition) != ref["hash"]:
            raise VerificationError(
                f"{ref['id']}: the definition the sealed record carries does not match its hash",
                seq,
            )
        found = (definition, 0)
    if found is None or found[1] >= seq:
        raise VerificationError(f"{ref['id']}: no definition of it was recorded before", seq)
    definition, _ = found
    if definition["id"] != ref["id"] or named != ref["id"]:
        raise VerificationError(f"the roll names {ref['id']} inconsistently", seq)
    try:
        result, differs = tablebook.audit(definition, rolled, values)
    except DomainError as exc:
        raise VerificationError(
            f"{ref['id']}: the recorded roll cannot be re-read: {exc}", seq
        ) from None
    if differs:
        field = differs[0]
        raise VerificationError(
            f"{ref['id']}: re-reading the table gives {field} {result[field]!r}, "
            f"but {values.get(field)!r} is recorded",
            seq,
        )
    report.rule_results_checked += 1
