"""What a projection reads besides the campaign's state: its stored records,
the CG definition in force, and the seeds its rolls were made with. The
service's ``Ledger`` answers this; a projection names only the protocol, so
it never imports the service."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from cgledger.domain.campaign import Campaign, Sealer


class Records(Protocol):
    """The reads a projection asks of whoever stores the campaign."""

    @property
    def sealer(self) -> Sealer:
        """Unseals the campaign's sealed seeds (server side only)."""
        ...

    def record(self, campaign: Campaign, seq: int) -> dict[str, Any]:
        """The stored record of event ``seq`` (server side: unredacted)."""
        ...

    def definition(self, campaign: Campaign) -> dict[str, Any] | None:
        """The CG definition in force, if any."""
        ...

    def unsealed_seed(self, campaign: Campaign) -> Callable[[int], str]:
        """The seed behind a roll index, hex, for a viewer who may see it."""
        ...
