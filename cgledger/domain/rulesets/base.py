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

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from cgledger.domain.errors import InvalidInput
from cgledger.domain.tables import Table
from cgledger.domain.territory import NML, ControlState, MapGroupData

if TYPE_CHECKING:
    from cgledger.domain.context import Ctx

#: The pseudo-step after the last RePh step: the side is ready for the CG
#: scenario (DESIGN §8, ``{"to": "scenario"}``).
SCENARIO = "scenario"
#: The scenario type of two Idle chits (8.6232 note 2, 9.62132 note 2).
IDLE = "idle"

#: RePh step markers, as the rule texts print them (KGP 8.6, ABtF 9.6):
#: "§" the step reaches CG-Scenario End, "†" the only steps before an Initial
#: Scenario, "‡" only when a non-Initial scenario will be played, "*" repeated
#: on Idle dates until a scenario is generated.
MARKERS = ("§", "†", "‡", "*")


@dataclass(frozen=True)
class RePhStep:
    """One numbered step of the Refit Phase sequence, as the rulebook lists it.

    ``sides``: the sides that act in it (empty: every side). ``joint``: both
    sides take it together (New CG Date, Initiative). ``action``: the id of the
    ruleset action (:class:`Action`) that must be done before the step can be
    passed, if any. ``from_date``: the first CG Date it applies on (``None``:
    every date). ``reading``: where the OCR lost or garbled a marker, the
    reading taken and why.
    """

    id: str
    title: str
    markers: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()
    joint: bool = False
    action: str | None = None
    from_date: str | None = None
    reading: str = ""

    def __post_init__(self) -> None:
        bad = [m for m in self.markers if m not in MARKERS]
        if bad:
            raise ValueError(f"{self.id}: unknown step markers {bad}")


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


@dataclass(frozen=True)
class Facts:
    """What the ledger counts a DRM from, or decides a roll by (DESIGN §8):
    the CG Date, the rolling side, the ruleset's state (``Campaign.rules``),
    the results that last (``Campaign.lasting``, see :class:`Lasting`), the
    optional rules the CG definition adopts, and every CG Date played so far,
    in order, the current one last."""

    cg_date: str
    side: str
    rules: Mapping[str, Any]
    lasting: Mapping[str, Any]
    options: frozenset[str]
    dates: tuple[DateFacts, ...]

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
    8.6201's "Per day after Dec 19 N" from the CG Date, or ABtF's Campaign
    Exhaustion DRM from the 9.6161 chart.

    ``count(facts)`` gives, from what the record shows (:class:`Facts`), the
    DRM's count (a ``per`` DRM), its x (a ``valued`` one), or 1 or 0 for
    whether a ``fixed`` one applies (8.6146's "If Ammunition Shortage [8.618]
    is already in effect"); ``None`` where the record cannot tell (the
    roller's own DRM then stands). ``reading``: how the rule text was read,
    where it is ambiguous. The engine adds it
    to a side's roll when the roller leaves it out, and refuses a roll that
    names it with another number, or names a fixed one that does not apply
    (422, the detail starting with ``rule``). ``sides``: the sides it applies
    to (empty: every side); another side may not name it, and the referee's
    ruling gets it only where it applies to every side.
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
class CampaignDef:
    """One CG of a ruleset and its CG Date sequence.

    ``calendar`` holds every CG Date the seed text gives for this CG, in order.
    ``initial_date`` is the date of the CG's Initial Scenario; ``None`` means the
    seed does not say, so whoever creates the campaign passes a start date.
    ``extendable`` CGs accept further CG Dates beyond the calendar, named by the
    players when they begin them.
    """

    name: str
    rule: str
    calendar: tuple[str, ...]
    initial_date: str | None
    extendable: bool = False
    notes: str = ""


CHITS = ("attack", "idle")


@dataclass(frozen=True)
class Initiative:
    """The Initiative matrix (KGP 8.6232, ABtF 9.62132): the scenario type each
    pair of chits generates. ``matrix`` is keyed by the chits in the order of
    the ruleset's ``sides``."""

    rule: str
    matrix: Mapping[tuple[str, str], str]
    #: The RePh step that holds it (8.623; ABtF's 9.621 holds 9.6213): a side
    #: that chooses its chit has reached that step.
    step: str | None = None
    #: The rule that limits a side's Attack Chits over the CG (8.6231, 9.62131);
    #: the limits are the CG definition's ``attack_chits``.
    limit_rule: str = ""
    #: A Dual Attack's setup dr (8.6233a, 9.62133a): the scenario type that
    #: calls for it, its table, the side whose dr it is, and the side that sets
    #: up first for each band of the table.
    dual_attack: str = "dual-attack"
    dual_attack_table: str | None = None
    dual_attack_roller: str | None = None
    setup_first: tuple[str, ...] = ()

    def scenario(self, chits: tuple[str, str]) -> str:
        return self.matrix[chits]


class Engine(Protocol):
    """What a ruleset's command may use of the campaign aggregate."""

    @property
    def cid(self) -> str: ...

    @property
    def ruleset_id(self) -> str: ...

    @property
    def campaign_name(self) -> str: ...

    @property
    def cg_date(self) -> str: ...

    @property
    def sides(self) -> list[str]: ...

    @property
    def rules(self) -> dict[str, Any]: ...

    def require_side(self, ctx: Ctx, side: str | None) -> str: ...

    def check_step_order(self, side: str, step: str, *, ruling: bool = False) -> None: ...

    def check_binding(self, ctx: Ctx, table: Table) -> None: ...

    def table(self, table_id: str) -> Table: ...

    def roll_on(
        self,
        ctx: Ctx,
        table: Table,
        drm: list[Any],
        inputs: dict[str, Any],
        *,
        secret: bool,
        client_nonce: str | None,
        purpose: str | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any] | None, dict[str, Any]]: ...

    def define_tables(self, ctx: Ctx, tables: Sequence[Table]) -> None: ...

    def definition_doc(self) -> dict[str, Any]: ...

    def setup_areas_view(self, map_group: str | None) -> dict[str, Any]: ...

    def is_initial_date(self) -> bool: ...

    def current_step(self, side: str) -> str: ...

    def step_passed(self, side: str, step: str) -> bool: ...

    def rule_payload(self, side: str, step: str) -> dict[str, Any]: ...

    def with_counted_drms(self, ctx: Ctx, table: Table, drm: list[Any]) -> list[Any]: ...

    def facts(self, side: str) -> Facts: ...

    def options(self) -> frozenset[str]: ...

    def append(
        self,
        ctx: Ctx,
        kind: str,
        payload: dict[str, Any],
        values: dict[str, Any],
        *,
        owner: str | None,
    ) -> int: ...


@dataclass(frozen=True)
class Action:
    """A command of the ruleset, served at ``POST /v1/campaigns/{id}/{path}``.

    ``body`` is the pydantic model of its request body; ``run`` checks the
    rule, rolls and appends, and returns the seq of its main event.
    ``operation`` names the request in its Idempotency-Key fingerprint (the
    path, unless a log recorded it under another name before).
    """

    path: str
    rule: str
    summary: str
    body: type[BaseModel]
    run: Callable[[Engine, Ctx, Any], int]
    operation: str = ""


class Rules:
    """The rule functions the engine calls. The defaults are those of a ruleset
    that keeps no roster state of its own; a ruleset overrides what it has."""

    #: Event types this ruleset appends that change campaign state (they are
    #: undone by replay, DESIGN §5).
    state_events: frozenset[str] = frozenset()
    #: What its state handlers read of a state event's values (all the undo
    #: rebuild keeps).
    state_keys: frozenset[str] = frozenset()
    #: The topics such events were once stored under, so old logs still load.
    legacy_topics: tuple[str, ...] = ()
    #: Its commands, by ``Action.path``.
    actions: Mapping[str, Action] = MappingProxyType({})
    #: Whether it has a CG Roster (``roster`` below).
    has_roster: bool = False

    def genesis(self, sides: tuple[str, ...], initial: dict[str, int]) -> dict[str, Any]:
        """What creation records for the roster: e.g. each side's initial points."""
        del sides, initial
        return {}

    def initial_state(self, genesis: dict[str, Any], sides: list[str]) -> dict[str, Any]:
        """The ruleset's own state as the campaign was created."""
        del genesis, sides
        return {}

    def on_new_date(self, state: dict[str, Any], cg_date: str) -> None:
        """A new CG Date began (after every side was ready)."""
        del state, cg_date

    def apply(self, state: dict[str, Any], kind: str, seq: int, values: dict[str, Any]) -> None:
        """Apply one of ``state_events`` (its public and secret values) to ``state``;
        it also gets the engine's ``ScenarioEnded`` and table rolls in a step,
        which a ruleset that does not read them ignores."""
        del state, kind, seq, values

    def before_new_date(self, engine: Engine, sides: list[str]) -> None:
        """Refuse (``RuleViolation``) a new CG Date that ``sides`` may not begin yet."""
        del engine, sides

    def conditions(self, engine: Engine) -> dict[str, Any]:
        """Results that last (DESIGN §8), shown with the campaign and the roster:
        e.g. KGP 8.618's German Ammunition Shortage for the rest of the CG."""
        del engine
        return {}

    #: Extra fields a CG-Scenario End must carry (SG 2.9-2.92: ``vp``,
    #: ``vp_required``); any other ruleset refuses them.
    scenario_end_fields: frozenset[str] = frozenset()

    def scenario_end(self, engine: Engine, body: dict[str, Any]) -> dict[str, Any]:
        """What CG-Scenario End records besides its body, computed from it and
        the ruleset's state (SG 2.91-2.92: VP total, VP Differential, Purchase
        Points); ``apply`` then receives them with the ``ScenarioEnded`` event."""
        del engine, body
        return {}

    def step_done(self, engine: Engine, side: str, step: str) -> bool:
        """Whether the action a RePh step requires (``RePhStep.action``) is done
        by ``side`` on the current CG Date (e.g. 8.616's CPP Replenishment)."""
        del engine, side, step
        return True

    def roster(
        self, engine: Engine, side: str, visible: Callable[[int | None], bool]
    ) -> dict[str, Any]:
        """The side's CG Roster; ``visible(seq)`` says whether the viewer may see an event.

        It names its ``columns`` and lays out the rest as the ruleset's paper
        roster does (one line per CG Date in ``lines``, where it has them)."""
        del engine, side, visible
        raise NotImplementedError

    #: Whether the ruleset keeps an RG Purchase Record (``rg_record``).
    has_rg_record: bool = False

    def rg_record(
        self, engine: Engine, side: str, visible: Callable[[int | None], bool]
    ) -> dict[str, Any]:
        """The side's RG Purchase Record (docs/DESIGN.md §10): ``{"rule",
        "rows", "fortifications"}`` as the viewer may see it."""
        del engine, side, visible
        raise NotImplementedError

    def verify_result(self, created: dict[str, Any], values: dict[str, Any]) -> str | None:
        """Offline check of what a rule command took from its table roll
        (``cgledger verify``): an error message, or ``None`` if it is right."""
        del created, values
        return None

    def scenario_winner(
        self,
        scenario: str,
        start_lvp: dict[str, int],
        current_lvp: dict[str, int],
        territory: Sequence[tuple[MapGroupData, ControlState]] = (),
        definition: Mapping[str, Any] | None = None,
    ) -> tuple[str | None, str]:
        """The CG scenario's winner by the ruleset's victory rules, from each
        side's Current-LVP Total at scenario start and at CG-Scenario End, the
        Control of each map group (``territory``) and the CG definition:
        ``(side, rule)``, or ``(None, why)`` where the rules do not decide it."""
        del scenario, start_lvp, current_lvp, territory, definition
        return None, "the ruleset decides no scenario winner from LVP"

    def chit_refused(
        self, side: str, chit: str, vacated: Mapping[str, int], map_groups: Sequence[str]
    ) -> str | None:
        """Why ``side`` may not select ``chit`` now (the refusal's detail,
        starting with the rule), or ``None``. ``vacated``: the map groups a
        rule recorded as left by a side's units since the last scenario
        (KGP 8.6131), by the seq that recorded it."""
        del side, chit, vacated, map_groups
        return None

    #: Whether its CG scenarios have a winner at all; where ``scenario_winner``
    #: cannot decide one (a rule cut in the seed), the sides may state it.
    #: ``None``: they have none (ABtF 9.6211), and a stated winner is refused
    #: with ``no_scenario_winner``'s rule.
    no_scenario_winner: str | None = None

    #: What the players highlight in yellow on the map: No Man's Land (KGP,
    #: MARKING THE MAP) or Uncontrolled Territory (ABtF 9.6055).
    map_highlight: str = NML

    #: The RePh step in which each side determines its Setup Areas (8.605,
    #: 9.605); ``None``: the ruleset has none.
    setup_area_step: str | None = None

    def setup_areas(
        self, data: MapGroupData, control: ControlState, sides: Sequence[str], cg_date: str = ""
    ) -> dict[str, Any]:
        """Each hex's status and each side's Setup Areas on a map group on CG
        Date ``cg_date``, by the ruleset's rules (DESIGN §9):
        ``{"hexes", "areas", "sides"}``."""
        del data, control, sides, cg_date
        raise NotImplementedError

    def control_effects(
        self, data: MapGroupData, before: ControlState, after: ControlState
    ) -> dict[str, str]:
        """What a Control record switches besides its Locations: the Blocks it
        gives a side (ABtF 9.605), by Block."""
        del data, before, after
        return {}

    def control_rule(
        self, rule: str, data: MapGroupData, control: ControlState, by: str
    ) -> tuple[list[dict[str, Any]], bool]:
        """The Locations a rule gives a side at once (KGP 8.6131: all U.S.
        units gone from a Map Group, the German gains Control of all its
        Strategic Locations), and whether they also enter the Setup Areas
        already determined. ``by``: the side (or the referee) that records it."""
        del data, control, by
        raise InvalidInput(f"no rule {rule!r} of this ruleset records Control", field="rule")

    def roll_rules(self) -> frozenset[str]:
        """Rule ids (``<ruleset>:<rule>``) whose rolls only its commands make."""
        return frozenset()


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
    #: Sides that take each step in turn, in this order, each completing a step
    #: before any moves on to the next (SG 1.2: "Both players (if applicable),
    #: American first, complete each step before moving on to the next step").
    lockstep: tuple[str, ...] = ()
    #: The table results that last (:class:`Lasting`).
    lasting: tuple[Lasting, ...] = ()
    #: When a table may or must be rolled, beyond its sides and dates (:class:`TableRule`).
    table_rules: tuple[TableRule, ...] = ()
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
        for table in self.tables.values():
            self._check_binding(table)
        for counted in self.counted_drms:
            found = self.tables.get(counted.table)
            drm = None if found is None else found.drm(counted.drm)
            if drm is None or drm.kind not in ("per", "valued", "fixed"):
                raise ValueError(f"{self.id}: no DRM {counted.drm} on {counted.table} to count")
            if any(side not in self.sides for side in counted.sides):
                raise ValueError(f"{self.id} {counted.drm}: unknown sides {counted.sides}")
        for lasting in self.lasting:
            found = self.tables.get(lasting.table)
            if found is None or len(lasting.changes) != len(found.bands):
                raise ValueError(f"{self.id}: {lasting.key} needs one change per band of its table")
            if lasting.start is not None and lasting.start not in {i.id for i in found.inputs}:
                raise ValueError(f"{self.id}: {lasting.table} has no input {lasting.start}")
        for table_rule in self.table_rules:
            if table_rule.table not in self.tables:
                raise ValueError(f"{self.id}: no table {table_rule.table} for {table_rule.rule}")
        if self.initiative is not None:
            pairs = {(a, b) for a in CHITS for b in CHITS}
            if len(self.sides) != 2 or set(self.initiative.matrix) != pairs:
                raise ValueError(f"{self.id}: the Initiative matrix needs every pair of chits")
            unknown = set(self.initiative.matrix.values()) - set(self.scenario_types)
            if unknown:
                raise ValueError(f"{self.id}: unknown scenario types {sorted(unknown)}")
            self._check_initiative(self.initiative)

    def _check_initiative(self, ini: Initiative) -> None:
        if ini.step is not None and ini.step not in self._step_index:
            raise ValueError(f"{self.id}: the Initiative step {ini.step} is not a RePh step")
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
        self, step: RePhStep, side: str, cg_date: str, *, initial: bool, scenario: str | None
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


def bind_steps(
    tables: Mapping[str, Table],
    steps: tuple[RePhStep, ...],
    overrides: Mapping[str, str] | None = None,
) -> Mapping[str, Table]:
    """Each table bound to the RePh step its rule number falls under (DESIGN
    §8): 8.6122 SAN Adjustment to 8.612, ABtF 9.62161 Weather to 9.621. A table
    whose rule is no RePh step's (an SSR's, rolled in the scenario: KGP3's Mist
    Change DR) is rolled while the CG scenario is in play (``SCENARIO``).
    ``overrides`` gives a table's step where its rule number does not tell."""
    ids = sorted((s.id for s in steps), key=len, reverse=True)
    bound: dict[str, Table] = {}
    for table_id, table in tables.items():
        step = (overrides or {}).get(table_id)
        if step is None:
            step = next((i for i in ids if table.rule.startswith(i)), SCENARIO)
        bound[table_id] = replace(table, step=step)
    return MappingProxyType(bound)


def period_date_key(periods: Mapping[str, str]) -> Callable[[str], tuple[int, int] | None]:
    """Orders canonical CG Dates ('19 PM' before '20 AM'): by day, then by the
    order of the periods in ``periods`` (as given to :func:`period_date_normalizer`)."""
    order = list(dict.fromkeys(periods.values()))

    def key(date: str) -> tuple[int, int] | None:
        day, _, period = date.partition(" ")
        if not day.isdigit() or period not in order:
            return None
        return int(day), order.index(period)

    return key


def period_date_normalizer(periods: Mapping[str, str]) -> Callable[[str], str | None]:
    """Normalise '19PM', 'Dec 19 pm', '19 PM' to the canonical '19 PM'.

    ``periods`` maps the lower-case spelling a player may type to the canonical
    spelling (e.g. ``{"pm": "PM"}`` or ``{"morning": "Morning"}``).
    """
    alternatives = "|".join(sorted((re.escape(p) for p in periods), key=len, reverse=True))
    pattern = re.compile(
        rf"^\s*(?:dec(?:ember)?\.?\s*)?(\d{{1,2}})\s*({alternatives})\s*$", re.IGNORECASE
    )

    def normalize(text: str) -> str | None:
        m = pattern.match(text)
        if m is None:
            return None
        return f"{int(m.group(1))} {periods[m.group(2).lower()]}"

    return normalize
