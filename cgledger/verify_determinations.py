"""Which table each determination roll must be read on (``cgledger verify``;
KGP 8.6201-8.6206, ABtF 9.6181-9.6184, SG 3.4-3.7).

A roll that determines an RG names the column it fills (``need``: ``leader``,
``models``, ``sw.0``, ...) and the table it was read on. The re-read
(``cgledger.verify_tables``) checks the roll against that table; this checks
that it is the table the rules give that column of that RG: the ruleset's own
``PurchaseRules.needs``, from the RG's chart line in the CG definition in
force at the roll's event and the readings in force at the RG's purchase
(DESIGN §14, ``cgledger.verify_readings``: an amendment changes the rolls of
the RG bought after it, not before). So a roll moved to another table is refused at
its seq, re-read results and all: KGP 8.6206's personnel column under
``leader-columns`` (``kgp:8.6206-us``/``-german`` against
``kgp:8.6206-us-column-2``/``-german-column-1``), 8.6203's table of a Med Tank
Pltn (the chart line's ``determination_table``, else V3 on I and V4 on II),
ABtF 9.6182's SW (``abtf:9.6182`` against ``abtf:9.6182-placed`` for a line
with ``sw_columns``, and the SW and number each roll reads: its ``inputs``),
SG 3.6's column under ``m4-group``.

The rows of the RG Purchase Record are rebuilt in seq order with the
ruleset's own state functions (the Initial-Scenario OB, each purchase, ABtF
9.6152's OB-given RG of a new CG Date) and filled with each determination the
export shows. A purchase sealed from the viewer is skipped with its rolls;
where a roll's earlier results are sealed from the viewer, every result they
may have given is tried (``purchases.needs_of_key``). An undone roll's result
stays until its roll is made again: no later roll's table depends on a result
that an undo removed without the roll being made again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cgledger.domain import purchases as book
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.base import Ruleset
from cgledger.domain.rulesets.cpp.determining import determined, record_result
from cgledger.domain.rulesets.cpp.purchasing import Purchasing
from cgledger.verify_report import VerificationError
from cgledger.verify_sealed import RECORD, Sealed

if TYPE_CHECKING:
    from cgledger.verify_readings import Readings

#: The events that make or fill a row of the RG Purchase Record.
KEPT = frozenset({"CampaignCreated", "CGDateBegan", "RGPurchased", "RGDetermined", RECORD})


class Determinations:
    """The events of an export that the check reads, noted in seq order."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def note(self, obj: dict[str, Any]) -> None:
        if obj["type"] in KEPT:
            self.events.append(obj)

    def check(self, created: dict[str, Any], readings: Readings, sealed: Sealed) -> None:
        """Each determination roll the viewer sees is on its RG's table (after
        the whole export is read, so each sealed record's reveal is known)."""
        ruleset = REGISTRY.get(created["ruleset"])
        if ruleset is None or not isinstance(ruleset.rules, Purchasing):
            return
        rules = ruleset.rules
        state: dict[str, Any] = {"record": {side: [] for side in ruleset.sides}}
        hidden: set[int] = set()
        for obj in self.events:
            seq = obj["seq"]
            try:
                kind, values = _values(obj, sealed)
                if values is None:
                    hidden.add(seq)
                elif kind == "CampaignCreated":
                    state = {"record": _initial_ob(rules, ruleset.sides, values)}
                elif kind == "CGDateBegan":
                    rules.on_date_began(state, values["cg_date"], seq)
                elif kind == "RGPurchased":
                    if _bought(values):
                        rules.apply_purchase(state, kind, seq, values)
                    else:
                        hidden.add(seq)  # a v1 secret purchase sealed from the viewer
                elif kind == "RGDetermined":
                    for one in determined(values):
                        where = (ruleset, state, hidden, readings, created)
                        _check_one(where, values["side"], one, seq)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise VerificationError(
                    f"malformed event ({type(exc).__name__}: {exc})", seq
                ) from None


def _initial_ob(
    rules: Purchasing, sides: Sequence[str], values: dict[str, Any]
) -> dict[str, list[book.Row]]:
    """The rows of the RG given in the Initial-Scenario OB, as the campaign
    makes them at its creation (``Campaign.genesis``: the definition's
    ``initial_ob``; the FPP a line grants plays no part here)."""
    doc = values.get("definition") or {}
    genesis = {"start_date": values.get("start_date"), "initial_ob": doc.get("initial_ob") or {}}
    record: dict[str, list[book.Row]] = rules.initial_purchase_state(genesis, sides)["record"]
    return record


def _bought(values: Mapping[str, Any]) -> bool:
    """A purchase whose RG the viewer sees, each as the ledger records it."""
    rgs = values.get("rgs")
    return isinstance(rgs, list) and all(
        isinstance(item, dict) and isinstance(item.get("rg"), str) for item in rgs
    )


def _values(obj: dict[str, Any], sealed: Sealed) -> tuple[str, dict[str, Any] | None]:
    """What an event records, as the ruleset's state functions read it: its
    public and secret parts, or a sealed record's part (its kind's values,
    with its public side and CG Date); ``None`` where the viewer cannot see it."""
    payload = obj["payload"]
    if obj["type"] != RECORD:
        return obj["type"], {**payload, **(obj["secret"] or {})}
    found = sealed.reveals.get(obj["seq"])
    part = found[0]["sealed"] if found is not None else obj["secret"]
    if part is None:
        return RECORD, None
    return str(part.get("kind")), {**part, "side": payload["side"], "cg_date": payload["cg_date"]}


def _check_one(
    where: tuple[Ruleset, dict[str, Any], set[int], Readings, dict[str, Any]],
    side: str,
    one: Mapping[str, Any],
    seq: int,
) -> None:
    """One determination roll of event ``seq``: the RG it names is on the
    record, on the chart in force, needs a roll of its column, on its table
    (and with its inputs); then its result fills the row."""
    ruleset, state, hidden, readings, created = where
    assert isinstance(ruleset.rules, Purchasing)
    rules = ruleset.rules.purchases
    of, item, key = one["for_purchase"], one["item"], str(one["need"])
    rows: list[book.Row] = state["record"].get(side, [])
    row = next((r for r in rows if (r["seq"], r["item"]) == (of, item)), None)
    if row is None:
        if of in hidden:
            return  # its purchase is sealed from this viewer
        raise VerificationError(
            f"{rules.determine}: event {of}, item {item} is no RG on the {side} RG Purchase Record",
            seq,
        )
    what = f"RG {row['rg']} (event {of}, item {item})"
    chart = (readings.definition_at(seq).get("rg_chart") or {}).get(side) or ()
    entry = book.find_entry(chart, row["rg"])
    if entry is None:
        raise VerificationError(
            f"{rules.determine}: {what} is on no {side} RG chart of the CG definition in force",
            seq,
        )
    # The readings of the RG's purchase (those in force once its event, ``row["seq"]``,
    # was recorded; seq 1 for an Initial-Scenario OB: the creation's), not the
    # roll's: a reading changed by amendment changes results only from the
    # amendment on (DESIGN §14), as ``Campaign.readings(at=...)`` has it.
    chosen = readings.as_of(created, row["seq"] + 1)["readings"]
    in_force = ruleset.readings_in_force(chosen)
    under = (
        ""
        if not chosen
        else " under the readings " + ", ".join(f"{k}={v}" for k, v in sorted(chosen.items()))
    )

    def results(table: str) -> list[str]:
        return [band.result for band in ruleset.tables[table].bands]

    candidates = book.needs_of_key(rules, side, entry, row, in_force, key, results)
    ref = one.get("table")
    got = ref.get("id") if isinstance(ref, dict) else one.get("rule")
    if not candidates:
        raise VerificationError(
            f"{rules.determine}: {what} needs no {key!r} roll{under}, but one is recorded", seq
        )
    tables = sorted({n.table for n in candidates})
    if got not in tables:
        raise VerificationError(
            f"{rules.determine}: {what}'s {key!r} roll is read on {' or '.join(tables)}{under}, "
            f"but it was read on {got}",
            seq,
        )
    inputs = [dict(n.inputs) for n in candidates if n.table == got]
    if "inputs" in one and one["inputs"] not in inputs:
        raise VerificationError(
            f"{rules.determine}: {what}'s {key!r} roll on {got} reads the inputs "
            f"{' or '.join(map(str, inputs))}, but {one['inputs']} is recorded",
            seq,
        )
    record_result(row, seq, one)
