"""What the ABtF ledger counts and keeps from the record (DESIGN §8): the DRMs
it counts (:class:`CountedDrm`), the table results that last (:class:`Lasting`:
9.6122's SAN, 9.6201's Ammunition Shortage Level, 9.6202's ELR, 9.6216's
weather, EC and wind) and when a table may or must be rolled (:class:`TableRule`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from cgledger.domain.rulesets.abtf import readings as abtf_readings
from cgledger.domain.rulesets.abtf import tables as abtf_tables
from cgledger.domain.rulesets.base import (
    IDLE,
    CountedDrm,
    Facts,
    Lasting,
    TableRule,
)

BRITISH = "British"
GERMAN = "German"
ATTACK = "attack"


Chart = Mapping[str, tuple[int | None, int | None, int]]


def exhaustion_on(chart: Chart, cg_date: str, readings: Mapping[str, str]) -> int:
    """The 9.6161 chart's Campaign Exhaustion DRM on ``cg_date``, where the
    9.6202 EX contradicts it (21 PM) as the reading in force says
    (``abtf_readings.EXHAUSTION_21_PM``, DESIGN §14)."""
    ex_date, ex_drm = abtf_readings.EX_EXHAUSTION
    if cg_date == ex_date and abtf_readings.EXHAUSTION_21_PM.chosen(readings) == "ex":
        return ex_drm
    return chart[cg_date][2]


def exhaustion(chart: Chart) -> Callable[[Facts], int]:
    """The 9.6161 chart's Campaign Exhaustion DRM on the CG Date (``exhaustion_on``)."""

    def count(facts: Facts) -> int:
        return exhaustion_on(chart, facts.cg_date, facts.readings)

    return count


def british_attack_chits(facts: Facts) -> int:
    """9.6201 "+(y-1) Number of British Attack Chits selected during this CG":
    y, the British Attack Chits of every CG Date so far (9.62132: "the total of
    each type used thus far in the CG")."""
    return sum(1 for d in facts.dates if d.chits.get(BRITISH) == ATTACK)


def idle_dates_since_scenario(facts: Facts) -> int:
    """9.6202 "-3 Per Idle CG Date since the last CG Scenario"."""
    count = 0
    for d in facts.dates:
        count = 0 if d.cvp is not None else count + (d.scenario == IDLE)
    return count


def scenarios_since_idle(facts: Facts) -> int:
    """9.6202 "+1 Per CG Scenario since the last Idle CG Date" (the Initial
    Scenario is a CG Scenario too)."""
    return sum(1 for d in facts.since_last(IDLE) if d.cvp is not None)


def attack_chits_since_idle(facts: Facts) -> int:
    """9.6202 "+1 Per Attack Chit selected by that side since the last Idle CG Date"."""
    return sum(1 for d in facts.since_last(IDLE) if d.chits.get(facts.side) == ATTACK)


def _night(facts: Facts) -> int:
    """9.6216's "Night Scenario": the CG Date is a Night (N) one."""
    return int(facts.cg_date.endswith(" N"))


def _previous(key: str, *results: str) -> Callable[[Facts], int | None]:
    """9.6216's "Previous CG Scenario was ...": the last result of ``key`` the
    ledger recorded before this CG Date; not counted (``None``) when it has none."""

    def count(facts: Facts) -> int | None:
        found = facts.last(key, before=True)
        if found is None:
            return None
        return int(found["value"] in results)

    return count


def _weather_now(*results: str) -> Callable[[Facts], int | None]:
    """9.62164 "+2 Weather is Overcast": this CG Date's recorded weather."""

    def count(facts: Facts) -> int | None:
        found = facts.last("weather")
        if found is None or found["cg_date"] != facts.cg_date:
            return None
        return int(found["value"] in results)

    return count


_WEATHER, _EC, _WIND = "abtf:9.62161", "abtf:9.62163", "abtf:9.62164"
_GUSTY = "Clear & Gusty"


def counted_drms(chart: Chart) -> tuple[CountedDrm, ...]:
    """The DRMs the ledger counts; ``chart`` is the 9.6161 CPP Base Number Chart.

    The chart's Campaign Exhaustion DRM: x of "+x/2 Campaign Exhaustion DRM
    (FRD)" (9.6181), "+x Campaign Exhaustion DRM" (9.6201) and 9.6202's
    British (+x) and German (+y/2) ones; the chart gives one DRM for both
    sides, and the tables halve it where they say.

    The 9.6202 EX ("It is the 21PM CG Date ... +4 for Campaign Exhaustion",
    the German "+2", i.e. y = 4) disagrees with the chart, whose 21PM row reads
    +3 and whose 21EVE row reads +4: either the OCR shifted the chart's DRM
    column or the EX is off by one date. Which one counts on 21 PM is a reading
    the players agree (``abtf_readings.EXHAUSTION_21_PM``, DESIGN §14); by
    default the chart's +3."""
    drm = exhaustion(chart)
    return (
        CountedDrm("abtf:9.6181", "exhaustion", "9.6181", drm, dated=True),
        CountedDrm("abtf:9.6201", "exhaustion", "9.6201", drm, dated=True),
        CountedDrm("abtf:9.6201", "attack-chits", "9.6201", british_attack_chits),
        CountedDrm("abtf:9.6202", "exhaustion-british", "9.6202", drm, (BRITISH,), dated=True),
        CountedDrm("abtf:9.6202", "exhaustion-german", "9.6202", drm, (GERMAN,), dated=True),
        CountedDrm("abtf:9.6202", "idle-dates", "9.6202", idle_dates_since_scenario),
        CountedDrm("abtf:9.6202", "scenarios", "9.6202", scenarios_since_idle),
        CountedDrm("abtf:9.6202", "attack-chits", "9.6202", attack_chits_since_idle, by_side=True),
        CountedDrm(_WEATHER, "night", "9.62161", _night, dated=True),
        CountedDrm(_WEATHER, "previous-mist", "9.62161", _previous("weather", "Mist")),
        CountedDrm(_WEATHER, "previous-overcast", "9.62161", _previous("weather", "Overcast")),
        CountedDrm(_WEATHER, "previous-gusty", "9.62161", _previous("weather", _GUSTY)),
        CountedDrm(_EC, "night", "9.62163", _night, dated=True),
        CountedDrm(_EC, "previous-wet", "9.62163", _previous("ec", "Wet", "Moist")),
        CountedDrm(_EC, "previous-dry", "9.62163", _previous("ec", "Dry")),
        CountedDrm(_WIND, "night", "9.62164", _night, dated=True),
        CountedDrm(_WIND, "overcast", "9.62164", _weather_now("Overcast")),
        CountedDrm(_WIND, "previous-gusty", "9.62164", _previous("weather", _GUSTY)),
    )


def _results(table_id: str) -> tuple[str, ...]:
    return tuple(b.result for b in abtf_tables.TABLES[table_id].bands)


#: Table results that last (DESIGN §8).
LASTING = (
    # 9.61221/9.61222: "A Final dr ≥ 4 immediately reduces the British [German]
    # SAN by two". The SAN at the CG's start is its OB's (the definition's
    # ``san``); 9.6152 changes it (``schedule.SCHEDULED``); 9.6122: "A side
    # whose SAN is currently < 2 has it automatically raised to 2".
    Lasting(
        "abtf:9.61221",
        "san",
        "9.61221",
        (None, -2),
        start="san",
        definition="san",
        raised_to=(2, "9.6122"),
    ),
    Lasting(
        "abtf:9.61222",
        "san",
        "9.61222",
        (None, -2),
        start="san",
        definition="san",
        raised_to=(2, "9.6122"),
    ),
    # 9.6201: "Shortage increases one Level". The Level at the CG's start is
    # SSR CG 17's, not in the seed: the definition's ``ammunition_shortage_level``
    # where it gives one, else the ledger shows the change.
    Lasting(
        "abtf:9.6201",
        "ammunition_shortage_level",
        "9.6201",
        (None, 1),
        definition="ammunition_shortage_level",
    ),
    # 9.6202: "ELR +1", "No Change", "ELR -1" (the ELR itself is the OB's).
    Lasting("abtf:9.6202", "elr", "9.6202", (1, None, -1)),
    # 9.62161-9.62164: the weather, EC and wind "for the upcoming CG Scenario".
    Lasting(_WEATHER, "weather", "9.62161", _results(_WEATHER), per_side=False),
    Lasting(_EC, "ec", "9.62163", _results(_EC), per_side=False),
    Lasting(_WIND, "wind", "9.62164", _results(_WIND), per_side=False),
)


def _not_after_idle(facts: Facts) -> str | None:
    """9.6201 "[EXC: This step is not performed if the previous CG Date was Idle; 9.62132]"."""
    if len(facts.dates) >= 2 and facts.dates[-2].scenario == IDLE:
        return (
            f"9.6201: the Ammunition Shortage DR is not made after an Idle CG Date "
            f"({facts.dates[-2].cg_date} was Idle)"
        )
    return None


def _san_at_least(threshold: int) -> Callable[[Facts], bool]:
    """9.61221 (9.61222): "If the British SAN is ≥ 4 [German ≥ 5], a SAN
    adjustment dr must be made", where the ledger knows the SAN."""

    def required(facts: Facts) -> bool:
        found = facts.last("san")
        if found is None or not found["known"]:
            return False  # a change on an unknown SAN (9.6152's) tells nothing
        return isinstance(found["value"], int) and found["value"] >= threshold

    return required


def _with_the_initiative(facts: Facts) -> str | None:
    """9.62133a: the Dual Attack's setup dr is made with the Initiative that
    generates it (``POST /initiative`` rolls it), never by hand."""
    del facts
    return "9.62133a: the Dual Attack setup dr is made when both Initiative chits are revealed"


def _dual_assault_only(facts: Facts) -> str | None:
    """9.6215: "For British or German Assaults, see 9.62133. For Dual Assaults,
    the German player now makes a dr"."""
    if facts.scenario == "dual-attack":
        return None
    return (
        f"9.6215: the First Move dr is made for a Dual Assault; this CG Date's scenario is "
        f"{facts.scenario or 'not determined yet (9.6213)'}"
    )


def _scenario_weather(rule: str, after: str | None) -> Callable[[Facts], str | None]:
    """9.6216 "The weather, NVR (if required), EC, and Wind Force ... are now
    determined", for "the upcoming CG Scenario": once Initiative Determination
    (9.6213) generated one (not the Initial Scenario's, nor an Idle date's), in
    the numbered order (9.62161 weather, 9.62163 EC, 9.62164 wind)."""

    def refuse(facts: Facts) -> str | None:
        if facts.scenario in (None, IDLE, "initial"):
            what = {None: "no scenario is determined yet (9.6213)", IDLE: "an Idle date"}
            why = what.get(facts.scenario, "the Initial Scenario has its own")
            return f"{rule}: rolled for a CG Scenario that 9.6213 generated; {why}"
        if after is not None:
            found = facts.last(after)
            if found is None or found["cg_date"] != facts.cg_date:
                return f"{rule}: the steps of 9.6216 go in order; the {after} comes first"
        return None

    return refuse


def _after_the_initial_scenario(facts: Facts) -> bool:
    """9.6202 is made by every side on every CG Date (required, so a side cannot
    pass 9.620 without it) but the Initial Scenario's: 9.620 is a '†' step,
    yet every DRM of 9.6202 counts from a CG Scenario played ("the last CG
    Scenario", "since the last Idle CG Date") and the CG's OB gives the ELR the
    Initial Scenario starts with, so there it stays the side's choice."""
    return facts.scenario != "initial"


def _scenario_generated(facts: Facts) -> bool:
    return facts.scenario not in (None, IDLE, "initial")


#: Each made once per CG Date: a SAN, a Level, an ELR, the weather of the date.
TABLE_RULES = (
    # 9.6201: "the British player makes a DR" on each CG Date from 19 AM.
    TableRule(
        "abtf:9.6201", "9.6201", refuse=_not_after_idle, required=lambda facts: True, once=True
    ),
    TableRule("abtf:9.61221", "9.61221", required=_san_at_least(4), once=True),
    TableRule("abtf:9.61222", "9.61222", required=_san_at_least(5), once=True),
    # 9.6202: every side makes its ELR Loss/Gain DR on each CG Date (the 9.6202
    # EX: the British and the German on 21 PM; after an Idle date too, its
    # "-3 Per Idle CG Date" DRM), except before the Initial Scenario.
    TableRule("abtf:9.6202", "9.6202", required=_after_the_initial_scenario, once=True),
    TableRule("abtf:9.6213a", "9.62133a", refuse=_with_the_initiative),
    TableRule(
        "abtf:9.6215", "9.6215", refuse=_dual_assault_only,
        required=lambda facts: facts.scenario == "dual-attack", once=True,
    ),
    TableRule(
        _WEATHER, "9.62161", refuse=_scenario_weather("9.62161", None),
        required=_scenario_generated, once=True,
    ),
    TableRule(
        _EC, "9.62163", refuse=_scenario_weather("9.62163", "weather"),
        required=_scenario_generated, once=True,
    ),
    TableRule(
        _WIND, "9.62164", refuse=_scenario_weather("9.62164", "ec"),
        required=_scenario_generated, once=True,
    ),
)  # fmt: skip
