"""What lets anyone check the log later: the server's public key and the
signed checkpoints of a campaign (``cgledger.signing``)."""

from __future__ import annotations

from typing import Any

from cgledger.domain.errors import NotFound
from cgledger.service.ledger import Ledger
from cgledger.service.session import Caller


def server_key(ledger: Ledger) -> dict[str, Any]:
    """The Ed25519 public key that signs every checkpoint."""
    return ledger.signer.server_key()


def checkpoint(caller: Caller, at: int | None) -> dict[str, Any]:
    """The signed checkpoint of the log's head, or of event ``at``."""
    campaign = caller.campaign
    if at is not None and at > campaign.version:
        raise NotFound(f"no event {at} in this campaign", field="at")
    return caller.ledger.checkpoint(campaign, at)
