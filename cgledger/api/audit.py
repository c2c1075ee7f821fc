"""Routes of what lets anyone audit a campaign later (DESIGN §5): the server's
public key and the signed checkpoints of a campaign's log
(``cgledger.service.audit``)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request, Response

from cgledger.api.deps import At, Auth, CampaignId, _etag, _ledger
from cgledger.api.models import Checkpoint, ServerKey
from cgledger.service import audit


def install_audit_routes(app: FastAPI) -> None:
    @app.get("/v1/server-key", tags=["audit"], response_model=ServerKey)
    def server_key(request: Request) -> dict[str, Any]:
        """The Ed25519 public key that signs every checkpoint."""
        return audit.server_key(_ledger(request))

    @app.get("/v1/campaigns/{campaign_id}/checkpoint", tags=["audit"], response_model=Checkpoint)
    def checkpoint(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        at: At = None,
    ) -> dict[str, Any]:
        """The signed checkpoint ``{campaign, seq, head, time, signature}`` of the
        log's head (or of event ``at``). Save it: ``cgledger verify FILE
        --checkpoint`` proves later that the log was not rewritten under it."""
        _etag(response, caller.campaign.version)
        return audit.checkpoint(caller, at)
