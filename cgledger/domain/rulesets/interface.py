"""The interface between the campaign aggregate and a ruleset's rules: what
a ruleset's command may use of the aggregate (:class:`Engine`), a command of
the ruleset (:class:`Action`), and the rule functions the aggregate calls
(:class:`Rules`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from cgledger.domain.errors import InvalidInput
from cgledger.domain.rulesets.facts import Facts
from cgledger.domain.tables import Table
from cgledger.domain.territory import NML, ControlState, MapGroupData

if TYPE_CHECKING:
    from cgledger.domain.context import Ctx


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

    def check_step_order(
        self, side: str, step: str, *, ruling: bool = False, ctx: Ctx | None = None
    ) -> None: ...

    def open_seal(self, ctx: Ctx, client_nonce: str | None) -> None: ...

    def note_roll(self, **what: Any) -> None: ...

    def sealed_in(self, side: str, step: str) -> list[str]: ...

    def sealed_steps_from(self, side: str, kind: str) -> list[str]: ...

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

    def with_counted_drms(
        self, ctx: Ctx, table: Table, drm: list[Any], *, facts: Facts | None = None
    ) -> list[Any]: ...

    def ledger_counts(
        self, ctx: Ctx, table: Table, *, facts: Facts | None = None
    ) -> dict[str, int]: ...

    def facts(self, side: str) -> Facts: ...

    def options(self) -> frozenset[str]: ...

    def readings(self, at: int | None = None) -> Mapping[str, str]: ...

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
class SealedAct:
    """An act the rules make secret in a RePh step (DESIGN §4, ``RePhStep.sealed``):
    whether its sealed record takes a roll index (``draws``: every record of
    the act does, empty or not, so the index tells nothing), and the values of
    the empty record that stands for it when a side completes the step
    without sealing one."""

    draws: bool
    empty: Mapping[str, Any]


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
    #: The acts its RePh steps seal (``RePhStep.sealed``), by event type.
    sealed_acts: Mapping[str, SealedAct] = MappingProxyType({})

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

    def on_date_began(self, state: dict[str, Any], cg_date: str, seq: int) -> None:
        """After ``on_new_date``: what the rules give on the new CG Date without
        a purchase, recorded with ``seq``, the event that began it (ABtF 9.6152's
        OB-given RG and FPP)."""
        del state, cg_date, seq

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

    #: The rule that keeps a Massacre (A20.4) for the rest of the CG (KGP SSR
    #: CG4), recorded by ``POST /massacres`` (``MassacreRecorded``, which
    #: ``apply`` receives); ``None``: the ruleset keeps none (404).
    massacre_rule: str | None = None

    def massacre_refused(self, engine: Engine, side: str) -> str | None:
        """Why a Massacre by ``side`` is not recorded now (the refusal's
        detail, starting with ``massacre_rule``), or ``None``."""
        del engine, side
        return None

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
