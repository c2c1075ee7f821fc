"""Rule tables as data (DESIGN §8): the immutable :class:`Table` and its
parts, the static checks every table passes when it is built, a ruleset's
registry of them, and the shorthands its ``*tables`` data modules write
them with. The one resolver that reads a table is :mod:`cgledger.domain.tables`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

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


def band_range(band: Band) -> str:
    """A band's range as the table prints it: "≤ 8", "9-10", "≥ 12"."""

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


# ---------------------------------------------------------------- a ruleset's tables


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
