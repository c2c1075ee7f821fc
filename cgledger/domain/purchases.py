"""Purchases from a CG's own charts (docs/DESIGN.md §10): the RG chart's price
and limits, the RG Purchase Record with the rolls that determine each RG, FPP
and the Fortification Purchase Table.

Pure bookkeeping, shared by every ruleset that buys RG with CPP: no ruleset is
named here. A ruleset describes its rules with a :class:`PurchaseRules` (rule
numbers, price modifiers, which rolls an RG needs, its Fortification Purchase
Table) and keeps the rows in its own state; the functions below check a
purchase against the chart and build the record a viewer may see.

Units: FPP are counted in halves (``*_halves``), because one Fortification
Purchase Table prices a factor at 1.5 FPP; everything shown is in FPP.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict, cast

from cgledger.domain.errors import InvalidInput, RuleViolation

# ---------------------------------------------------------------- rule data


@dataclass(frozen=True)
class PriceModifier:
    """A change to an RG's listed CPP cost that the purchaser may choose
    (8.6194a Standard On-Map Setup, 8.6194b Early Entry): ``percent`` more,
    rounded by ``rounding`` ("FRD" or "FRU"), for the ``sides`` and the RG
    whose ID begins with one of ``prefixes``. Where the amount is a reading
    (DESIGN §14: 8.6194a is cut), ``amount_reading`` names it and ``amounts``
    gives ``(choice, percent, rounding)`` for each of its choices."""

    id: str
    rule: str
    title: str
    percent: int
    rounding: str
    sides: tuple[str, ...]
    prefixes: tuple[str, ...]
    reading: str = ""
    amount_reading: str | None = None
    amounts: tuple[tuple[str, int, str], ...] = ()
    #: Where the RG it is for are a reading (8.6194a), its id and the
    #: ``prefixes`` of each choice (``("",)``: every RG of the sides).
    prefixes_reading: str | None = None
    prefixes_by_choice: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def prefixes_in_force(self, readings: Mapping[str, str] | None = None) -> tuple[str, ...]:
        """The ID prefixes of the RG it is for under the ``readings`` in force."""
        choice = (readings or {}).get(self.prefixes_reading or "")
        return dict(self.prefixes_by_choice).get(choice or "", self.prefixes)

    def applies(self, side: str, rg_id: str, readings: Mapping[str, str] | None = None) -> bool:
        return side in self.sides and rg_id.startswith(self.prefixes_in_force(readings))

    def amount(self, readings: Mapping[str, str] | None = None) -> tuple[int, str]:
        """The percent and rounding under the ``readings`` in force."""
        choice = (readings or {}).get(self.amount_reading or "")
        for name, percent, rounding in self.amounts:
            if name == choice:
                return percent, rounding
        return self.percent, self.rounding

    def apply(self, cost: int, readings: Mapping[str, str] | None = None) -> int:
        percent, rounding = self.amount(readings)
        extra = cost * percent
        return cost + (extra // 100 if rounding == "FRD" else -(-extra // 100))


@dataclass(frozen=True)
class Need:
    """One roll an RG on the record still needs (8.6201-8.6206, 9.6181-9.6184):
    ``key`` names the column it fills (``strength``, ``sw.1``, ``leader``),
    ``table`` the table it is read on. ``drms``: the DRM ids the ledger applies
    from the RG's own record (e.g. ``depleted``); ``decides``: DRM ids only
    the ledger may state for this roll (applied or not, never the client's).
    ``values``: what each band of the table writes in the column (by band
    index), or empty to write the band's result."""

    key: str
    table: str
    rule: str
    label: str
    drms: tuple[str, ...] = ()
    decides: tuple[str, ...] = ()
    inputs: Mapping[str, Any] = field(default_factory=dict)
    values: tuple[Any, ...] = ()
    #: the SW or Equipment piece a per-item roll is for
    subject: str = ""
    #: the RePh step the roll is made in (``None``: ``PurchaseRules.determine``)
    step: str | None = None


@dataclass(frozen=True)
class FortType:
    """A line of the Fortification Purchase Table (8.621, 9.619).

    ``cost_halves``: the FPP cost per item, in halves, per side (a side left
    out may not buy it). ``flags``: the table's footnote letters that limit
    where it may be set up (8.621: "F" Front-Line Hex, "i" Isolated Location,
    "S" Setup Area with Retained squad-equivalents). ``per_fortification``:
    how many items count as one Fortification for footnote S (a minefield of
    6 A-P or 2 A-T factors [or part thereof]; a foxhole's squad capacity).
    ``mine``: 8.6073 reveals a minefield's presence but not its strength/type.
    """

    id: str
    name: str
    cost_halves: Mapping[str, int]
    flags: str = ""
    per_fortification: int = 1
    counts_as: int = 1
    mine: bool = False


@dataclass(frozen=True)
class FortTable:
    rule: str
    title: str
    types: tuple[FortType, ...]
    notes: tuple[str, ...] = ()

    def get(self, type_id: str) -> FortType | None:
        for t in self.types:
            if t.id == type_id:
                return t
        return None


#: What a Strength roll writes in the record, by band: Full or Depleted (8.6201, 9.6181).
FULL_DEPLETED = ("F", "D")
#: What a Depleted platoon's dr for one SW or Equipment piece writes, by band (8.6204, 9.6182).
RECEIVED_FORFEIT = ("received", "forfeit")


@dataclass(frozen=True)
class PurchaseRules:
    """A ruleset's purchase rules by number.

    ``price``: the CPP cost rule (8.6194); ``date_max`` and ``cg_max``: the
    limits (8.6195/8.6196); ``per_map_group``: the CG Date maximum counts per
    Map Group (8.6195) rather than per CG Date (9.6175); ``record``: the RG
    Purchase Record (8.6198); ``buy``: the purchase step (8.619);
    ``determine``: the RePh step whose rolls determine the RG (8.620);
    ``needs``: which rolls an RG on the record still needs, under the readings
    in force (DESIGN §14; a reading left out takes its default);
    ``fortify``: the Fortification step and its table (8.621);
    ``place``: the step that records Fortification setup Locations (8.6242);
    ``hidden``: the rule that places hidden Fortifications in the opponent's
    Setup Area on-map (8.6073)."""

    buy: str
    price: str
    date_max: str
    cg_max: str
    record: str
    determine: str
    per_map_group: bool = False
    modifiers: tuple[PriceModifier, ...] = ()
    needs: Callable[[str, Mapping[str, Any], Row, Mapping[str, str]], list[Need]] | None = None
    fortify: str | None = None
    fort_table: FortTable | None = None
    place: str | None = None
    hidden: str | None = None
    #: the RePh step 8.6073 belongs to (8.607)
    hidden_step: str | None = None
    #: the fewest Equipment pieces a Depleted RG receives, and the rule that says
    #: so (8.6205 EXC), shown as the row's ``note`` when its drs gave fewer
    fewest_pieces: tuple[int, str] | None = None
    #: the SW and Equipment a Full-Strength RG receives: ``{"sw": [...], "equipment": [...]}``
    complement: Callable[[str, Mapping[str, Any], Row], dict[str, list[str]]] | None = None
    #: every table a determination roll may be read on (defined at once for a
    #: secret purchase's first roll)
    tables: tuple[str, ...] = ()
    #: what each band of a need writes in the record, by need key or by a key
    #: prefix ending in "." (``sw.``: every SW piece); the band's result text
    #: otherwise. The same tuples are the ``Need.values``; ``cgledger verify``
    #: reads them here, where it has no ``Need``.
    written: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def written_by(self, need: str) -> tuple[str, ...] | None:
        found = self.written.get(need)
        if found is None and "." in need:
            found = self.written.get(need.split(".", 1)[0] + ".")
        return found


# ---------------------------------------------------------------- the record


class Row(TypedDict):
    """One line of the RG Purchase Record: an RG bought (or given in the
    Initial-Scenario OB, ``ob``) and what its rolls determined (``results``,
    by column key: ``{"value", "result", "final", "seq"}``)."""

    seq: int
    item: int
    cg_date: str
    rg: str
    cpp: int
    map_group: str | None
    modifiers: list[str]
    ob: bool
    results: dict[str, dict[str, Any]]
    name: str
    secret: bool
    fpp: int | None
    #: 8.6198's Objective Hex, where one was recorded
    objective_hex: NotRequired[str | None]


def new_row(
    seq: int,
    item: int,
    cg_date: str,
    rg: str,
    cpp: int,
    map_group: str | None,
    modifiers: Sequence[str] = (),
    *,
    ob: bool = False,
    name: str = "",
    secret: bool = False,
    fpp: int | None = None,
) -> Row:
    return Row(
        seq=seq,
        item=item,
        cg_date=cg_date,
        rg=rg,
        cpp=cpp,
        map_group=map_group,
        modifiers=list(modifiers),
        ob=ob,
        results={},
        name=name,
        secret=secret,
        fpp=fpp,
    )


def price(
    rules: PurchaseRules,
    side: str,
    entry: Mapping[str, Any],
    chosen: Sequence[str],
    readings: Mapping[str, str] | None = None,
) -> tuple[int, list[str]]:
    """The RG's CPP cost (8.6194) after the modifiers the purchaser chose, at
    the amounts of the ``readings`` in force (DESIGN §14). Returns the cost
    and the modifiers applied; a modifier that does not apply to this RG is 422."""
    cost = int(entry["cpp"])
    applied: list[str] = []
    for mod_id in chosen:
        mod = next((m for m in rules.modifiers if m.id == mod_id), None)
        if mod is None:
            known = ", ".join(m.id for m in rules.modifiers) or "none"
            raise InvalidInput(
                f"{rules.price}: no CPP-cost modifier {mod_id!r} (this CG has: {known})",
                field="modifiers",
            )
        if not mod.applies(side, entry["id"], readings):
            raise InvalidInput(
                f"{mod.rule}: {mod.title} is for {'/'.join(mod.sides)} RG whose ID begins "
                f"with {', '.join(repr(p) for p in mod.prefixes_in_force(readings))}, not "
                f"{entry['id']}"
                + (f" (the reading '{mod.prefixes_reading}')" if mod.prefixes_reading else ""),
                field="modifiers",
                rule=mod.rule,
            )
        if mod_id in applied:
            raise InvalidInput(f"{mod.rule}: {mod.title} is named twice", field="modifiers")
        cost = mod.apply(cost, readings)
        applied.append(mod_id)
    return cost, applied


def check_limits(
    rules: PurchaseRules,
    side: str,
    entry: Mapping[str, Any],
    rows: Sequence[Row],
    cg_date: str,
    map_group: str | None,
    adding: int,
) -> None:
    """8.6195/8.6196 (9.6175/9.6176): ``adding`` more RG of this chart entry
    stay within the CG Date maximum (per Map Group where the rule says so)
    and the CG maximum. RG given in an Initial-Scenario OB never count."""
    key = entry_key(entry)
    bought = [r for r in rows if r["rg"] == key and not r["ob"]]
    cg_max = entry.get("cg_max")
    if cg_max is not None and len(bought) + adding > cg_max:
        raise RuleViolation(
            f"{rules.cg_max}: CG maximum for {key} ({cg_max}) reached"
            + (f" ({len(bought)} bought)" if len(bought) < cg_max else ""),
            rule=rules.cg_max,
        )
    date_max = entry.get("per_date_max")
    if date_max is None:
        return
    today = [
        r
        for r in bought
        if r["cg_date"] == cg_date and (not rules.per_map_group or r["map_group"] == map_group)
    ]
    if len(today) + adding > date_max:
        where = f" on map group {map_group}" if rules.per_map_group and map_group else ""
        raise RuleViolation(
            f"{rules.date_max}: CG Date maximum for {key} ({date_max}) reached on {cg_date}{where}",
            rule=rules.date_max,
        )


def entry_key(entry: Mapping[str, Any]) -> str:
    """How purchases name a chart entry (``RGEntry.key``): its ID, or for an
    entry of a KG (9.6178) ``I1(K)``."""
    kg = entry.get("kg")
    return str(entry["id"]) if kg is None else f"{entry['id']}({kg})"


def find_entry(chart: Sequence[Mapping[str, Any]], key: str) -> Mapping[str, Any] | None:
    for entry in chart:
        if entry_key(entry) == key:
            return entry
    return None


def missing(
    rules: PurchaseRules,
    side: str,
    entry: Mapping[str, Any],
    row: Row,
    readings: Mapping[str, str] | None = None,
) -> list[Need]:
    """The rolls the row still needs, in the order they are made, under the
    ``readings`` in force (DESIGN §14; left out: every default)."""
    if rules.needs is None:
        return []
    return [n for n in rules.needs(side, entry, row, readings or {}) if n.key not in row["results"]]


def result_value(need: Need, band: int, result: str) -> Any:
    if need.values:
        return need.values[band]
    return result


# ---------------------------------------------------------------- fortifications


def fort_cost_halves(table: FortTable, side: str, items: Sequence[tuple[str, int]]) -> int:
    """The FPP cost (in halves) of ``items`` (type id, count) at ``side``'s
    prices; an unknown type, or one the side may not buy, is 422."""
    total = 0
    for i, (type_id, count) in enumerate(items):
        found = table.get(type_id)
        if found is None:
            known = ", ".join(t.id for t in table.types)
            raise InvalidInput(
                f"{table.rule}: no Fortification type {type_id!r} (the table has: {known})",
                field=f"items.{i}.type",
            )
        cost = found.cost_halves.get(side)
        if cost is None:
            raise InvalidInput(
                f"{table.rule}: {found.name} is not for the {side} side",
                field=f"items.{i}.type",
                rule=table.rule,
            )
        total += cost * count
    return total


def fpp(halves: int) -> int | float:
    """FPP as shown: a whole number, or a half (1.5 FPP a factor)."""
    return halves // 2 if halves % 2 == 0 else halves / 2


def fortifications_counted(table: FortTable, type_id: str, amount: int) -> int:
    """8.621 footnote S: how many Fortifications ``amount`` items of a type
    count as in one Location ("each 6-A-P/2-A-T factor minefield [or part
    thereof], and each '1S' foxhole capacity, as one Fortification")."""
    found = table.get(type_id)
    assert found is not None
    return found.counts_as * -(-amount // found.per_fortification)


def check_determined(rules: PurchaseRules, values: Mapping[str, Any]) -> str | None:
    """Offline check (``cgledger verify``): what a determination roll wrote in
    its row follows from the band the table gave (8.620, 9.618): ``F``/``D``,
    received/forfeit, the "*" dr's SW, or the band's result."""
    band = values["outcome"]["band"]
    text = values["outcome"]["text"]
    if values.get("band") != band or values.get("result") != text:
        return f"{rules.determine}: the table gives band {band} ({text}), not what is recorded"
    need = str(values["need"])
    fixed = rules.written_by(need)
    expected = text if fixed is None else fixed[band]
    if values.get("value") != expected:
        return (
            f"{rules.determine}: band {band} of {values['rule']} writes {expected!r} in "
            f"{need}, but {values.get('value')!r} is recorded"
        )
    return None


def needs_of_key(
    rules: PurchaseRules,
    side: str,
    entry: Mapping[str, Any],
    row: Row,
    readings: Mapping[str, str],
    key: str,
    results: Callable[[str], Sequence[str]],
    depth: int = 3,
) -> list[Need]:
    """Offline check (``cgledger verify``): the rolls of column ``key`` the RG
    of ``row`` may need under its chart line ``entry`` and the ``readings`` in
    force, each with the table it must be read on (8.6201-8.6206: the 8.6206
    column of ``leader-columns``, 8.6203's ``determination_table``; 9.6182's
    ``sw_columns``). The row's results decide it where the export shows them;
    where it does not (a roll sealed from the viewer), each result the table
    may give (``results``: a table's band results) is tried for the rolls
    still missing, ``depth`` deep. Empty: the RG needs no such roll."""
    if rules.needs is None:
        return []
    found = [n for n in rules.needs(side, entry, row, readings) if n.key == key]
    todo = missing(rules, side, entry, row, readings)
    if found or depth == 0 or not todo:
        return found
    first = todo[0]
    for band, result in enumerate(results(first.table)):
        then = cast(Row, {**row, "results": dict(row["results"])})
        then["results"][first.key] = {"value": result_value(first, band, result), "band": band}
        found += needs_of_key(rules, side, entry, then, readings, key, results, depth - 1)
    return found
