"""The one interface every ruleset (KGP, ABtF, SG, ... ) implements.

A ruleset is data (sides, campaigns, CG calendars, RePh steps, charts) plus a
few small rule functions. The engine (``domain.campaign``) only talks to these
types, so adding a fourth HASL system means adding one package under
``domain/rulesets`` and one line in ``domain.rulesets.REGISTRY``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from domain.tables import Table


@dataclass(frozen=True)
class RePhStep:
    """One numbered step of the Refit Phase sequence, as the rulebook lists it."""

    id: str
    title: str


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


class CppRules(Protocol):
    """CPP replenishment, purchase and recon rules of a ruleset. The rolls are
    read off the ruleset's tables ``<ruleset>:<replenish_rule>`` and
    ``<ruleset>:<recon_rule>``."""

    replenish_rule: str
    purchase_rule: str
    recon_rule: str | None

    def base(self, campaign: str, cg_date: str, side: str) -> int | None:
        """The CPP Base # for ``side`` on ``cg_date``; ``None`` when no CPP arrive."""
        ...


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
    cpp: CppRules | None = None
    #: Every die table of the ruleset by id ("kgp:8.606-infantry"), as data.
    tables: Mapping[str, Table] = field(default_factory=lambda: MappingProxyType({}))
    notes: str = ""
    _step_index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        for i, step in enumerate(self.reph_steps):
            self._step_index[step.id] = i
        if self.new_date_step not in self._step_index:
            raise ValueError(f"{self.id}: {self.new_date_step} is not a RePh step")

    def table(self, table_id: str) -> Table | None:
        """A table by its id, with or without the "<ruleset>:" prefix."""
        if ":" not in table_id:
            table_id = f"{self.id}:{table_id}"
        return self.tables.get(table_id)

    def step(self, step_id: str) -> RePhStep:
        return self.reph_steps[self._step_index[step_id]]

    def step_order(self, step_id: str) -> int:
        return self._step_index[step_id]


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
