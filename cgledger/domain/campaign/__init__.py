"""The campaign aggregate and its components (DESIGN §6): ``aggregate``
holds the ``@event`` stubs, the one dispatch table and ``append``; each other
module is one concern that owns one slice of the state (``core.OWNERS``)."""

from cgledger.domain.campaign.aggregate import SCHEMA, Campaign
from cgledger.domain.campaign.core import MAX_PURPOSE, token_hash, validated_definition
from cgledger.domain.context import Ctx, Sealer

__all__ = [
    "MAX_PURPOSE",
    "SCHEMA",
    "Campaign",
    "Ctx",
    "Sealer",
    "token_hash",
    "validated_definition",
]
