"""Counts the rulesets' DRMs share (DESIGN §8, issue 26 item 3): what the
record shows of the CG Date's light, the rolling side, the scenario's result
and CVP and a value that lasts, each a ``CountedDrm.count`` (``None`` where
the record cannot tell, so that the roller's own DRM stands).

Each factory's docstring says what its count reads; ``docs/rulesets.md``
says how each DRM is computed in the words of ``drm_sources.HOW``. A ``CountedDrm`` whose
count reads only the CG Date, the rolling side and the readings (here
:func:`side_drm` and :func:`period`; not :func:`completed_period`, which reads
the CG-Scenario Ends) is marked ``dated=True``, so that ``cgledger verify``
recomputes it from an export (``cgledger.verify_counted``)."""

from __future__ import annotations

from collections.abc import Callable

from cgledger.domain.rulesets.facts import DateFacts, Facts
from cgledger.domain.rulesets.sequence import IDLE

Count = Callable[[Facts], int | None]


def side_drm(facts: Facts) -> int:
    """The rolling side's own DRM ("-1 If German"): it applies to each roll of
    the side it names (``CountedDrm.sides``), and another side may not state it."""
    del facts
    return 1


def period(name: str) -> Count:
    """The CG Date's period, from the CG Date itself ("19 N" is Night, "20 PM" a PM date)."""

    def count(facts: Facts) -> int:
        return int(facts.cg_date.endswith(f" {name}"))

    return count


def completed_period(name: str) -> Count:
    """The period of the CG Date just completed: the last CG Date whose
    CG-Scenario End the ledger recorded (9.6054 "just completed CG Date was
    Night (N)"); not counted before the first one."""

    def count(facts: Facts) -> int | None:
        last = _last_ended(facts)
        return None if last is None else int(last.cg_date.endswith(f" {name}"))

    return count


def won_this_date(facts: Facts) -> int | None:
    """Whether the rolling side won this CG Date's scenario, as its CG-Scenario
    End recorded the winner (8.6032, 8.6234); not counted where no winner is
    recorded (the rules did not decide and none was stated) or no scenario ended."""
    today = _ended_today(facts)
    if today is None or today.winner is None:
        return None
    return int(today.winner == facts.side)


def cvp_this_date(facts: Facts) -> int | None:
    """The Casualty VP the rolling side amassed on this CG Date: the CVP it
    earned at the CG-Scenario End of the date (8.6032); not counted before the
    scenario ended."""
    today = _ended_today(facts)
    return None if today is None or today.cvp is None else today.cvp.get(facts.side)


def cvp_last_scenario(facts: Facts) -> int | None:
    """The CVP of enemy units the rolling side Eliminated in the last CG
    Scenario: the CVP it earned at the last CG-Scenario End the ledger
    recorded (not any awarded in the RePh since, which it does not record);
    0 before the first one (no CG Scenario was played: the RePh before the
    Initial Scenario)."""
    last = _last_ended(facts)
    if last is None:
        return 0
    return None if last.cvp is None else last.cvp.get(facts.side)


def after_a_scenario(facts: Facts) -> bool:
    """Whether a CG-Scenario End is on record (a RePh after a CG Scenario,
    which may award CVP the ledger does not record)."""
    return _last_ended(facts) is not None


def previous_date_idle(facts: Facts) -> int:
    """Whether the CG Date before the current one was Idle (its Initiative
    generated no scenario); 0 on the campaign's first CG Date."""
    return int(len(facts.dates) >= 2 and facts.dates[-2].scenario == IDLE)


def lasting_value(key: str) -> Count:
    """The rolling side's current value of a result that lasts (``Lasting``),
    where the ledger knows it; not counted while it does not (only changes
    recorded, from a start the ledger was not given)."""

    def count(facts: Facts) -> int | None:
        found = facts.last(key)
        if found is None or not found.get("known") or not isinstance(found["value"], int):
            return None
        return int(found["value"])

    return count


def _last_ended(facts: Facts) -> DateFacts | None:
    return next((d for d in reversed(facts.dates) if d.cvp is not None), None)


def _ended_today(facts: Facts) -> DateFacts | None:
    """The current CG Date, once its CG-Scenario End is on record."""
    today = facts.dates[-1] if facts.dates else None
    if today is None or today.cg_date != facts.cg_date or today.cvp is None:
        return None
    return today
