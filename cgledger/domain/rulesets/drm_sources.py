"""Who decides each DRM of each table (issue 26 item 4): the ledger, which
computes it from the record (``Ruleset.counted_drms``, a table input, a rule
command's body), or the roller, who states it, and why. ``docs/rulesets.md``
shows it as one table per ruleset (``markdown``), and a test checks that the
page lists every DRM of every table as this module says, so neither can go
stale: ``python -m cgledger.domain.rulesets.drm_sources`` prints the tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from cgledger.domain.rulesets.abtf import group_type as rg_types
from cgledger.domain.rulesets.base import CountedDrm, Ruleset
from cgledger.domain.tables import Table

LEDGER = "the ledger computes it"
ROLLER = "the roller states it"

# Why the roller states a DRM.
UNITS = "units and their counters are not tracked"
LOCATION = (
    "the unit's Location is not recorded (the ledger computes Setup Areas and their "
    "Isolation, not where each unit is)"
)
PATH = "the path the units take is not recorded"
FORTS = "Fortifications, wrecks and their Locations are not tracked"
CUT = "the seed's text is cut ('If the current CG Date is or/…')"

#: The DRMs the roller states, by ruleset and rule (each table of the rule:
#: 8.606's Infantry and Mobile Vehicle tables, 8.6206's columns), with why.
STATED: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "kgp:8.606": {
            "lone-smc": UNITS, "ot-afv": UNITS, "ct-afv": UNITS,
            "adjacent-friendly-setup-area": LOCATION,
            "two-hexes-from-friendly-setup-area": LOCATION, "leader": UNITS, "stun": UNITS,
            "enemy-setup-area": LOCATION, "hs-equivalent": UNITS, "excess-pp": UNITS,
            "unarmed": UNITS, "captured": UNITS, "encircled": UNITS, "isolated": LOCATION,
        },
        "kgp:8.610": {"heroic": UNITS, "isolated": LOCATION},
        "kgp:8.613": {"road": PATH, "uncontrolled-hexes": PATH},
        "kgp:8.6141b": {
            "armor-leader": UNITS, "non-qualified-use": UNITS, "front-line-hex": LOCATION,
            "isolated": LOCATION,
        },
        "kgp:8.6142": {"vehicular": UNITS, "non-qualified-use": UNITS, "isolated": LOCATION},
        "kgp:8.615": {
            "front-line-hex": FORTS, "roadblock-front-line-hex": FORTS,
            "adjacent-front-line-hex": FORTS, "roadblock-adjacent-front-line-hex": FORTS,
            "assault-engineer": UNITS,
        },
        "kgp:8.6206": {"cg-date": CUT},
        "kgp:8.622": {
            "lax": "the Majority Squad Type (E.4) is the OB's, which the ledger does not keep: "
            "POST /recon states it (lax)",
        },
        "abtf:9.6054": {
            "lone-smc": UNITS, "vehicle": UNITS, "ct-afv": UNITS, "leader": UNITS,
            "uncontrolled-hexes": PATH, "hs-equivalent": UNITS, "excess-pp": UNITS,
            "unarmed-wounded": UNITS, "captured-vehicle": UNITS, "encircled": UNITS,
        },
        "abtf:9.6101": {"heroic": UNITS},
        "abtf:9.613": {"uncontrolled-hexes": PATH},
        "abtf:9.6141b": {"non-qualified": UNITS, "front-line": LOCATION, "armor-leader": UNITS},
        "abtf:9.6142": {
            "vehicular": UNITS, "repair-number": UNITS, "armor-leader": UNITS,
            "non-qualified": UNITS,
        },
    }
)  # fmt: skip

# How the ledger computes a DRM it counts (``Ruleset.counted_drms``).
NIGHT = "from the CG Date: an N date is Night"
JUST_NIGHT = "from the CG Date whose CG-Scenario End was recorded last: an N date is Night"
PERIOD = "from the CG Date's period"
FROM_DATE = "from the CG Date"
SIDE = "from the rolling side: applied to its rolls, refused from another side"
WON = (
    "from this CG Date's CG-Scenario End: the winner it recorded (the roller states it where "
    "none is recorded)"
)
CVP_TODAY = "from this CG Date's CG-Scenario End: the CVP the side earned"
CVP_LAST = (
    "from the last CG-Scenario End: the CVP the side earned, at least (the roller may state "
    "more for the CVP awarded during this RePh, which the ledger does not record); 0 before "
    "the first CG Scenario"
)
SHORTAGE = "from the 8.618 DR on record: the German OB's Ammunition Shortage"
LEVEL = (
    "from the British Ammunition Shortage Level the ledger keeps (9.6201), where it knows it "
    "(the roller states it where it does not)"
)
PREVIOUS = (
    "from the weather (EC) the ledger recorded for the previous CG Date (the roller states it "
    "where none is recorded)"
)
WEATHER_NOW = "from this CG Date's weather on record (the roller states it where none is)"
CHART = "from the 9.6161 chart: the CG Date's Campaign Exhaustion DRM"
CHITS = "from the Initiative chits on record"
SCENARIOS = "from the CG-Scenario Ends and Idle CG Dates on record"
PREVIOUS_IDLE = "from the Initiative on record: the previous CG Date was Idle"

#: How the ledger computes each DRM it counts, by ruleset and rule.
HOW: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "kgp:8.606": {"night": NIGHT},
        "kgp:8.610": {"german": SIDE},
        "kgp:8.6113": {"won": WON, "casualty-vp": CVP_TODAY},
        "kgp:8.6114": {"won": WON},
        "kgp:8.6141b": {"german": SIDE},
        "kgp:8.6142": {
            "us": SIDE,
            "german-ammunition-shortage": SHORTAGE + (
                " where it is in effect; otherwise the roller states it for a Weapon suffering "
                "Ammunition Shortage by Isolation (8.6241), which the ledger does not track"
            ),
        },
        "kgp:8.61421": {"german": SIDE, "ammunition-shortage": SHORTAGE},
        "kgp:8.6146": {"ammunition-shortage": SHORTAGE},
        "kgp:8.6171": {
            "preceding-overcast": PREVIOUS, "am": PERIOD, "pm": PERIOD,
            "preceding-clear": PREVIOUS, "dec-22-n-or-later": FROM_DATE,
            "dec-21-n-or-later": FROM_DATE,
        },
        "kgp:8.618": {"scenarios-after-20-am": "from the CG-Scenario Ends on record"},
        "kgp:8.6201": {"days-after-dec-19": FROM_DATE},
        "kgp:CG23": {"night": NIGHT},
        "kgp:KGP3": {"pm": PERIOD},
        "kgp:KGP13": {"days-after-dec-21": FROM_DATE},
        "abtf:9.6054": {"night": JUST_NIGHT},
        "abtf:9.6101": {"british": SIDE},
        "abtf:9.613": {"idle": PREVIOUS_IDLE, "british": SIDE},
        "abtf:9.6144": {"ammo-shortage": LEVEL, "german": SIDE},
        "abtf:9.6181": {"british": SIDE, "exhaustion": CHART},
        "abtf:9.6201": {"exhaustion": CHART, "attack-chits": CHITS},
        "abtf:9.6202": {
            "cvp": CVP_LAST, "idle-dates": SCENARIOS, "scenarios": SCENARIOS,
            "attack-chits": CHITS, "exhaustion-british": CHART, "exhaustion-german": CHART,
            "ammo-shortage": LEVEL,
        },
        "abtf:9.62161": {
            "previous-mist": PREVIOUS, "previous-overcast": PREVIOUS, "night": NIGHT,
            "previous-gusty": PREVIOUS,
        },
        "abtf:9.62163": {"previous-wet": PREVIOUS, "night": NIGHT, "previous-dry": PREVIOUS},
        "abtf:9.62164": {"night": NIGHT, "overcast": WEATHER_NOW, "previous-gusty": PREVIOUS},
    }
)  # fmt: skip

#: DRMs a rule command decides from its own body, not a ``CountedDrm``.
COMMANDS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {"kgp:8.622": {"spent-2-cpp": "POST /recon applies it when 2 CPP are spent (cpp: 2)"}}
)

# How an RG's determination roll (POST /rg-determinations: 8.620, 9.618)
# decides a DRM from the RG's chart line and its line on the RG Purchase
# Record (``Need.drms``, ``Need.decides`` in each ruleset's purchasing.py).
ON_ROLL = " (on the RG's determination roll, POST /rg-determinations; a plain table roll states it)"
GROUP_TYPE = "from the chart line's group_type; the roller where the line does not say" + ON_ROLL

#: The DRMs an RG's determination roll decides, not a ``CountedDrm``: by
#: ruleset and rule, how.
DETERMINED: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "kgp:8.6201": {"v-or-g": "from the RG's ID: a 'V' or 'G' RG" + ON_ROLL},
        "kgp:8.6202": {"armd": "from the RG's ID: an Arm'd RG, I6 or I8" + ON_ROLL},
        "kgp:8.6206": {
            "all-elite": "from the chart line's elite, else a U.S. I1, I6 or I8's 8.6202 "
            "quality dr; the roller where neither says" + ON_ROLL,
            "depleted": "from the RG's 8.6201 strength on the RG Purchase Record" + ON_ROLL,
        },
        # 9.6181 "+1 German VG Pltn"; 9.6183's LEADER TABLE DRM (abtf.group_type).
        **{
            rule: dict.fromkeys(
                (drm for table, by_type in rg_types.DRMS.items()
                 if table.split("-")[0] == rule for drm in by_type.values()),
                GROUP_TYPE,
            )
            for rule in sorted({table.split("-")[0] for table in rg_types.DRMS})
        },
    }
)  # fmt: skip


def rule_key(table: Table) -> str:
    """The key of ``STATED``, ``HOW``, ``COMMANDS`` and ``DETERMINED``: the ruleset and the
    table's rule."""
    return f"{table.ruleset}:{table.rule}"


def counted_of(ruleset: Ruleset, table_id: str, drm_id: str) -> CountedDrm | None:
    return next((c for c in ruleset.counted_drms if (c.table, c.drm) == (table_id, drm_id)), None)


def decided(ruleset: Ruleset, table: Table, drm_id: str) -> tuple[str, str]:
    """Who decides ``drm_id`` of ``table``, and how or why (``KeyError``: this
    module does not say, which its test refuses); a DRM only some sides may
    state (``Ruleset.side_drms``) says so."""
    who, why = _decided(ruleset, table, drm_id)
    only = ruleset.side_drm(table.id, drm_id)
    if only is not None:
        under = "" if only.reading is None else " under the reading '{}': {}".format(*only.reading)
        why += (
            f"; only the {' or '.join(only.sides)} side states it{under} "
            "(refused from another side)"
        )
    return who, why


def _decided(ruleset: Ruleset, table: Table, drm_id: str) -> tuple[str, str]:
    counted = counted_of(ruleset, table.id, drm_id)
    definition = table.drm(drm_id)
    assert definition is not None
    if counted is not None:
        how = HOW[rule_key(table)][drm_id]
        return LEDGER, how + (f" (reading: {counted.reading})" if counted.reading else "")
    if definition.kind == "input":
        return LEDGER, (
            f"from the table's input {definition.input}: the value the ledger keeps (the SAN), "
            "else the one the roller states"
        )
    if drm_id in COMMANDS.get(rule_key(table), {}):
        return LEDGER, COMMANDS[rule_key(table)][drm_id]
    if drm_id in DETERMINED.get(rule_key(table), {}):
        return LEDGER, DETERMINED[rule_key(table)][drm_id]
    return ROLLER, STATED[rule_key(table)][drm_id]


def markdown(ruleset: Ruleset) -> str:
    """The ruleset's table of every DRM of every table, for docs/rulesets.md."""
    lines = ["| Table | DRM | Who | How, or why not |", "|---|---|---|---|"]
    for table in ruleset.tables.values():
        for d in table.drms:
            who, why = decided(ruleset, table, d.id)
            cells = (f"{table.id} ({table.rule})", f"`{d.id}`: {d.text}", who, why)
            lines.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    if len(lines) == 2:
        return f"No table of {ruleset.id} names a DRM: a roller adds an `other` DRM with a note.\n"
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover
    from cgledger.domain.rulesets import REGISTRY

    for rs in REGISTRY.values():
        print(f"### {rs.title} ({rs.id})\n\n{markdown(rs)}")
