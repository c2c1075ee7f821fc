"""A typed Python client of the cgledger REST API (``docs/client.md``).

``Client`` (sync) and ``AsyncClient`` (asyncio) have one method per endpoint,
answer with the server's own response models (``cgledger.api.models``), retry
safely (one ``Idempotency-Key`` per call), send ``If-Match`` on request, and
follow the live feed (``stream``).
"""

from cgledger.client._async import AsyncClient
from cgledger.client._declare import Drm, EventFilters, Read, Write
from cgledger.client._errors import ApiError, Conflict
from cgledger.client._feed import FeedDropped, StreamItem
from cgledger.client._sync import Client

__all__ = [
    "ApiError",
    "AsyncClient",
    "Client",
    "Conflict",
    "Drm",
    "EventFilters",
    "FeedDropped",
    "Read",
    "StreamItem",
    "Write",
]
