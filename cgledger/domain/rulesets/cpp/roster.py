"""CPP bookkeeping of the CG Roster: 8.6162 (Start, Repl, Total), 8.619 (RG
Purchased, Spent, Left) and 8.622 (Recon).

One line per side per CG Date, as plain JSON-friendly dicts so that the
aggregate can snapshot them. Every number is derived from the recorded events;
nothing here rolls or reads a clock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from cgledger.domain.errors import NotImplementedForRuleset

if TYPE_CHECKING:
    from cgledger.domain.rulesets.base import Engine


class Purchase(TypedDict):
    seq: int
    rg: str
    cpp: int


class Line(TypedDict):
    cg_date: str
    initial: bool
    start: int
    base: int | None
    repl: int | None
    repl_seq: int | None
    purchases: list[Purchase]
    #: seqs of the RGPurchased events of this line (a secret one may buy nothing)
    purchase_seqs: list[int]
    recon_cpp: int
    recon: int | None
    recon_seq: int | None


def new_line(cg_date: str, *, start: int, initial: bool) -> Line:
    return Line(
        cg_date=cg_date,
        initial=initial,
        start=start,
        base=None,
        repl=None,
        repl_seq=None,
        purchases=[],
        purchase_seqs=[],
        recon_cpp=0,
        recon=None,
        recon_seq=None,
    )


def total(line: Line) -> int:
    """8.6162: Start + Repl = "the total CPP available for RG/Recon purchases"."""
    return line["start"] + (line["repl"] or 0)


def spent(line: Line) -> int:
    """8.619: "write the total CPP expended in the 'Spent' column"."""
    return sum(p["cpp"] for p in line["purchases"])


def left(line: Line) -> int:
    """8.619: "write the number of CPP remaining, even if zero, in the 'Left' column"."""
    return total(line) - spent(line)


def next_start(line: Line) -> int:
    """8.622: Recon CPP are deducted from the Left total, and the new total is
    recorded in the next CG Date's Start column (8.6162 copies Left into Start)."""
    return left(line) - line["recon_cpp"]


#: The CG Roster's CPP columns after ``cg_date``, in the paper Roster's order.
COLUMNS = ("start", "repl", "total", "rg_purchased", "spent", "left", "recon", "recon_cpp")


def lines_of(engine: Engine, side: str) -> list[Line]:
    """The side's CPP lines, the current CG Date's last."""
    lines: list[Line] | None = engine.rules.get("cpp", {}).get(side)
    if lines is None:
        # A campaign created before its ruleset kept a CPP roster recorded no
        # initial CPP: there is nothing to add to.
        raise NotImplementedForRuleset(
            f"{engine.ruleset_id} campaign {engine.cid} was created before this ledger "
            "kept its CG Roster; create a new campaign to keep CPP in the ledger"
        )
    return lines
