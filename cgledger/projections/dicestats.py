"""Dice statistics over a whole campaign, as one viewer may see them.

Every roll-bearing record (``"roll" in payload``) is a candidate. The filters
(side, table, CG Date, reverted) read public fields only, so a roll the viewer
may not see still matches them: it is then counted in ``hidden``, never in the
statistics. A sealed record (DESIGN §2a) names no table in public: hidden, it
counts once in ``hidden`` whatever the table filter and however many rolls it
holds; seen, each of its rolls counts as a roll of its own table. Whether the
viewer may see a Secret roll's dice is decided by
:func:`cgledger.domain.visibility.may_see` alone (DESIGN §4); ``record["secret"]`` is
read only after it says yes.

The chi-square tests compare the observed faces with a fair die (uniform,
df 5) and the DR totals with two fair dice ((1,2,3,4,5,6,5,4,3,2,1)/36, df 10).
The p-values come from :func:`chi2_sf`, a closed form for integer df (no scipy).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from cgledger.domain import sealed as sealbook
from cgledger.domain.visibility import may_see

FACES = range(1, 7)
TOTALS = range(2, 13)
#: Ways to throw each DR total (2..12) with two dice, out of 36.
DR_WAYS = {t: 6 - abs(t - 7) for t in TOTALS}
#: Below this expected count in any cell the chi-square approximation is unreliable.
MIN_EXPECTED = 5.0
#: The ``table`` filter value that selects free rolls (``DiceRolled``, no table).
FREE = "free"


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X ~ chi-square with ``df`` (an integer >= 1) degrees of freedom.

    With h = x/2:
    - even df = 2m: ``exp(-h) * sum_{k=0}^{m-1} h^k / k!`` (a Poisson tail);
    - odd df = 2m+1: ``erfc(sqrt(h)) + sum_{k=1}^{m} h^(k-1/2) exp(-h) / Gamma(k+1/2)``.
    Each term is summed from its logarithm (``math.lgamma``), so a large x or df
    neither overflows nor underflows early. All terms are positive: no cancellation.
    """
    if isinstance(df, bool) or not isinstance(df, int) or df < 1:
        raise ValueError(f"df must be an integer >= 1, not {df!r}")
    if math.isnan(x):
        raise ValueError("x must be a number, not NaN")
    if x <= 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    h = x / 2.0
    log_h = math.log(x) - math.log(2.0)  # not log(h): x/2 underflows for the least x
    m = df // 2
    if df % 2 == 0:
        total = math.fsum(math.exp(k * log_h - h - math.lgamma(k + 1)) for k in range(m))
    else:
        total = math.erfc(math.sqrt(h)) + math.fsum(
            math.exp((k - 0.5) * log_h - h - math.lgamma(k + 0.5)) for k in range(1, m + 1)
        )
    return min(1.0, max(0.0, total))


def _chi_square(observed: list[int], probs: list[float], n: int) -> tuple[float | None, bool]:
    """(chi-square statistic or None when n == 0, any expected cell < 5)."""
    expected = [n * p for p in probs]
    low = any(e < MIN_EXPECTED for e in expected)
    if n == 0:
        return None, low
    return math.fsum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True)), low


def _mean(values: Counter[int], n: int) -> float | None:
    return None if n == 0 else math.fsum(v * c for v, c in values.items()) / n


def _die_block(faces: Counter[int]) -> dict[str, Any]:
    """Faces of single dice against a fair die: df 5."""
    n = sum(faces.values())
    chi, low = _chi_square([faces[f] for f in FACES], [1 / 6] * 6, n)
    return {
        "count": n,
        "faces": {str(f): faces[f] for f in FACES},
        "mean": _mean(faces, n),
        "chi_square": chi,
        "df": 5,
        "p_value": None if chi is None else chi2_sf(chi, 5),
        "expected_per_cell": n / 6,
        "low_counts": low,
    }


def _dr_block(totals: Counter[int], colored: Counter[int], white: Counter[int]) -> dict[str, Any]:
    """DR totals against two fair dice: df 10; plus each die on its own."""
    n = sum(totals.values())
    probs = [DR_WAYS[t] / 36 for t in TOTALS]
    chi, low = _chi_square([totals[t] for t in TOTALS], probs, n)
    return {
        "count": n,
        "totals": {str(t): totals[t] for t in TOTALS},
        "mean": _mean(totals, n),
        "chi_square": chi,
        "df": 10,
        "p_value": None if chi is None else chi2_sf(chi, 10),
        "expected_per_cell": {str(t): n * DR_WAYS[t] / 36 for t in TOTALS},
        "low_counts": low,
        "colored": _die_block(colored),
        "white": _die_block(white),
    }


def _roll_side(payload: dict[str, Any]) -> str:
    side = payload.get("side")
    return str(side if side is not None else payload["roll"]["side"])


def _matches_table(payload: dict[str, Any], table: str) -> bool:
    ref = payload.get("table")
    if table == FREE:
        return ref is None
    if ref is None:
        return False
    table_id = str(ref["id"])
    if ":" in table:
        return table_id == table
    return table_id.split(":", 1)[-1] == table


def _visible_rolls(
    record: dict[str, Any], viewer: str, is_revealed: Callable[[int], bool]
) -> list[tuple[list[int], dict[str, Any]]] | None:
    """Each roll of the record the viewer may see, with what names its table
    (``{"table": ref}`` or ``{}``); ``None`` if the viewer may see none."""
    if not sealbook.is_sealed(record):
        found = _visible_dice(record, viewer, is_revealed)
        return None if found is None else [(found, record["payload"])]
    if not may_see(record["payload"]["owner"], viewer, revealed=is_revealed(int(record["seq"]))):
        return None
    secret = record["secret"]
    if secret is None:
        return None
    out = []
    for one in secret.get("rolls") or ():
        rolled = one["dice"]
        if len(rolled) not in (1, 2) or any(not 1 <= d <= 6 for d in rolled):
            raise ValueError(f"event {record['seq']}: a sealed roll should hold 1 or 2 dice")
        out.append(([int(d) for d in rolled], one))
    return out


def _visible_dice(
    record: dict[str, Any], viewer: str, is_revealed: Callable[[int], bool]
) -> list[int] | None:
    """The roll's dice if ``viewer`` may see them, else None."""
    payload = record["payload"]
    roll = payload["roll"]
    if not roll["secret"]:
        dice = roll["dice"]
    else:
        owner = payload["owner"]
        if not may_see(owner, viewer, revealed=is_revealed(int(record["seq"]))):
            return None
        secret = record["secret"]
        if secret is None:
            # A record already redacted for another viewer: nothing to read here.
            return None
        dice = secret["dice"]
    count = roll["count"]
    if (
        count not in (1, 2)
        or len(dice) != count
        or any(not isinstance(d, int) or not 1 <= d <= 6 for d in dice)
    ):
        raise ValueError(
            f"event {record['seq']}: roll {roll['index']} should hold {count} dice of 1-6"
        )
    return [int(d) for d in dice]


def dice_stats(
    records: Iterable[dict[str, Any]],
    viewer: str,
    *,
    is_revealed: Callable[[int], bool],
    reverted_by: Callable[[int], int | None],
    side: str | None = None,
    table: str | None = None,
    date: str | None = None,
    include_reverted: bool = True,
) -> dict[str, Any]:
    """Statistics of the rolls in ``records`` that match the filters, as ``viewer`` sees them.

    ``is_revealed(seq)`` tells whether the Secret roll of event ``seq`` has been
    revealed; ``reverted_by(seq)`` gives the seq of the event that reverted it,
    or None. ``table`` is a table id with or without its ``"<ruleset>:"`` prefix,
    or ``"free"`` for free rolls; ``date`` a CG Date, compared exactly (a record
    without ``cg_date`` matches no date). Returns a JSON-ready dict.
    """
    counted = hidden = reverted = 0
    dr_faces: Counter[int] = Counter()
    dr_totals: Counter[int] = Counter()
    colored: Counter[int] = Counter()
    white: Counter[int] = Counter()
    all_faces: Counter[int] = Counter()
    sides: dict[str, dict[str, list[int]]] = {}
    for record in records:
        payload = record["payload"]
        if "roll" not in payload:
            continue
        roll_side = _roll_side(payload)
        if side is not None and roll_side != side:
            continue
        sealed = sealbook.is_sealed(record)
        if table is not None and not sealed and not _matches_table(payload, table):
            continue
        if date is not None and payload.get("cg_date") != date:
            continue
        is_reverted = reverted_by(int(record["seq"])) is not None
        if is_reverted and not include_reverted:
            continue
        seen = _visible_rolls(record, viewer, is_revealed)
        if seen is None:
            hidden += 1
            continue
        for dice, named in seen:
            if table is not None and sealed and not _matches_table(named, table):
                continue
            counted += 1
            if is_reverted:
                reverted += 1
            all_faces.update(dice)
            per_side = sides.setdefault(roll_side, {"dr": [], "DR": []})
            if len(dice) == 1:
                dr_faces[dice[0]] += 1
                per_side["dr"].append(dice[0])
            else:
                dr_totals[dice[0] + dice[1]] += 1
                colored[dice[0]] += 1
                white[dice[1]] += 1
                per_side["DR"].append(dice[0] + dice[1])
    return {
        "filters": {
            "side": side,
            "table": table,
            "date": date,
            "include_reverted": include_reverted,
        },
        "rolls": counted,
        "hidden": hidden,
        "reverted": reverted,
        "dr": _die_block(dr_faces),
        "DR": _dr_block(dr_totals, colored, white),
        "dice": _die_block(all_faces),
        "by_side": {
            name: {
                "rolls": len(v["dr"]) + len(v["DR"]),
                "DR_mean": math.fsum(v["DR"]) / len(v["DR"]) if v["DR"] else None,
                "dr_mean": math.fsum(v["dr"]) / len(v["dr"]) if v["dr"] else None,
            }
            for name, v in sorted(sides.items())
        },
    }
