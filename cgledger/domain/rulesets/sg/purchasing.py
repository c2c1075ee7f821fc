"""SG purchases as data (seed ``004_…``): the American Reinforcement Table
(3.4) and the rolls that determine each group bought (3.4, 3.6, 3.7).

Readings (each easy to correct here):

* 3.4 "the scenario maximum allowed for each group": a chart line's
  ``per_date_max`` (one scenario per CG Date), checked like 8.6195.
* Which groups roll, by the chart line's footnotes (the table is not in the
  seed): "a" an Armor Group (3.4 armor type dr; 3.6 leader DR on the American
  Armor column), "i" an Armored Infantry Platoon (3.6 leader DR on the
  American Infantry column), "m4" an M4 Armor Group (3.7 M4 Model DR).
  Whether an "m4" line is an Armor Group too is a reading the players agree
  (``sg_readings.M4_GROUP``, DESIGN §14; by default it is not).
* 3.5's German Reinforcement drs (rows A-C) and the German 3.6 leaders they
  lead to are not here: their tables are not in the seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgledger.domain.purchases import Need, PurchaseRules, Row
from cgledger.domain.rulesets.sg import readings as sg_readings

AMERICAN = "American"


def needs(side: str, entry: Mapping[str, Any], row: Row, readings: Mapping[str, str]) -> list[Need]:
    """The rolls a group bought needs (3.4, 3.6, 3.7), by its chart line's
    footnotes, under the ``readings`` in force (DESIGN §14)."""
    del row
    rg = str(entry["id"])
    notes = set(entry.get("footnotes") or ())
    out: list[Need] = []
    if side != AMERICAN:
        return out
    m4 = "m4" in notes
    # 3.7 "M4 Armor Reinforcement Group": an Armor Group too? (``sg_readings.M4_GROUP``)
    how = sg_readings.M4_GROUP.chosen(readings)
    armor = "a" in notes or (m4 and how != "model-only")
    if "a" in notes or (m4 and how == "armor-group"):
        # 3.4 "For each Armor Group purchased, make a dr to determine armor type."
        out.append(Need("armor", "sg:3.4", "3.4", f"3.4 armor type dr for {rg}", step="3.4"))
    if armor or "i" in notes:
        # 3.6 "For each American Armored Infantry Platoon and Armor Reinforcement Group"
        column = "armor" if armor else "infantry"
        out.append(
            Need(
                "leader",
                f"sg:3.6-american-{column}",
                "3.6",
                f"3.6 leader DR for {rg}",
                step="3.6",
            )
        )
    if m4:
        out.append(Need("models", "sg:3.7", "3.7", f"3.7 M4 Model DR for {rg}", step="3.7"))
    return out


RULES = PurchaseRules(
    buy="3.4",
    price="3.4",
    date_max="3.4",
    cg_max="3.4",
    record="3.4",
    determine="3.4",
    needs=needs,
    tables=("sg:3.4", "sg:3.6-american-armor", "sg:3.6-american-infantry", "sg:3.7"),
)
