"""KGP CG Roster, CPP columns (8.6162, 8.619, 8.622), as one viewer may see it.

8.619 lets a side keep its CPP expended, CPP remaining and RG purchased secret,
and 8.616 keeps the final replenishment secret. So every number on a line is
shown only if every event it is computed from is visible to the viewer: an
opponent sees a ``null`` and the field's name in ``hidden`` until the owner
reveals those events. A ``null`` that is not in ``hidden`` means "not yet".
"""

from __future__ import annotations

from typing import Any

from domain.campaign import Campaign
from domain.errors import InvalidInput, NotImplementedForRuleset
from domain.rulesets.kgp import cpp as cppbook
from domain.visibility import may_see

COLUMNS = (
    "cg_date",
    "start",
    "repl",
    "total",
    "rg_purchased",
    "spent",
    "left",
    "recon",
    "recon_cpp",
)


def roster_view(campaign: Campaign, side: str, viewer: str) -> dict[str, Any]:
    if campaign.ruleset.cpp is None:
        raise NotImplementedForRuleset(
            f"the CG Roster is not implemented for {campaign.ruleset_id} yet"
        )
    if side not in campaign.sides:
        raise InvalidInput(
            f"unknown side {side!r}; sides are {', '.join(campaign.sides)}", field="side"
        )

    def visible(seq: int | None) -> bool:
        if seq is None:
            return True
        owner = campaign.secret_owner(seq)
        return may_see(owner, viewer, revealed=campaign.is_revealed(seq))

    lines = []
    start_known = True  # the Initial Scenario's CPP are public
    for line in campaign.cpp[side]:
        repl_known = visible(line["repl_seq"])
        spent_known = all(visible(seq) for seq in line["purchase_seqs"])
        recon_known = visible(line["recon_seq"])
        total_known = start_known and repl_known
        # Each column, with whether every event it is computed from is visible.
        columns: dict[str, tuple[bool, Any]] = {
            "start": (start_known, line["start"]),
            "repl": (repl_known, line["repl"]),
            "total": (total_known, cppbook.total(line)),
            "rg_purchased": (spent_known, None),  # filled per purchase below
            "spent": (spent_known, cppbook.spent(line)),
            "left": (total_known and spent_known, cppbook.left(line)),
            "recon": (recon_known, line["recon"]),
            "recon_cpp": (recon_known, line["recon_cpp"]),
        }
        out: dict[str, Any] = {
            "cg_date": line["cg_date"],
            "initial": line["initial"],
            "cpp_base": line["base"],
        }
        for name, (known, value) in columns.items():
            out[name] = value if known else None
        # Each RG is shown once its own event is visible, even if others are not.
        out["rg_purchased"] = [
            {"rg": p["rg"], "cpp": p["cpp"], "seq": p["seq"]}
            for p in line["purchases"]
            if visible(p["seq"])
        ]
        out["hidden"] = [name for name, (known, _) in columns.items() if not known]
        lines.append(out)
        start_known = total_known and spent_known and recon_known
    return {
        "campaign": campaign.cid,
        "side": side,
        "cg_date": campaign.cg_date,
        "version": campaign.version,
        "columns": list(COLUMNS),
        "lines": lines,
    }
