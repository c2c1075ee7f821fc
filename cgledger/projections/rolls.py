"""The roll object of DESIGN §3, as one viewer may see it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cgledger.domain import dice as dicebook
from cgledger.domain import sealed as sealbook
from cgledger.domain.visibility import may_see

_NOT_OUTCOME = {"dice", "salt"}
#: What a sealed record keeps out of its roll's outcome (the rolls are listed).
_NOT_SEALED_OUTCOME = {"salt", "rolls", "client_nonce", "nonce_source", "kind", "tables"}


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
    if sealbook.is_sealed(record):
        return _sealed_view(record, viewer, reveal, unsealed_seed, reverted_by)
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


def _sealed_view(
    record: dict[str, Any],
    viewer: str,
    reveal: dict[str, Any] | None,
    unsealed_seed: Callable[[int], str],
    reverted_by: int | None,
) -> dict[str, Any]:
    """A sealed record's roll index (DESIGN §2a): to a viewer who may not see
    it, the same fixed values whatever it holds (no purpose, no count, no
    nonce); to its owner, the referee, or anyone once revealed, its rolls in
    order and the dice they took from the stream."""
    p = record["payload"]
    roll = p["roll"]
    view: dict[str, Any] = {
        "index": roll["index"],
        "dice": None,
        "commitment": roll["commitment"],
        "seed": None,
        "secret": True,
        "side": roll["side"],
        "purpose": sealbook.SEALED_PURPOSE,
        "client_nonce": "",
        "seq": record["seq"],
        "count": 0,
        "nonce_source": "sealed",
        "event_type": record["type"],
        "rule": None,
        "revealed_seq": None if reveal is None else reveal["seq"],
        "reverted_by": reverted_by,
        "after_undo": roll.get("after_undo"),
        "outcome": None,
        "protocol": dicebook.SEALED,
        "rolls": None,
    }
    if not may_see(p["owner"], viewer, revealed=reveal is not None):
        return view
    secret = record["secret"]
    rolls = list(secret.get("rolls") or ())
    found = sealbook.dice_of(secret)
    view["dice"] = found
    view["count"] = len(found)
    view["seed"] = reveal["payload"]["seed"] if reveal is not None else unsealed_seed(roll["index"])
    view["client_nonce"] = secret["client_nonce"]
    view["nonce_source"] = secret["nonce_source"]
    view["rule"] = secret.get("rule")
    view["purpose"] = (
        rolls[0]["purpose"] if len(rolls) == 1 else f"{secret['kind']}: {len(rolls)} rolls"
    )
    view["rolls"] = rolls
    view["outcome"] = {k: v for k, v in secret.items() if k not in _NOT_SEALED_OUTCOME} or None
    return view
