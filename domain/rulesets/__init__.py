"""Registry of the rulesets cgledger knows."""

from __future__ import annotations

from types import MappingProxyType

from domain.rulesets import abtf, kgp, sg
from domain.rulesets.base import CampaignDef, CppRules, RePhStep, Ruleset

REGISTRY: MappingProxyType[str, Ruleset] = MappingProxyType(
    {r.id: r for r in (kgp.RULESET, abtf.RULESET, sg.RULESET)}
)

__all__ = ["REGISTRY", "CampaignDef", "CppRules", "RePhStep", "Ruleset"]
