"""What the KGP ledger counts and keeps from the record (DESIGN §8): the DRMs
it counts (:class:`CountedDrm`), the table results that last (:class:`Lasting`:
8.6122's SAN, 8.6171's weather), when a table may or must be rolled
(:class:`TableRule`), and the 8.617 Historical Weather Chart."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from cgledger.domain.rulesets.base import CountedDrm, Facts, Lasting, TableRule, period_date_key
from cgledger.domain.rulesets.kgp import readings as kgp_readings
from cgledger.domain.rulesets.kgp import tables as kgp_tables

#: The periods of a CG Date, in their order within a day.
PERIODS = {"am": "AM", "pm": "PM", "n": "N"}
date_key = period_date_key(PERIODS)

RANDOM_WEATHER = "8.6171"


def _days_after(day: int) -> Callable[[Facts], int]:
    """The days a CG Date lies after ``day`` December (its day minus ``day``, at least 0)."""

    def count(facts: Facts) -> int:
        return max(0, int(facts.cg_date.split(" ", 1)[0]) - day)

    return count


def _shortage_in_effect(facts: Facts) -> int:
    """1 while 8.618's German Ammunition Shortage is in effect (``KgpRules``)."""
    return 1 if facts.rules.get("shortage", {}).get("since") is not None else 0


def _on_or_after(first: str) -> Callable[[Facts], int]:
    def count(facts: Facts) -> int:
        now, then = date_key(facts.cg_date), date_key(first)
        return int(now is not None and then is not None and now >= then)

    return count


def _period(period: str) -> Callable[[Facts], int]:
    def count(facts: Facts) -> int:
        return int(facts.cg_date.endswith(f" {period}"))

    return count


def scenarios_after_20_am(facts: Facts) -> int:
    """8.618 "A +1 DRM applies per CG scenario completed after 20 AM": the CG
    scenarios ended on CG Dates from 20 AM on, or after it, as the reading in
    force says (``kgp_readings.SHORTAGE``, DESIGN §14)."""
    first = date_key("20 AM")
    assert first is not None
    inclusive = kgp_readings.SHORTAGE.chosen(facts.readings) == "from-20-am"
    count = 0
    for d in facts.dates:
        key = date_key(d.cg_date)
        if d.cvp is not None and key is not None and (key > first or (inclusive and key == first)):
            count += 1
    return count


def _preceding_weather(*words: str) -> Callable[[Facts], int | None]:
    """8.6171 "If the preceding CG Date's Weather was ...": from the weather the
    ledger recorded for the preceding CG Date (its Random Weather DR), else not
    counted (``None``). Whether "Mist & Overcast" is Overcast is a reading
    (``kgp_readings.MIST_AND_OVERCAST``, DESIGN §14)."""

    def count(facts: Facts) -> int | None:
        if len(facts.dates) < 2:
            return None
        preceding = facts.dates[-2].cg_date
        found = facts.last("weather", before=True)
        if found is None or found["cg_date"] != preceding:
            return None
        value = str(found["value"])
        mixed = "Mist" in value and "Overcast" in value and "Overcast" in words
        if mixed and kgp_readings.MIST_AND_OVERCAST.chosen(facts.readings) == "not-overcast":
            return 0
        return int(any(w in value for w in words))

    return count


#: DRMs the ledger counts from the CG Date and the record (DESIGN §8).
COUNTED_DRMS = (
    # 8.6146: "+1 drm if Ammunition Shortage [8.618] is already in effect".
    CountedDrm("kgp:8.6146", "ammunition-shortage", "8.6146", _shortage_in_effect),
    # 8.6201 "Per day after Dec 19 N": the day minus 19 (the 8.6205 EX: 21 AM is
    # "two days past 19 December").
    CountedDrm("kgp:8.6201", "days-after-dec-19", "8.6201", _days_after(19), dated=True),
    # KGP13 "Per day after 21 December".
    CountedDrm("kgp:KGP13", "days-after-dec-21", "KGP13", _days_after(21), dated=True),
    # 8.618: a reading (``kgp_readings.SHORTAGE``) says which scenarios count.
    CountedDrm("kgp:8.618", "scenarios-after-20-am", "8.618", scenarios_after_20_am),
    # 8.6171 KGP Random Weather Table.
    CountedDrm("kgp:8.6171", "am", "8.6171", _period("AM"), dated=True),
    CountedDrm("kgp:8.6171", "dec-22-n-or-later", "8.6171", _on_or_after("22 N"), dated=True),
    # Is "Mist & Overcast" Overcast? A reading (``kgp_readings.MIST_AND_OVERCAST``).
    CountedDrm("kgp:8.6171", "preceding-overcast", "8.6171", _preceding_weather("Overcast")),
    CountedDrm("kgp:8.6171", "preceding-clear", "8.6171", _preceding_weather("Clear")),
    # 8.6171 KGP Random Mist Density Table.
    CountedDrm("kgp:8.6171-mist", "am", "8.6171", _period("AM"), dated=True),
    CountedDrm("kgp:8.6171-mist", "pm", "8.6171", _period("PM"), dated=True),
    CountedDrm("kgp:8.6171-mist", "dec-21-n-or-later", "8.6171", _on_or_after("21 N"), dated=True),
)  # fmt: skip


def _results(table_id: str) -> tuple[str, ...]:
    return tuple(b.result for b in kgp_tables.TABLES[table_id].bands)


#: Table results that last (DESIGN §8).
LASTING = (
    # 8.6122: "A Final dr of ≥ 5 immediately reduces that side's current SAN by
    # two"; "Each side whose SAN is currently < 2 has it automatically raised to
    # 2". The SAN at the CG's start is its OB's (the definition's ``san``).
    Lasting(
        "kgp:8.6122", "san", "8.6122", (None, -2), start="san", definition="san",
        raised_to=(2, "8.6122"),
    ),
    # 8.6171: "the U.S. player makes a DR ... to determine the weather for the
    # current CG Date", and "a subsequent dr" for the Mist Density.
    Lasting("kgp:8.6171", "weather", "8.6171", _results("kgp:8.6171"), per_side=False),
    Lasting(
        "kgp:8.6171-mist", "mist_density", "8.6171", _results("kgp:8.6171-mist"),
        per_side=False,
    ),
)  # fmt: skip


def _by_consent(facts: Facts) -> str | None:
    """8.617: "by mutual consent players may choose to use the optional 8.6171
    table(s)": adopted in the CG definition (``optional_rules``), which the
    opponent approves when it is amended."""
    if RANDOM_WEATHER in facts.options:
        return None
    return (
        "8.6171: the Random Weather tables are used only by mutual consent: the CG "
        "definition's optional_rules must list 8.6171 (an amendment the opponent approves); "
        "otherwise 8.617's Historical Weather Chart gives the weather"
    )


def _san_at_least_4(facts: Facts) -> bool:
    """8.6122: "Each side whose SAN is currently ≥ 4 must make a dr" (where
    the ledger knows the SAN: from the side's last 8.6122 dr)."""
    found = facts.last("san")
    return found is not None and isinstance(found["value"], int) and found["value"] >= 4


def _mist_density(facts: Facts) -> str | None:
    """8.6171's Mist Density dr is "a subsequent dr" after a Random Weather DR
    of Mist (its '†' note; "There is no Mist initially" after the others)."""
    refused = _by_consent(facts)
    if refused is not None:
        return refused
    if _mist_today(facts):
        return None
    return (
        "8.6171: the Mist Density dr follows a Random Weather DR of Mist on this CG Date "
        "(its '†' note); there is none on record"
    )


def _mist_today(facts: Facts) -> bool:
    found = facts.last("weather")
    return (
        found is not None
        and found["cg_date"] == facts.cg_date
        and found["rule"] == RANDOM_WEATHER
        and "Mist" in str(found["value"])
    )


def _with_the_initiative(facts: Facts) -> str | None:
    """8.6233a: the Dual Attack's setup dr is made with the Initiative that
    generates it (``POST /initiative`` rolls it), never by hand."""
    del facts
    return "8.6233a: the Dual Attack setup dr is made when both Initiative chits are revealed"


def _dual_attack_only(facts: Facts) -> str | None:
    """8.625's Dual Attack Table: "If this is an Assault scenario, the side
    setting up second always moves first" (8.6233); the table is a Dual Attack's."""
    if facts.scenario == "dual-attack":
        return None
    return f"8.625: the Dual Attack Table is rolled in a Dual Attack, not a {facts.scenario} date"


#: 8.6171 "the U.S. player makes a DR ... for the current CG Date" and "a
#: subsequent dr" (after Mist); 8.6122 "must make a dr": each once per CG Date.
TABLE_RULES = (
    TableRule(
        "kgp:8.6171", "8.6171", refuse=_by_consent,
        required=lambda facts: RANDOM_WEATHER in facts.options, once=True,
    ),
    TableRule("kgp:8.6171-mist", "8.6171", refuse=_mist_density, required=_mist_today, once=True),
    TableRule("kgp:8.6122", "8.6122", required=_san_at_least_4, once=True),
    TableRule("kgp:8.6233a", "8.6233a", refuse=_with_the_initiative),
    TableRule("kgp:8.625", "8.625", refuse=_dual_attack_only, once=True),
)  # fmt: skip

#: 8.617 KGP HISTORICAL WEATHER CHART: CG Weather, Moon Phase, Cloud Cover ("-": none given).
HISTORICAL_WEATHER: Mapping[str, tuple[str, str, str]] = MappingProxyType(
    {
        "19 AM": ("Extremely Heavy Mist", "-", "-"),
        "19 PM": ("Moderate Mist", "-", "-"),
        "19 N": ("Moderate Mist", "No Moon", "Overcast"),
        "20 AM": ("Extremely Heavy Mist", "-", "-"),
        "20 PM": ("Very Heavy Mist", "-", "-"),
        "20 N": ("Very Heavy Mist", "No Moon", "Overcast"),
        "21 AM": ("Heavy Mist", "-", "-"),
        "21 PM": ("Heavy Mist", "-", "-"),
        "21 N": ("Light Mist & Overcast", "No Moon", "Overcast"),
        "22 AM": ("Light Mist & Overcast", "-", "-"),
        "22 PM": ("Very Light Mist & Overcast", "-", "-"),
        "22 N": ("Clear (Mist Change DR is NA)", "No Moon", "None"),
        "23 AM": ("Clear (Mist Change DR is NA)", "-", "-"),
        "23 PM": ("Clear (Mist Change DR is NA)", "-", "-"),
    }
)
