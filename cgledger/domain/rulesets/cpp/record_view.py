"""The RG Purchase Record (8.6198, 9.6178) as one viewer may see it: one row
per RG with every column of the paper record, a purchase the viewer may not
see as one stub per event, a result whose roll is hidden as ``null``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cgledger.domain import purchases as book


def record_view(
    rules: book.PurchaseRules,
    side: str,
    state: Mapping[str, Any],
    chart: Sequence[Mapping[str, Any]],
    visible: Callable[[int | None], bool],
    readings: Callable[[int], Mapping[str, str]] | None = None,
) -> list[dict[str, Any]]:
    """The RG Purchase Record (8.6198, 9.6178) of ``side`` as one viewer may
    see it: one row per RG, with every column of the paper record. A purchase
    the viewer may not see is one stub per event, whatever it bought (an empty
    secret batch too); a result whose roll the viewer may not see is ``null``
    and named in ``hidden``. ``readings``: those in force at an event, by its
    seq (DESIGN §14): a row's needs follow the readings of its purchase, so a
    reading amended later changes the rolls of the RG bought from then on."""
    rows: list[book.Row] = state.get("record", {}).get(side, [])
    by_seq: dict[int, list[book.Row]] = {}
    for row in rows:
        by_seq.setdefault(row["seq"], []).append(row)
    events: list[dict[str, Any]] = [
        {"seq": seq, "cg_date": r[0]["cg_date"]} for seq, r in by_seq.items()
    ]
    known = {e["seq"] for e in events}
    events += [e for e in state.get("purchase_events", {}).get(side, []) if e["seq"] not in known]
    at = readings or (lambda seq: {})
    out: list[dict[str, Any]] = []
    bought: dict[str, int] = {}
    for event in sorted(events, key=lambda e: int(e["seq"])):
        if not visible(event["seq"]):
            out.append({"seq": event["seq"], "cg_date": event["cg_date"], "redacted": True})
            continue
        for row in by_seq.get(event["seq"], ()):
            out.append(_row_view(rules, side, row, chart, visible, bought, at(row["seq"])))
    return out


def _row_view(
    rules: book.PurchaseRules,
    side: str,
    row: book.Row,
    chart: Sequence[Mapping[str, Any]],
    visible: Callable[[int | None], bool],
    bought: dict[str, int],
    readings: Mapping[str, str],
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
    every = _all_needs(
        rules, side, entry, row, readings
    )  # once per row: missing ones filtered below
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
    rules: book.PurchaseRules,
    side: str,
    entry: Mapping[str, Any],
    row: book.Row,
    readings: Mapping[str, str],
) -> list[book.Need]:
    return [] if rules.needs is None or not entry else rules.needs(side, entry, row, readings)


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
