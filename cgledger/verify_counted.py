"""The DRMs the ledger counts, held against a table roll in an export
(``cgledger verify``; issue 26 item 3, DESIGN §8).

A table roll recorded since the ledger keeps who decided each DRM records, with
its other values, ``counted``: what the ledger decided of each DRM of the table
it counts (``CountedDrm.decided``: a count, an x, or 1/0 for a fixed DRM that
applies or not, 0 for another side's DRM; one the ledger decided nothing of is
left out, and an empty ``counted`` says it counted none). A public roll has it
in its payload, a secret one in its sealed part, so the public shape of a
sealed record does not change (DESIGN §4). For each such roll the verifier

* recomputes each counted DRM whose count depends only on what the export
  shows at that event (``CountedDrm.dated``: the roll's CG Date and its light,
  the rolling side, the readings in force, ``cgledger.verify_readings``) and
  refuses a ``counted`` that differs, or that leaves one out;
* refuses a ``counted`` that names a DRM the ledger does not count on the
  table, or gives another side's DRM a count;
* holds the roll's DRMs against ``counted``: each the ledger added is listed
  with ``"by": "ledger"`` and its number (a ``per`` DRM even at 0, a fixed one
  where it applies), none it counted 0 or not applying is listed, and no other
  DRM is the ledger's but an input's (8.6122's SAN, ``_input_drms_by``). The
  referee's ruling may name a counted DRM itself with the ledger's number, and
  a roller may state more than a count the ledger knows only the least of
  (``CountedDrm.at_least``, 9.6202's CVP).

A roll recorded without ``counted`` (by a release before it) is read as before;
but once a roll of a type records it, every later visible roll of that type
must (a release that records it records it on every roll).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from cgledger.domain import tables as tablebook
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.base import CountedDrm, Facts
from cgledger.domain.visibility import REFEREE
from cgledger.verify_report import Report, VerificationError

#: The key of a roll's values that records the ledger's counts.
COUNTED = "counted"
#: The events whose table roll records them: a table roll, and 8.618's DR.
KINDS = frozenset({"TableRolled", "AmmunitionShortageRolled"})


def check(
    created: dict[str, Any], kind: str, values: dict[str, Any], seq: int, report: Report
) -> None:
    """Check the counted DRMs of event ``seq`` (of type ``kind``; ``values``:
    its public and visible secret parts in one mapping) under the readings in
    force at it (``created["readings"]``)."""
    table_id = str(values["rule"])
    if COUNTED not in values:
        since = report.counted_since.get(kind)
        if since is not None:
            raise VerificationError(
                f"{table_id}: the roll records no {COUNTED} DRMs, but the {kind} at seq "
                f"{since} does, and every {kind} recorded since records them (removed?)",
                seq,
            )
        return
    report.counted_since.setdefault(kind, seq)
    counted = values[COUNTED]
    if not isinstance(counted, dict) or not all(
        isinstance(k, str) and type(v) is int for k, v in counted.items()
    ):
        raise VerificationError(f"{table_id}: {COUNTED} is not a count by DRM id", seq)
    ruleset = REGISTRY.get(created["ruleset"])
    if ruleset is None:
        return
    known = {c.drm: c for c in ruleset.counted(table_id)}
    for drm_id in counted:
        if drm_id not in known:
            raise VerificationError(
                f"{table_id}: {COUNTED} names {drm_id!r}, which the ledger does not count "
                "on this table",
                seq,
            )
    side, cg_date = _roller(values), str(values["cg_date"])
    facts = Facts(
        cg_date=cg_date,
        side=side,
        rules=MappingProxyType({}),
        lasting=MappingProxyType({}),
        options=frozenset(),
        dates=(),
        readings=MappingProxyType(ruleset.readings_in_force(created.get("readings"))),
    )
    referee = side == REFEREE
    for c in known.values():
        if not c.dated:
            continue
        expected, got = c.decided(facts, referee=referee), counted.get(c.drm)
        if got != expected:
            raise VerificationError(
                f"{c.rule}: {c.drm} on {cg_date} for a {side} roll is "
                f"{'not counted' if expected is None else expected} (the CG Date, the side and "
                f"the readings in force give it), but the roll records "
                f"{'none' if got is None else got}",
                seq,
            )
    table = ruleset.table(table_id)
    listed = [a for a in values["drm"] if isinstance(a, dict)]
    for drm_id, n in counted.items():
        _check_listed(known[drm_id], table, n, listed, side=side, cg_date=cg_date, seq=seq)
    for a in listed:
        if a.get("by") != tablebook.LEDGER or a.get("id") in counted:
            continue
        found = None if table is None else table.drm(str(a.get("id")))
        if found is not None and found.kind == "input":
            continue  # filled from a value the ledger keeps (8.6122's SAN)
        raise VerificationError(
            f"{table_id}: {a.get('id')} is recorded as the ledger's, but the ledger counted "
            f"no {a.get('id')} for this roll",
            seq,
        )
    report.counted_checked += 1


def _roller(values: dict[str, Any]) -> str:
    """Who made the roll, as the ledger counted its DRMs (``ledger_counts`` of
    the command's actor): the referee's ruling made for a side (8.618's DR,
    whose ``side`` is the German's) is the referee's, as its dice say
    (``roll.side``, which the dice stream reads, so it cannot be edited)."""
    roll = values.get("roll")
    if isinstance(roll, dict) and roll.get("side") == REFEREE:
        return REFEREE
    return str(values["side"])


def check_sealed(
    created: dict[str, Any], obj: dict[str, Any], part: dict[str, Any], report: Report
) -> None:
    """A sealed record's visible part (``part``): if it is a table roll, its
    counted DRMs, as a public one's (who and when from the public part)."""
    kind = part.get("kind")
    if kind in KINDS:
        public = obj["payload"]
        values = {**part, "side": public["side"], "cg_date": public["cg_date"]}
        check(created, str(kind), values, obj["seq"], report)


def _check_listed(
    c: CountedDrm,
    table: tablebook.Table | None,
    n: int,
    listed: list[dict[str, Any]],
    *,
    side: str,
    cg_date: str,
    seq: int,
) -> None:
    """The roll lists counted DRM ``c`` as the ledger decided it (``n``)."""
    referee = side == REFEREE
    found = None if table is None else table.drm(c.drm)
    kind = "fixed" if found is None else found.kind
    applies = referee or c.applies_to(side)
    if not applies and n != 0:
        raise VerificationError(
            f"{c.rule}: {c.drm} is the {' or '.join(c.sides)} side's DRM, but the roll "
            f"records it counted {n} for the {side} side",
            seq,
        )
    if kind == "fixed" and n not in (0, 1):
        raise VerificationError(
            f"{c.rule}: {c.drm} applies or not (1 or 0), but the roll records {n}", seq
        )
    entries = [a for a in listed if a.get("id") == c.drm]
    entry = entries[0] if entries else None
    wanted = applies and (kind != "fixed" or n == 1)
    if not wanted:
        if entry is not None:
            raise VerificationError(
                f"{c.rule}: {c.drm} does not apply to this {side} roll on {cg_date} "
                "(the ledger counted it 0), but the roll lists it",
                seq,
            )
        return
    if entry is None:
        raise VerificationError(
            f"{c.rule}: the ledger counted {c.drm} {n} for this {side} roll on {cg_date}, "
            "but the roll does not list it (removed?)",
            seq,
        )
    given = entry.get({"per": "count", "valued": "x"}.get(kind, "")) if kind != "fixed" else n
    by = entry.get("by")
    if by == tablebook.LEDGER and given == n:
        return
    if by == tablebook.ROLLER and referee and given == n:
        return  # the referee's ruling named it, with the ledger's number
    stated_more = isinstance(given, int) and given >= n
    if by == tablebook.ROLLER and kind == "per" and bool(c.at_least) and stated_more:
        return  # more than the ledger records (9.6202's RePh CVP)
    what = "count" if kind == "per" else "value" if kind == "valued" else "DRM"
    raise VerificationError(
        f"{c.rule}: {c.drm} is the ledger's, {what} {n}, but the roll lists it "
        f"{'by ' + str(by) if by else 'without who decided it'} with {given!r}",
        seq,
    )
