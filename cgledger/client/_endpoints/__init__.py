"""Every endpoint of the REST API, written once for both clients: one
declaration (``cgledger.client._declare.route``) per route, grouped by
resource as the server's routes are."""

from cgledger.client._endpoints.agreements import AgreementEndpoints
from cgledger.client._endpoints.authoring import AuthoringEndpoints
from cgledger.client._endpoints.campaigns import CampaignEndpoints
from cgledger.client._endpoints.commands import CommandEndpoints
from cgledger.client._endpoints.refit import RefitEndpoints
from cgledger.client._endpoints.service import ServiceEndpoints
from cgledger.client._endpoints.territory import TerritoryEndpoints


class Endpoints(
    ServiceEndpoints,
    CampaignEndpoints,
    RefitEndpoints,
    CommandEndpoints,
    TerritoryEndpoints,
    AgreementEndpoints,
    AuthoringEndpoints,
):
    """The endpoint methods of ``Client`` and ``AsyncClient``."""


__all__ = ["Endpoints"]
