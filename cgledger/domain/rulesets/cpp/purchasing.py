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

Secrecy (DESIGN §2a, §4): a secret purchase batch is one sealed record,
whatever it holds, and so are the hidden determination rolls of a step
(:mod:`.determining`) and each Fortification purchase and setup; a step the
rules make secret that a side completes without one gets an empty one
(``sealed_acts``), so the opponent can count neither RG nor rolls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from cgledger.domain import purchases as book
from cgledger.domain.errors import InvalidInput, NotFound
from cgledger.domain.rulesets.base import Engine, SealedAct
from cgledger.domain.rulesets.cpp.bodies import RGItem
from cgledger.domain.rulesets.cpp.determining import Determining, determined, record_result
from cgledger.domain.rulesets.cpp.fortifying import NOTHING_PLACED, Fortifying


class Purchasing(Determining, Fortifying):
    """The purchase commands of a CPP roster (its RG, the rolls that determine
    them from :class:`Determining`, its Fortifications from
    :class:`Fortifying`); ``CppRules`` mixes it in."""

    purchases: book.PurchaseRules
    ruleset_id: str
    #: The acts its steps seal (``RePhStep.sealed``) and what an empty one holds.
    sealed_acts: Mapping[str, SealedAct] = MappingProxyType(
        {
            "RGPurchased": SealedAct(False, MappingProxyType({"rgs": [], "secret": True})),
            "RGDetermined": SealedAct(True, MappingProxyType({})),
            "FortificationsPurchased": SealedAct(
                False, MappingProxyType({"items": [], "cost_halves": 0, "fpp_spent": 0})
            ),
            "FortificationsPlaced": SealedAct(False, NOTHING_PLACED),
        }
    )

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
            for one in determined(values):
                record_result(
                    _row(state["record"][side], one["for_purchase"], one["item"]), seq, one
                )
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
            cost, applied = book.price(rules, side, entry, item.modifiers, engine.readings())
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


# ---------------------------------------------------------------- helpers


def _row(rows: list[book.Row], seq: int, item: int) -> book.Row:
    for row in rows:
        if row["seq"] == seq and row["item"] == item:
            return row
    raise NotFound(f"no RG of event {seq}, item {item} on the record")
