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
(:func:`from_definition`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from cgledger.domain.dice import canon
from cgledger.domain.errors import InvalidInput

Rounding = Literal["FRD", "FRU"]
DrmKind = Literal["fixed", "per", "valued", "input"]
#: Largest count or value a player may give a DRM; beyond it is a typo.
MAX_COUNT = 999
MAX_VALUE = 20
MAX_NOTE = 200
OTHER = "other"


@dataclass(frozen=True)
class Ref:
    """A band edge read from an input (or lookup) plus an offset, e.g. CG23's
    circled number on the Turn Record Chart."""

    input: str
    offset: int = 0


Edge = int | Ref | None


@dataclass(frozen=True)
class Band:
    """Results from ``lo`` to ``hi`` inclusive; ``None`` is an open edge (≤ / ≥)."""

    lo: Edge
    hi: Edge
    result: str
    #: Footnotes attached to this result, in the table's own words.
    notes: tuple[str, ...] = ()
    #: Ids of the tables a subsequent roll is made on (e.g. the 8.613 casualty dr).
    follow_up: tuple[str, ...] = ()


@dataclass(frozen=True)
class DrmDef:
    """One named DRM/drm of a table, in the rule's own words.

    * ``fixed``: always ``value`` ("-1 If German").
    * ``per``: ``value`` per unit counted; the player gives the ``count`` of what
      ``count_means`` says. Only the count above ``excess_over`` counts, and
      it is divided by ``divisor`` with ``rounding`` first ("-1 Per 30 CVP
      (FRD)": value -1, divisor 30).
    * ``valued``: the player gives ``x`` (``count_means`` says what x is, sign
      included); the DRM is ``value`` × x / ``divisor`` rounded ("+x
      (Armor-)Leader DRM": value +1; "-x Weapon Repair Number": value -1;
      "+x/2 Campaign Exhaustion DRM (FRD)": divisor 2).
    * ``input``: applied automatically from the table input ``input`` plus
      ``offset``, times ``value`` ("+drm equal to that side's current SAN
      minus four": input san, offset -4).
    """

    id: str
    text: str
    kind: DrmKind = "fixed"
    value: int = 0
    count_means: str = ""
    divisor: int = 1
    rounding: Rounding = "FRD"
    excess_over: int = 0
    input: str = ""
    offset: int = 0
    #: DRMs sharing a group exclude each other (e.g. "OT AFV" / "CT AFV").
    group: str = ""
    #: Values the roller may choose instead, after the roll (8.6114: "the player
    #: may, after the DR, choose to ignore this DRM or apply only a -1 DRM").
    #: The outcome then lists the result under each of them.
    after_roll: tuple[int, ...] = ()


@dataclass(frozen=True)
class InputDef:
    """A value the roll needs besides the dice: a choice or an integer."""

    id: str
    text: str
    choices: tuple[str, ...] = ()
    lo: int = 0
    hi: int = MAX_COUNT


@dataclass(frozen=True)
class Lookup:
    """A number read off a chart by choice inputs (9.6182's per-SW thresholds)."""

    id: str
    text: str
    keys: tuple[str, ...]
    rows: tuple[tuple[tuple[str, ...], int], ...]

    def get(self, inputs: Mapping[str, int | str]) -> int | None:
        key = tuple(str(inputs[k]) for k in self.keys)
        for row_key, number in self.rows:
            if row_key == key:
                return number
        return None


@dataclass(frozen=True)
class Special:
    """A result set by the Original roll whatever the Final (escape Original 2:
    Heat of Battle; 8.615 Original 6: Casualty Reduction). ``result`` replaces
    the band's result when given (the outcome keeps the band's own words as
    ``band_result``); ``text`` is added to the outcome as ``special``."""

    original: int
    text: str
    result: str | None = None


@dataclass(frozen=True)
class Amount:
    """The outcome is an amount: input ``input`` plus ``sign`` × Final, never
    below ``floor`` (8.616: "the CPP Base # minus a Secret DR")."""

    input: str
    sign: int
    label: str
    floor: int | None = None


@dataclass(frozen=True)
class Table:
    id: str
    rule: str
    title: str
    #: 1 for a dr, 2 for a DR.
    dice: int
    bands: tuple[Band, ...]
    drms: tuple[DrmDef, ...] = ()
    inputs: tuple[InputDef, ...] = ()
    lookups: tuple[Lookup, ...] = ()
    specials: tuple[Special, ...] = ()
    amount: Amount | None = None
    #: Whether the rule makes this a Secret roll (it then defaults to secret).
    secret: bool = False
    #: "original" for tables read on the Original roll (8.6204).
    by: Literal["final", "original"] = "final"
    #: Readings of garbled OCR and other interpretations, with their reasons.
    notes: tuple[str, ...] = ()
    #: The endpoint that rolls this table because its result changes the
    #: ledger's state (8.616 CPP, 8.622 Recon); empty for a plain table roll.
    endpoint: str = ""
    #: Who rolls it and when (DESIGN §8), as its rule text says: the sides it
    #: names (empty: every side), the first CG Date it is rolled on
    #: (``from_date``), or the only CG Dates it is rolled on (``on_dates``).
    #: They decide who may roll, not how a roll reads, so they are not part of
    #: the table's definition, content hash or equality (see ``BINDING``).
    sides: tuple[str, ...] = field(default=(), compare=False)
    from_date: str | None = field(default=None, compare=False)
    on_dates: tuple[str, ...] = field(default=(), compare=False)
    #: The RePh step it is rolled in (DESIGN §8), e.g. "8.612" for 8.6122, or
    #: "scenario" for a table rolled while the CG scenario is in play (SSR
    #: KGP3's Mist Change DR); ``None``: not bound to a step. A ruleset sets
    #: it from its sequence (``cgledger.domain.rulesets.base.bind_steps``).
    step: str | None = field(default=None, compare=False)
    _drm: dict[str, DrmDef] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        for d in self.drms:
            self._drm[d.id] = d
        problems = check(self)
        if problems:
            raise ValueError(f"{self.id}: " + "; ".join(problems))

    @property
    def ruleset(self) -> str:
        return self.id.split(":", 1)[0]

    @property
    def roll_name(self) -> str:
        return "dr" if self.dice == 1 else "DR"

    def drm(self, drm_id: str) -> DrmDef | None:
        return self._drm.get(drm_id)


# ---------------------------------------------------------------- validation


def _edge(edge: Edge, values: Mapping[str, int]) -> int | None:
    if edge is None or isinstance(edge, int):
        return edge
    return values[edge.input] + edge.offset


def _refs(table: Table) -> set[str]:
    names = {e.input for b in table.bands for e in (b.lo, b.hi) if isinstance(e, Ref)}
    names |= {d.input for d in table.drms if d.kind == "input"}
    if table.amount is not None:
        names.add(table.amount.input)
    return names


def check(table: Table) -> list[str]:
    """Static checks: ids unique, bands ordered and contiguous from ≤ to ≥."""
    problems: list[str] = []
    if table.dice not in (1, 2):
        problems.append("dice must be 1 or 2")
    if not table.id.startswith(f"{table.ruleset}:") or not table.bands:
        problems.append("id must be '<ruleset>:<rule>' and the table needs bands")
    ids = [d.id for d in table.drms]
    if len(set(ids)) != len(ids) or OTHER in ids:
        problems.append("DRM ids must be unique and not 'other'")
    known = {i.id for i in table.inputs} | {lk.id for lk in table.lookups}
    for name in _refs(table):
        if name not in known:
            problems.append(f"unknown input {name!r}")
    for lk in table.lookups:
        for k in lk.keys:
            if k not in {i.id for i in table.inputs if i.choices}:
                problems.append(f"lookup {lk.id} keys on {k!r}, which is not a choice input")
    for d in table.drms:
        if d.divisor < 1 or (d.kind != "input" and d.value == 0):
            problems.append(f"DRM {d.id}: value must be non-zero and divisor >= 1")
    if table.bands[0].lo is not None or table.bands[-1].hi is not None:
        problems.append("the first band must be open below (≤) and the last open above (≥)")
    # Contiguity is checked for every combination of the inputs the edges use.
    for values in _edge_samples(table):
        prev_hi: int | None = None
        for i, band in enumerate(table.bands):
            lo, hi = _edge(band.lo, values), _edge(band.hi, values)
            if i and (lo is None or prev_hi is None or lo != prev_hi + 1):
                problems.append(f"band {i} ({band.result!r}) does not follow band {i - 1}")
            if lo is not None and hi is not None and hi < lo:
                problems.append(f"band {i} ({band.result!r}) is empty")
            prev_hi = hi
    return problems


def _edge_samples(table: Table) -> list[dict[str, int]]:
    names = sorted({e.input for b in table.bands for e in (b.lo, b.hi) if isinstance(e, Ref)})
    if not names:
        return [{}]
    samples: list[dict[str, int]] = []
    for name in names:
        inp = next((i for i in table.inputs if i.id == name), None)
        if inp is not None:
            samples.extend({name: v} for v in range(inp.lo, inp.hi + 1))
        else:
            lk = next(lk for lk in table.lookups if lk.id == name)
            samples.extend({name: v} for _, v in lk.rows)
    return samples


# ---------------------------------------------------------------- resolving


@dataclass(frozen=True)
class DrmRequest:
    """A DRM as a player names it: ``{"id", "count"?, "value"?, "note"?}``."""

    id: str
    count: int | None = None
    value: int | None = None
    note: str | None = None


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
            applied.append(_other(req, where))
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
        applied.append(_named(d, req, where))
    return applied


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
        if not 0 <= req.count <= MAX_COUNT:
            raise _bad(f"a count is 0 to {MAX_COUNT}", f"{where}.count")
        units = _div(max(0, req.count - d.excess_over), d.divisor, d.rounding)
        entry.update(count=req.count, value=d.value * units)
    else:  # valued
        if req.count is not None or req.value is None:
            raise _bad(f"DRM {d.id!r} needs a value ({d.count_means or d.text})", where)
        if not -MAX_VALUE <= req.value <= MAX_VALUE:
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


def band_range(band: Band) -> str:
    def show(e: Edge) -> str:
        if isinstance(e, Ref):
            return e.input + (f"{e.offset:+d}" if e.offset else "")
        return str(e)

    if band.lo is None and band.hi is None:
        return "any"
    if band.lo is None:
        return f"≤ {show(band.hi)}"
    if band.hi is None:
        return f"≥ {show(band.lo)}"
    if band.lo == band.hi:
        return show(band.lo)
    sep = " to " if isinstance(band.lo, int) and band.lo < 0 else "-"
    return f"{show(band.lo)}{sep}{show(band.hi)}"


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


# ---------------------------------------------------------------- definitions


def definition(table: Table) -> dict[str, Any]:
    """The table as canonical JSON data: strings, integers, lists and objects."""
    data: dict[str, Any] = _plain(table)
    return data


#: The fields of a :class:`Table` that say who may roll it and when: left out
#: of its definition, so a table's content hash (recorded with every roll made
#: on it) changes only when the way it reads a roll does.
BINDING = frozenset({"sides", "from_date", "on_dates", "step"})


def _plain(obj: Any) -> Any:
    if isinstance(obj, bool):
        return int(obj)
    if isinstance(obj, Ref):
        return {"input": obj.input, "offset": obj.offset}
    if isinstance(obj, (Table, Band, DrmDef, InputDef, Lookup, Special, Amount)):
        skip = BINDING if isinstance(obj, Table) else frozenset()
        return {
            k: _plain(v)
            for k, v in vars(obj).items()
            if not k.startswith("_") and v is not None and k not in skip
        }
    if isinstance(obj, (tuple, list)):
        return [_plain(v) for v in obj]
    return obj


def content_hash(table: Table) -> str:
    return hashlib.sha256(b"cgledger/v1/table\n" + canon(definition(table))).hexdigest()


def table_ref(table: Table) -> dict[str, str]:
    """How an event names the table it was read with: id and content hash."""
    return {"id": table.id, "hash": content_hash(table)}


def from_definition(data: Mapping[str, Any]) -> Table:
    """Rebuild a table from its recorded definition (for audits of old rolls)."""

    def edge(e: Any) -> Edge:
        return Ref(e["input"], e["offset"]) if isinstance(e, dict) else e

    def strs(xs: Sequence[Any]) -> tuple[str, ...]:
        return tuple(str(x) for x in xs)

    return Table(
        id=data["id"],
        rule=data["rule"],
        title=data["title"],
        dice=data["dice"],
        bands=tuple(
            Band(
                lo=edge(b.get("lo")),
                hi=edge(b.get("hi")),
                result=b["result"],
                notes=strs(b["notes"]),
                follow_up=strs(b["follow_up"]),
            )
            for b in data["bands"]
        ),
        drms=tuple(
            DrmDef(**{**d, "after_roll": tuple(d.get("after_roll", ()))}) for d in data["drms"]
        ),
        inputs=tuple(
            InputDef(i["id"], i["text"], strs(i["choices"]), i["lo"], i["hi"])
            for i in data["inputs"]
        ),
        lookups=tuple(
            Lookup(
                lk["id"], lk["text"], strs(lk["keys"]), tuple((strs(k), n) for k, n in lk["rows"])
            )
            for lk in data["lookups"]
        ),
        specials=tuple(Special(**s) for s in data["specials"]),
        amount=Amount(**data["amount"]) if "amount" in data else None,
        secret=bool(data["secret"]),
        by=data["by"],
        notes=strs(data["notes"]),
        endpoint=data["endpoint"],
    )


def describe(table: Table) -> dict[str, Any]:
    """The table as ``GET /v1/rulesets/{r}/tables`` lists it."""
    drms = []
    for d in table.drms:
        item: dict[str, Any] = {"id": d.id, "text": d.text, "kind": d.kind}
        if d.kind == "fixed":
            item["value"] = d.value
        elif d.kind == "per":
            item.update(per=d.value, count_means=d.count_means)
            if d.divisor != 1:
                item.update(divisor=d.divisor, rounding=d.rounding)
            if d.excess_over:
                item["excess_over"] = d.excess_over
        elif d.kind == "valued":
            item["times"] = d.value
            if d.count_means:
                item["value_means"] = d.count_means
            if d.divisor != 1:
                item.update(divisor=d.divisor, rounding=d.rounding)
        else:
            item.update(input=d.input, times=d.value, offset=d.offset)
        if d.group:
            item["group"] = d.group
        if d.after_roll:
            item["after_roll"] = list(d.after_roll)
        drms.append(item)
    bands = []
    for b in table.bands:
        band: dict[str, Any] = {
            "range": band_range(b),
            "lo": _plain(b.lo),
            "hi": _plain(b.hi),
            "result": b.result,
        }
        if b.notes:
            band["notes"] = list(b.notes)
        if b.follow_up:
            band["follow_up"] = list(b.follow_up)
        bands.append(band)
    out: dict[str, Any] = {
        "id": table.id,
        "title": table.title,
        "rule": table.rule,
        "dice": table.roll_name,
        "secret": table.secret,
        "read_on": table.by,
        "drms": drms,
        "bands": bands,
        "hash": content_hash(table),
    }
    if table.inputs:
        out["inputs"] = [_plain(i) for i in table.inputs]
    if table.lookups:
        out["lookups"] = [
            {"id": lk.id, "text": lk.text, "keys": list(lk.keys),
             "rows": [{"key": list(k), "value": v} for k, v in lk.rows]}
            for lk in table.lookups
        ]  # fmt: skip
    if table.specials:
        out["specials"] = [_plain(s) for s in table.specials]
    if table.amount is not None:
        out["amount"] = _plain(table.amount)
    if table.notes:
        out["notes"] = list(table.notes)
    if table.endpoint:
        out["endpoint"] = table.endpoint
    return {**out, **binding(table)}


def binding(table: Table) -> dict[str, Any]:
    """Who rolls ``table`` and when (``BINDING``), as its listing shows it."""
    out: dict[str, Any] = {}
    if table.sides:
        out["sides"] = list(table.sides)
    if table.from_date is not None:
        out["from_date"] = table.from_date
    if table.on_dates:
        out["on_dates"] = list(table.on_dates)
    if table.step is not None:
        out["step"] = table.step
    return out


def registry(*tables: Table) -> Mapping[str, Table]:
    """A ruleset's tables by id; refuses duplicates and dangling follow-ups."""
    by_id: dict[str, Table] = {}
    for t in tables:
        if t.id in by_id:
            raise ValueError(f"table {t.id} is defined twice")
        by_id[t.id] = t
    for t in tables:
        for b in t.bands:
            for f in b.follow_up:
                if f not in by_id:
                    raise ValueError(f"{t.id}: follow-up table {f} is not defined")
    return MappingProxyType(by_id)


# ---------------------------------------------------------------- shorthands
# for the data modules: le(8, "Escapes") is "≤ 8", span(9, 10, ...) is "9-10".


def le(hi: int | Ref, result: str, *notes: str, follow_up: tuple[str, ...] = ()) -> Band:
    return Band(None, hi, result, notes, follow_up)


def ge(lo: int | Ref, result: str, *notes: str, follow_up: tuple[str, ...] = ()) -> Band:
    return Band(lo, None, result, notes, follow_up)


def eq(n: int, result: str, *notes: str, follow_up: tuple[str, ...] = ()) -> Band:
    return Band(n, n, result, notes, follow_up)


def span(
    lo: int | Ref, hi: int | Ref, result: str, *notes: str, follow_up: tuple[str, ...] = ()
) -> Band:
    return Band(lo, hi, result, notes, follow_up)


def fixed(
    id: str, value: int, text: str, *, group: str = "", after_roll: tuple[int, ...] = ()
) -> DrmDef:
    return DrmDef(id, text, "fixed", value, group=group, after_roll=after_roll)


def per(
    id: str,
    value: int,
    text: str,
    *,
    counts: str,
    divisor: int = 1,
    rounding: Rounding = "FRD",
    excess_over: int = 0,
    group: str = "",
) -> DrmDef:
    return DrmDef(id, text, "per", value, counts, divisor, rounding, excess_over, group=group)


def valued(
    id: str,
    text: str,
    *,
    times: int = 1,
    divisor: int = 1,
    rounding: Rounding = "FRD",
    group: str = "",
    means: str = "",
) -> DrmDef:
    """``means`` says what the player gives as x, sign included."""
    return DrmDef(id, text, "valued", times, means, divisor=divisor, rounding=rounding, group=group)


def every(result: str, *notes: str) -> Band:
    """One band for every result (an amount table such as 8.616)."""
    return Band(None, None, result, notes)


def from_input(id: str, text: str, input: str, *, offset: int = 0, times: int = 1) -> DrmDef:
    return DrmDef(id, text, "input", times, input=input, offset=offset)


# ---------------------------------------------------------------- audit


def table_hash(data: Mapping[str, Any]) -> str:
    """The content hash of a recorded definition (equals ``content_hash``)."""
    return hashlib.sha256(b"cgledger/v1/table\n" + canon(data)).hexdigest()


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
        if d.kind == "per":
            requests.append(DrmRequest(d.id, count=a["count"]))
        elif d.kind == "valued":
            requests.append(DrmRequest(d.id, value=a["x"]))
        elif d.kind == "fixed":
            requests.append(DrmRequest(d.id))
    return requests


def audit(
    data: Mapping[str, Any], dice: Sequence[int], recorded: Mapping[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """Re-read a table roll from the recorded definition, the recorded dice,
    DRMs and inputs. Returns the recomputed result and the fields that differ
    from ``recorded`` (empty when the record is consistent)."""
    table = from_definition(data)
    result = resolve(table, dice, requests_from(table, recorded["drm"]), recorded["inputs"])
    differs = [k for k in ("original", "drm", "final", "outcome") if result[k] != recorded.get(k)]
    return result, differs
