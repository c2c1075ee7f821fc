"""KGP's 8.6161 CPP BASE # CHART, as the OCR prints it, and each side's Base #
under the readings in force (DESIGN §14).

Seed ``000_…``: "8.6161 CPP BASE NUMBER: Each side's CPP Base # is given below
for the current CG Date and CG". The OCR lost the column headers under each
CG, and prints a merged shaded cell (one CG, both sides) as ``--``. Each row
reads as ``CG I | CG II | CG III`` with two numbers per CG that is in play;
``CHART`` keeps them in the order printed. Three things the print does not
settle are readings the players agree (``kgp.readings``), each defaulting to
what the ledger read before readings were data:

* ``cpp-base-pairs``: which number of a pair is the U.S. one (the first, by
  default).
* ``cpp-base-cg3-23``: CG III's 23 AM and 23 PM cells print ``175-``: the pair
  175 and ``-`` (default) or 75 and ``-`` (a footnote digit glued on). A
  ``-`` Base # means no replenishment and no DR.
* ``cpp-base-ex-19-pm``: the 8.6162 EX's German Base # of 30 on 19 PM of CG I,
  where the chart reads 35 (the chart's, by default).

8.616 gives no floor for Base # minus DR; the ``floor`` of the kgp:8.616
table's amount keeps "CPP Replenished" at 0 or more (``tables_b``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from cgledger.domain.rulesets.kgp import readings as kgp_readings

US = "US"
GERMAN = "German"

#: A cell of the chart: a number, or ``None`` for a "-".
Cell = int | None

#: 8.6161 CPP BASE # CHART: each CG's pair per CG Date, in the order printed
#: (the first number, the second). A CG Date a CG does not list is shaded
#: ("--"); the first date of each CG follows its Initial Scenario (8.6162).
CHART: MappingProxyType[str, MappingProxyType[str, tuple[Cell, Cell]]] = MappingProxyType(
    {
        "CG I": MappingProxyType(
            {
                "19 PM": (35, 35),
                "19 N": (50, 25),
                "20 AM": (65, 20),
                "20 PM": (45, 20),
                "20 N": (50, 50),
                "21 AM": (60, 20),
                "21 PM": (75, 25),
            }
        ),
        "CG II": MappingProxyType(
            {
                "20 N": (40, 35),
                "21 AM": (65, 35),
                "21 PM": (10, 25),
            }
        ),
        "CG III": MappingProxyType(
            {
                "19 N": (20, 35),
                "20 AM": (50, 55),
                "20 PM": (90, 75),
                "20 N": (65, 40),
                "21 AM": (35, 50),
                "21 PM": (20, 25),
                "21 N": (20, 75),
                "22 AM": (40, 60),
                "22 PM": (20, 30),
                "22 N": (20, 30),
                # "23 AM----175-": the reading ``cpp-base-cg3-23`` (GLUED).
                "23 AM": (175, None),
                "23 PM": (175, None),
            }
        ),
    }
)

#: The cells printed "175-" and the first number of each choice of ``cpp-base-cg3-23``.
GLUED: Mapping[tuple[str, str], Mapping[str, int]] = MappingProxyType(
    {
        ("CG III", "23 AM"): MappingProxyType({"175": 175, "75": 75}),
        ("CG III", "23 PM"): MappingProxyType({"175": 175, "75": 75}),
    }
)

#: The 8.6162 EX's cell: "The German, with a CPP Base # of 30 (8.6161)" on 19 PM
#: of CG I (``cpp-base-ex-19-pm``: "ex").
EX_CELL = ("CG I", "19 PM", GERMAN)
EX_BASE = 30


def pair(campaign: str, cg_date: str, readings: Mapping[str, str]) -> tuple[Cell, Cell]:
    """The chart's pair for ``campaign`` on ``cg_date`` as (first, second),
    under the reading of the "175-" cells (``cpp-base-cg3-23``)."""
    first, second = CHART[campaign][cg_date]
    glued = GLUED.get((campaign, cg_date))
    if glued is not None:
        first = glued[kgp_readings.CPP_BASE_CG3_23.chosen(readings)]
    return first, second


def cpp_base(
    campaign: str, cg_date: str, side: str, readings: Mapping[str, str] | None = None
) -> int | None:
    """8.6161: the CPP Base # of ``side`` on ``cg_date`` (``None``: a "-"
    cell) under ``readings`` (those in force; the defaults when ``None``)."""
    chosen = readings or {}
    if (campaign, cg_date, side) == EX_CELL and (
        kgp_readings.CPP_BASE_EX_19_PM.chosen(chosen) == "ex"
    ):
        return EX_BASE
    first, second = pair(campaign, cg_date, chosen)
    us_first = kgp_readings.CPP_BASE_PAIRS.chosen(chosen) == "us-first"
    us, german = (first, second) if us_first else (second, first)
    return us if side == US else german
