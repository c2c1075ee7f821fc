"""Rule tables as data, and the one resolver that reads any of them.

Every die table of a ruleset is one immutable :class:`Table` constant in that
ruleset's ``*_tables`` module, carrying its rule number, its bands of Final
(or Original) results in the table's own words, its named DRMs in the rule's
own words, and any special result that depends on the Original roll.

:func:`resolve` is the only code that reads a table. Given the dice, the DRMs a
player names and the table's inputs, it records the Original roll, every DRM
as applied, the Final result and the outcome. It refuses anything the table
does not allow (an unknown DRM, a count on a fixed DRM, a missing input) with
an :class:`~cgledger.domain.errors.InvalidInput` naming the offending field.

A table's :func:`definition` is plain JSON; its :func:`content_hash` is
recorded with every roll, and the definition itself goes into the campaign's
log the first time it is used (``TableDefined``), so a roll made before a
table was corrected still audits against the definition it was rolled with
(:func:`from_definition`, :func:`audit`).

The table itself, its static checks and the data modules' shorthands live in
:mod:`cgledger.domain.table_model`, its JSON forms in
:mod:`cgledger.domain.table_json`; this module is the resolver, and names
them all, so ``from cgledger.domain.tables import Table, le, ...`` reads one
place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cgledger.domain.errors import InvalidInput
from cgledger.domain.table_json import (
    BINDING,
    binding,
    content_hash,
    definition,
    describe,
    from_definition,
    table_hash,
    table_ref,
)
from cgledger.domain.table_model import (
    MAX_COUNT,
    MAX_NOTE,
    MAX_VALUE,
    OTHER,
    Amount,
    Band,
    DrmDef,
    DrmKind,
    Edge,
    InputDef,
    Lookup,
    Ref,
    Rounding,
    Special,
    Table,
    _edge,
    band_range,
    check,
    eq,
    every,
    fixed,
    from_input,
    ge,
    le,
    per,
    registry,
    span,
    valued,
)

__all__ = [
    "BINDING",
    "LEDGER",
    "MAX_COUNT",
    "MAX_NOTE",
    "MAX_VALUE",
    "OTHER",
    "ROLLER",
    "Amount",
    "Band",
    "DrmDef",
    "DrmKind",
    "DrmRequest",
    "Edge",
    "InputDef",
    "Lookup",
    "Prepared",
    "Ref",
    "Rounding",
    "Special",
    "Table",
    "apply_drms",
    "audit",
    "band_for",
    "band_range",
    "binding",
    "check",
    "check_inputs",
    "content_hash",
    "definition",
    "describe",
    "eq",
    "every",
    "fixed",
    "from_definition",
    "from_input",
    "ge",
    "le",
    "parse_requests",
    "per",
    "prepare",
    "read",
    "registry",
    "requests_from",
    "resolve",
    "span",
    "table_hash",
    "table_ref",
    "valued",
]

# ---------------------------------------------------------------- resolving


#: Who decided a DRM of a roll (the applied DRM's ``by``, issue 26 item 3):
#: the ledger, from the record (a counted DRM, one the RG's record decides, an
#: input it filled), or the roller, who stated it (a referee's ruling too).
LEDGER = "ledger"
ROLLER = "roller"
#: The largest count or x the ledger gives a DRM it computes (CG-Scenario End
#: takes CVP up to 100,000); ``MAX_COUNT`` and ``MAX_VALUE`` bound a player's.
MAX_LEDGER_COUNT = 1_000_000


@dataclass(frozen=True)
class DrmRequest:
    """A DRM as a player names it: ``{"id", "count"?, "value"?, "note"?}``.
    ``by``: who decided it (``LEDGER`` or ``ROLLER``), recorded with the DRM as
    applied; ``None`` records no ``by`` (a roll read outside the campaign)."""

    id: str
    count: int | None = None
    value: int | None = None
    note: str | None = None
    by: str | None = None


def _div(n: int, d: int, rounding: Rounding) -> int:
    return n // d if rounding == "FRD" else -(-n // d)


def _bad(detail: str, field: str) -> InvalidInput:
    return InvalidInput(detail, field=field)


def check_inputs(table: Table, inputs: Mapping[str, Any]) -> dict[str, int | str]:
    """The table's inputs, validated; lookups are added under their own ids."""
    known = {i.id: i for i in table.inputs}
    for name in inputs:
        if name not in known:
            raise _bad(
                f"{table.id} takes no input {name!r}"
                + (f"; its inputs are {', '.join(known)}" if known else ""),
                f"inputs.{name}",
            )
    values: dict[str, int | str] = {}
    for inp in table.inputs:
        where = f"inputs.{inp.id}"
        if inp.id not in inputs:
            raise _bad(f"{table.id} needs input {inp.id!r}: {inp.text}", where)
        v = inputs[inp.id]
        if inp.choices:
            if not isinstance(v, str) or v not in inp.choices:
                raise _bad(f"{inp.id} must be one of {', '.join(inp.choices)}", where)
        elif isinstance(v, bool) or not isinstance(v, int) or not inp.lo <= v <= inp.hi:
            raise _bad(f"{inp.id} must be an integer from {inp.lo} to {inp.hi}", where)
        values[inp.id] = v
    for lk in table.lookups:
        number = lk.get(values)
        if number is None:
            combo = ", ".join(f"{k}={values[k]}" for k in lk.keys)
            raise _bad(f"{table.id}: the chart lists no {lk.text} for {combo}", "inputs")
        values[lk.id] = number
    return values


def _number(values: Mapping[str, int | str], name: str) -> int:
    v = values[name]
    assert isinstance(v, int)
    return v


def apply_drms(
    table: Table, requested: Sequence[DrmRequest], values: Mapping[str, int | str]
) -> list[dict[str, Any]]:
    """Each DRM as applied: the automatic ones first, then those named, in order."""
    applied: list[dict[str, Any]] = []
    for auto in table.drms:
        if auto.kind == "input":
            n = _div(_number(values, auto.input) + auto.offset, auto.divisor, auto.rounding)
            applied.append({"id": auto.id, "text": auto.text, "value": auto.value * n})
    seen: dict[str, str] = {}
    for i, req in enumerate(requested):
        where = f"drm[{i}]"
        if req.id == OTHER:
            applied.append(_by(_other(req, where), req))
            continue
        d = table.drm(req.id)
        if d is None:
            names = ", ".join(x.id for x in table.drms if x.kind != "input")
            raise _bad(
                f"{table.id} has no DRM {req.id!r}; its DRMs are "
                f"{names or '(none)'}, or 'other' with a value and a note",
                f"{where}.id",
            )
        if req.id in seen:
            raise _bad(f"DRM {req.id!r} is named twice", where)
        if d.group and d.group in seen.values():
            other = next(k for k, g in seen.items() if g == d.group)
            raise _bad(f"DRM {d.id!r} and {other!r} cannot both apply", where)
        seen[req.id] = d.group
        applied.append(_by(_named(d, req, where), req))
    return applied


def _by(entry: dict[str, Any], req: DrmRequest) -> dict[str, Any]:
    if req.by is not None:
        entry["by"] = req.by
    return entry


def _other(req: DrmRequest, where: str) -> dict[str, Any]:
    """A modifier the table does not list (leadership, a scenario SSR, ...)."""
    if req.count is not None:
        raise _bad("an 'other' DRM takes a value and a note, not a count", where)
    if req.value is None or not req.note or not req.note.strip():
        raise _bad("an 'other' DRM needs a value and a note saying what it is", where)
    if not -MAX_VALUE <= req.value <= MAX_VALUE or req.value == 0:
        raise _bad(f"an 'other' DRM's value is -{MAX_VALUE} to {MAX_VALUE}, not 0", where)
    if len(req.note) > MAX_NOTE:
        raise _bad(f"a note is at most {MAX_NOTE} characters", where)
    return {"id": OTHER, "text": req.note, "value": req.value, "note": req.note}


def _named(d: DrmDef, req: DrmRequest, where: str) -> dict[str, Any]:
    if d.kind == "input":
        raise _bad(f"DRM {d.id!r} is applied from input {d.input!r}; do not name it", where)
    if req.note is not None:
        raise _bad("only an 'other' DRM takes a note", where)
    entry: dict[str, Any] = {"id": d.id, "text": d.text}
    if d.kind == "fixed":
        if req.count is not None or req.value is not None:
            raise _bad(f"DRM {d.id!r} is a fixed {d.value:+d}; give no count or value", where)
        entry["value"] = d.value
    elif d.kind == "per":
        if req.value is not None or req.count is None:
            raise _bad(f"DRM {d.id!r} needs a count ({d.count_means})", where)
        # MAX_COUNT bounds a player's typo; a count the ledger computes (8.6113's
        # CVP, up to CG-Scenario End's 100,000) is the record's, never refused.
        if not 0 <= req.count <= (MAX_LEDGER_COUNT if req.by == LEDGER else MAX_COUNT):
            raise _bad(f"a count is 0 to {MAX_COUNT}", f"{where}.count")
        units = _div(max(0, req.count - d.excess_over), d.divisor, d.rounding)
        entry.update(count=req.count, value=d.value * units)
    else:  # valued
        if req.count is not None or req.value is None:
            raise _bad(f"DRM {d.id!r} needs a value ({d.count_means or d.text})", where)
        bound = MAX_LEDGER_COUNT if req.by == LEDGER else MAX_VALUE
        if not -bound <= req.value <= bound:
            raise _bad(f"a value is -{MAX_VALUE} to {MAX_VALUE}", f"{where}.value")
        entry.update(x=req.value, value=d.value * _div(req.value, d.divisor, d.rounding))
    return entry


def band_for(table: Table, n: int, values: Mapping[str, int | str]) -> int:
    """Index of the one band that holds result ``n``."""
    nums = {k: v for k, v in values.items() if isinstance(v, int)}
    for i, band in enumerate(table.bands):
        lo, hi = _edge(band.lo, nums), _edge(band.hi, nums)
        if (lo is None or lo <= n) and (hi is None or n <= hi):
            return i
    raise AssertionError(f"{table.id}: no band holds {n}")  # check() rules this out


def resolve(
    table: Table,
    dice: Sequence[int],
    drm: Sequence[DrmRequest] = (),
    inputs: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Read ``table`` for ``dice`` with the named DRMs and inputs.

    Returns ``{"original", "drm", "final", "outcome"}``; ``outcome`` holds the
    band's range and result, its footnotes, any follow-up table, the Original
    roll's special result and, for an amount table, the amount.
    """
    return read(table, dice, prepare(table, drm, inputs or {}))


@dataclass(frozen=True)
class Prepared:
    """A request checked against its table before any die is drawn: the
    inputs (with lookups) and the DRMs as they will apply."""

    values: Mapping[str, int | str]
    applied: list[dict[str, Any]]


def prepare(table: Table, drm: Sequence[DrmRequest], inputs: Mapping[str, Any]) -> Prepared:
    """Refuse a bad request (``InvalidInput`` naming its field) before the roll."""
    values = check_inputs(table, inputs)
    return Prepared(values, apply_drms(table, drm, values))


def read(table: Table, dice: Sequence[int], prepared: Prepared) -> dict[str, Any]:
    """Read ``table`` for ``dice`` with a prepared request (see :func:`resolve`)."""
    if len(dice) != table.dice or not all(1 <= d <= 6 for d in dice):
        raise ValueError(f"{table.id} is read with {table.dice} dice, got {list(dice)}")
    values, applied = prepared.values, prepared.applied
    original = sum(dice)
    final = original + sum(int(a["value"]) for a in applied)
    index = band_for(table, original if table.by == "original" else final, values)
    band = table.bands[index]
    text = _fill(band.result, final)
    outcome: dict[str, Any] = {"band": index, "range": band_range(band), "text": text}
    for sp in table.specials:
        if sp.original == original:
            outcome["special"] = sp.text
            if sp.result is not None:
                # The Original roll overrides the band: both stay on record.
                outcome["band_result"] = text
                outcome["text"] = sp.result
    if band.notes:
        outcome["notes"] = list(band.notes)
    if band.follow_up:
        outcome["follow_up"] = list(band.follow_up)
    choices = _after_roll_choices(table, applied, final, values)
    if choices:
        outcome["after_roll"] = choices
    if table.amount is not None:
        am = table.amount
        amount = _number(values, am.input) + am.sign * final
        if am.floor is not None:
            amount = max(am.floor, amount)
        outcome["amount"] = amount
        outcome["text"] = f"{outcome['text']}: {amount}"
    return {"original": original, "drm": applied, "final": final, "outcome": outcome}


def _after_roll_choices(
    table: Table, applied: Sequence[Mapping[str, Any]], final: int, values: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The result under each value a DRM may be changed to after the roll."""
    choices = []
    for a in applied:
        d = table.drm(a["id"])
        if d is None or not d.after_roll or table.by == "original":
            continue
        for value in d.after_roll:
            changed = final - int(a["value"]) + value
            band = table.bands[band_for(table, changed, values)]
            choices.append(
                {"drm": d.id, "value": value, "final": changed, "text": _fill(band.result, changed)}
            )
    return choices


def _fill(text: str, final: int) -> str:
    return text.replace("{final}", str(final))


def parse_requests(raw: Sequence[Mapping[str, Any]]) -> list[DrmRequest]:
    return [
        DrmRequest(id=r["id"], count=r.get("count"), value=r.get("value"), note=r.get("note"))
        for r in raw
    ]


# ---------------------------------------------------------------- audit


def requests_from(table: Table, applied: Sequence[Mapping[str, Any]]) -> list[DrmRequest]:
    """The DRMs as the roller named them, rebuilt from the DRMs as applied."""
    requests = []
    for a in applied:
        if a["id"] == OTHER:
            requests.append(DrmRequest(OTHER, value=a["value"], note=a["note"]))
            continue
        d = table.drm(a["id"])
        if d is None:
            raise ValueError(f"{table.id} has no DRM {a['id']!r}")
        by = LEDGER if a.get("by") == LEDGER else None
        if d.kind == "per":
            requests.append(DrmRequest(d.id, count=a["count"], by=by))
        elif d.kind == "valued":
            requests.append(DrmRequest(d.id, value=a["x"], by=by))
        elif d.kind == "fixed":
            requests.append(DrmRequest(d.id, by=by))
    return requests


def audit(
    data: Mapping[str, Any], dice: Sequence[int], recorded: Mapping[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """Re-read a table roll from the recorded definition, the recorded dice,
    DRMs and inputs. Returns the recomputed result and the fields that differ
    from ``recorded`` (empty when the record is consistent). Who decided each
    DRM (its ``by``) is not part of the table's reading: the recomputed DRM
    carries the recorded one's, so a roll recorded before ``by`` was kept and
    one recorded with it read alike."""
    table = from_definition(data)
    result = resolve(table, dice, requests_from(table, recorded["drm"]), recorded["inputs"])
    _carry_by(result["drm"], recorded["drm"])
    differs = [k for k in ("original", "drm", "final", "outcome") if result[k] != recorded.get(k)]
    return result, differs


def _carry_by(applied: list[dict[str, Any]], recorded: Sequence[Mapping[str, Any]]) -> None:
    for entry, was in zip(applied, recorded, strict=False):
        if isinstance(was, Mapping) and was.get("id") == entry["id"] and "by" in was:
            entry["by"] = was["by"]
