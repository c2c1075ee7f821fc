"""The purchases of a CPP roster from the CG's own charts (docs/DESIGN.md
§10): RG bought at the chart's price within its limits (8.6194-8.6196) and
the rolls that determine each RG on the RG Purchase Record (8.620); its
Fortifications are :mod:`.fortifying`'s, the record as a viewer sees it
:mod:`.record_view`'s.

The rule numbers and tables come from the ruleset's
:class:`cgledger.domain.purchases.PurchaseRules`.

State, kept in the ruleset's state (JSON, snapshotted):
``record``: ``{side: [Row]}``, the RG Purchase Record; ``purchase_events``:
``{side: [{"seq", "cg_date"}]}``, one per purchase event; each CPP line's
``fpp_halves`` (FPP granted on that CG Date).

Secrecy: a secret purchase is one event, whatever it holds, and so is each
determination roll and Fortification purchase. A Secret roll (8.620 EX: "a separate
Secret DR"), and any roll for a secret purchase, names neither its table, its need nor
its purchase in public (its purpose reads "<step> RG determination": a
Depleted platoon's SW drs would otherwise tell its strength), and the first
such roll records every determination table's definition at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cgledger.domain import purchases as book
from cgledger.domain import tables as tablebook
from cgledger.domain.context import Ctx
from cgledger.domain.errors import InvalidInput, NotFound, RuleViolation
from cgledger.domain.rulesets.base import Engine
from cgledger.domain.rulesets.cpp.bodies import DeterminationCreate, RGItem
from cgledger.domain.rulesets.cpp.fortifying import Fortifying
from cgledger.domain.visibility import REFEREE


class Purchasing(Fortifying):
    """The purchase commands of a CPP roster (its RG, and its Fortifications
    from :class:`Fortifying`); ``CppRules`` mixes it in."""

    purchases: book.PurchaseRules
    ruleset_id: str

    # -------------------------------------------------------------- state

    @staticmethod
    def initial_purchase_state(genesis: Mapping[str, Any], sides: Sequence[str]) -> dict[str, Any]:
        """The record's rows for the RG given in the Initial-Scenario OB (seq 1,
        the campaign's creation, which holds the definition that lists them)."""
        record: dict[str, list[book.Row]] = {side: [] for side in sides}
        start = genesis.get("start_date", "")
        for side, given in (genesis.get("initial_ob") or {}).items():
            item = 0
            for ob in given:
                for _ in range(int(ob.get("count", 1))):
                    record.setdefault(side, []).append(
                        book.new_row(
                            1,
                            item,
                            start,
                            ob["rg"],
                            0,
                            ob.get("map_group"),
                            ob=True,
                            fpp=ob.get("fpp"),
                        )
                    )
                    item += 1
        return {"record": record, "placed": {side: [] for side in sides}}

    def apply_purchase(
        self, state: dict[str, Any], kind: str, seq: int, values: dict[str, Any]
    ) -> bool:
        """Apply a purchase event; ``False`` if ``kind`` is not one."""
        side = values.get("side")
        line: dict[str, Any] = state["cpp"][side][-1] if side in state.get("cpp", {}) else {}
        if kind == "RGPurchased":
            # Every purchase event, an empty secret batch too: the opponent sees
            # one stub per event, never a count of RG (record_view).
            events = state.setdefault("purchase_events", {}).setdefault(side, [])
            events.append({"seq": seq, "cg_date": values["cg_date"]})
            rows = state.setdefault("record", {}).setdefault(side, [])
            for i, item in enumerate(values["rgs"]):
                line["fpp_halves"] = line.get("fpp_halves", 0) + 2 * int(item.get("fpp") or 0)
                rows.append(
                    book.new_row(
                        seq,
                        i,
                        values["cg_date"],
                        item["rg"],
                        item["cpp"],
                        item.get("map_group"),
                        item.get("modifiers") or (),
                        name=item.get("name", ""),
                        # Logged before ``secret`` was: an owner made it secret.
                        secret=bool(values.get("secret", "owner" in values)),
                        fpp=item.get("fpp"),
                    )
                )
                rows[-1]["objective_hex"] = item.get("objective_hex")
            return True
        if kind == "RGDetermined":
            row = _row(state["record"][side], values["for_purchase"], values["item"])
            row["results"][values["need"]] = {
                "value": values["value"],
                "band": values["band"],
                "result": values["result"],
                "final": values["final"],
                "subject": values.get("subject", ""),
                "seq": seq,
            }
            return True
        return self.apply_fortification(state, kind, seq, values, line, self.purchases.fort_table)

    # -------------------------------------------------------------- 8.619

    def chart(self, engine: Engine, side: str) -> list[Mapping[str, Any]]:
        return list((engine.definition_doc().get("rg_chart") or {}).get(side) or ())

    def priced(
        self,
        engine: Engine,
        side: str,
        items: Sequence[RGItem],
        rows: Sequence[book.Row],
        *,
        batch: bool = True,
    ) -> list[dict[str, Any]]:
        """Each item checked against the chart (price, 8.6194; its map group):
        the values recorded. The limits are ``check_limits``'s. A refusal names
        the field as sent (``rgs.1.cpp`` in a ``batch``, else ``cpp``)."""
        rules = self.purchases
        chart = self.chart(engine, side)
        groups = [g["id"] for g in engine.definition_doc().get("map_groups") or ()]
        out: list[dict[str, Any]] = []
        for i, item in enumerate(items):
            field = f"rgs.{i}." if batch else ""
            entry = book.find_entry(chart, item.rg)
            if entry is None and not chart:
                raise InvalidInput(
                    f"{rules.price}: the CG definition in force has no {side} RG chart; the "
                    "sides agree one by a definition amendment (POST /definition-amendments)",
                    field=f"{field}rg",
                )
            if entry is None:
                known = ", ".join(book.entry_key(e) for e in chart) or "none"
                raise InvalidInput(
                    f"{rules.price}: {item.rg!r} is not on the {side} RG chart (it lists: {known})",
                    field=f"{field}rg",
                )
            key = book.entry_key(entry)
            group = item.map_group
            if group is not None and group not in groups:
                raise InvalidInput(
                    f"no map group {group!r} (this CG has: {', '.join(groups) or 'none'})",
                    field=f"{field}map_group",
                )
            if group is None and rules.per_map_group and len(groups) > 1:
                raise InvalidInput(
                    f"{rules.date_max}: name the Map Group {key} is bought for (its CG Date "
                    f"maximum counts per Map Group): one of {', '.join(groups)}",
                    field=f"{field}map_group",
                )
            if group is None and len(groups) == 1:
                group = groups[0]
            cost, applied = book.price(rules, side, entry, item.modifiers)
            if item.cpp is not None and item.cpp != cost:
                how = f" with {', '.join(applied)}" if applied else ""
                raise InvalidInput(
                    f"{rules.price}: {key} costs {cost} CPP{how} on the {side} RG chart, "
                    f"not {item.cpp}",
                    field=f"{field}cpp",
                    rule=rules.price,
                )
            value: dict[str, Any] = {
                "rg": key,
                "name": entry["name"],
                "cpp": cost,
                "map_group": group,
                "modifiers": applied,
            }
            if entry.get("fpp"):
                value["fpp"] = entry["fpp"]
            if item.objective_hex is not None:
                value["objective_hex"] = self._objective(engine, item, group, f"{field}")
            out.append(value)
        return out

    def _objective(self, engine: Engine, item: RGItem, group: str | None, field: str) -> str:
        """8.6198 "Objective Hex": a hex of the map group the RG is bought for."""
        hx = str(item.objective_hex)
        found = next(
            (g for g in engine.definition_doc().get("map_groups") or () if g["id"] == group), None
        )
        if found is None or not any(h["hex"] == hx for h in found["hexes"]):
            raise InvalidInput(
                f"{self.purchases.record}: the Objective Hex {hx!r} is not a hex of map group "
                f"{group}",
                field=f"{field}objective_hex",
            )
        return hx

    def check_limits(
        self, engine: Engine, side: str, rgs: Sequence[Mapping[str, Any]], rows: Sequence[book.Row]
    ) -> None:
        """8.6195-8.6196 (9.6175-9.6176) for the priced items of one purchase,
        each counted with those before it in the batch (all or nothing)."""
        chart = self.chart(engine, side)
        counted: list[book.Row] = list(rows)
        for i, item in enumerate(rgs):
            entry = book.find_entry(chart, item["rg"])
            assert entry is not None  # priced
            group = item["map_group"]
            book.check_limits(self.purchases, side, entry, counted, engine.cg_date, group, 1)
            counted.append(book.new_row(0, i, engine.cg_date, item["rg"], item["cpp"], group))

    # -------------------------------------------------------------- 8.620

    def determination_tables(self, engine: Engine) -> list[tablebook.Table]:
        """Every table a determination roll of this ruleset may be read on."""
        return [engine.table(t) for t in self.purchases.tables]

    def determine(self, engine: Engine, ctx: Ctx, body: DeterminationCreate) -> int:
        """8.620 (9.618): the next roll an RG on the record needs, or the one
        on ``body.table``; its DRMs from the RG's record; its result fills the
        row. A roll the RG does not need is refused (409), nothing appended."""
        rules = self.purchases
        side = engine.require_side(ctx, body.side)
        chart = self.chart(engine, side)
        row = self._row_for(engine, side, chart, body.for_purchase, body.item)
        entry = book.find_entry(chart, row["rg"])
        if entry is None:
            raise RuleViolation(
                f"{rules.record}: {row['rg']} is no longer on the {side} RG chart",
                rule=rules.record,
            )
        what = f"RG {row['rg']} (event {row['seq']}, item {row['item']})"
        todo = book.missing(rules, side, entry, row)
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
        engine.check_step_order(side, need.step or rules.determine, ruling=ctx.actor == REFEREE)
        table = engine.table(need.table)
        stated = []
        for i, d in enumerate(body.drm):
            if d.id in need.decides:
                raise InvalidInput(
                    f"{need.rule}: the {d.id!r} DRM is decided by the ledger from {what}'s "
                    "record; leave it out",
                    field=f"drm.{i}.id",
                    rule=need.rule,
                )
            stated.append(tablebook.DrmRequest(d.id, count=d.count, value=d.value, note=d.note))
        stated += [tablebook.DrmRequest(drm_id) for drm_id in need.drms]
        requests = engine.with_counted_drms(ctx, table, stated)
        tablebook.prepare(table, requests, dict(need.inputs))  # refuse before the roll
        # A Secret roll, or any roll for a secret purchase, names neither its
        # table nor its need in public: a Depleted platoon's SW drs would tell.
        hidden = bool(row.get("secret")) or table.secret
        if hidden:
            engine.define_tables(ctx, self.determination_tables(engine))
        purpose = f"{self.ruleset_id}:{rules.determine} RG determination" if hidden else None
        pub, sec, result = engine.roll_on(
            ctx,
            table,
            requests,
            dict(need.inputs),
            secret=hidden,
            client_nonce=body.client_nonce,
            purpose=purpose,
        )
        band = result["outcome"]["band"]
        bound = {
            "rule": table.id,
            "table": tablebook.table_ref(table),
            "for_purchase": row["seq"],
            "item": row["item"],
            "need": need.key,
        }
        values = {
            **(sec or {}),
            "inputs": dict(need.inputs),
            **result,
            "band": band,
            "result": result["outcome"]["text"],
            "value": book.result_value(need, band, result["outcome"]["text"]),
            "subject": need.subject,
        }
        payload = {**engine.rule_payload(side, need.step or rules.determine), "roll": pub}
        if hidden:
            values.update(bound)  # names neither table nor purchase in public
        else:
            payload.update(bound)
        owner = side if hidden else None
        return engine.append(ctx, "RGDetermined", payload, values, owner=owner)

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
                    and book.missing(rules, side, e, r)
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
                    and book.missing(rules, side, e, r)
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
            for need in book.missing(self.purchases, side, entry, row):
                if (need.step or self.purchases.determine) == step:
                    out.append(f"{need.label} (event {row['seq']}, item {row['item']})")
                    break
        return out


# ---------------------------------------------------------------- helpers


def _row(rows: list[book.Row], seq: int, item: int) -> book.Row:
    for row in rows:
        if row["seq"] == seq and row["item"] == item:
            return row
    raise NotFound(f"no RG of event {seq}, item {item} on the record")
