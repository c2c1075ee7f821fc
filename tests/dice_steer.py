"""Forcing the dice of a test's next roll, so that a branch the dice decide
runs every time instead of one time in twelve.

DESIGN §2: roll ``index`` is ``HMAC(seed_index, request)``, the request naming
the campaign, the index, the client nonce, the dice, the purpose and the side.
A test in the server's process reads the committed seed of the next roll (the
ledger's sealer opens it) and tries nonces until the dice are the ones it
wants; the roll it then requests with that nonce has exactly those dice, and
``cgledger verify`` recomputes them like any other.

* ``table_nonce``: a ``client_nonce`` for a request body (table rolls and rule
  commands that take one).
* ``server_nonce``: for a roll whose request carries no client nonce (a Dual
  Attack's setup dr, drawn by the second Initiative chit), the nonce the
  server draws from its entropy is steered instead, for the one request made
  inside the ``with`` block.
* ``find_nonce``: the search itself, for a domain test holding the aggregate.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from cgledger.domain import dice

#: How many nonces are tried: a wanted total of two dice has odds of at least
#: 1 in 36, so not finding one in this many means the request was misdescribed.
TRIES = 10_000


def summing(total: int) -> Callable[[list[int]], bool]:
    """Dice whose sum (the Original DR or dr) is ``total``."""
    return lambda rolled: sum(rolled) == total


def find_nonce(
    campaign: Any,
    sealer: Any,
    *,
    purpose: str,
    count: int,
    side: str,
    want: Callable[[list[int]], bool],
    server: bool = False,
) -> str:
    """A nonce with which ``campaign``'s next roll (``count`` dice, rolled by
    ``side`` for ``purpose``) gives dice ``want`` accepts. ``server``: a nonce
    of the form the server draws (16 bytes of entropy, in hex)."""
    index = campaign.roll_count
    seed = campaign.seed(index, sealer)
    for n in range(TRIES):
        nonce = f"{n:032x}" if server else f"nonce-{n}"
        rolled = dice.roll(
            seed,
            campaign=campaign.cid,
            index=index,
            client_nonce=nonce,
            dice=count,
            purpose=purpose,
            side=side,
        )
        if want(rolled):
            return nonce
    raise AssertionError(f"no nonce gives wanted dice for {purpose!r} by {side}")


def _table_nonce(game: Any, table_id: str, side: str, want: Any, *, server: bool) -> str:
    ledger = game.client.app.state.ledger
    campaign = ledger.load(game.id)
    table = campaign.table(table_id)
    return find_nonce(
        campaign,
        ledger.sealer,
        purpose=f"{table.id} {table.title}",  # a rule roll's purpose (Campaign.roll_on)
        count=table.dice,
        side=side,
        want=want,
        server=server,
    )


def table_nonce(
    game: Any, table_id: str, side: str, want: Callable[[list[int]], bool] | int
) -> str:
    """The ``client_nonce`` with which ``side``'s next roll, on ``table_id`` in
    the campaign of ``game`` (a ``conftest.Game``), has dice ``want`` accepts
    (an int: dice summing to it)."""
    wanted = summing(want) if isinstance(want, int) else want
    return _table_nonce(game, table_id, side, wanted, server=False)


@contextmanager
def server_nonce(
    game: Any, table_id: str, side: str, want: Callable[[list[int]], bool] | int
) -> Iterator[str]:
    """Inside the block, the server's next roll on ``table_id`` by ``side``
    (one drawn without a client nonce) has dice ``want`` accepts: the ledger's
    entropy gives, for the 16 bytes of a nonce, the one found. Yields it."""
    wanted = summing(want) if isinstance(want, int) else want
    nonce = _table_nonce(game, table_id, side, wanted, server=True)
    ledger = game.client.app.state.ledger
    entropy = ledger.entropy

    def steered(n: int) -> bytes:
        return bytes.fromhex(nonce) if n == 16 else bytes(entropy(n))

    ledger.entropy = steered
    try:
        yield nonce
    finally:
        ledger.entropy = entropy
