"""The campaign aggregate and its components (DESIGN §6): ``aggregate``
holds the ``@event`` stubs, the one dispatch table and ``append``; each other
module is one concern that owns one slice of the state (``core.OWNERS``).
Importing any of them imports this first, so the topics of older releases
below are registered wherever the aggregate is used."""

from typing import Any, cast

from eventsourcing.utils import register_topic

from cgledger.domain.campaign.aggregate import SCHEMA, Campaign
from cgledger.domain.campaign.core import MAX_PURPOSE, token_hash, validated_definition
from cgledger.domain.context import Ctx, Sealer
from cgledger.domain.rulesets import REGISTRY

# Events of a ruleset's own commands were once stored under their own topics
# (e.g. "cgledger:RGPurchased"); they load as RuleRecorded events, which
# dispatch on the record's type like every event.
for _rs in REGISTRY.values():
    for _topic in _rs.rules.legacy_topics:
        register_topic(_topic, cast(Any, Campaign).RuleRecorded)

__all__ = [
    "MAX_PURPOSE",
    "SCHEMA",
    "Campaign",
    "Ctx",
    "Sealer",
    "token_hash",
    "validated_definition",
]
