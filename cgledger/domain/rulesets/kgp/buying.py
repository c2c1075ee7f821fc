"""The commands and read model of purchases from the CG's own charts
(docs/DESIGN.md §10), for a CPP roster (``CppRules``): RG bought at the
chart's price within its limits (8.6194-8.6196), the rolls that determine each
RG (8.620), FPP and Fortifications (8.621), their setup Locations (8.6242)
and the hidden ones placed on-map in the opponent's Setup Area (8.6073).

The rule numbers and tables come from the ruleset's
:class:`cgledger.domain.purchases.PurchaseRules` (ABtF passes its own).

State, kept in the ruleset's state (JSON, snapshotted):
``record``: ``{side: [Row]}``, the RG Purchase Record;
each CPP line: ``fpp_halves`` (FPP granted on that CG Date), ``fort_halves``
(spent), ``forts`` (``{type: count}`` bought), ``fort_seqs``;
``placed``: ``{side: [{"seq", "map_group", "items", "revealed": [i]}]}``.

Secrecy: a secret purchase is one event, whatever it holds, and so is each
determination roll and Fortification purchase. A Secret roll (8.620 EX: "a separate
Secret DR"), and any roll for a secret purchase, names neither its table, its need nor
its purchase in public (its purpose reads "<step> RG determination": a
Depleted platoon's SW drs would otherwise tell its strength), and the first
such roll records every determination table's definition at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Self

from pydantic import Field, StrictInt, StringConstraints, model_validator

from cgledger.domain import purchases as book
from cgledger.domain import tables as tablebook
from cgledger.domain.context import Ctx
from cgledger.domain.errors import InvalidInput, NotFound, RuleViolation
from cgledger.domain.requests import Body, Nonce
from cgledger.domain.rulesets.base import Engine
from cgledger.domain.visibility import REFEREE

Short = Annotated[str, StringConstraints(min_length=1, max_length=30)]
#: 8.6073: "Each such minefield is marked ... to reveal its presence but not its strength/type".
MINEFIELD = "minefield"
MAX_ITEMS = 50

# ---------------------------------------------------------------- request bodies


class RGItem(Body):
    rg: str = Field(
        examples=["I2"],
        min_length=1,
        max_length=30,
        description="the RG's ID on the side's RG chart (9.6178: 'I1(K)' for a KG's RG)",
    )
    cpp: StrictInt | None = Field(
        default=None,
        ge=0,
        le=10_000,
        description="optional: if given, it must equal the chart's cost after the modifiers "
        "(8.6194)",
    )
    map_group: str | None = Field(
        default=None,
        min_length=1,
        max_length=20,
        description="8.6195: the Map Group the RG is bought for (its CG Date maximum counts "
        "per Map Group); defaults to the only one",
    )
    modifiers: list[Short] = Field(
        default_factory=list,
        max_length=4,
        description="8.6194 CPP-cost modifiers chosen: 'standard-on-map' (a), 'early-entry' (b)",
    )
    objective_hex: str | None = Field(
        default=None,
        min_length=1,
        max_length=20,
        description="8.6198: the Objective Hex of an 'I' or 'HW'-type RG, recorded when it is "
        "purchased (a hex of its map group)",
    )


class RGPurchaseCreate(Body):
    """Either one RG (``rg``, with ``cpp``, ``map_group`` and ``modifiers``
    if wanted) or a batch (``rgs``). A secret batch, even an empty one, is one
    event: the opponent cannot count the RG. A batch is all or nothing."""

    side: str | None = Field(default=None, max_length=40)
    rg: str | None = Field(default=None, examples=["I2"], min_length=1, max_length=30)
    cpp: StrictInt | None = Field(default=None, ge=0, le=10_000)
    map_group: str | None = Field(default=None, min_length=1, max_length=20)
    modifiers: list[Short] = Field(default_factory=list, max_length=4)
    objective_hex: str | None = Field(default=None, min_length=1, max_length=20)
    rgs: list[RGItem] | None = Field(default=None, max_length=MAX_ITEMS)
    secret: bool = Field(default=True, description="8.619: purchases may be kept secret")

    @model_validator(mode="after")
    def one_form(self) -> Self:
        single = self.rg is not None
        extras = (
            self.cpp is not None
            or self.map_group is not None
            or bool(self.modifiers)
            or self.objective_hex is not None
        )
        if single == (self.rgs is not None):
            raise ValueError("give either rg (one RG) or rgs (a batch)")
        if not single and extras:
            raise ValueError(
                "cpp, map_group, modifiers and objective_hex go with rg; in a batch, on each item"
            )
        return self

    def items(self) -> list[RGItem]:
        if self.rgs is not None:
            return list(self.rgs)
        assert self.rg is not None
        return [
            RGItem(
                rg=self.rg,
                cpp=self.cpp,
                map_group=self.map_group,
                modifiers=self.modifiers,
                objective_hex=self.objective_hex,
            )
        ]


class StatedDrm(Body):
    """A DRM the roller states (see the table's ``drms``), e.g. 8.6206's
    "+1 If the current CG Date is or/…", which the seed cuts."""

    id: str = Field(min_length=1, max_length=60)
    count: StrictInt | None = Field(default=None, ge=0, le=100)
    value: StrictInt | None = Field(default=None, ge=-100, le=100)
    note: str | None = Field(default=None, max_length=200)


class DeterminationCreate(Body):
    """A roll that determines an RG on the RG Purchase Record (8.6201-8.6206,
    9.6181-9.6184). The ledger knows which rolls each RG needs and applies the
    DRMs its record decides (Depleted, Elite, V/G-type, British)."""

    side: str | None = Field(default=None, max_length=40)
    for_purchase: StrictInt | None = Field(
        default=None,
        ge=1,
        le=2**53,
        description="the seq of the purchase (RGPurchased) event; left out: the first RG of "
        "the CG Date that still needs a roll",
    )
    item: StrictInt | None = Field(
        default=None,
        ge=0,
        le=MAX_ITEMS,
        description="the RG's place in that purchase (0 first); needed if it bought several",
    )
    table: str | None = Field(
        default=None,
        min_length=1,
        max_length=60,
        description="the table to roll on; defaults to the next roll the RG needs",
    )
    drm: list[StatedDrm] = Field(default_factory=list, max_length=10)
    client_nonce: str | None = Nonce


class FortItem(Body):
    type: str = Field(min_length=1, max_length=30, examples=["at-mine-factor"])
    count: StrictInt = Field(ge=1, le=1000)


class FortificationPurchaseCreate(Body):
    """8.621: Fortifications bought with the FPP granted in 8.619."""

    side: str | None = Field(default=None, max_length=40)
    items: list[FortItem] = Field(max_length=MAX_ITEMS)
    secret: bool = Field(default=True, description="kept on the side's own CG Roster")


class FortLocation(Body):
    type: str = Field(min_length=1, max_length=30)
    hex: str = Field(min_length=1, max_length=20)
    level: StrictInt = Field(default=0, ge=-9, le=99)
    count: StrictInt = Field(
        default=1, ge=1, le=1000, description="items of this type here (a minefield's factors)"
    )


class FortificationSetupCreate(Body):
    """8.6242: "Record the hex coordinates of new Fortification setup
    Locations"; secret until 8.6073 or the owner reveals them."""

    side: str | None = Field(default=None, max_length=40)
    map_group: str | None = Field(default=None, min_length=1, max_length=20)
    items: list[FortLocation] = Field(min_length=1, max_length=200)
    retained: dict[
        Annotated[str, StringConstraints(min_length=1, max_length=10)],
        Annotated[StrictInt, Field(ge=0, le=1000)],
    ] = Field(
        default_factory=dict,
        max_length=100,
        description="8.621 footnote S: the squad-equivalents Retained in each of the side's "
        "Setup Areas the items go to, by area id (e.g. {'A': 4})",
    )


class HiddenFortificationCreate(Body):
    """8.6073: each still-hidden Fortification within a Setup Area of the
    purchaser's opponent is placed on-map."""

    map_group: str | None = Field(default=None, min_length=1, max_length=20)


# ---------------------------------------------------------------- the commands


class Purchasing:
    """The purchase commands of a CPP roster; ``CppRules`` mixes it in."""

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
        if kind == "FortificationsPurchased":
            line["fort_halves"] = line.get("fort_halves", 0) + values["cost_halves"]
            forts = line.setdefault("forts", {})
            for item in values["items"]:
                forts[item["type"]] = forts.get(item["type"], 0) + item["count"]
            line.setdefault("fort_seqs", []).append(seq)
            return True
        if kind == "FortificationsPlaced":
            state.setdefault("placed", {}).setdefault(side, []).append(
                {
                    "seq": seq,
                    "map_group": values["map_group"],
                    "cg_date": values["cg_date"],
                    "items": values["items"],
                    "revealed": [],
                }
            )
            return True
        if kind == "FortificationsRevealed":
            table = self.purchases.fort_table
            for entry in values["revealed"]:
                side_of = entry["side"]
                shown = {"map_group": values["map_group"], **entry}
                state.setdefault("forts_shown", {}).setdefault(side_of, []).append(shown)
                for placed in state["placed"][side_of]:
                    if placed["map_group"] != values["map_group"]:
                        continue
                    for i, item in enumerate(placed["items"]):
                        ft = None if table is None else table.get(item["type"])
                        kind = MINEFIELD if ft is not None and ft.mine else item["type"]
                        at = (item["hex"], item["level"], kind)
                        if at == (entry["hex"], entry["level"], entry["type"]):
                            placed["revealed"].append(i)
            return True
        return False

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

    # -------------------------------------------------------------- 8.621

    def fortify(self, engine: Engine, ctx: Ctx, body: FortificationPurchaseCreate) -> int:
        rules = self.purchases
        assert rules.fortify is not None
        assert rules.fort_table is not None
        side = engine.require_side(ctx, body.side)
        if not body.items and not body.secret:
            raise InvalidInput(
                "name at least one Fortification (or make the purchase secret)", field="items"
            )
        items = [(i.type, i.count) for i in body.items]
        cost = book.fort_cost_halves(rules.fort_table, side, items)
        engine.check_step_order(side, rules.fortify, ruling=ctx.actor == REFEREE)
        line = _current_line(engine, side)
        held = line.get("fpp_halves", 0) - line.get("fort_halves", 0)
        if cost > held:
            raise RuleViolation(
                f"{rules.fortify}: these Fortifications cost {book.fpp(cost)} FPP but {side} "
                f"holds {book.fpp(held)} FPP on {engine.cg_date} (FPP are bought in "
                f"{rules.buy})",
                rule=rules.fortify,
            )
        values = {
            "items": [{"type": t, "count": n} for t, n in items],
            "cost_halves": cost,
            "fpp_spent": book.fpp(cost),
        }
        payload = engine.rule_payload(side, rules.fortify)
        return engine.append(
            ctx, "FortificationsPurchased", payload, values, owner=side if body.secret else None
        )

    # -------------------------------------------------------------- 8.6242

    def set_up(self, engine: Engine, ctx: Ctx, body: FortificationSetupCreate) -> int:
        """8.6242: record the setup Locations of new Fortifications, in the
        side's Setup Areas, within what it bought and by the table's
        footnotes (i: only some may go to an Isolated Location; S: within the
        squad-equivalents Retained in the Setup Area)."""
        rules = self.purchases
        table = rules.fort_table
        assert table is not None
        assert rules.place is not None
        side = engine.require_side(ctx, body.side)
        view = engine.setup_areas_view(body.map_group)
        group = view["map_group"]
        engine.check_step_order(side, rules.place, ruling=ctx.actor == REFEREE)
        areas = [a for a in view["areas"] if a["side"] == side]
        area_of = {hx: a for a in areas for hx in a["hexes"]}
        known = {h["hex"]: h for h in view["hexes"]}
        bought = _bought(engine, side)
        placed = _placed(engine, side)
        per_area: dict[str, int] = _placed_per_area(engine, side, area_of, table)
        rule = rules.fortify or rules.place
        # Footnote i: only where the table marks items 'i' is an Isolated Location limited.
        isolating = "i" in "".join(t.flags for t in table.types)
        for i, item in enumerate(body.items):
            ft = table.get(item.type)
            if ft is None:
                raise InvalidInput(
                    f"{rule}: no Fortification type {item.type!r}", field=f"items.{i}.type"
                )
            if item.hex not in known:
                raise InvalidInput(
                    f"{item.hex!r} is not a hex of map group {group}", field=f"items.{i}.hex"
                )
            placed[item.type] = placed.get(item.type, 0) + item.count
            if placed[item.type] > bought.get(item.type, 0):
                raise RuleViolation(
                    f"{rule}: {side} bought {bought.get(item.type, 0)} {ft.name} and would set "
                    f"up {placed[item.type]}",
                    rule=rule,
                )
            area = area_of.get(item.hex)
            if area is None:
                raise RuleViolation(
                    f"{rule}: a Fortification must be added to a Setup Area of {side}; "
                    f"{item.hex} is not in one",
                    rule=rule,
                )
            if isolating and area["isolated"] and "i" not in ft.flags:
                raise RuleViolation(
                    f"{rule}: only items marked 'i' may be added to an Isolated Location; "
                    f"{ft.name} is not, and {item.hex} is in Isolated Setup Area "
                    f"{area['id']}",
                    rule=rule,
                )
            if "S" in ft.flags:
                retained = body.retained.get(area["id"], 0)
                if retained < 1:
                    raise RuleViolation(
                        f"{rule}: {ft.name} may be added only to a Setup Area that contains ≥ "
                        f"one Retained squad-equivalent; state them for area {area['id']} "
                        "(retained)",
                        rule=rule,
                    )
                per_area[area["id"]] = per_area.get(area["id"], 0) + (
                    book.fortifications_counted(table, item.type, item.count)
                )
                if per_area[area["id"]] > retained:
                    raise RuleViolation(
                        f"{rule}: the Fortifications added to Setup Area {area['id']} this "
                        f"RePh ({per_area[area['id']]}) would exceed the {retained} "
                        "squad-equivalents Retained within it",
                        rule=rule,
                    )
        values = {
            "map_group": group,
            "items": [
                {
                    "type": i.type,
                    "hex": i.hex,
                    "level": i.level,
                    "count": i.count,
                    "area": area_of[i.hex]["id"],
                }
                for i in body.items
            ],
            "retained": dict(body.retained),
        }
        payload = {**engine.rule_payload(side, rules.place)}
        return engine.append(ctx, "FortificationsPlaced", payload, values, owner=side)

    # -------------------------------------------------------------- 8.6073

    def reveal_hidden(self, engine: Engine, ctx: Ctx, body: HiddenFortificationCreate) -> int:
        """8.6073: "Each still-hidden Fortification within a Setup Area of the
        purchaser's opponent is placed on-map. Each such minefield is marked
        ... to reveal its presence but not its strength/type." Anyone may ask;
        the ledger looks at every side's hidden Locations."""
        rules = self.purchases
        assert rules.hidden is not None
        view = engine.setup_areas_view(body.map_group)
        group = view["map_group"]
        if not view["frozen"]:
            raise RuleViolation(
                f"{rules.hidden}: hidden Fortifications are placed on-map once the Setup Areas "
                f"are determined after a CG-Scenario End ({view['step']})",
                rule=rules.hidden,
            )
        if ctx.actor != REFEREE and rules.hidden_step is not None:
            # Made in RePh step 8.607 by a side that has not passed it.
            engine.check_step_order(ctx.actor, rules.hidden_step)
        table = rules.fort_table
        assert table is not None
        # One entry per Location and type, summed, with nothing that tells which
        # placement or how many items it held; a Location's mines are one
        # "minefield", whatever their types and factors.
        found: dict[tuple[str, str, int, str], int] = {}
        for side, placements in engine.rules.get("placed", {}).items():
            enemy = {hx for a in view["areas"] if a["side"] != side for hx in a["hexes"]}
            for placed in placements:
                if placed["map_group"] != group:
                    continue
                for i, item in enumerate(placed["items"]):
                    if i in placed["revealed"] or item["hex"] not in enemy:
                        continue
                    ft = table.get(item["type"])
                    kind = MINEFIELD if ft is not None and ft.mine else item["type"]
                    key = (side, item["hex"], item["level"], kind)
                    found[key] = found.get(key, 0) + item["count"]
        out = []
        for (side, hx, level, kind), count in sorted(found.items()):
            entry: dict[str, Any] = {"side": side, "hex": hx, "level": level, "type": kind}
            if kind != MINEFIELD:
                entry["count"] = count
            out.append(entry)
        payload = {
            "by": ctx.actor,  # asked for by anyone; moves no side
            "cg_date": engine.cg_date,
            "rule": f"{self.ruleset_id}:{rules.hidden}",
            "map_group": group,
            "revealed": out,
        }
        return engine.append(ctx, "FortificationsRevealed", payload, {}, owner=None)


# ---------------------------------------------------------------- helpers


def _row(rows: list[book.Row], seq: int, item: int) -> book.Row:
    for row in rows:
        if row["seq"] == seq and row["item"] == item:
            return row
    raise NotFound(f"no RG of event {seq}, item {item} on the record")


def _current_line(engine: Engine, side: str) -> dict[str, Any]:
    lines: list[dict[str, Any]] = engine.rules["cpp"][side]
    return lines[-1]


def _bought(engine: Engine, side: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for line in engine.rules["cpp"][side]:
        for kind, n in (line.get("forts") or {}).items():
            out[kind] = out.get(kind, 0) + n
    return out


def _placed(engine: Engine, side: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for placed in engine.rules.get("placed", {}).get(side, []):
        for item in placed["items"]:
            out[item["type"]] = out.get(item["type"], 0) + item["count"]
    return out


def _placed_per_area(
    engine: Engine, side: str, area_of: Mapping[str, Any], table: book.FortTable
) -> dict[str, int]:
    """Footnote S counts the Fortifications added to each Setup Area "during
    a RePh": those placed on the current CG Date."""
    out: dict[str, int] = {}
    for placed in engine.rules.get("placed", {}).get(side, []):
        if placed["cg_date"] != engine.cg_date:
            continue
        for item in placed["items"]:
            ft = table.get(item["type"])
            if ft is None or "S" not in ft.flags or item["area"] is None:
                continue
            out[item["area"]] = out.get(item["area"], 0) + book.fortifications_counted(
                table, item["type"], item["count"]
            )
    return out


# ---------------------------------------------------------------- the record as seen


def record_view(
    rules: book.PurchaseRules,
    side: str,
    state: Mapping[str, Any],
    chart: Sequence[Mapping[str, Any]],
    visible: Callable[[int | None], bool],
) -> list[dict[str, Any]]:
    """The RG Purchase Record (8.6198, 9.6178) of ``side`` as one viewer may
    see it: one row per RG, with every column of the paper record. A purchase
    the viewer may not see is one stub per event, whatever it bought (an empty
    secret batch too); a result whose roll the viewer may not see is ``null``
    and named in ``hidden``."""
    rows: list[book.Row] = state.get("record", {}).get(side, [])
    by_seq: dict[int, list[book.Row]] = {}
    for row in rows:
        by_seq.setdefault(row["seq"], []).append(row)
    events: list[dict[str, Any]] = [
        {"seq": seq, "cg_date": r[0]["cg_date"]} for seq, r in by_seq.items()
    ]
    known = {e["seq"] for e in events}
    events += [e for e in state.get("purchase_events", {}).get(side, []) if e["seq"] not in known]
    out: list[dict[str, Any]] = []
    bought: dict[str, int] = {}
    for event in sorted(events, key=lambda e: int(e["seq"])):
        if not visible(event["seq"]):
            out.append({"seq": event["seq"], "cg_date": event["cg_date"], "redacted": True})
            continue
        for row in by_seq.get(event["seq"], ()):
            out.append(_row_view(rules, side, row, chart, visible, bought))
    return out


def _row_view(
    rules: book.PurchaseRules,
    side: str,
    row: book.Row,
    chart: Sequence[Mapping[str, Any]],
    visible: Callable[[int | None], bool],
    bought: dict[str, int],
) -> dict[str, Any]:
    entry = book.find_entry(chart, row["rg"]) or {}
    results = row["results"]
    shown = {k: r for k, r in results.items() if visible(r["seq"])}
    # Which results exist tells what was rolled (SW drs: Depleted): when any is
    # hidden, every column a roll could fill is named, whatever was rolled.
    hidden = sorted(HIDEABLE) if any(k not in shown for k in results) else []
    cg_max = entry.get("cg_max")
    p = r = None
    if not row["ob"]:
        bought[row["rg"]] = p = bought.get(row["rg"], 0) + 1
        r = None if cg_max is None else cg_max - p
    every = _all_needs(rules, side, entry, row)  # once per row: missing ones filtered below
    needs = [n for n in every if n.key not in results]  # book.missing, without a second call
    strength = _value(shown, "strength")
    depletes = any(n.key == "strength" for n in every)
    units = list(entry.get("units") or ())
    count = None
    if units and (not depletes or strength is not None):
        count = units[1] if strength == "D" and len(units) > 1 else units[0]
    full = rules.complement(side, entry, row) if rules.complement and entry else {}
    view: dict[str, Any] = {
        "seq": row["seq"],
        "item": row["item"],
        "cg_date": row["cg_date"],
        "rg": row["rg"],
        "name": row["name"] or entry.get("name", ""),
        "cpp": row["cpp"],
        "map_group": row["map_group"],
        "modifiers": row["modifiers"],
        "ob": row["ob"],
        "purchased": p,
        "remaining": r,
        "strength": strength,
        "units": count,
        "unit_type": entry.get("unit_type") or None,
        "quality": _result(shown, "quality"),
        "models": _result(shown, "models") or _result(shown, "vehicles"),
        "sw": _pieces(shown, "sw.", full.get("sw", []), depletes, strength),
        "equipment": _pieces(shown, "equipment.", full.get("equipment", []), depletes, strength),
        "leader": _result(shown, "leader"),
        "objective_hex": row.get("objective_hex"),
        "fpp": row["fpp"],
        "rolls": [
            {
                "seq": res["seq"],
                "need": key,
                "final": res["final"],
                "result": res["result"],
                "subject": res.get("subject") or None,
            }
            for key, res in shown.items()
        ],
        "needs": None if hidden else [n.label for n in needs],
        "hidden": hidden,
    }
    short = rules.fewest_pieces
    pieces = view["equipment"]
    if short is not None and pieces and not view["needs"] and strength == "D":
        least, text = short
        if sum(p["received"] for p in pieces) < least:
            view["note"] = text
    return view


#: The columns of a record row that a roll fills, and ``needs``.
HIDEABLE = frozenset(
    {"strength", "units", "quality", "models", "sw", "equipment", "leader", "needs", "note"}
)


def _all_needs(
    rules: book.PurchaseRules, side: str, entry: Mapping[str, Any], row: book.Row
) -> list[book.Need]:
    return [] if rules.needs is None or not entry else rules.needs(side, entry, row)


def _value(shown: Mapping[str, Mapping[str, Any]], key: str) -> Any:
    found = shown.get(key)
    return None if found is None else found["value"]


def _result(shown: Mapping[str, Mapping[str, Any]], key: str) -> str | None:
    found = shown.get(key)
    return None if found is None else str(found["result"])


def _pieces(
    shown: Mapping[str, Mapping[str, Any]],
    prefix: str,
    full: Sequence[str],
    depletes: bool,
    strength: Any,
) -> list[dict[str, Any]] | None:
    """A column of SW (or Equipment): all of them for a Full-Strength RG (no
    dr), each by its dr for a Depleted one (8.6204, 8.6205, 9.6182)."""
    if depletes and strength is None:
        return None
    if strength != "D":
        return [{"name": name, "received": True} for name in full]
    return [
        {"name": res.get("subject") or key, "received": res["value"] == book.RECEIVED_FORFEIT[0]}
        for key, res in shown.items()
        if key.startswith(prefix) and key != f"{prefix}star"
    ]
