"""The one interface every ruleset (KGP, ABtF, SG, ...) implements.

A ruleset is a package under ``cgledger/domain/rulesets/`` that exports one
:class:`Ruleset` object named ``RULESET``: data (sides, campaigns and their CG
calendars, the RePh step sequence, the die tables, the CG definition model
and its sample) plus a :class:`Rules` object with the few rule functions the
engine calls (the roster arithmetic, the ruleset's own commands, the check it
makes before a new CG Date). The engine (``cgledger.domain.campaign``), the API and the
projections only talk to these types and never ask which ruleset they run: a
fourth HASL system is one new package and one :func:`cgledger.domain.rulesets.register`
call (``tests/test_fourth_ruleset.py`` plays one through the REST API).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel

from cgledger.domain.rulesets import readings as readingbook
from cgledger.domain.rulesets.facts import (
    ALL,
    CountedDrm,
    DateFacts,
    Facts,
    Lasting,
    ScheduledChange,
    SideDrm,
    TableRule,
)
from cgledger.domain.rulesets.interface import Action, Engine, Rules, SealedAct
from cgledger.domain.rulesets.paper import PaperForms
from cgledger.domain.rulesets.readings import Reading
from cgledger.domain.rulesets.sequence import (
    CHITS,
    IDLE,
    MARKERS,
    SCENARIO,
    CampaignDef,
    Initiative,
    RePhStep,
    bind_steps,
    period_date_key,
    period_date_normalizer,
)
from cgledger.domain.tables import Table

__all__ = [
    "ALL",
    "CHITS",
    "IDLE",
    "MARKERS",
    "SCENARIO",
    "Action",
    "CampaignDef",
    "CountedDrm",
    "DateFacts",
    "Engine",
    "Facts",
    "Initiative",
    "Lasting",
    "RePhStep",
    "Reading",
    "Rules",
    "Ruleset",
    "ScheduledChange",
    "SealedAct",
    "SideDrm",
    "TableRule",
    "bind_steps",
    "period_date_key",
    "period_date_normalizer",
]


@dataclass(frozen=True)
class Ruleset:
    id: str
    title: str
    sides: tuple[str, ...]
    campaigns: Mapping[str, CampaignDef]
    reph_steps: tuple[RePhStep, ...]
    normalize_date: Callable[[str], str | None]
    #: The RePh step that begins a new CG Date (e.g. KGP 8.612, 8.6121).
    new_date_step: str
    #: The rule that puts the steps in their numbered order (KGP 8.6, ABtF 9.6).
    sequence_rule: str
    #: The pydantic model of a CG definition (DESIGN §7) and its synthetic sample.
    definition: type[BaseModel]
    sample_definition: Mapping[str, Any]
    rules: Rules = field(default_factory=Rules)
    #: Every die table of the ruleset by id ("kgp:8.606-infantry"), as data.
    tables: Mapping[str, Table] = field(default_factory=lambda: MappingProxyType({}))
    #: Scenario types the Initiative Determination can generate (DESIGN §8).
    scenario_types: tuple[str, ...] = ()
    #: The Initiative matrix; ``None`` where the ruleset has no Initiative step.
    initiative: Initiative | None = None
    notes: str = ""
    #: Orders canonical CG Dates (``period_date_key``); needed only by a
    #: ruleset whose tables are rolled from a date on (``Table.from_date``).
    date_key: Callable[[str], tuple[int, int] | None] | None = None
    #: The table DRMs the ledger counts from the record (:class:`CountedDrm`).
    counted_drms: tuple[CountedDrm, ...] = ()
    #: The DRMs the roller states that only some sides may (:class:`SideDrm`).
    side_drms: tuple[SideDrm, ...] = ()
    #: Sides that take each step in turn, in this order, each completing a step
    #: before any moves on to the next (SG 1.2: "Both players (if applicable),
    #: American first, complete each step before moving on to the next step").
    lockstep: tuple[str, ...] = ()
    #: The table results that last (:class:`Lasting`).
    lasting: tuple[Lasting, ...] = ()
    #: When a table may or must be rolled, beyond its sides and dates (:class:`TableRule`).
    table_rules: tuple[TableRule, ...] = ()
    #: Where the seed is cut or contradicts its example, the choices the
    #: players may agree (DESIGN §14, :class:`Reading`); the CG definition's
    #: ``readings`` selects, and its model lists the same (``READINGS``).
    readings: tuple[Reading, ...] = ()
    #: Changes the rules give a lasting value on a CG Date without a roll
    #: (:class:`ScheduledChange`, ABtF 9.6152's SAN).
    scheduled: tuple[ScheduledChange, ...] = ()
    #: Its paper CG Roster and RG Purchase Record (DESIGN §12), if it names them.
    paper: PaperForms | None = None
    _step_index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        for i, step in enumerate(self.reph_steps):
            self._step_index[step.id] = i
        if self.new_date_step not in self._step_index:
            raise ValueError(f"{self.id}: {self.new_date_step} is not a RePh step")
        for step in self.reph_steps:
            for side in step.sides:
                if side not in self.sides:
                    raise ValueError(f"{self.id} {step.id}: unknown side {side!r}")
            if step.action is not None and step.action not in self.rules.actions:
                raise ValueError(f"{self.id} {step.id}: unknown action {step.action!r}")
            for kind in step.sealed:
                if kind not in self.rules.sealed_acts:
                    raise ValueError(f"{self.id} {step.id}: no sealed act {kind!r}")
        for table in self.tables.values():
            self._check_binding(table)
        for counted in self.counted_drms:
            found = self.tables.get(counted.table)
            drm = None if found is None else found.drm(counted.drm)
            if drm is None or drm.kind not in ("per", "valued", "fixed"):
                raise ValueError(f"{self.id}: no DRM {counted.drm} on {counted.table} to count")
            if any(side not in self.sides for side in counted.sides):
                raise ValueError(f"{self.id} {counted.drm}: unknown sides {counted.sides}")
        for only in self.side_drms:
            found = self.tables.get(only.table)
            if found is None or found.drm(only.drm) is None:
                raise ValueError(f"{self.id}: no DRM {only.drm} on {only.table}")
            if not only.sides or any(side not in self.sides for side in only.sides):
                raise ValueError(f"{self.id} {only.drm}: unknown sides {only.sides}")
            reading = None if only.reading is None else only.reading[0]
            found_reading = next((r for r in self.readings if r.id == reading), None)
            if only.reading is not None and (
                found_reading is None or only.reading[1] not in found_reading.choices
            ):
                raise ValueError(f"{self.id} {only.drm}: no reading choice {only.reading}")
        for lasting in self.lasting:
            found = self.tables.get(lasting.table)
            if found is None or len(lasting.changes) != len(found.bands):
                raise ValueError(f"{self.id}: {lasting.key} needs one change per band of its table")
            if lasting.start is not None and lasting.start not in {i.id for i in found.inputs}:
                raise ValueError(f"{self.id}: {lasting.table} has no input {lasting.start}")
        for table_rule in self.table_rules:
            if table_rule.table not in self.tables:
                raise ValueError(f"{self.id}: no table {table_rule.table} for {table_rule.rule}")
        self._check_readings()
        keys = {x.key for x in self.lasting if x.per_side}
        for change in self.scheduled:
            if change.key not in keys or change.side not in self.sides:
                raise ValueError(f"{self.id} {change.rule}: no {change.side} {change.key} lasts")
            if self.normalize_date(change.cg_date) != change.cg_date:
                raise ValueError(f"{self.id} {change.rule}: {change.cg_date!r} is no CG Date")
            if change.step not in self._step_index:
                raise ValueError(f"{self.id} {change.rule}: {change.step} is not a RePh step")
        if self.initiative is not None:
            pairs = {(a, b) for a in CHITS for b in CHITS}
            if len(self.sides) != 2 or set(self.initiative.matrix) != pairs:
                raise ValueError(f"{self.id}: the Initiative matrix needs every pair of chits")
            unknown = set(self.initiative.matrix.values()) - set(self.scenario_types)
            if unknown:
                raise ValueError(f"{self.id}: unknown scenario types {sorted(unknown)}")
            self._check_initiative(self.initiative)

    def _check_readings(self) -> None:
        readingbook.check(self.readings)
        listed = tuple(getattr(self.definition, "READINGS", ()))
        if listed != self.readings:
            raise ValueError(f"{self.id}: the definition model's READINGS are not the readings")

    def readings_in_force(self, chosen: Mapping[str, str] | None) -> dict[str, str]:
        """Every reading's choice under a definition's ``readings`` (DESIGN §14):
        the one it names, else the default."""
        return readingbook.in_force(self.readings, chosen)

    def _check_initiative(self, ini: Initiative) -> None:
        if ini.step is not None and ini.step not in self._step_index:
            raise ValueError(f"{self.id}: the Initiative step {ini.step} is not a RePh step")
        by_type = ini.setup_first_by_type
        if not set(by_type) <= set(self.scenario_types) - {ini.dual_attack}:
            raise ValueError(f"{self.id}: setup_first_by_type names an unknown scenario type")
        if not set(by_type.values()) <= set(self.sides):
            raise ValueError(f"{self.id}: setup_first_by_type names an unknown side")
        if ini.dual_attack_table is None:
            return
        table = self.tables.get(ini.dual_attack_table)
        if table is None or len(ini.setup_first) != len(table.bands):
            raise ValueError(f"{self.id}: setup_first needs one side per band of its table")
        if ini.dual_attack_roller not in self.sides or not set(ini.setup_first) <= set(self.sides):
            raise ValueError(f"{self.id}: the Dual Attack dr names an unknown side")

    def _check_binding(self, table: Table) -> None:
        if table.step not in (None, SCENARIO, *self._step_index):
            raise ValueError(f"{table.id}: {table.step!r} is not a {self.id} RePh step")
        unknown = [s for s in table.sides if s not in self.sides]
        if unknown:
            raise ValueError(f"{table.id}: unknown sides {unknown}")
        dates = [*table.on_dates, *([table.from_date] if table.from_date else [])]
        for date in dates:
            if self.normalize_date(date) != date:
                raise ValueError(f"{table.id}: {date!r} is not a canonical CG Date")
        if table.from_date is not None and (
            self.date_key is None or self.date_key(table.from_date) is None
        ):
            raise ValueError(f"{table.id}: from_date needs the ruleset's date_key")

    def lasting_of(self, table_id: str) -> tuple[Lasting, ...]:
        """The lasting results of table ``table_id``."""
        return tuple(x for x in self.lasting if x.table == table_id)

    def table_rules_of(self, table_id: str) -> tuple[TableRule, ...]:
        return tuple(x for x in self.table_rules if x.table == table_id)

    def counted(self, table_id: str) -> tuple[CountedDrm, ...]:
        """The DRMs of table ``table_id`` that the ledger counts."""
        return tuple(c for c in self.counted_drms if c.table == table_id)

    def side_drm(self, table_id: str, drm_id: str) -> SideDrm | None:
        """The sides-only DRM ``drm_id`` of table ``table_id`` the roller states, if so."""
        return next((x for x in self.side_drms if (x.table, x.drm) == (table_id, drm_id)), None)

    def rolled_on(self, table: Table, cg_date: str) -> bool:
        """Whether ``table``'s rule has it rolled on ``cg_date`` (DESIGN §8)."""
        if table.on_dates and cg_date not in table.on_dates:
            return False
        if table.from_date is None or self.date_key is None:
            return True
        now, first = self.date_key(cg_date), self.date_key(table.from_date)
        return now is not None and first is not None and now >= first

    def table(self, table_id: str) -> Table | None:
        """A table by its id, with or without the "<ruleset>:" prefix."""
        if ":" not in table_id:
            table_id = f"{self.id}:{table_id}"
        return self.tables.get(table_id)

    def step(self, step_id: str) -> RePhStep:
        if step_id == SCENARIO:
            return RePhStep(SCENARIO, "Ready for the CG scenario")
        return self.reph_steps[self._step_index[step_id]]

    def step_order(self, step_id: str) -> int:
        if step_id == SCENARIO:
            return len(self.reph_steps)
        return self._step_index[step_id]

    def step_applies(
        self,
        step: RePhStep,
        side: str,
        cg_date: str,
        *,
        initial: bool,
        scenario: str | None,
    ) -> bool:
        """Whether ``step`` is ``side``'s on ``cg_date`` (DESIGN §8): before the
        Initial Scenario only the '†' steps; a '‡' step not when the Initiative
        generated no scenario (Idle); a step from its first date on; and only
        for the sides it names."""
        if step.sides and side not in step.sides:
            return False
        if step.from_date is not None and self.date_key is not None:
            now, first = self.date_key(cg_date), self.date_key(step.from_date)
            if now is None or first is None or now < first:
                return False
        if initial:
            return "†" in step.markers
        return not ("‡" in step.markers and scenario == IDLE)
