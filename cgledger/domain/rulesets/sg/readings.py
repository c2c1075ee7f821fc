"""SG's readings (DESIGN §14): the American Reinforcement Table (3.4) is not in
the seed (``004_…``), so the groups that roll are named by footnotes on the
players' chart lines: "a" an Armor Group (3.4 armor type dr, 3.6 leader DR on
the American Armor column), "i" an Armored Infantry Platoon (3.6 leader DR on
the Infantry column), "m4" an M4 Armor Group (3.7 M4 Model DR). What an "m4"
line is besides is a choice the players agree in their CG definition's
``readings``; its default is the reading the ledger took before readings were
data, so nothing recorded changes meaning."""

from __future__ import annotations

from cgledger.domain.rulesets.readings import Reading

#: 3.4/3.6/3.7: is an M4 Armor Reinforcement Group an Armor Group too?
M4_GROUP = Reading(
    id="m4-group",
    rule="3.7",
    text="3.4: 'For each Armor Group purchased, make a dr to determine armor type.' 3.6: 'For "
    "each American Armored Infantry Platoon and Armor Reinforcement Group ... make one secret "
    "DR ... Leader Table'. 3.7: 'For each M4 Armor Reinforcement Group, make a secret DR on "
    "the following M4 Model Table'",
    choices={
        "model-only": "a chart line marked 'm4' makes the 3.7 M4 Model DR only; it makes the 3.4 "
        "armor type dr and the 3.6 leader DR when it is marked 'a' too",
        "armor-group": "an 'm4' line is an Armor Group as well: the 3.4 armor type dr, the 3.6 "
        "leader DR on the American Armor column and the 3.7 M4 Model DR",
        "leader-and-model": "an 'm4' line makes the 3.6 leader DR on the American Armor column "
        "and the 3.7 M4 Model DR, its type given by the Model DR (no 3.4 armor type dr)",
    },
    default="model-only",
    why="The footnotes are the players' own marks on a table the seed lacks: each names one "
    "roll, so a line that is both an Armor Group and an M4 group carries both 'a' and 'm4'.",
)

READINGS = (M4_GROUP,)
