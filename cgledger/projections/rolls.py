"""The roll object of DESIGN §3, as one viewer may see it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cgledger.domain.visibility import may_see

_NOT_OUTCOME = {"dice", "salt"}


def roll_view(
    record: dict[str, Any],
    viewer: str,
    *,
    reveal: dict[str, Any] | None,
    unsealed_seed: Callable[[int], str],
    reverted_by: int | None = None,
) -> dict[str, Any]:
    """``record`` holds a roll (``payload.roll``); ``reveal`` is its SecretRevealed
    record, if any. ``unsealed_seed`` is only called when the viewer may see an
    unrevealed seed (the owner or the referee). ``reverted_by`` is the seq of
    the undo that reverted the roll: an undone roll keeps its index, and the
    roll after an undo says so in ``after_undo`` (DESIGN §5)."""
    p = record["payload"]
    roll = p["roll"]
    view: dict[str, Any] = {
        "index": roll["index"],
        "dice": None,
        "commitment": roll["commitment"],
        "seed": None,
        "secret": roll["secret"],
        "side": roll["side"],
        "purpose": roll["purpose"],
        "client_nonce": roll["client_nonce"],
        "seq": record["seq"],
        "count": roll["count"],
        "nonce_source": roll["nonce_source"],
        "event_type": record["type"],
        "rule": p.get("rule"),
        "revealed_seq": None if reveal is None else reveal["seq"],
        "reverted_by": reverted_by,
        "after_undo": roll.get("after_undo"),
        "outcome": None,
    }
    public_outcome = {k: v for k, v in p.items() if k not in {"roll", "owner", "step"}}
    if not roll["secret"]:
        view["dice"] = roll["dice"]
        view["seed"] = roll["seed"]
        view["outcome"] = public_outcome or None
        return view
    visible = may_see(p["owner"], viewer, revealed=reveal is not None)
    if not visible:
        return view
    secret = record["secret"]
    view["dice"] = secret["dice"]
    view["seed"] = reveal["payload"]["seed"] if reveal is not None else unsealed_seed(roll["index"])
    hidden_outcome = {k: v for k, v in secret.items() if k not in _NOT_OUTCOME}
    view["outcome"] = {**public_outcome, **hidden_outcome} or None
    return view
