"""The one sealing point (DESIGN §2a, §4, §6): every secret act a side records
becomes one ``RecordSealed`` event here, whatever it holds.

A command that draws secret dice opens a *seal* (``open_seal``): one roll
index for the whole record, its dice a stream (``cgledger-dice/2``), from
which each roll of the command takes what it needs in order (a dr the next
die, a DR the next two), so a Depleted platoon's SW drs follow its Strength DR
in one record, and a batch of RG is determined by one command. The command's
main event, appended with an ``owner`` (``append``), is then sealed: its
public part is :func:`cgledger.domain.sealed.public_payload`'s, its secret
part the act's own type (``kind``), fields and rolls.

In a step whose acts the rules make secret (``RePhStep.sealed``), a side that
completes the step without sealing one of them gets an empty record of it
(``seal_passed``), recorded before the command that passes the step draws a
die or appends, so buying nothing looks like buying something.

A sealed roll on a table whose definition is not yet in the log carries the
definition in the record's secret part (``tables``, by content hash) instead
of a public ``TableDefined``, which would name the table; once revealed, the
roll audits against it as any roll audits against its ``TableDefined``.

Slice: ``sealed_steps`` (per side, per RePh step of the current RePh, the
sealed acts recorded in it; reset when a CG Date begins or a scenario ends).
The open seal lives only while its command runs (``_seal``), never in state.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from cgledger.domain import dice
from cgledger.domain import sealed as sealbook
from cgledger.domain import tables as tablebook
from cgledger.domain.campaign.core import Applied, reads
from cgledger.domain.campaign.rolls import Rolls
from cgledger.domain.campaign.sequence import Sequence
from cgledger.domain.context import Ctx
from cgledger.domain.rulesets.base import SCENARIO

#: Events that end a RePh's sealed acts: the next ones are another RePh's.
RESETS = frozenset({"CGDateBegan", "ScenarioEnded"})


@dataclass
class Seal:
    """A sealed record's roll index while its command runs."""

    index: int
    commitment: str
    roller: str
    client_nonce: str
    nonce_source: str
    after_undo: Any
    dice: Iterator[int]
    rolls: list[dict[str, Any]] = field(default_factory=list)
    tables: dict[str, Any] = field(default_factory=dict)

    def public(self) -> dict[str, Any]:
        """The record's public ``roll``: the same keys whatever it holds."""
        return {
            "index": self.index,
            "commitment": self.commitment,
            "side": self.roller,
            "secret": True,
            "protocol": dice.SEALED,
            "after_undo": self.after_undo,
        }

    def take(self, n: int) -> list[int]:
        return [next(self.dice) for _ in range(n)]


class Sealing(Sequence, Rolls):
    # ------------------------------------------------------------------ the seal

    @property
    def _seal(self) -> Seal | None:
        found: Seal | None = self.__dict__.get("_seal")
        return found

    def open_seal(self, ctx: Ctx, client_nonce: str | None) -> None:
        """Take the next roll index for the sealed record this command will
        append (once per command; a second call keeps the first seal)."""
        if self._seal is not None:
            return
        index = self.roll_count
        if self.committed - (index + 1) < dice.LOW_WATER:
            self._publish_batch(ctx)
        seed = self.seed(index, ctx.sealer)
        source = "client"
        if client_nonce is None:
            client_nonce, source = ctx.entropy(16).hex(), "server"
        rseed = dice.sealed_roll_seed(
            seed, campaign=self.cid, index=index, client_nonce=client_nonce, side=ctx.actor
        )
        self.__dict__["_seal"] = Seal(
            index=index,
            commitment=self.commitment(index),
            roller=ctx.actor,
            client_nonce=client_nonce,
            nonce_source=source,
            after_undo=self.pending_reroll.get(ctx.actor),
            dice=dice.stream(rseed),
        )

    def _draw(
        self, ctx: Ctx, count: int, purpose: str, *, secret: bool, client_nonce: str | None
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """A secret roll takes its dice from the command's seal; a public one
        is a roll of its own (``cgledger-dice/1``)."""
        if not secret:
            return super()._draw(ctx, count, purpose, secret=False, client_nonce=client_nonce)
        self.open_seal(ctx, client_nonce)
        seal = self._seal
        assert seal is not None
        rolled = seal.take(count)
        seal.rolls.append({"purpose": purpose, "count": count, "dice": rolled})
        return seal.public(), {"dice": rolled}

    def note_roll(self, **what: Any) -> None:
        """Add what the last sealed roll was for and what it read (its table,
        DRMs, Final and result) to the record's list of rolls."""
        seal = self._seal
        if seal is not None and seal.rolls:
            seal.rolls[-1].update(what)

    def note_table(self, table: tablebook.Table, **what: Any) -> None:
        """The last sealed roll was read on ``table``: its reference, and its
        definition in the record if the log has none yet."""
        ref = tablebook.table_ref(table)
        seal = self._seal
        if seal is not None and ref["hash"] not in self.recorded_tables():
            seal.tables.setdefault(ref["hash"], tablebook.definition(table))
        self.note_roll(table=ref, **what)

    def seal_record(
        self,
        ctx: Ctx,
        kind: str,
        payload: dict[str, Any],
        values: dict[str, Any],
        owner: str,
        *,
        main: bool = True,
    ) -> dict[str, Any]:
        """Append an act as one sealed record (DESIGN §2a) and close the seal;
        ``main``: the command's own act (it carries the Idempotency-Key)."""
        seal = self.__dict__.pop("_seal", None)
        inner = {k: v for k, v in payload.items() if k not in ("roll", "owner")}
        secret: dict[str, Any] = {
            "kind": kind,
            **inner,
            **{k: v for k, v in values.items() if k != "dice"},
            "rolls": [] if seal is None else seal.rolls,
        }
        if seal is not None:
            secret["client_nonce"] = seal.client_nonce
            secret["nonce_source"] = seal.nonce_source
            if seal.tables:
                secret["tables"] = seal.tables
        side = str(payload.get("side", owner))
        step = payload.get("step")
        if step is None and side in self.sides:
            step = self.current_step(side)
        public = sealbook.public_payload(
            owner, side, self.cg_date, step, None if seal is None else seal.public()
        )
        return self._emit(ctx, sealbook.SEALED, public, secret, main=main)

    def close_public(self) -> None:
        """A public act appends no seal: one left open is a bug, never a secret."""
        if self.__dict__.pop("_seal", None) is not None:
            raise RuntimeError("a secret roll was drawn for a public event")

    # ------------------------------------------------------------------ empty acts

    def seal_passed(self, ctx: Ctx, side: str, to: str) -> None:
        """DESIGN §4: for each step ``side`` completes on its way to ``to``
        whose acts the rules make secret, an empty sealed record of each act
        it did not seal there."""
        if side not in self.sides:
            return
        rs = self.ruleset
        first, last = rs.step_order(self.current_step(side)), rs.step_order(to)
        for step in rs.reph_steps[first:last]:
            if not step.sealed or not self.step_applies(step, side):
                continue
            done = self.sealed_steps.get(side, {}).get(step.id, [])
            for kind in step.sealed:
                if kind in done:
                    continue
                act = rs.rules.sealed_acts[kind]
                if act.draws:
                    self.open_seal(ctx, None)
                payload = self.rule_payload(side, step.id)
                self.seal_record(ctx, kind, payload, dict(act.empty), side, main=False)

    def sealed_in(self, side: str, step: str) -> list[str]:
        """The acts ``side`` sealed in RePh ``step`` of the current RePh."""
        return list(self.sealed_steps.get(side, {}).get(step, []))

    def sealed_steps_from(self, side: str, kind: str) -> list[str]:
        """The steps from ``side``'s current one on that seal ``kind`` and
        apply to it now, in order."""
        rs = self.ruleset
        here = rs.step_order(self.current_step(side))
        return [
            st.id
            for st in rs.reph_steps[here:]
            if kind in st.sealed and self.step_applies(st, side)
        ]

    # ------------------------------------------------------------------ apply

    @reads("side", "step")
    def _on_sealed(self, e: Applied) -> None:
        """A sealed act (``e.kind``) of a side in a RePh step."""
        v = e.values
        step = v.get("step")
        if step is None or step == SCENARIO:
            return
        kinds = self.sealed_steps.setdefault(v["side"], {}).setdefault(step, [])
        if e.kind not in kinds:
            kinds.append(e.kind)

    @reads()
    def _on_reph_reset(self, e: Applied) -> None:
        del e
        self.sealed_steps = {}
