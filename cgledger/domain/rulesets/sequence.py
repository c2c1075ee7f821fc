"""A ruleset's Refit Phase sequence and CG calendar, as data: the numbered
RePh steps and their markers, each CG and its CG Dates, the Initiative
matrix, the binding of each table to the step it is rolled in, and the
ordering and spelling of CG Dates."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from cgledger.domain.tables import Table

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
    reading taken and why. ``sealed``: the acts the rules make secret in it
    (their event types, e.g. ``RGPurchased`` for 8.619): each side that
    completes the step has exactly one sealed record of each (DESIGN §4),
    an empty one recorded for it if it sealed none, so buying nothing looks
    like buying something.
    """

    id: str
    title: str
    markers: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()
    joint: bool = False
    action: str | None = None
    from_date: str | None = None
    reading: str = ""
    sealed: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        bad = [m for m in self.markers if m not in MARKERS]
        if bad:
            raise ValueError(f"{self.id}: unknown step markers {bad}")


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
    #: The side that sets up first in each scenario type the rule names it for
    #: (8.6233c "GERMAN ASSAULT: ... The U.S. sets up first", 9.62133b "The
    #: British player sets up first"): no dr, the type decides. A type absent
    #: here has no side that sets up first (Idle) or a dr (``dual_attack``).
    setup_first_by_type: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: The rule by which an Idle date calculates each side's Current-LVP and
    #: CG-LVP Totals (8.6232 note 2, with 8.6033's sum); ``None``: the
    #: ruleset's Idle date calculates none (ABtF 9.62132 note 2 repeats steps
    #: 9.612-.620 only), so its LVP row repeats the last one.
    idle_lvp_rule: str | None = None

    def scenario(self, chits: tuple[str, str]) -> str:
        return self.matrix[chits]


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
