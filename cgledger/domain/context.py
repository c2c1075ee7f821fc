"""What a command needs from outside the domain: the acting role, the clock's
reading, an entropy source and the seed sealer, handed in so that nothing in
``domain`` reads a clock or an RNG of its own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from cgledger.domain.history import History


class Sealer(Protocol):
    """Encrypts seeds at rest; the key never enters the domain."""

    def seal(self, plaintext: bytes, aad: bytes) -> str: ...

    def unseal(self, blob: str, aad: bytes) -> bytes: ...


@dataclass(frozen=True)
class Ctx:
    """Everything a command needs from outside the domain."""

    actor: str
    now: str
    entropy: Callable[[int], bytes]
    sealer: Sealer
    #: ``{"key": sha256 of the Idempotency-Key, "fingerprint": sha256 of the request}``
    idempotency: dict[str, str] | None = None
    #: The request's id (drawn by the server), recorded in every event the
    #: request appends.
    request_id: str | None = None
    #: Where a new campaign's records and keys will be read (``cgledger.domain.history``);
    #: ``None``: kept in memory.
    history: History | None = None
