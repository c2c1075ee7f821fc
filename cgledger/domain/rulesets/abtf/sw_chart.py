"""9.6182's Infantry-Type SW Charts as printed, and where a chart line places
their entries (DESIGN §14: what a chart line can say belongs on the line).

The OCR drops the charts' empty cells, so each row's entries stand in its
leftmost columns and the column each entry belongs to is a reading
(``abtf.tables`` notes; ``SW_ROWS`` and the table ``abtf:9.6182`` hold the
ledger's). A chart line's ``sw_columns`` names the column of each printed
entry of its row, left to right, as the group reads its printed chart; its
Depleted RG then rolls on ``abtf:9.6182-placed``, whose threshold is the
entry's number in parentheses. Left null, the ledger's reading holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cgledger.domain.tables import InputDef, Ref, Table, ge, le

BRITISH = "British"
GERMAN = "German"

#: The column headers of each side's chart, left to right ("RG | LMG | PIAT |
#: FT | DC | Lt. Mtra"; "RG | LMG | PSK/ | FT | DC", the "PSK/" header read
#: "PSK/Lt. Mtr").
COLUMNS: Mapping[str, tuple[str, ...]] = {
    BRITISH: ("LMG", "PIAT", "FT", "DC", "Lt. Mtr"),
    GERMAN: ("LMG", "PSK/Lt. Mtr", "FT", "DC"),
}
#: The German column whose "*" entry the "*" dr turns into a PSK or a Lt. Mtr.
STAR_COLUMN = "PSK/Lt. Mtr"
#: Each row's printed entries, left to right: (how many SW, the number in
#: parentheses); a count of ``None`` is the "*" entry ("*(2)").
PRINTED: Mapping[tuple[str, str], tuple[tuple[int | None, int], ...]] = {
    (BRITISH, "I1"): ((1, 5), (1, 3)),
    (BRITISH, "I2"): ((1, 5), (1, 3)),
    (BRITISH, "I3"): ((1, 5), (1, 3), (1, 3)),
    (BRITISH, "I4"): ((1, 5), (1, 2), (2, 3)),
    (GERMAN, "I1"): ((1, 3), (None, 2)),
    (GERMAN, "I2"): ((1, 2), (2, 3)),
    (GERMAN, "I3"): ((1, 1),),
}

# 9.6182 SUPPORT WEAPON ALLOTMENT, as a chart line places its row's entries
SW_PLACED = Table(
    id="abtf:9.6182-placed",
    rule="9.6182",
    title="Support Weapon Allotment (Depleted RG; columns as the chart line places them)",
    dice=1,
    bands=(
        le(Ref("threshold"), "SW received"),
        ge(Ref("threshold", 1), "SW not received"),
    ),
    inputs=(
        InputDef(
            "threshold",
            "The number in parentheses of the SW's entry, in the column the RG's chart "
            "line places it (sw_columns)",
            lo=1,
            hi=6,
        ),
    ),
    # 9.6182: "A Depleted RG must make a secret dr ≤ the number listed in parentheses"
    secret=True,
    notes=(
        "abtf:9.6182 with the columns of a chart line's sw_columns: the OCR drops the "
        "chart's empty cells, so which column holds an entry is read by the group; the "
        "ledger passes the number of the entry the line places in the SW's column.",
        "Read on the Final dr: 9.6182 says 'a secret dr ≤ the number', not an Original dr.",
    ),
)


def check(side: str, rg: str, columns: Sequence[str]) -> str | None:
    """Why ``columns`` cannot place the printed entries of ``side``'s row
    ``rg`` (``None``: they can): one column of that chart per entry, left to
    right, the "*" entry (and only it) in the PSK/Lt. Mtr column."""
    printed = PRINTED.get((side, rg))
    if printed is None:
        return f"9.6182: the {side} Infantry-Type SW Chart has no row {rg}"
    known = COLUMNS[side]
    unknown = [c for c in columns if c not in known]
    if unknown:
        return (
            f"9.6182: the {side} Infantry-Type SW Chart has no column {unknown[0]!r}; "
            f"its columns are {', '.join(known)}"
        )
    if len(columns) != len(printed):
        return (
            f"9.6182: row {rg} of the {side} chart prints {len(printed)} entries; "
            f"sw_columns names {len(columns)}"
        )
    order = [known.index(c) for c in columns]
    if order != sorted(set(order)):
        return "9.6182: a row's entries stand in its columns left to right, one per column"
    for (count, _), column in zip(printed, columns, strict=True):
        if (count is None) != (column == STAR_COLUMN):
            return (
                f"9.6182: the '*' entry of row {rg} stands in the {STAR_COLUMN} column, and "
                "only it (a number there would not say which of the two)"
            )
    return None


def placed(side: str, entry: Mapping[str, Any]) -> dict[str, int] | None:
    """The number in parentheses of each column the chart line places an entry
    in (``None``: the line places none, the ledger's reading holds)."""
    columns = entry.get("sw_columns")
    if columns is None:
        return None
    printed = PRINTED[(side, str(entry["id"]))]
    return {c: n for c, (_, n) in zip(columns, printed, strict=True)}


def weapons(side: str, entry: Mapping[str, Any], star: str | None) -> list[str]:
    """The SW a Full Strength RG receives by its chart line's placement: each
    column's SW as many times as its entry prints ("2(3)": two), the "*"
    entry as the "*" dr gave (``star``; none before it)."""
    printed = PRINTED[(side, str(entry["id"]))]
    out: list[str] = []
    for column, (count, _) in zip(entry["sw_columns"], printed, strict=True):
        if count is None:
            out += [star] if star is not None else []
        else:
            out += [column] * count
    return out


def threshold(side: str, entry: Mapping[str, Any], sw: str) -> int | None:
    """The number a Depleted RG's dr for ``sw`` must not exceed, where its chart
    line places its entries (``None``: it places none, or no column holds ``sw``)."""
    numbers = placed(side, entry)
    if numbers is None:
        return None
    if side == GERMAN and sw in ("PSK", "Lt. Mtr"):
        sw = STAR_COLUMN
    return numbers.get(sw)
