"""Dice (DESIGN §2): the commitments published ahead of the rolls, the seed
behind each roll index, the draw of a roll, a free roll, and the table
definitions recorded the first time a table is rolled on.

Slice: ``batches``, ``committed``, ``roll_count``, ``table_defs``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cgledger.domain import dice
from cgledger.domain import history as historybook
from cgledger.domain import tables as tablebook
from cgledger.domain.campaign.core import MAX_PURPOSE, SEED_BYTES, Applied, Core
from cgledger.domain.context import Ctx, Sealer
from cgledger.domain.errors import InvalidInput, NotFound


class Rolls(Core):
    # ------------------------------------------------------------------ commands

    def roll(
        self,
        ctx: Ctx,
        *,
        count: int,
        purpose: str,
        secret: bool,
        client_nonce: str | None,
    ) -> int:
        """A free roll (DESIGN §2). Returns the seq of the ``DiceRolled`` event."""
        self._require_role(ctx)
        if count not in (1, 2):
            raise InvalidInput("dice must be 1 (dr) or 2 (DR)", field="dice")
        if not purpose.strip() or len(purpose) > MAX_PURPOSE:
            raise InvalidInput(f"purpose must be 1 to {MAX_PURPOSE} characters", field="purpose")
        if purpose.strip().lower().startswith(f"{self.ruleset_id}:"):
            raise InvalidInput(
                f"purposes starting with '{self.ruleset_id}:' are reserved for the rule "
                "endpoints, which apply the rule to the roll",
                field="purpose",
            )
        pub, sec = self._draw(ctx, count, purpose, secret=secret, client_nonce=client_nonce)
        owner = ctx.actor if secret else None
        payload = {"side": ctx.actor, "cg_date": self.cg_date, "roll": pub}
        return self.append(ctx, "DiceRolled", payload, sec or {}, owner=owner)

    def roll_on(
        self,
        ctx: Ctx,
        table: tablebook.Table,
        drm: list[tablebook.DrmRequest],
        inputs: dict[str, Any],
        *,
        secret: bool,
        client_nonce: str | None,
        purpose: str | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any] | None, dict[str, Any]]:
        """Roll on ``table`` for a rule command: record its definition (first
        use), draw the dice and read the table. Returns the roll's public part,
        its secret part (``None`` for a public roll) and the table's result.
        ``purpose``: the roll's public purpose, if it must not name the table
        (a roll for a secret purchase)."""
        if not secret:
            self._define_table(ctx, table)
        if purpose is None:
            purpose = f"{table.id} {table.title}"
        purpose = purpose[:MAX_PURPOSE]
        pub, sec = self._draw(ctx, table.dice, purpose, secret=secret, client_nonce=client_nonce)
        rolled = sec["dice"] if sec is not None else pub["dice"]
        result = tablebook.resolve(table, rolled, drm, inputs)
        if secret:
            self.note_table(table, inputs=dict(inputs), **result)
        return pub, sec, result

    def table(self, table_id: str) -> tablebook.Table:
        table = self.ruleset.table(table_id)
        if table is None:
            raise NotFound(
                f"{self.ruleset_id} has no table {table_id!r}; "
                f"GET /v1/rulesets/{self.ruleset_id}/tables lists them"
            )
        return table

    def define_tables(self, ctx: Ctx, tables: Sequence[tablebook.Table]) -> None:
        """Record the definitions of ``tables`` not yet used, all at once: a
        roll for a secret purchase does not show by a first definition which
        table it was read on."""
        for table in tables:
            self._define_table(ctx, table)

    def note_table(self, table: tablebook.Table, **what: Any) -> None:
        raise NotImplementedError  # sealing.Sealing

    def _define_table(self, ctx: Ctx, table: tablebook.Table) -> None:
        """Put the table's definition in the log the first time it is used, so
        every roll on it audits against the exact definition it was read with."""
        digest = tablebook.content_hash(table)
        if digest not in self.recorded_tables():
            payload = {
                "table": table.id,
                "hash": digest,
                "definition": tablebook.definition(table),
            }
            self._emit(ctx, "TableDefined", payload, None)

    def _draw(
        self, ctx: Ctx, count: int, purpose: str, *, secret: bool, client_nonce: str | None
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """Use the next committed seed. Returns the public and secret parts of the roll.

        If fewer than LOW_WATER committed indices would be left unused after this
        roll, the next batch is published first, so commitments always stay far
        ahead of the rolls and the command's main record is its last event (an
        idempotent retry then rebuilds its response at exactly that version).
        """
        index = self.roll_count
        if self.committed - (index + 1) < dice.LOW_WATER:
            self._publish_batch(ctx)
        seed = self.seed(index, ctx.sealer)
        nonce_source = "client"
        if client_nonce is None:
            client_nonce = ctx.entropy(16).hex()
            nonce_source = "server"
        result = dice.roll(
            seed,
            campaign=self.cid,
            index=index,
            client_nonce=client_nonce,
            dice=count,
            purpose=purpose,
            side=ctx.actor,
        )
        pub: dict[str, Any] = {
            "index": index,
            "commitment": self.commitment(index),
            "side": ctx.actor,
            "purpose": purpose,
            "count": count,
            "client_nonce": client_nonce,
            "nonce_source": nonce_source,
            "secret": secret,
            # The audit shows that this roll followed an undo of earlier rolls
            # (their indices stay used: DESIGN §2, §5).
            "after_undo": self.pending_reroll.get(ctx.actor),
        }
        if secret:
            return pub, {"dice": result}
        return {**pub, "dice": result, "seed": seed.hex()}, None

    def _publish_batch(self, ctx: Ctx, *, main: bool = False) -> None:
        first = self.committed
        seeds = [ctx.entropy(SEED_BYTES) for _ in range(dice.BATCH_SIZE)]
        payload = {
            "first_index": first,
            "commitments": [dice.commitment(self.cid, first + k, s) for k, s in enumerate(seeds)],
        }
        internal = {"sealed": ctx.sealer.seal(b"".join(seeds), self._aad(first))}
        self._emit(ctx, "CommitmentsPublished", payload, None, main=main, internal=internal)

    def _aad(self, first: int) -> bytes:
        return f"cgledger/v1/seeds\n{self.cid}\n{first}".encode()

    # ------------------------------------------------------------------ queries

    def recorded_tables(self) -> dict[str, int]:
        """Content hash of each table definition in the log -> its TableDefined seq.

        Created on first use, so snapshots taken before tables existed still load.
        """
        found: dict[str, int] = self.__dict__.setdefault("table_defs", {})
        return found

    def commitment(self, index: int) -> str:
        """The published commitment of roll index ``index``."""
        batch = self._batch(index)
        return str(batch["commitments"][index - batch["first"]])

    def seed(self, index: int, sealer: Sealer) -> bytes:
        """The seed behind commitment ``index``, unsealed (server side only)."""
        batch = self._batch(index)
        raw = sealer.unseal(batch["blob"], self._aad(batch["first"]))
        offset = (index - batch["first"]) * SEED_BYTES
        seed = raw[offset : offset + SEED_BYTES]
        if dice.commitment(self.cid, index, seed) != batch["commitments"][index - batch["first"]]:
            raise RuntimeError(f"sealed seed {index} does not match its commitment")
        return seed

    def roll_seq(self, index: int) -> int:
        """The seq of the event that holds roll ``index``."""
        found = self.lookup(historybook.ROLL, index) if 0 <= index < self.roll_count else None
        if found is None:
            raise NotFound(f"roll {index} has not been made")
        return int(found["seq"])

    def _batch(self, index: int) -> dict[str, Any]:
        """The batch of commitments that holds roll index ``index``, read from
        its ``CommitmentsPublished`` record: one of the last two, whose seqs
        the aggregate keeps, or an older one found by key."""
        seq = None
        for batch in self.batches:
            if batch["first"] <= index < batch["first"] + batch["count"]:
                seq = batch["seq"]
        if seq is None and 0 <= index < self.committed:
            # Batches are published BATCH_SIZE at a time from index 0 (dice.BATCH_SIZE).
            found = self.lookup(historybook.BATCH, index - index % dice.BATCH_SIZE)
            seq = None if found is None else found["seq"]
        if seq is None:
            raise NotFound(f"no commitment has been published for roll index {index}")
        record = self.history.record(int(seq))
        p = record["payload"]
        return {
            "first": p["first_index"],
            "commitments": p["commitments"],
            "blob": record["internal"]["sealed"],
        }

    # ------------------------------------------------------------------ apply

    def _on_roll(self, e: Applied) -> None:
        """Any event that holds a roll used the next roll index."""
        del e
        self.roll_count += 1

    def _on_commitments_published(self, e: Applied) -> None:
        p = e.values
        self.committed = p["first_index"] + len(p["commitments"])
        batch = {"first": p["first_index"], "count": len(p["commitments"]), "seq": e.seq}
        self.batches = [*self.batches[-1:], batch]

    def _on_table_defined(self, e: Applied) -> None:
        self.recorded_tables()[e.values["hash"]] = e.seq
