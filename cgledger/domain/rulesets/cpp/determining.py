"""The rolls that determine each RG on the RG Purchase Record (8.620,
9.618; SG 3.4, 3.6, 3.7): strength, quality, weapons, leaders, models.

A roll for a public RG on a table the rules do not make secret is a public
event of its own, one per request. Every other roll (an RG bought in secret,
or a table the rules call Secret: 8.620 EX "a separate Secret DR", SG 3.6
"one secret DR") is made in one sealed record per side and step (DESIGN §2a,
§4): one command rolls, in the record's order, every such roll the side's RG
of the CG Date need in that step, a Depleted platoon's SW drs right after its
Strength DR, all from one dice stream; the opponent sees one record, however
many RG and rolls it holds. A step completed without one gets an empty one
(``RePhStep.sealed``).

The rolls an RG needs, and the tables they are read on, follow the readings
in force at its purchase (``engine.readings(at=row["seq"])``, DESIGN §14): an
amendment changes the rolls of the RG bought after it, never those of an RG
bought before (whose side may be past the step of a roll it would add).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from cgledger.domain import purchases as book
from cgledger.domain import tables as tablebook
from cgledger.domain.context import Ctx
from cgledger.domain.errors import InvalidInput, RuleViolation
from cgledger.domain.rulesets.base import Engine
from cgledger.domain.rulesets.cpp.bodies import DeterminationCreate
from cgledger.domain.visibility import REFEREE

SEALED_KIND = "RGDetermined"
#: How many rolls ahead a stated DRM is checked (``_foreseen``): an RG's
#: Strength or quality roll, then the rolls it decides.
FORESEEN = 2


def record_result(row: book.Row, seq: int, values: Mapping[str, Any]) -> None:
    """What a determination roll writes in its row (applied and planned alike)."""
    row["results"][values["need"]] = {
        "value": values["value"],
        "band": values["band"],
        "result": values["result"],
        "final": values["final"],
        "subject": values.get("subject", ""),
        "seq": seq,
    }


def determined(values: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The determinations an ``RGDetermined`` event holds: one (a public roll,
    or a roll recorded before sealed records), or its sealed batch's rolls."""
    if "for_purchase" in values:
        return [values]
    return [r for r in values.get("rolls") or () if "for_purchase" in r]


class Determining:
    """The 8.620 (9.618) command of a CPP roster; ``Purchasing`` includes it."""

    purchases: book.PurchaseRules
    ruleset_id: str

    def chart(self, engine: Engine, side: str) -> list[Mapping[str, Any]]:
        raise NotImplementedError  # Purchasing.chart

    def determination_tables(self, engine: Engine) -> list[tablebook.Table]:
        """Every table a determination roll of this ruleset may be read on."""
        return [engine.table(t) for t in self.purchases.tables]

    def determine(self, engine: Engine, ctx: Ctx, body: DeterminationCreate) -> int:
        """8.620 (9.618): the next roll an RG on the record needs, or the one
        on ``body.table``; its DRMs from the RG's record; its result fills the
        row. A roll the RG does not need is refused (409), nothing appended.
        A hidden roll (one for a secret RG or on a Secret table) is made in one
        sealed record with the other hidden rolls the request covers: those of
        the RG named, or of the purchase named, or with ``secret`` alone every
        one the side's RG need in the step."""
        rules = self.purchases
        side = engine.require_side(ctx, body.side)
        chart = self.chart(engine, side)
        if body.secret:
            if body.table is not None or body.drm:
                raise InvalidInput(
                    f"{rules.determine}: a sealed batch rolls every secret roll it covers, in "
                    "order; name no table, and give per-roll DRMs in 'stated'",
                    field="table" if body.table is not None else "drm",
                )
            if body.for_purchase is None:
                return self._determine_sealed(engine, ctx, side, chart, body)
        row = self._row_for(engine, side, chart, body.for_purchase, body.item)
        entry = book.find_entry(chart, row["rg"])
        if entry is None:
            raise RuleViolation(
                f"{rules.record}: {row['rg']} is no longer on the {side} RG chart",
                rule=rules.record,
            )
        what = f"RG {row['rg']} (event {row['seq']}, item {row['item']})"
        todo = book.missing(rules, side, entry, row, engine.readings(at=row["seq"]))
        if not todo:
            raise RuleViolation(
                f"{rules.determine}: {what} needs no further roll", rule=rules.determine
            )
        need = todo[0]
        if body.table is not None:
            found = next((n for n in todo if n.table == body.table), None)
            if found is None:
                raise RuleViolation(
                    f"{rules.determine}: {what} needs no roll on {body.table}; it needs "
                    f"{todo[0].label} ({todo[0].table})",
                    rule=rules.determine,
                )
            need = found
        if row["cg_date"] != engine.cg_date:
            raise RuleViolation(
                f"{rules.determine}: {what} was bought on {row['cg_date']}; its rolls are "
                f"made in RePh step {rules.determine} of that CG Date",
                rule=rules.determine,
            )
        if self._hidden(engine, row, need):
            if body.secret is False:
                raise InvalidInput(
                    f"{rules.determine}: {what}'s roll on {need.table} is secret (a secret RG "
                    "or a Secret DR); its rolls are sealed",
                    field="secret",
                )
            stated = [] if not body.drm else [_Stated(row["seq"], row["item"], need, body.drm)]
            scope = (row["seq"], body.item)  # the purchase, or one RG of it if named
            return self._determine_sealed(
                engine,
                ctx,
                side,
                chart,
                body,
                step=need.step or rules.determine,
                stated=stated,
                scope=scope,
            )
        if body.secret:
            raise InvalidInput(
                f"{rules.determine}: {what}'s roll on {need.table} is public (a public purchase, "
                "on a table the rules do not make secret); leave secret out",
                field="secret",
            )
        engine.check_step_order(
            side, need.step or rules.determine, ruling=ctx.actor == REFEREE, ctx=ctx
        )
        table = engine.table(need.table)
        requests = self._requests(engine, ctx, table, need, body.drm, what)
        tablebook.prepare(table, requests, dict(need.inputs))  # refuse before the roll
        pub, _, result = engine.roll_on(
            ctx, table, requests, dict(need.inputs), secret=False, client_nonce=body.client_nonce
        )
        values = {**self._written(need, table, row, result), "inputs": dict(need.inputs)}
        payload = {**engine.rule_payload(side, need.step or rules.determine), "roll": pub}
        payload.update(
            {k: values.pop(k) for k in ("rule", "table", "for_purchase", "item", "need")}
        )
        return engine.append(ctx, SEALED_KIND, payload, values, owner=None)

    # -------------------------------------------------------------- sealed batch

    def _determine_sealed(
        self,
        engine: Engine,
        ctx: Ctx,
        side: str,
        chart: Sequence[Mapping[str, Any]],
        body: DeterminationCreate,
        *,
        step: str | None = None,
        stated: Sequence[_Stated] = (),
        scope: tuple[int, int | None] | None = None,
    ) -> int:
        """One sealed record of every hidden roll ``side``'s RG of the CG Date
        need in ``step`` (default: its first determination step from its
        current one that it has not sealed yet), each read as it is made;
        ``scope``: only those of one purchase (the seq), or of one RG of it
        (seq and item). Each request is one record: a side that wants the
        opponent unable to count its RG sends one for all (``secret`` alone)."""
        rules = self.purchases
        step = step or self._batch_step(engine, side, chart)
        if SEALED_KIND in engine.sealed_in(side, step) and not self._pending_hidden(
            engine, side, chart, step
        ):
            raise RuleViolation(
                f"{step}: {side}'s secret rolls of RePh step {step} on {engine.cg_date} are "
                "sealed already and no RG needs another",
                rule=step,
            )
        stated = [*stated, *(_Stated.of(s) for s in body.stated)]
        self._check_stated(engine, ctx, side, chart, stated)  # refused before anything is drawn
        engine.check_step_order(side, step, ruling=ctx.actor == REFEREE, ctx=ctx)
        engine.open_seal(ctx, body.client_nonce)
        rows = copy.deepcopy(engine.rules.get("record", {}).get(side, []))
        for row in rows:
            entry = book.find_entry(chart, row["rg"])
            if row["cg_date"] != engine.cg_date or entry is None or not _within(row, scope):
                continue
            what = f"RG {row['rg']} (event {row['seq']}, item {row['item']})"
            while True:
                todo = [
                    n
                    for n in book.missing(rules, side, entry, row, engine.readings(at=row["seq"]))
                    if (n.step or rules.determine) == step and self._hidden(engine, row, n)
                ]
                if not todo:
                    break
                need = todo[0]
                table = engine.table(need.table)
                drm = [d for s in stated if s.matches(row, need) for d in s.drm]
                requests = self._requests(engine, ctx, table, need, drm, what)
                tablebook.prepare(table, requests, dict(need.inputs))
                _, _, result = engine.roll_on(
                    ctx,
                    table,
                    requests,
                    dict(need.inputs),
                    secret=True,
                    client_nonce=body.client_nonce,
                    purpose=f"{table.id} {table.title}: {need.label}",
                )
                values = self._written(need, table, row, result)
                engine.note_roll(**{k: v for k, v in values.items() if k != "table"})
                record_result(row, 0, values)
        payload = engine.rule_payload(side, step)
        return engine.append(ctx, SEALED_KIND, payload, {}, owner=side)

    def _batch_step(self, engine: Engine, side: str, chart: Sequence[Mapping[str, Any]]) -> str:
        """The step of a sealed batch: the first from ``side``'s current one
        with a hidden roll to make, else the first not sealed yet."""
        steps = engine.sealed_steps_from(side, SEALED_KIND)
        for step in steps:
            if self._pending_hidden(engine, side, chart, step):
                return step
        for step in steps:
            if SEALED_KIND not in engine.sealed_in(side, step):
                return step
        rule = self.purchases.determine
        raise RuleViolation(
            f"{rule}: {side} has no determination step left on {engine.cg_date} whose secret "
            "rolls are not sealed yet",
            rule=rule,
        )

    def _check_stated(
        self,
        engine: Engine,
        ctx: Ctx,
        side: str,
        chart: Sequence[Mapping[str, Any]],
        stated: Sequence[_Stated],
    ) -> None:
        """Each DRM stated for a roll of a batch, checked against every roll of
        that RG on that table (a refusal names it, and nothing is appended)."""
        rules = self.purchases
        rows = engine.rules.get("record", {}).get(side, [])
        for given in stated:
            row = next((r for r in rows if given.names(r)), None)
            entry = None if row is None else book.find_entry(chart, row["rg"])
            if row is None or entry is None or rules.needs is None:
                raise InvalidInput(
                    f"{rules.record}: {side} has no RG on its RG Purchase Record from event "
                    f"{given.seq}, item {given.item}",
                    field="stated",
                )
            what = f"RG {row['rg']} (event {row['seq']}, item {row['item']})"
            for need in self._foreseen(engine, side, entry, row, FORESEEN):
                if given.matches(row, need):
                    table = engine.table(need.table)
                    requests = self._requests(engine, ctx, table, need, given.drm, what)
                    tablebook.prepare(table, requests, dict(need.inputs))

    def _foreseen(
        self, engine: Engine, side: str, entry: Mapping[str, Any], row: book.Row, depth: int
    ) -> list[book.Need]:
        """The rolls ``row`` needs now and those the batch may come to after
        its next ``depth`` rolls, whatever they give (a leader DR waits for
        the Strength DR, 8.6201-8.6206), so a DRM stated for a later roll of
        the batch is checked before any die is drawn."""
        rules = self.purchases
        assert rules.needs is not None
        found = list(rules.needs(side, entry, row, engine.readings(at=row["seq"])))
        todo = book.missing(rules, side, entry, row, engine.readings(at=row["seq"]))
        if depth == 0 or not todo:
            return found
        first = todo[0]
        for band, b in enumerate(engine.table(first.table).bands):
            then = copy.deepcopy(row)
            value = book.result_value(first, band, b.result)
            record_result(
                then, 0, {"need": first.key, "value": value, "band": band, "result": b.result,
                          "final": 0},
            )  # fmt: skip
            found += self._foreseen(engine, side, entry, then, depth - 1)
        return found

    # -------------------------------------------------------------- shared

    def _pending_hidden(
        self, engine: Engine, side: str, chart: Sequence[Mapping[str, Any]], step: str
    ) -> bool:
        rules = self.purchases
        for row in engine.rules.get("record", {}).get(side, []):
            entry = book.find_entry(chart, row["rg"])
            if row["cg_date"] != engine.cg_date or entry is None:
                continue
            for need in book.missing(rules, side, entry, row, engine.readings(at=row["seq"])):
                if (need.step or rules.determine) == step and self._hidden(engine, row, need):
                    return True
        return False

    def _hidden(self, engine: Engine, row: book.Row, need: book.Need) -> bool:
        """A roll is sealed for a secret RG, or on a table the rules make Secret."""
        return bool(row.get("secret")) or engine.table(need.table).secret

    def _requests(
        self,
        engine: Engine,
        ctx: Ctx,
        table: tablebook.Table,
        need: book.Need,
        drm: Sequence[Any],
        what: str,
    ) -> list[Any]:
        stated = []
        for i, d in enumerate(drm):
            if d.id in need.decides:
                raise InvalidInput(
                    f"{need.rule}: the {d.id!r} DRM is decided by the ledger from {what}'s "
                    "chart line and record; leave it out",
                    field=f"drm.{i}.id",
                    rule=need.rule,
                )
            stated.append(tablebook.DrmRequest(d.id, count=d.count, value=d.value, note=d.note))
        stated += [tablebook.DrmRequest(drm_id, by=tablebook.LEDGER) for drm_id in need.drms]
        return engine.with_counted_drms(ctx, table, stated)

    @staticmethod
    def _written(
        need: book.Need, table: tablebook.Table, row: book.Row, result: dict[str, Any]
    ) -> dict[str, Any]:
        band = result["outcome"]["band"]
        return {
            "rule": table.id,
            "table": tablebook.table_ref(table),
            "for_purchase": row["seq"],
            "item": row["item"],
            "need": need.key,
            **result,
            "band": band,
            "result": result["outcome"]["text"],
            "value": book.result_value(need, band, result["outcome"]["text"]),
            "subject": need.subject,
        }

    def _row_for(
        self,
        engine: Engine,
        side: str,
        chart: Sequence[Mapping[str, Any]],
        for_purchase: int | None,
        item: int | None,
    ) -> book.Row:
        """The row a determination roll names, or the first of the CG Date
        that still needs a roll."""
        rules = self.purchases
        rows: list[book.Row] = engine.rules.get("record", {}).get(side, [])
        wanted = for_purchase
        if wanted is None:
            wanted = next(
                (
                    r["seq"]
                    for r in rows
                    if r["cg_date"] == engine.cg_date
                    and (e := book.find_entry(chart, r["rg"])) is not None
                    and book.missing(rules, side, e, r, engine.readings(at=r["seq"]))
                ),
                None,
            )
            if wanted is None:
                raise RuleViolation(
                    f"{rules.determine}: no RG of {side} on {engine.cg_date} needs a roll",
                    rule=rules.determine,
                )
            if item is None:
                item = next(
                    r["item"]
                    for r in rows
                    if r["seq"] == wanted
                    and (e := book.find_entry(chart, r["rg"])) is not None
                    and book.missing(rules, side, e, r, engine.readings(at=r["seq"]))
                )
        candidates = [r for r in rows if r["seq"] == wanted]
        if not candidates:
            raise InvalidInput(
                f"{rules.record}: {side} has no RG on its RG Purchase Record from event {wanted}",
                field="for_purchase",
            )
        if item is None and len(candidates) > 1:
            raise InvalidInput(
                f"event {wanted} bought {len(candidates)} RG: name the item (0 to "
                f"{len(candidates) - 1})",
                field="item",
            )
        found = (
            candidates[0]
            if item is None
            else next((r for r in candidates if r["item"] == item), None)
        )
        if found is None:
            raise InvalidInput(
                f"event {wanted} bought {len(candidates)} RG; there is no item {item}",
                field="item",
            )
        return found

    def determinations_pending(
        self, engine: Engine, side: str, step: str | None = None
    ) -> list[str]:
        """The rolls of RePh ``step`` still missing for the RG bought (or
        OB-given) on the current CG Date: the step cannot be passed while one
        is."""
        step = step or self.purchases.determine
        rows = engine.rules.get("record", {}).get(side, [])
        chart = self.chart(engine, side)
        out: list[str] = []
        for row in rows:
            if row["cg_date"] != engine.cg_date:
                continue
            entry = book.find_entry(chart, row["rg"])
            if entry is None:
                continue
            for need in book.missing(
                self.purchases, side, entry, row, engine.readings(at=row["seq"])
            ):
                if (need.step or self.purchases.determine) == step:
                    out.append(f"{need.label} (event {row['seq']}, item {row['item']})")
                    break
        return out


def _within(row: book.Row, scope: tuple[int, int | None] | None) -> bool:
    if scope is None:
        return True
    seq, item = scope
    return bool(row["seq"] == seq and (item is None or row["item"] == item))


class _Stated:
    """DRMs the roller states for one roll of a sealed batch."""

    def __init__(self, seq: int, item: int, need: book.Need | str | None, drm: Sequence[Any]):
        self.seq, self.item, self.drm = seq, item, list(drm)
        self.table = need.table if isinstance(need, book.Need) else need

    @classmethod
    def of(cls, given: Any) -> _Stated:
        return cls(given.for_purchase, given.item, given.table, given.drm)

    def names(self, row: book.Row) -> bool:
        return bool(self.seq == row["seq"] and self.item == row["item"])

    def matches(self, row: book.Row, need: book.Need) -> bool:
        return self.names(row) and (self.table is None or self.table == need.table)
