"""The CPP roster and its purchases, as every HASL ruleset that keeps one
uses them: the roster's lines (:mod:`.roster`), the commands' request bodies
(:mod:`.bodies`), RG purchases and their determination rolls
(:mod:`.purchasing`), Fortifications (:mod:`.fortifying`), the RG Purchase
Record and the CG Roster as a viewer sees them (:mod:`.record_view`,
:mod:`.roster_view`), and the rules the engine calls (:mod:`.rules`).

A ruleset describes its rule numbers with a :class:`CppScheme` and its
purchases with a :class:`cgledger.domain.purchases.PurchaseRules`; no
ruleset is named here, and no ruleset package is imported.
"""

from __future__ import annotations

from cgledger.domain.rulesets.cpp.bodies import (
    DeterminationCreate,
    FortificationPurchaseCreate,
    FortificationSetupCreate,
    FortItem,
    FortLocation,
    HiddenFortificationCreate,
    ReplenishmentCreate,
    RGItem,
    RGPurchaseCreate,
    StatedDrm,
)
from cgledger.domain.rulesets.cpp.purchasing import Purchasing
from cgledger.domain.rulesets.cpp.record_view import record_view
from cgledger.domain.rulesets.cpp.rules import Base, CppRules, CppScheme

__all__ = [
    "Base",
    "CppRules",
    "CppScheme",
    "DeterminationCreate",
    "FortItem",
    "FortLocation",
    "FortificationPurchaseCreate",
    "FortificationSetupCreate",
    "HiddenFortificationCreate",
    "Purchasing",
    "RGItem",
    "RGPurchaseCreate",
    "ReplenishmentCreate",
    "StatedDrm",
    "record_view",
]
