"""What a server starts with: the rulesets registered (before the API app
lists their actions as routes), then the ``Ledger`` opened on the configured
database with the configured keys (it refuses keys the database does not know)."""

from __future__ import annotations

from cgledger.domain.rulesets import REGISTRY, Ruleset, abtf, kgp, register, sg
from cgledger.service.ledger import Ledger
from cgledger.settings import Settings

#: The rulesets every server knows.
BUILT_IN: tuple[Ruleset, ...] = (kgp.RULESET, abtf.RULESET, sg.RULESET)


def register_rulesets() -> None:
    """Register every built-in ruleset that is not registered yet (a ruleset a
    test or a plug-in registered first stays as it is)."""
    for ruleset in BUILT_IN:
        if ruleset.id not in REGISTRY:
            register(ruleset)


def open_ledger(settings: Settings) -> Ledger:
    """The application service of a server: the rulesets, then the Ledger."""
    register_rulesets()
    return Ledger(settings)
