"""How the player's commands print the server's answers as text: a roll, a
CG Roster, a line of the event log."""

from __future__ import annotations

import json
from typing import Any


def dice_text(roll: dict[str, Any]) -> str:
    kind = "DR" if roll.get("count") == 2 else "dr"
    dice = roll.get("dice")
    if dice is None:
        return f"{kind} hidden"
    total = f" = {sum(dice)}" if len(dice) > 1 else ""
    return f"{kind} {' '.join(str(d) for d in dice)}{total}"


def roll_lines(out: dict[str, Any], campaign: str) -> list[str]:
    roll = out.get("roll") if "table" in out else out
    assert isinstance(roll, dict)
    lines = [f"roll #{roll['index']} (seq {roll['seq']}) by {roll['side']}: {dice_text(roll)}"]
    if "table" in out:
        drms = ", ".join(f"{d['id']} {d['value']:+d}" for d in out.get("drm") or []) or "none"
        lines.append(f"  table:      {out['table']['id']}")
        lines.append(
            f"  Original:   {out.get('original')}   DRM: {drms}   Final: {out.get('final')}"
        )
        outcome = out.get("outcome") or {}
        if outcome:
            lines.append(f"  result:     {outcome.get('text', json.dumps(outcome))}")
    lines.append(f"  purpose:    {roll['purpose']}")
    if roll.get("secret"):
        lines.append("  secret:     yes (the opponent sees a stub until it is revealed)")
    lines.append(f"  commitment: {roll['commitment']}")
    lines.append(f"  seed:       {roll.get('seed') or '(not revealed yet)'}")
    lines.append(f"  nonce:      {roll['client_nonce']}")
    lines.append(
        f"verify: cgledger verify --campaign {campaign} (recomputes every revealed roll "
        "from its seed and checks it against its commitment)"
    )
    return lines


_WORDS = {
    "cg": "CG",
    "rg": "RG",
    "cpp": "CPP",
    "fpp": "FPP",
    "vp": "VP",
    "cvp": "CVP",
    "lvp": "LVP",
}


def _heading(column: str) -> str:
    return " ".join(_WORDS.get(w, w.capitalize()) for w in column.split("_"))


def _cell(line: dict[str, Any], column: str) -> str:
    if column in (line.get("hidden") or ()):
        return "?"
    value = line.get(column)
    if value is None:
        return "-"
    if isinstance(value, list):
        return ", ".join(_cell({"v": v}, "v") for v in value) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def roster_lines(view: dict[str, Any]) -> list[str]:
    lines = [f"CG Roster: {view['side']} (campaign {view['campaign']}, CG Date {view['cg_date']})"]
    rows = view.get("lines")
    if rows is None:
        return [*lines, "(this ruleset keeps no CG Roster)"]
    columns: list[str] = view["columns"]
    table = [[_heading(c) for c in columns]] + [[_cell(row, c) for c in columns] for row in rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(columns))]
    for number, row in enumerate(table):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        if number == 0:
            lines.append("  ".join("-" * w for w in widths))
    if any(row.get("hidden") for row in rows):
        lines.append("? : not yet public (the rules keep it secret for now)")
    for name, value in (view.get("conditions") or {}).items():
        lines.append(f"{_heading(name)}: {_condition(value)}")
    return lines


def _condition(value: Any) -> str:
    """A lasting result, e.g. ``{"campaign": {"value": "Mist", "rule": "8.617"}}``."""
    if isinstance(value, dict) and all(isinstance(v, dict) for v in value.values()):
        return "; ".join(
            f"{v.get('value')} ({k}, {v.get('rule')})" if "value" in v else f"{k}: {v}"
            for k, v in value.items()
        )
    return json.dumps(value, ensure_ascii=False)


def _summary(event: dict[str, Any]) -> str:
    payload = event.get("payload") or {}
    parts: list[str] = []
    roll = payload.get("roll")
    seen = event.get("secret")
    if isinstance(roll, dict):
        dice = roll.get("dice")
        if dice is None and isinstance(seen, dict):
            # One's own Secret roll; a sealed record's dice are its rolls' (DESIGN §2a).
            dice = seen.get("dice")
            if dice is None and "rolls" in seen:
                dice = [d for r in seen["rolls"] for d in r["dice"]]
        shown = "secret" if dice is None else " ".join(str(d) for d in dice)
        parts.append(f"roll #{roll.get('index')} [{shown}]")
        if roll.get("purpose"):
            parts.append(repr(roll["purpose"]))
    if isinstance(seen, dict) and event.get("type") == "RecordSealed":
        parts.append(f"sealed {seen.get('kind')}")
        # What its rolls were for: only whoever may read the sealed part sees it.
        purposes = [r["purpose"] for r in seen.get("rolls") or () if r.get("purpose")]
        parts += [repr(p) for p in purposes]
    for key in ("table", "to", "chit", "rg", "cg_date", "scenario"):
        value = payload.get(key)
        if isinstance(value, dict):
            value = value.get("id")
        if value is not None and not isinstance(value, list | dict):
            parts.append(f"{key}={value}")
    if event.get("reverted_by") is not None:
        parts.append(f"[reverted by {event['reverted_by']}]")
    return " ".join(parts)


def log_line(event: dict[str, Any]) -> str:
    when = str(event.get("recorded_at", ""))[:19].replace("T", " ")
    return f"{event['seq']:>5}  {when}  {event['actor']:<8} {event['type']:<24} {_summary(event)}"
