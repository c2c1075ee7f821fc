"""The campaign's table component over given facts, for pure tests of the
DRMs the ledger counts (``with_counted_drms``): no event, no store."""

from __future__ import annotations

import random
from dataclasses import replace

from cgledger.domain.campaign import Ctx
from cgledger.domain.campaign.tables import Tables
from cgledger.domain.rulesets.base import Facts
from cgledger.sealing import AesGcmSealer

SEALER = AesGcmSealer(bytes(32))


def probe_ctx(actor: str) -> Ctx:
    """A context for ``actor`` whose entropy is fixed by the actor's name."""
    rng = random.Random(actor)
    return Ctx(actor=actor, now="2026-11-25T00:00:00Z", entropy=rng.randbytes, sealer=SEALER)


class Probe(Tables):
    """The campaign's table component over given facts (no event, no store)."""

    def __init__(self, ruleset_id: str, facts: Facts) -> None:
        self.ruleset_id = ruleset_id
        self.calendar = [facts.cg_date]
        self.date_index = 0
        self._facts = facts

    def facts(self, side: str) -> Facts:
        return replace(self._facts, side=side)
