"""The values that last as the campaign keeps them (DESIGN §8): the table
results on record (``Campaign.lasting``, one entry per key and side, the last
roll's) with what the rules add without a roll, read in one pure function:

* a side's value at the CG's start from the CG definition (``Lasting.definition``:
  the SAN of the CG's OB, 8.6122/9.6122; the Ammunition Shortage Level of SSR
  CG 17, which the ABtF seed does not carry);
* the changes a schedule gives it on a CG Date (:class:`ScheduledChange`,
  ABtF 9.6152's "SAN +2"), in force from the start of the first CG Scenario on
  or after that date;
* a floor it is raised to at each new CG Date (``Lasting.raised_to``, 8.6122:
  "A side whose SAN is currently < 2 has it automatically raised to 2").

A roll that states the value before it (``Lasting.start``, 8.6122's current
SAN) starts a new chain: what came in force before the roll is in its stated
value; what comes in force after it is added to its result. A result whose
start is unknown (no definition value, no stated input) is a change, as it is
shown today.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cgledger.domain.rulesets.facts import Lasting, ScheduledChange

#: Where a kept value's start came from when no roll stated it.
DEFINITION = "definition"


@dataclass(frozen=True)
class Calendar:
    """The CG Dates played (the first one is the Initial Scenario's, the last
    the current one), the dates whose CG Scenario has started, and the seq of
    the event that holds the CG definition in force."""

    played: Sequence[str]
    started: Collection[str]
    definition_seq: int


def _first_started(calendar: Calendar, index: int) -> int | None:
    """The index of the first played CG Date from ``index`` on whose CG
    Scenario has started (an Idle date has none), or ``None``."""
    for j in range(index, len(calendar.played)):
        if calendar.played[j] in calendar.started:
            return j
    return None


def _apply(value: int, change: ScheduledChange) -> int:
    """9.6152 notes 4 and 5: a rise stops at the maximum, a fall at the
    minimum; a value already beyond it stays."""
    moved = value + change.change
    if change.change > 0 and change.maximum is not None:
        return min(moved, max(value, change.maximum))
    if change.change < 0 and change.minimum is not None:
        return max(moved, min(value, change.minimum))
    return moved


def kept_entry(
    entry: Mapping[str, Any] | None,
    start: int | None,
    changes: Sequence[tuple[ScheduledChange, bool]],
    raised_to: tuple[int, str] | None,
    definition_rule: str,
    calendar: Calendar,
) -> dict[str, Any] | None:
    """One side's kept value of one key: ``entry`` is the last roll's (or
    ``None``), ``start`` the definition's value, ``changes`` the scheduled
    changes of the key and side, each with whether it is received on the
    Initial Scenario's date too (its step is a '†' one). ``None``: nothing to show."""
    played = list(calendar.played)
    if not played:
        return None if entry is None else dict(entry)
    rolled = entry is not None and bool(entry["known"])
    if entry is None:
        value: Any = start
        known = start is not None
    elif rolled:
        value, known = entry["value"], True
    elif start is not None:
        value, known = start + int(entry["value"]), True
    else:
        value, known = entry["value"], False
    # A roll made in its RePh step on a CG Date (before its scenario) is the
    # chain's start; a definition's value is the CG's start.
    base = 0
    if rolled and entry is not None and entry["cg_date"] in played:
        base = played.index(entry["cg_date"])
    events: list[tuple[tuple[int, int], str, ScheduledChange | None]] = []
    if raised_to is not None:
        # New CG Dates after the base: their 8.6122 (9.6122) step raises the value.
        events += [((i, 0), played[i], None) for i in range(base + 1, len(played))]
    for change, on_initial in changes:
        if change.cg_date not in played:
            continue
        received = played.index(change.cg_date)
        if received == 0 and not on_initial:
            continue  # the Initial Scenario's OB is the CG's own (its RePh has '†' steps only)
        effective = _first_started(calendar, received)
        if effective is None or (rolled and effective < base):
            continue  # not in force yet, or already in the value the roll stated
        events.append(((effective, 1), played[effective], change))
    if entry is None and not known and not any(c is not None for _, _, c in events):
        return None
    out: dict[str, Any] = (
        dict(entry)
        if entry is not None
        else {
            "value": value,
            "known": known,
            "cg_date": played[0],
            "seq": calendar.definition_seq,
            "rule": definition_rule,
            "source": DEFINITION,
            "before": None,
        }
    )
    if entry is not None and not rolled and start is not None:
        out["source"] = DEFINITION  # the changes on record, on the definition's start
    applied: list[dict[str, Any]] = []
    for _, cg_date, item in sorted(events, key=lambda e: e[0]):
        if item is None:
            assert raised_to is not None
            floor, rule = raised_to
            if known and isinstance(value, int) and value < floor:
                value = floor
                applied.append({"cg_date": cg_date, "rule": rule, "raised_to": floor})
            continue
        value = _apply(int(value), item) if known else int(value or 0) + item.change
        applied.append(
            {"cg_date": item.cg_date, "rule": item.rule, "change": item.change}
            | ({"in_force": cg_date} if cg_date != item.cg_date else {})
        )
    out["value"], out["known"] = value, known
    if applied:
        out["scheduled"] = applied
    return out


def kept_values(
    lasting: Sequence[Lasting],
    raw: Mapping[str, Mapping[str, Mapping[str, Any]]],
    starts: Mapping[str, Mapping[str, int]],
    scheduled: Sequence[tuple[ScheduledChange, bool]],
    sides: Sequence[str],
    calendar: Calendar,
) -> dict[str, dict[str, dict[str, Any]]]:
    """``raw`` (``Campaign.lasting``) with each side's value of the keys that
    have a definition's start, a floor or scheduled changes kept as the rules
    say (:func:`kept_entry`); the other keys as recorded. ``starts``: the CG
    definition's values by key and side; ``scheduled``: the ruleset's changes,
    each with whether it is received on the Initial Scenario's date."""
    out = {k: {h: dict(e) for h, e in v.items()} for k, v in raw.items()}
    keys: dict[str, list[Lasting]] = {}
    for item in lasting:
        if item.per_side:
            keys.setdefault(item.key, []).append(item)
    for key, items in keys.items():
        raised = next((x.raised_to for x in items if x.raised_to is not None), None)
        defined = next((x for x in items if x.definition is not None), None)
        changes = [(c, on) for c, on in scheduled if c.key == key]
        if raised is None and defined is None and not changes:
            continue
        # The rule the start is shown under: the floor's (9.6122 for both
        # sides' 9.61221/9.61222), else the defined lasting's own.
        rule = raised[1] if raised is not None else (defined or items[0]).rule
        for side in sides:
            entry = raw.get(key, {}).get(side)
            start = starts.get(key, {}).get(side) if defined is not None else None
            mine = [(c, on) for c, on in changes if c.side == side]
            found = kept_entry(entry, start, mine, raised, rule, calendar)
            if found is not None:
                out.setdefault(key, {})[side] = found
    return {k: v for k, v in out.items() if v}
