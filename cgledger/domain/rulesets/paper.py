"""The paper forms (DESIGN §12): the columns of a ruleset's CG Roster and RG
Purchase Record as a player files them, in the paper's order, each with the
rule that defines it, so the page (and any client) draws and prints the
forms with a rule number on every column.

A column names the field of a roster line (or record row) that fills it
(``key``), how that field is written (``kind``: ``text``; ``rg_list``, RG
IDs with the CPP expended, "I1 (4), HW1 (3)"; ``pieces``, SW or Equipment
received; ``fortifications``, a tally by type id; ``list``), and whether the
paper form has it (``paper``) or the ledger adds it (e.g. the rolls an RG
still needs). The words of ``text`` are the seeds' where the seeds say what
the column holds; where the seed is cut ("SW/", "Pltn/", "Setup/" in
8.6198) the column is named after what fills it. Each ruleset names its
forms (``Ruleset.paper``); the projection (``cgledger.projections.paper``)
draws a ruleset that names none from its own ``columns``, with no rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["ABTF", "KGP", "LVP_KEYS", "SG", "Column", "Form", "PaperForms"]

#: The roster columns filled from the CG-Scenario End's LVP row (8.6032-8.6033).
LVP_KEYS = ("current_lvp", "cg_lvp", "win")


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    rule: str | None
    text: str
    kind: str = "text"
    #: the heading over several columns (e.g. "CPP", "Fortifications")
    group: str | None = None
    #: ``False``: the ledger's own column, not one of the paper form
    paper: bool = True

    def view(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "rule": self.rule,
            "text": self.text,
            "kind": self.kind,
            "group": self.group,
            "paper": self.paper,
        }


@dataclass(frozen=True)
class Form:
    title: str
    rule: str | None
    columns: tuple[Column, ...]

    def view(self, **more: Any) -> dict[str, Any]:
        return {
            "title": self.title,
            "rule": self.rule,
            "columns": [c.view() for c in self.columns],
            **more,
        }


def _fortifications(rule: str, bought_in: str) -> tuple[Column, ...]:
    group = f"Fortifications ({rule})"
    return (
        Column("fpp", "FPP", rule, f"the FPP held to spend on Fortifications (bought in "
               f"{bought_in})", group=group, paper=False),
        Column("fortifications", "Fortifications", rule, '"As Fortifications are selected, '
               'the specific type (and strength, if mines) must be recorded in the '
               '"FORTIFICATIONS" area of the CG Roster"', "fortifications", group),
        Column("fpp_spent", "FPP spent", rule, "the FPP spent on Fortifications",
               group=group, paper=False),
        Column("fpp_forfeit", "FPP forfeit", rule, '"All FPP unspent upon the completion of '
               'this step are forfeit" (shown once the step is completed)', group=group,
               paper=False),
    )  # fmt: skip


_KGP_CPP = "CPP (8.6162, 8.619)"
KGP_ROSTER = Form("CG Roster", "8.6162", (
    Column("cg_date", "CG Date", "8.6162", "the line for the CG Date"),
    Column("start", "Start", "8.6162", "the preceding CG Date's \"Left\" box (8.619), less "
           "the CPP spent on Recon (8.622): the side's CPP total at the start of the CG Date",
           group=_KGP_CPP),
    Column("repl", "Repl", "8.6162", "the final amount of CPP Replenished (8.616); shaded "
           "before the Initial Scenario, where CPP Replenishment is NA", group=_KGP_CPP),
    Column("total", "Total", "8.6162", "Start plus Repl: \"the total CPP available for "
           "RG/Recon purchases\"", group=_KGP_CPP),
    Column("rg_purchased", "RG Purchased", "8.619", "each RG's ID, and the CPP expended to "
           "purchase it", "rg_list", _KGP_CPP),
    Column("spent", "Spent", "8.619", "the total CPP expended", group=_KGP_CPP),
    Column("left", "Left", "8.619", "the number of CPP remaining, even if zero",
           group=_KGP_CPP),
    Column("recon_cpp", "Recon CPP", "8.622", "the CPP deducted for Recon (one, or two for "
           "a beneficial drm)", group="Recon (8.622)", paper=False),
    Column("recon", "Recon", "8.622", "the number of Locations that may be reconnoitered "
           "(8.6243) per Map Group: the Recon Final dr", group="Recon (8.622)"),
    Column("recon_available", "Recon (cumulative)", "8.622", "\"The number recorded for "
           "each Idle CG Date is cumulative with the number recorded for each succeeding CG "
           "Date, but not beyond the next CG scenario\"", group="Recon (8.622)", paper=False),
    Column("current_lvp", "LVP", "8.6032", "the Current-LVP Total, in the upper half of the "
           "\"LVP\" column", group="LVP (8.6032-8.6033)"),
    Column("cg_lvp", "CG-LVP", "8.6033", "the CG-LVP Total, below the Current-LVP Total: "
           "the Current-LVP Total plus the preceding CG Date's CG-LVP Total",
           group="LVP (8.6032-8.6033)"),
    Column("win", "Win", "8.6032", "the winning side of the just-completed CG scenario "
           "(8.6234)"),
    *_fortifications("8.621", "8.619"),
))  # fmt: skip

_ABTF_CPP = "CPP (9.616, 9.617)"
ABTF_ROSTER = Form("CG Roster", "9.617", (
    Column("cg_date", "CG Date", "9.617", "the line for the CG Date"),
    Column("start", "Start", "9.617", "the preceding CG Date's \"Left\": the CPP kept for "
           "\"step 9.6171 of any subsequent RePh\"", group=_ABTF_CPP),
    Column("repl", "Repl", "9.616", "the CPP Base # (9.6161) plus the CG CPP Variable "
           "Arrival Points DR (9.6162)", group=_ABTF_CPP),
    Column("total", "Total", "9.617", "Start plus Repl: the current CPP total",
           group=_ABTF_CPP),
    Column("rg_purchased", "RG Purchased", "9.617", "each RG's ID, and the CPP expended to "
           "purchase it", "rg_list", _ABTF_CPP),
    Column("spent", "Spent", "9.617", "the total CPP expended", group=_ABTF_CPP),
    Column("left", "Left", "9.617", "\"CPP not spent are divided by two (FRU) and recorded "
           "on the CG Roster in the 'Left' column\"", group=_ABTF_CPP),
    Column("campaign_exhaustion_drm", "Campaign Exhaustion DRM", "9.6161", "the CPP Base "
           "Number Chart's Campaign Exhaustion DRM for the CG Date", paper=False),
    *_fortifications("9.619", "9.617, or given by 9.615"),
))  # fmt: skip

SG_ROSTER = Form("VP and Purchase Points", "2.9", (
    Column("cg_date", "CG Date", "2.9", "the CG Date of the CG-Scenario End", paper=False),
    Column("vp", "VP", "2.91", "\"The amount of VP which the American has scored\" in the "
           "scenario", paper=False),
    Column("vp_total", "VP total", "2.91", "the American's current CG VP total",
           paper=False),
    Column("vp_required", "VP required", "2.91", "the VP required to win the scenario",
           paper=False),
    Column("vp_differential", "VP Differential", "2.91", "the VP required less the CG VP "
           "total", paper=False),
    Column("cvp_suffered", "CVP suffered", "2.92", "the American's CVP suffered in the CG "
           "thus far", paper=False),
    Column("purchase_points", "Purchase Points", "2.92", "the CVP suffered plus the VP "
           "Differential (negative ones are ignored)", paper=False),
    Column("purchase_points_available", "Purchase Points available", "3.4", "\"Unused "
           "Purchase Points may be retained for future use\"", paper=False),
    Column("winner", "Winner", "2.9", "the winner of the scenario", paper=False),
    Column("winner_rule", "by", "2.9", "the rule that decided the winner", paper=False),
    Column("cg_winner", "CG winner", "2.9", "the winner of the CG (CG Victory Conditions)",
           paper=False),
))  # fmt: skip


def _record(rule: str, determine: str, *columns: Column) -> Form:
    """An RG Purchase Record: the paper's columns, then the ledger's own."""
    return Form("RG Purchase Record", rule, (
        *columns,
        Column("map_group", "Map Group", rule, "the Map Group the RG was bought for",
               paper=False),
        Column("fpp", "FPP", rule, "the FPP the RG gives, to spend on Fortifications",
               paper=False),
        Column("needs", "Rolls to make", determine, "the rolls the RG still needs, in "
               f"order ({determine})", "list", paper=False),
    ))  # fmt: skip


def _head(rule: str, maximum: str) -> tuple[Column, ...]:
    return (
        Column("cg_date", "CG Date", rule, "The CG Date the RG is purchased"),
        Column("rg", "RG ID", rule, "The RG's alphanumeric ID"),
        Column("name", "Group Type", rule, "The RG's name"),
        Column("purchased", "#P", rule, "Number Purchased: the total number of friendly RG "
               "of this Group Type purchased thus far during the CG"),
        Column("remaining", "#R", rule, "Number Remaining: the number of this RG Group Type "
               f"still available for purchase in the CG (the Maximum, {maximum}, less #P)"),
    )  # fmt: skip


KGP_RECORD = _record("8.6198", "8.620", *_head("8.6198", "8.6196"), *(
    Column("strength", "Str.", "8.6198", "(German RG only) the RG's strength, \"F\" or \"D\", "
           "as determined in RePh step 8.6201"),
    Column("units", "# Units", "8.6198", "The number of units received in that RG of the "
           "Unit Type listed in the RG Chart"),
    Column("quality", "Quality", "8.6198", "the unit type, if subject to Quality (8.6202)"),
    Column("models", "Models", "8.6203", "the tanks a Med Tank Pltn received", paper=False),
    Column("sw", "SW", "8.6198", "the SW received (8.6204)", "pieces"),
    Column("equipment", "Equipment", "8.6198", "the Equipment received (8.6205)", "pieces"),
    Column("leader", "Leader", "8.6198", "the leader received (8.6206)"),
    Column("objective_hex", "Objective Hex", "8.6198", "the Objective Hex of each \"I\" and "
           "\"HW\"-type RG when it is initially purchased"),
    Column("cpp", "CPP", "8.6194", "the CPP expended to purchase the RG (8.619)",
           paper=False),
))  # fmt: skip

ABTF_RECORD = _record("9.6178", "9.618", *_head("9.6178", "9.6176"), *(
    Column("strength", "Str", "9.6178", "the RG's strength, \"F\" or \"D\", as determined "
           "in RePh step 9.6181"),
    Column("units", "# Units", "9.6178", "The number of units received in that RG of the "
           "Unit Type listed in the RG Chart"),
    Column("sw", "SW Received", "9.6178", "the number and type of each Weapon received "
           "(9.6182)", "pieces"),
    Column("leader", "Leader", "9.6178", "the (Armor) Leader's A10.7/D3.4 Strength Factor "
           "(9.6183)"),
    Column("models", "Vehicles", "9.6184", "the vehicles the RG's composition dr gave",
           paper=False),
    Column("equipment", "Equipment", "9.6178", "the Equipment the RG's chart line lists",
           "pieces", paper=False),
    Column("cpp", "CPP", "9.6173", "the CPP expended to purchase the RG (9.617)",
           paper=False),
))  # fmt: skip

SG_RECORD = Form("Reinforcement Groups", "3.4", (
    Column("cg_date", "CG Date", "3.4", "the CG Date the group was purchased", paper=False),
    Column("rg", "Group", "3.4", "the group's ID on the American Reinforcement Table",
           paper=False),
    Column("name", "Group Type", "3.4", "the group's name", paper=False),
    Column("purchased", "#P", "3.4", "the groups of this type purchased so far",
           paper=False),
    Column("remaining", "#R", "3.4", "how many more the scenario maximum allows",
           paper=False),
    Column("cpp", "Purchase Points", "3.4", "the Purchase Points spent on the group",
           paper=False),
    Column("models", "Models", "3.7", "the M4 Model Table's tanks", paper=False),
    Column("leader", "Leader", "3.6", "the leader received", paper=False),
    Column("needs", "Rolls to make", "3.4", "the rolls the group still needs, in order",
           "list", paper=False),
))  # fmt: skip


@dataclass(frozen=True)
class PaperForms:
    """A ruleset's paper forms, and the rules of its Fortifications set up
    (``setup``: 8.6242, 9.6214; ``on_map``: 8.6073, 9.6073), if it has any."""

    roster: Form
    record: Form
    setup: tuple[str, str] | None = None


KGP = PaperForms(KGP_ROSTER, KGP_RECORD, ("8.6242", "8.6073"))
ABTF = PaperForms(ABTF_ROSTER, ABTF_RECORD, ("9.6214", "9.6073"))
SG = PaperForms(SG_ROSTER, SG_RECORD)
