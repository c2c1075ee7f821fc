"""Secrets (DESIGN §2, §2a, §4): who owns an event's secret part, whether it
has been revealed, and the reveal by its owner, the referee or a rule: the
seed of its roll index, and for a sealed record (``cgledger-dice/2``) its
``client_nonce`` and its whole secret part, from which anyone checks the
digest and the dice stream. A reveal is found by key in the history; this
component keeps no slice of its own.
"""

from __future__ import annotations

from typing import Any

from cgledger.domain import dice
from cgledger.domain import history as historybook
from cgledger.domain import sealed as sealbook
from cgledger.domain.campaign.sealing import Sealing
from cgledger.domain.context import Ctx
from cgledger.domain.errors import Forbidden, NotFound, RuleViolation
from cgledger.domain.visibility import REFEREE


class Secrets(Sealing):
    def reveal(self, ctx: Ctx, seq: int) -> int:
        """Reveal the secret part of event ``seq`` (and the seed, for a roll)."""
        self._require_role(ctx)
        if not 1 <= seq <= self.version:
            raise NotFound(f"no event {seq} in this campaign")
        record = self.record(seq)
        if record["secret"] is None:
            raise RuleViolation(f"event {seq} has no secret part; it is public already")
        owner = record["payload"]["owner"]
        if ctx.actor not in (owner, REFEREE):
            raise Forbidden("only the owning side or the referee may reveal a secret")
        revealed = self.revealed_by(seq)
        if revealed is not None:
            raise RuleViolation(f"event {seq} was revealed by event {revealed}")
        return self.append(ctx, "SecretRevealed", self.reveal_payload(ctx, record), {}, owner=None)

    def reveal_payload(self, ctx: Ctx, record: dict[str, Any]) -> dict[str, Any]:
        """What a reveal of ``record`` publishes (docs/dice-protocol.md)."""
        owner = record["payload"]["owner"]
        payload: dict[str, Any] = {"of_seq": record["seq"], "of_owner": owner}
        roll = record["payload"].get("roll")
        if sealbook.is_sealed(record):
            secret = record["secret"]
            payload.update(
                protocol=dice.SEALED,
                index=None,
                commitment=None,
                seed=None,
                client_nonce=None,
                sealed=secret,
            )
            if roll is not None:
                payload["client_nonce"] = secret["client_nonce"]
        if roll is not None:
            index = roll["index"]
            payload["index"] = index
            payload["commitment"] = self.commitment(index)
            payload["seed"] = self.seed(index, ctx.sealer).hex()
        return payload

    def reveal_roll(self, ctx: Ctx, index: int) -> int:
        seq = self.roll_seq(index)
        if self.record(seq)["secret"] is None:
            raise RuleViolation(f"roll {index} is public; its seed is already published")
        return self.reveal(ctx, seq)

    def revealed_by(self, seq: int) -> int | None:
        """The seq of the ``SecretRevealed`` event of event ``seq``, if any."""
        found = self.lookup(historybook.REVEAL, seq)
        return None if found is None else int(found["seq"])

    def is_revealed(self, seq: int) -> bool:
        return self.revealed_by(seq) is not None

    def secret_owner(self, seq: int) -> str | None:
        record = self.record(seq)
        return None if record["secret"] is None else str(record["payload"]["owner"])
