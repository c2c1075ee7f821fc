"""The SG CG definition (DESIGN §7): the common fields bound to the sides
``American`` and ``German`` (seed ``004_…``).

* ``rg_chart`` holds the American Reinforcement Table (3.4): ``cpp`` is a
  group's cost in Purchase Points (2.92) and ``per_date_max`` "the scenario
  maximum allowed for each group". Only the American purchases: the German
  reinforcements come from three Reinforcement drs on Rows A-C (3.5), so a
  German RG chart is refused.
* ``attack_chits``: SG has no Initiative step (the sequence 2.1-4.0 generates
  each next scenario), so the sample sets no limits; the field stays for
  definitions that want to record one.
* Map Groups: as in DESIGN §9, for Control. SG keeps VP instead of LVP (2.9),
  so the sample's Strategic Locations carry no LVP.

The sample is SYNTHETIC (invented groups, map and values that only exercise
the fields); the real maps and charts belong to their publisher.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic

from cgledger.domain.definitions import CGDefinition, SideT, definition_model, hex_entry
from cgledger.domain.rulesets.readings import Reading
from cgledger.domain.rulesets.sg import readings as sg_readings

AMERICAN = "American"
GERMAN = "German"
#: The sides of ``cgledger.domain.rulesets.sg.ruleset`` (the tests check they agree).
SIDES = (AMERICAN, GERMAN)


class SgDefinition(CGDefinition[SideT], Generic[SideT]):
    """An SG CG definition: the American Reinforcement Table (3.4) and the map."""

    #: 3.4: only the American purchases reinforcements (3.5: German drs).
    PURCHASING_SIDES: ClassVar[tuple[str, ...] | None] = (AMERICAN,)
    #: DESIGN §14: the readings a definition may select (``sg.readings``).
    READINGS: ClassVar[tuple[Reading, ...]] = sg_readings.READINGS


MODEL = definition_model(SIDES, SgDefinition)

_HEXES: dict[str, dict[str, Any]] = {
    "B2": {"strategic": True, "levels": [0, 1]},
    "C3": {"strategic": True, "levels": [0, 1, 2]},
    "D1": {"enterable": False},
}

#: SYNTHETIC sample: every id, name, cost, limit and hex below is invented.
SAMPLE: dict[str, Any] = {
    "sample": True,
    "title": "SG synthetic sample (not the real CG)",
    "notes": (
        "SYNTHETIC sample data, invented to exercise the fields of an SG CG "
        "definition: the groups, costs and map are not the CG's. The real map "
        "and American Reinforcement Table belong to their publisher; players "
        "type in their own."
    ),
    "attack_chits": {},
    "rg_chart": {
        AMERICAN: [
            {
                "id": "I1",
                "name": "Sample Armored Inf Pltn",
                "cpp": 10,
                "per_date_max": 2,
                "footnotes": ["i"],
            },
            {
                "id": "A1",
                "name": "Sample Armor Group",
                "cpp": 15,
                "per_date_max": 1,
                "cg_max": 4,
                "footnotes": ["a", "m4"],
                "notes": "invented footnote: an M4 Armor Group (3.4 dr, 3.6 leader, 3.7 models)",
            },
            {"id": "O1", "name": "Sample OBA", "cpp": 12, "per_date_max": 1, "cg_max": 2},
        ],
    },
    "map_groups": [
        {
            "id": "Vx",
            "title": "Sample Village (synthetic)",
            "hexes": [
                hex_entry(f"{col}{row}", **_HEXES.get(f"{col}{row}", {}))
                for col in "ABCD"
                for row in range(1, 5)
            ],
            "entry_areas": [
                {"id": "Am-W", "side": AMERICAN, "hexes": ["A1", "A2", "A3", "A4"]},
                {"id": "Ge-E", "side": GERMAN, "hexes": ["D2", "D3", "D4"]},
            ],
            "initial_control": {"B2": GERMAN, "C3": GERMAN},
        }
    ],
}
