"""What ``cgledger verify`` reports (:class:`Report`) and how it refuses
(:class:`VerificationError`, naming the ``seq`` of the first bad event); shared
by the checks of ``cgledger.verify``, ``cgledger.verify_tables``,
``cgledger.verify_sealed`` and ``cgledger.verify_counted``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cgledger.domain.chain import GENESIS


class VerificationError(Exception):
    def __init__(self, message: str, seq: int | None = None) -> None:
        super().__init__(message if seq is None else f"seq {seq}: {message}")
        self.seq = seq


@dataclass
class Report:
    events: int = 0
    rolls: int = 0
    rolls_recomputed: int = 0
    rolls_hidden: int = 0
    rule_results_checked: int = 0
    #: Table definitions by content hash, with the seq that recorded each.
    tables: dict[str, tuple[dict[str, Any], int]] = field(default_factory=dict)
    head: str = GENESIS
    notes: list[str] = field(default_factory=list)
    #: Signed checkpoints checked against the export, and the ids of their keys.
    checkpoints_checked: int = 0
    checkpoint_keys: list[str] = field(default_factory=list)
    #: CG-Scenario Ends whose LVP was re-counted from the log.
    lvp_rows_checked: int = 0
    #: Sealed records (``cgledger-dice/2``): all of them, those revealed and
    #: checked whole, and those still sealed (counted, not checkable).
    sealed_records: int = 0
    sealed_revealed: int = 0
    sealed_hidden: int = 0
    #: Table rolls whose ``counted`` DRMs were held against their DRMs and,
    #: where the CG Date, the side and the readings give them, recomputed
    #: (``cgledger.verify_counted``); by event type, the seq of the first roll
    #: that recorded them.
    counted_checked: int = 0
    counted_since: dict[str, int] = field(default_factory=dict)
