"""9.615 OB-GIVEN REINFORCEMENTS: the 9.6152 Reinforcement Schedule as data,
and what the ledger does with it on each CG Date it lists.

The seed prints the schedule as (CG Date | British | German)::

    | 18AM | I11, I21, SAN +24     | 20 FPP2, SAN -15 |
    | 18PM | G11,2, A11, SAN -15   | SAN +24          |
    | 19AM | I13, I23              |                  |
    | 20AM | SAN +14               |                  |

with the notes 1 "Enters on/" (cut at its slash), 2 "Available for on-map
setup", 3 "Enters on/" (cut), 4 "SAN 7 maximum (effective at start of
scenario)" and 5 "SAN 2 minimum (effective at start of scenario)".

Reading (the OCR glues each note's number to the word before it, as it does
in 9.6181's "-24 British" and "+15 German VG Pltn"): "I11" is RG I1 with note
1, "G11,2" RG G1 with notes 1 and 2, "SAN +24" a SAN change of +2 with note 4,
"SAN -15" one of -1 with note 5, "20 FPP2" 20 FPP with note 2. Notes 4 and 5
confirm it: the rises carry the maximum, the falls the minimum.

What the ledger does (``ScheduledAbtfRules``, :data:`SCHEDULED`):

* An RG is "received during a RePh without purchase" (9.6181): when the CG
  Date begins, it gets its line on the RG Purchase Record (9.6178) like an RG
  of the Initial-Scenario OB (``ob``, never counted against the CG maximum,
  9.6176: "RG listed as reinforcements during any CG Scenario never count"),
  with the event that began the date as its seq. 9.6181 has each such RG
  "eligible for Depletion" make the RG Strength DR ("as well as for each such
  RG received in an Initial-Scenario or during a RePh without purchase"), so
  its 9.618 rolls are those of its chart line, as for a purchased RG. An RG
  the CG definition's chart does not list gets its line with its ID only.
  Notes 1-3 (where it enters, or that it sets up on-map) are not kept: the
  ledger does not track units' entry (docs/rulesets.md).
* FPP are added to the side's FPP of the date (9.619: FPP "given ... as per
  9.615"), spent in 9.619 like purchased ones.
* A SAN change is a :class:`ScheduledChange` of the kept SAN (9.6122), in
  force from the start of the CG Scenario (notes 4-5), within note 4's
  maximum 7 or note 5's minimum 2.

9.615 is not a '†' step, so nothing is received on the date of a CG's Initial
Scenario: its OB is the CG's own (9.51-9.53, not in the seed).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from cgledger.domain import purchases as book
from cgledger.domain.rulesets.abtf.rules import AbtfRules
from cgledger.domain.rulesets.facts import ScheduledChange

BRITISH = "British"
GERMAN = "German"
RULE = "9.6152"
#: The RePh step the schedule's reinforcements are received in.
STEP = "9.615"
#: The kept value 9.6152's SAN changes change (``Lasting.key``, 9.6122).
SAN = "san"

#: 9.6152's notes, by number, as the seed prints them (1 and 3 are cut).
NOTES: MappingProxyType[str, str] = MappingProxyType(
    {
        "1": "Enters on/ (cut at its slash in the seed)",
        "2": "Available for on-map setup",
        "3": "Enters on/ (cut at its slash in the seed)",
        "4": "SAN 7 maximum (effective at start of scenario)",
        "5": "SAN 2 minimum (effective at start of scenario)",
    }
)
#: Notes 4 and 5: the bounds of a SAN change.
SAN_MAXIMUM = 7
SAN_MINIMUM = 2


@dataclass(frozen=True)
class Given:
    """One item of a 9.6152 cell: an RG by its ID, FPP, or a SAN change, with
    the numbers of its notes."""

    cg_date: str
    side: str
    rg: str | None = None
    fpp: int = 0
    san: int = 0
    notes: tuple[str, ...] = ()


#: 9.6152 REINFORCEMENT SCHEDULE, item by item (see the module docstring for
#: how the glued note numbers were read).
SCHEDULE: tuple[Given, ...] = (
    Given("18 AM", BRITISH, rg="I1", notes=("1",)),
    Given("18 AM", BRITISH, rg="I2", notes=("1",)),
    Given("18 AM", BRITISH, san=+2, notes=("4",)),
    Given("18 AM", GERMAN, fpp=20, notes=("2",)),
    Given("18 AM", GERMAN, san=-1, notes=("5",)),
    Given("18 PM", BRITISH, rg="G1", notes=("1", "2")),
    Given("18 PM", BRITISH, rg="A1", notes=("1",)),
    Given("18 PM", BRITISH, san=-1, notes=("5",)),
    Given("18 PM", GERMAN, san=+2, notes=("4",)),
    Given("19 AM", BRITISH, rg="I1", notes=("3",)),
    Given("19 AM", BRITISH, rg="I2", notes=("3",)),
    Given("20 AM", BRITISH, san=+1, notes=("4",)),
)


def _note(given: Given) -> str:
    return "; ".join(f"{RULE} note {n}: {NOTES[n]}" for n in given.notes)


#: 9.6152's SAN changes, as changes of the kept SAN (``Ruleset.scheduled``).
SCHEDULED: tuple[ScheduledChange, ...] = tuple(
    ScheduledChange(
        SAN,
        g.side,
        g.cg_date,
        g.san,
        RULE,
        STEP,
        maximum=SAN_MAXIMUM if "4" in g.notes else None,
        minimum=SAN_MINIMUM if "5" in g.notes else None,
        note=_note(g),
    )
    for g in SCHEDULE
    if g.san
)


def received(cg_date: str, side: str) -> tuple[Given, ...]:
    """What 9.6152 gives ``side`` on ``cg_date``."""
    return tuple(g for g in SCHEDULE if g.cg_date == cg_date and g.side == side)


class ScheduledAbtfRules(AbtfRules):
    """ABtF's rules with 9.615's OB-given RG and FPP (the SAN changes are the
    engine's, :data:`SCHEDULED`)."""

    def on_date_began(self, state: dict[str, Any], cg_date: str, seq: int) -> None:
        """9.615: the RG and FPP 9.6152 lists for the new CG Date, received
        without purchase: the RG on the RG Purchase Record (9.6178) as OB-given
        lines of ``seq`` (the event that began the date), the FPP on the side's
        CPP line of the date (9.619)."""
        for side in (BRITISH, GERMAN):
            given = received(cg_date, side)
            rgs = [g.rg for g in given if g.rg is not None]
            if rgs and "record" in state:
                rows = state["record"].setdefault(side, [])
                for item, rg in enumerate(rgs):
                    rows.append(book.new_row(seq, item, cg_date, rg, 0, None, ob=True))
            fpp = sum(g.fpp for g in given)
            lines = state.get("cpp", {}).get(side)
            if fpp and lines:
                line = lines[-1]
                line["fpp_halves"] = line.get("fpp_halves", 0) + 2 * fpp
