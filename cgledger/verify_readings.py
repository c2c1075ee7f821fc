"""The readings in force along an export (``cgledger verify``; DESIGN §14).

A ruleset's check of what a command took from its roll may follow a reading
(KGP 8.6161: which number of a CPP Base # pair is the U.S. one, CG III's
"175-", the 8.6162 EX's 30). The verifier reads the readings the CG definition
chose at creation (``CampaignCreated``) and in each approved amendment
(``DefinitionAmended``), in seq order, and hands each check the ones in force
when its event was recorded, as ``created["readings"]`` (the definition's
choices; an id left out is its default). It also checks the CPP
Replenishments recorded without a DR (a "-" Base #, 8.616), which hold no
roll, against the chart under those readings; and, with
``cgledger.verify_determinations``, that each determination roll is on the
table its RG's chart line and those readings give it."""

from __future__ import annotations

import bisect
from typing import Any

from cgledger.domain.rulesets import REGISTRY
from cgledger.verify_determinations import Determinations
from cgledger.verify_report import VerificationError
from cgledger.verify_sealed import Sealed

#: The events that record a CG definition in force.
DEFINED = ("CampaignCreated", "DefinitionAmended")
#: A CPP Replenishment (8.616, 9.616); without a ``roll``, a "-" Base #.
REPLENISHED = "CPPReplenished"


class Readings:
    """What the verifier notes while it reads the export: each definition's
    readings by the seq that recorded it, and the replenishments without a DR."""

    def __init__(self) -> None:
        self.by_seq: list[tuple[int, dict[str, str]]] = []
        #: Each recorded CG definition (``{}``: none), by the seq that recorded it.
        self.docs: list[tuple[int, dict[str, Any]]] = []
        self.without_dr: list[dict[str, Any]] = []
        self.determinations = Determinations()

    def note(self, obj: dict[str, Any], seq: int) -> None:
        """Event ``seq``, read in order."""
        self.determinations.note(obj)
        if obj["type"] in DEFINED:
            self.by_seq.append((seq, _chosen(obj["payload"], seq)))
            doc = obj["payload"].get("definition")
            self.docs.append((seq, doc if isinstance(doc, dict) else {}))
        elif obj["type"] == REPLENISHED and "roll" not in obj["payload"]:
            self.without_dr.append(obj)

    def as_of(self, created: dict[str, Any], seq: int) -> dict[str, Any]:
        """``created`` with the readings in force at event ``seq``: those of
        the last CG definition recorded before it."""
        at = bisect.bisect_left(self.by_seq, seq, key=lambda r: r[0])
        return {**created, "readings": self.by_seq[at - 1][1] if at else {}}

    def definition_at(self, seq: int) -> dict[str, Any]:
        """The CG definition in force at event ``seq`` (``{}``: none recorded)."""
        at = bisect.bisect_left(self.docs, seq, key=lambda r: r[0])
        return self.docs[at - 1][1] if at else {}

    def check_after_rolls(self, created: dict[str, Any], sealed: Sealed) -> None:
        """What is checked once every roll is (``check_without_dr``, and each
        determination roll's table: ``Determinations.check``)."""
        self.check_without_dr(created)
        self.determinations.check(created, self, sealed)

    def check_without_dr(self, created: dict[str, Any]) -> None:
        """Each replenishment recorded without a DR is a "-" cell of the chart
        under the readings in force then, as its ruleset checks it."""
        ruleset = REGISTRY.get(created["ruleset"])
        if ruleset is None:
            return
        for obj in self.without_dr:
            seq = obj["seq"]
            values = {**obj["payload"], **(obj["secret"] or {})}
            try:
                problem = ruleset.rules.verify_result(self.as_of(created, seq), values)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise VerificationError(
                    f"malformed event ({type(exc).__name__}: {exc})", seq
                ) from None
            if problem is not None:
                raise VerificationError(problem, seq)


def _chosen(payload: dict[str, Any], seq: int) -> dict[str, str]:
    """The readings a recorded CG definition chose; none (every default) when
    the campaign was created without a definition."""
    doc = payload.get("definition")
    chosen = {} if doc is None else doc.get("readings", {})
    if not isinstance(chosen, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in chosen.items()
    ):
        raise VerificationError("the CG definition's readings are not choices by id", seq)
    return chosen
