"""ABtF's readings (DESIGN §14): where the seed (``003_…``) is cut or its
example contradicts its chart, the choices a playing group may agree in its
CG definition's ``readings``. Each default is the reading the ledger took
before readings were data, so nothing recorded changes meaning.

The readings of garbled OCR that have one sane reading stay comments next to
the table or rule they read; docs/rulesets.md lists both."""

from __future__ import annotations

from cgledger.domain.rulesets.readings import Reading

#: 9.6202's EX against the 9.6161 chart's Campaign Exhaustion DRM on 21 PM.
EXHAUSTION_21_PM = Reading(
    id="exhaustion-21-pm",
    rule="9.6161",
    text="9.6161 chart: '21PM | 0 | 10 | +3', '21EVE | 0 | 10 | +4'; 9.6202 EX: 'It is the "
    "21PM CG Date ... +4 for Campaign Exhaustion ... and +2 for Campaign Exhaustion'",
    choices={
        "chart": "the chart's +3 on 21 PM (9.6181, 9.6201 and 9.6202 read it; the German's "
        "9.6202 DRM is +3/2)",
        "ex": "the 9.6202 EX's +4 on 21 PM, for every table that reads the chart",
    },
    default="chart",
    why="The chart is the data the rules point to; the EX may be off by one CG Date (21 EVE "
    "reads +4), or the OCR may have shifted the chart's DRM column.",
)

#: 9.6184's EXC names KG Graebner; 9.6178 writes a KG by its letter ("I1(K)").
GRAEBNER = Reading(
    id="graebner-kg",
    rule="9.6184",
    text="For each German A2, A3, A4, or A6 RG purchased [EXC: A4 and A6 RGs available from "
    "KG Graebner] make a dr (9.6178: 'I1(K) for a German SS Infantry Platoon from KG Knaust')",
    choices={
        "G": "KG Graebner's RG chart lines carry the KG letter G",
        "GR": "KG Graebner's RG chart lines carry the KG letters GR",
    },
    default="G",
    why="9.6178's only example writes a KG by its first letter (K for Knaust).",
)

#: 9.6183: whose RG the (Armor) column's type DRMs serve.
ARMOR_LEADER_DRMS = Reading(
    id="armor-leader-drms",
    rule="9.6183",
    text="LEADER TABLE DRM | BRITISH | GERMAN: '-1 Commando | -1 SS PG, SS Recon, Med Tank', "
    "'-2 Engineer | -2 Engineer, Hvy Tank', '+1 Glider | +1 SPG, Lt Tank', '+2 VG, AC' (the "
    "LEADER TABLE's columns: British | German | (Armor))",
    choices={
        "both-sides": "Med Tank, Hvy Tank, SPG, Lt Tank and AC are the (Armor) column's DRMs, "
        "for the armor RG of either side",
        "german": "they are printed under GERMAN: only a German roll on the (Armor) column has "
        "them; a British roll that states one is refused",
    },
    default="both-sides",
    why="The (Armor) column serves the armor RG of both sides and the block names no British "
    "armor type; the OCR has already moved one row ('+2 VG, AC' stands in the British "
    "columns), so the block's columns are not read as sides here. This is the reading the "
    "ledger took before readings were data.",
)

#: The 9.6202 EX's CG Date and its Campaign Exhaustion DRM (choice "ex").
EX_EXHAUSTION = ("21 PM", 4)

READINGS = (EXHAUSTION_21_PM, GRAEBNER, ARMOR_LEADER_DRMS)
