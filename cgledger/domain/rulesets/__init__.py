"""Registry of the rulesets cgledger knows: each is a package exporting ``RULESET``.

The engine, the API and the projections look a ruleset up here by the id a
campaign recorded; none of them names one. :func:`register` adds a ruleset
(a fourth HASL system, or a test's), before the API app is created so that
its actions get their routes.
"""

from __future__ import annotations

from types import MappingProxyType

from cgledger.domain.rulesets import abtf, kgp, sg
from cgledger.domain.rulesets.base import Action, CampaignDef, Engine, RePhStep, Rules, Ruleset

_RULESETS: dict[str, Ruleset] = {r.id: r for r in (kgp.RULESET, abtf.RULESET, sg.RULESET)}
#: Read-only view of every registered ruleset, by id.
REGISTRY: MappingProxyType[str, Ruleset] = MappingProxyType(_RULESETS)


def register(ruleset: Ruleset) -> None:
    """Add a ruleset. Its id must be new."""
    if ruleset.id in _RULESETS:
        raise ValueError(f"a ruleset {ruleset.id!r} is registered already")
    _RULESETS[ruleset.id] = ruleset


def unregister(ruleset_id: str) -> None:
    """Remove a ruleset added with :func:`register` (for tests)."""
    _RULESETS.pop(ruleset_id, None)


__all__ = [
    "REGISTRY",
    "Action",
    "CampaignDef",
    "Engine",
    "RePhStep",
    "Rules",
    "Ruleset",
    "register",
    "unregister",
]
