"""A table as plain JSON (DESIGN §8): its canonical definition and content
hash (recorded with every roll, the definition itself in the campaign's log
the first time the table is used, ``TableDefined``), the table rebuilt from a
recorded definition, and the listing ``GET /v1/rulesets/{r}/tables`` shows."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from cgledger.domain.dice import canon
from cgledger.domain.table_model import (
    Amount,
    Band,
    DrmDef,
    Edge,
    InputDef,
    Lookup,
    Ref,
    Special,
    Table,
    band_range,
)


def definition(table: Table) -> dict[str, Any]:
    """The table as canonical JSON data: strings, integers, lists and objects."""
    data: dict[str, Any] = _plain(table)
    return data


#: The fields of a :class:`Table` that say who may roll it and when: left out
#: of its definition, so a table's content hash (recorded with every roll made
#: on it) changes only when the way it reads a roll does.
BINDING = frozenset({"sides", "from_date", "on_dates", "step"})


def _plain(obj: Any) -> Any:
    if isinstance(obj, bool):
        return int(obj)
    if isinstance(obj, Ref):
        return {"input": obj.input, "offset": obj.offset}
    if isinstance(obj, (Table, Band, DrmDef, InputDef, Lookup, Special, Amount)):
        skip = BINDING if isinstance(obj, Table) else frozenset()
        return {
            k: _plain(v)
            for k, v in vars(obj).items()
            if not k.startswith("_") and v is not None and k not in skip
        }
    if isinstance(obj, (tuple, list)):
        return [_plain(v) for v in obj]
    return obj


def content_hash(table: Table) -> str:
    return hashlib.sha256(b"cgledger/v1/table\n" + canon(definition(table))).hexdigest()


def table_ref(table: Table) -> dict[str, str]:
    """How an event names the table it was read with: id and content hash."""
    return {"id": table.id, "hash": content_hash(table)}


def from_definition(data: Mapping[str, Any]) -> Table:
    """Rebuild a table from its recorded definition (for audits of old rolls)."""

    def edge(e: Any) -> Edge:
        return Ref(e["input"], e["offset"]) if isinstance(e, dict) else e

    def strs(xs: Sequence[Any]) -> tuple[str, ...]:
        return tuple(str(x) for x in xs)

    return Table(
        id=data["id"],
        rule=data["rule"],
        title=data["title"],
        dice=data["dice"],
        bands=tuple(
            Band(
                lo=edge(b.get("lo")),
                hi=edge(b.get("hi")),
                result=b["result"],
                notes=strs(b["notes"]),
                follow_up=strs(b["follow_up"]),
            )
            for b in data["bands"]
        ),
        drms=tuple(
            DrmDef(**{**d, "after_roll": tuple(d.get("after_roll", ()))}) for d in data["drms"]
        ),
        inputs=tuple(
            InputDef(i["id"], i["text"], strs(i["choices"]), i["lo"], i["hi"])
            for i in data["inputs"]
        ),
        lookups=tuple(
            Lookup(
                lk["id"], lk["text"], strs(lk["keys"]), tuple((strs(k), n) for k, n in lk["rows"])
            )
            for lk in data["lookups"]
        ),
        specials=tuple(Special(**s) for s in data["specials"]),
        amount=Amount(**data["amount"]) if "amount" in data else None,
        secret=bool(data["secret"]),
        by=data["by"],
        notes=strs(data["notes"]),
        endpoint=data["endpoint"],
    )


def describe(table: Table) -> dict[str, Any]:
    """The table as ``GET /v1/rulesets/{r}/tables`` lists it."""
    drms = []
    for d in table.drms:
        item: dict[str, Any] = {"id": d.id, "text": d.text, "kind": d.kind}
        if d.kind == "fixed":
            item["value"] = d.value
        elif d.kind == "per":
            item.update(per=d.value, count_means=d.count_means)
            if d.divisor != 1:
                item.update(divisor=d.divisor, rounding=d.rounding)
            if d.excess_over:
                item["excess_over"] = d.excess_over
        elif d.kind == "valued":
            item["times"] = d.value
            if d.count_means:
                item["value_means"] = d.count_means
            if d.divisor != 1:
                item.update(divisor=d.divisor, rounding=d.rounding)
        else:
            item.update(input=d.input, times=d.value, offset=d.offset)
        if d.group:
            item["group"] = d.group
        if d.after_roll:
            item["after_roll"] = list(d.after_roll)
        drms.append(item)
    bands = []
    for b in table.bands:
        band: dict[str, Any] = {
            "range": band_range(b),
            "lo": _plain(b.lo),
            "hi": _plain(b.hi),
            "result": b.result,
        }
        if b.notes:
            band["notes"] = list(b.notes)
        if b.follow_up:
            band["follow_up"] = list(b.follow_up)
        bands.append(band)
    out: dict[str, Any] = {
        "id": table.id,
        "title": table.title,
        "rule": table.rule,
        "dice": table.roll_name,
        "secret": table.secret,
        "read_on": table.by,
        "drms": drms,
        "bands": bands,
        "hash": content_hash(table),
    }
    if table.inputs:
        out["inputs"] = [_plain(i) for i in table.inputs]
    if table.lookups:
        out["lookups"] = [
            {"id": lk.id, "text": lk.text, "keys": list(lk.keys),
             "rows": [{"key": list(k), "value": v} for k, v in lk.rows]}
            for lk in table.lookups
        ]  # fmt: skip
    if table.specials:
        out["specials"] = [_plain(s) for s in table.specials]
    if table.amount is not None:
        out["amount"] = _plain(table.amount)
    if table.notes:
        out["notes"] = list(table.notes)
    if table.endpoint:
        out["endpoint"] = table.endpoint
    return {**out, **binding(table)}


def binding(table: Table) -> dict[str, Any]:
    """Who rolls ``table`` and when (``BINDING``), as its listing shows it."""
    out: dict[str, Any] = {}
    if table.sides:
        out["sides"] = list(table.sides)
    if table.from_date is not None:
        out["from_date"] = table.from_date
    if table.on_dates:
        out["on_dates"] = list(table.on_dates)
    if table.step is not None:
        out["step"] = table.step
    return out


def table_hash(data: Mapping[str, Any]) -> str:
    """The content hash of a recorded definition (equals ``content_hash``)."""
    return hashlib.sha256(b"cgledger/v1/table\n" + canon(data)).hexdigest()
