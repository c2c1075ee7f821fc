"""What the ledger counts a DRM from, or decides a roll by (DESIGN §8): the
facts of the record (:class:`Facts`), the DRMs it counts
(:class:`CountedDrm`), the table results that last (:class:`Lasting`) and
when a table may or must be rolled (:class:`TableRule`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class DateFacts:
    """One CG Date played so far, as the record shows it (for :class:`Facts`)."""

    cg_date: str
    #: The scenario type its Initiative generated ("idle", "dual-attack", ...),
    #: "initial" for the Initial Scenario, ``None`` while not determined.
    scenario: str | None
    #: Each side's Initiative chit, once both were revealed.
    chits: Mapping[str, str]
    #: The CVP each side earned at its CG-Scenario End; ``None``: no end yet.
    cvp: Mapping[str, int] | None
    #: The side that won its scenario, as the CG-Scenario End recorded it
    #: (8.6032: the LVP row's ``winner``); ``None``: not recorded, or the
    #: rules did not decide and no side was stated.
    winner: str | None = None


@dataclass(frozen=True)
class Facts:
    """What the ledger counts a DRM from, or decides a roll by (DESIGN §8):
    the CG Date, the rolling side, the ruleset's state (``Campaign.rules``),
    the results that last (``Campaign.lasting``, see :class:`Lasting`), the
    optional rules the CG definition adopts, and every CG Date played so far,
    in order, the current one last; ``readings``: the choice of every reading
    of the ruleset under the definition in force (DESIGN §14, defaults filled in)."""

    cg_date: str
    side: str
    rules: Mapping[str, Any]
    lasting: Mapping[str, Any]
    options: frozenset[str]
    dates: tuple[DateFacts, ...]
    readings: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def since_last(self, scenario: str | None) -> tuple[DateFacts, ...]:
        """The CG Dates after the last one whose scenario type is ``scenario``
        (all of them if none was), the current one included."""
        last = max((i for i, d in enumerate(self.dates) if d.scenario == scenario), default=-1)
        return self.dates[last + 1 :]

    @property
    def scenario(self) -> str | None:
        """The scenario type of the current CG Date ("initial", "idle",
        "dual-attack", ...; ``None`` while its Initiative is not determined)."""
        return self.dates[-1].scenario if self.dates else None

    def last(self, key: str, *, before: bool = False) -> dict[str, Any] | None:
        """The last recorded value of a lasting result (``Lasting.key``) of the
        rolling side (or the campaign's), optionally only one recorded before
        the current CG Date: ``{"value", "cg_date", "seq"}``."""
        entry = self.lasting.get(key, {})
        found = entry.get(self.side, entry.get(ALL))
        if found is None or (before and found["cg_date"] == self.cg_date):
            found = (found or {}).get("before")
        return None if found is None else dict(found)


#: The key of a lasting result that is the campaign's rather than a side's.
ALL = "*"


@dataclass(frozen=True)
class CountedDrm:
    """A DRM of a table that the ledger counts from the record (DESIGN §8): e.g.
    8.6201's "Per day after Dec 19 N" from the CG Date, ABtF's Campaign
    Exhaustion DRM from the 9.6161 chart, 8.610's "-1 If German" from the
    rolling side (issue 26 item 3).

    ``count(facts)`` gives, from what the record shows (:class:`Facts`), the
    DRM's count (a ``per`` DRM), its x (a ``valued`` one), or 1 or 0 for
    whether a ``fixed`` one applies (8.6146's "If Ammunition Shortage [8.618]
    is already in effect"); ``None`` where the record cannot tell (the
    roller's own DRM then stands). ``reading``: how the rule text was read
    where only one reading is sane (one the players may choose is a ``Reading``,
    DESIGN §14, which ``count`` reads from ``Facts.readings``).

    Where ``count`` decides it, the ledger applies it to a side's roll and
    the side may not state it (422 "<rule>: <drm> is computed by the ledger;
    do not state it", even with the ledger's number): the roll's DRM lists
    it with ``"by": "ledger"``. ``sides``: the sides it applies to (empty:
    every side); another side that names it is refused (422), and the
    referee's ruling gets it only where it applies to every side. The
    referee's ruling may name any of them (a ruling), with the ledger's
    number only.
    """

    table: str
    drm: str
    rule: str
    count: Callable[[Facts], int | None]
    sides: tuple[str, ...] = ()
    reading: str = ""
    #: Counted from the rolling side's own record (9.6202 "Per Attack Chit
    #: selected by that side"): a referee's ruling, which has no side, names it.
    by_side: bool = False
    #: The ledger's count is the least the count can be (a ``per`` DRM): the
    #: roller may state a larger one, for what the ledger does not record
    #: (9.6202: "including CVP awarded thus far during this RePh"), never a
    #: smaller one. Left out, the ledger's count applies. A function of the
    #: facts says when (9.6202: only after a CG Scenario, whose RePh may award
    #: CVP; before any, the count is 0 exactly).
    at_least: bool | Callable[[Facts], bool] = False
    #: Its count depends only on what an export shows at the roll's event: the
    #: CG Date (and its light), the rolling side and the readings in force
    #: (``Facts.cg_date``, ``side``, ``readings``), never on the rest of the
    #: record. ``cgledger verify`` recomputes it for each roll that records
    #: the ledger's counts (``counted``, ``cgledger.verify_counted``).
    dated: bool = False

    def at_least_now(self, facts: Facts) -> bool:
        """Whether the ledger's count is only the least on these facts (``at_least``)."""
        return self.at_least(facts) if callable(self.at_least) else self.at_least

    def applies_to(self, side: str) -> bool:
        """Whether it is a DRM of ``side``'s rolls (``sides``; empty: every side's)."""
        return not self.sides or side in self.sides

    def decided(self, facts: Facts, *, referee: bool) -> int | None:
        """What the ledger decides of it for a roll of ``facts.side`` (the
        roll's ``counted``, issue 26 item 3): its count (a ``per`` DRM), its x
        (a ``valued`` one) or 1/0 (a ``fixed`` one applies or not); 0 for
        another side's DRM (it does not apply, and the side may not state
        it). ``None`` where the ledger decides nothing: the record cannot tell
        (``count`` is ``None``), or the referee's ruling names it (a DRM of
        some sides only, or one counted from the rolling side's own record,
        ``by_side``)."""
        if referee and (self.by_side or self.sides):
            return None
        if not referee and not self.applies_to(facts.side):
            return 0
        return self.count(facts)


@dataclass(frozen=True)
class SideDrm:
    """A DRM that the rule text gives only some sides' rolls of a table that
    every side rolls, and that the roller states because the record cannot
    tell whether it applies (ABtF 9.6183's German RG types on the shared
    (Armor) column; KGP 8.6206's "If the RG is Depleted (NA to U.S.)"). As a
    :class:`CountedDrm`'s ``sides``: another side that names it is refused
    (422 naming ``rule``, issue 26 item 3: "A side DRM stated by the other
    side is 422"); the referee's ruling may name it. ``reading``: where
    whether it is the sides' only is a reading (DESIGN §14), its id and the
    choice under which it is; else always."""

    table: str
    drm: str
    rule: str
    sides: tuple[str, ...]
    reading: tuple[str, str] | None = None

    def in_force(self, readings: Mapping[str, str]) -> bool:
        """Whether only ``sides`` may state it under the ``readings`` in force."""
        if self.reading is None:
            return True
        found = readings.get(self.reading[0])
        return found == self.reading[1]


@dataclass(frozen=True)
class Lasting:
    """A table result that lasts (DESIGN §8): it becomes campaign state, shown
    with the campaign and its roster and in ``?at=`` reads, e.g. 8.6122's "A
    Final dr of ≥ 5 immediately reduces that side's current SAN by two".

    ``changes``, by band of the table: an int adds to the value (SAN -2, ELR
    +1), a string sets it (the weather's result), ``None`` leaves it. ``start``:
    the table input that states the value before the roll (8.6122's current
    SAN), else the value in force (``initial`` before the first roll; ``None``
    for an unknown one, whose changes then add up from 0 and are shown as a
    change). ``per_side``: the roller's own value, else the campaign's (the
    weather). Only a side's public roll in its RePh step changes it; a referee's ruling
    roll does not (it belongs to no side)."""

    table: str
    key: str
    rule: str
    changes: tuple[int | str | None, ...]
    per_side: bool = True
    start: str | None = None
    initial: int | str | None = None
    #: The CG definition's field (``{side: value}``) that gives a side's value
    #: at the CG's start (the SAN of the CG's OB, 8.6122/9.6122; SSR CG 17's
    #: Ammunition Shortage Level): the ledger then knows the value from the
    #: creation on (``cgledger.domain.rulesets.kept``).
    definition: str | None = None
    #: ``(floor, rule)``: at each new CG Date a known value below ``floor`` is
    #: raised to it (8.6122/9.6122: "A side whose SAN is currently < 2 has it
    #: automatically raised to 2").
    raised_to: tuple[int, str] | None = None


@dataclass(frozen=True)
class TableRule:
    """What a ruleset's rule text says of one table beyond its sides, dates and
    step (DESIGN §8). ``refuse(facts)``: why it may not be rolled now, if so
    (9.6201 "not performed if the previous CG Date was Idle"; 8.6171 only by
    the players' consent), the reason starting with ``rule``. ``required(facts)``:
    whether the side must roll it before its step is passed (9.6201's British
    DR; 8.6122's "must make a dr" when the side's SAN is ≥ 4). ``once``: a
    side makes it once per CG Date (a SAN, the weather, an ELR are rolled for
    the date, not per unit)."""

    table: str
    rule: str
    refuse: Callable[[Facts], str | None] | None = None
    required: Callable[[Facts], bool] | None = None
    once: bool = False


@dataclass(frozen=True)
class ScheduledChange:
    """A change the rules give a lasting value (``Lasting.key``) of one side on
    one CG Date, without a roll (DESIGN §8): ABtF 9.6152's "SAN +2", received
    in the RePh step ``step`` of that date (so never before the Initial
    Scenario, whose OB is the CG's own) and in force from the start of the
    first CG Scenario on or after it ("effective at start of scenario", 9.6152
    notes 4 and 5). ``maximum``/``minimum``: a rise stops at ``maximum``, a
    fall at ``minimum`` (notes 4, 5: "SAN 7 maximum", "SAN 2 minimum"); a value
    already beyond it is left as it is. Applied where the value is known; else
    shown as a change, as a lasting result with an unknown start is."""

    key: str
    side: str
    cg_date: str
    change: int
    rule: str
    step: str
    maximum: int | None = None
    minimum: int | None = None
    note: str = ""
