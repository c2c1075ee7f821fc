"""A table roll (``TableRolled``) as one viewer may see it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cgledger.domain.visibility import may_see
from cgledger.projections.rolls import roll_view

#: The parts of a table roll that a Secret roll hides until it is revealed.
RESULT_FIELDS = ("inputs", "original", "drm", "final", "outcome")


def table_roll_view(
    record: dict[str, Any],
    viewer: str,
    *,
    reveal: dict[str, Any] | None,
    unsealed_seed: Callable[[int], str],
    reverted_by: int | None = None,
) -> dict[str, Any]:
    """``{"seq", "table", "cg_date", "roll", "visible", "inputs", "original",
    "drm", "final", "outcome"}``; the result fields are ``null`` for a viewer
    who may not see a Secret roll yet."""
    p = record["payload"]
    seen = record["secret"] is None or may_see(p["owner"], viewer, revealed=reveal is not None)
    # A sealed record names its table only in its secret part (DESIGN §2a).
    table = p.get("table") or (record["secret"] or {}).get("table") if seen else None
    view: dict[str, Any] = {
        "seq": record["seq"],
        "table": table,
        "side": p["side"],
        "cg_date": p["cg_date"],
        "secret": p["roll"]["secret"],
        "revealed_seq": None if reveal is None else reveal["seq"],
        "reverted_by": reverted_by,
        "roll": roll_view(
            record, viewer, reveal=reveal, unsealed_seed=unsealed_seed, reverted_by=reverted_by
        ),
        "visible": True,
    }
    if record["secret"] is None:
        source = p
    elif seen:
        source = record["secret"]
    else:
        source = {}
        view["visible"] = False
    for name in RESULT_FIELDS:
        view[name] = source.get(name)
    return view
