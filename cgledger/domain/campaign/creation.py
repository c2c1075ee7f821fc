"""Creating a campaign (DESIGN §7): the ruleset and its CG, the start date,
the initial CPP and the CG definition (the ruleset's sample when none is
given), checked and recorded in the ``CampaignCreated`` event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict
from uuid import UUID

from cgledger.domain import definitions as defbook
from cgledger.domain import dice
from cgledger.domain import purchases as purchasebook
from cgledger.domain.campaign.calendar import known_date
from cgledger.domain.campaign.core import (
    MAX_INITIAL_CPP,
    new_record,
    sample_definition,
    validated_definition,
)
from cgledger.domain.chain import GENESIS
from cgledger.domain.context import Ctx
from cgledger.domain.errors import InvalidInput
from cgledger.domain.rulesets import REGISTRY


class Creation(TypedDict):
    """What ``Campaign.create`` is given besides the context and the id."""

    ruleset_id: str
    campaign_name: str
    title: str
    start_date: str | None
    initial_cpp: dict[str, int] | None
    token_hashes: dict[str, str]
    definition: NotRequired[dict[str, Any] | None]


#: What the creation keeps of its payload to rebuild the state from (``genesis``).
CREATED_FIELDS = ("calendar", "start_date", "cpp", "initial_cpp")


def creation_record(
    ctx: Ctx,
    *,
    campaign_id: UUID,
    ruleset_id: str,
    campaign_name: str,
    title: str,
    start_date: str | None,
    initial_cpp: dict[str, int] | None,
    token_hashes: dict[str, str],
    definition: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``CampaignCreated`` record of a new campaign, its inputs checked
    (422 naming the field)."""
    ruleset = REGISTRY.get(ruleset_id)
    if ruleset is None:
        raise InvalidInput(
            f"unknown ruleset {ruleset_id!r}; known: {', '.join(REGISTRY)}", field="ruleset"
        )
    cgdef = ruleset.campaigns.get(campaign_name)
    if cgdef is None:
        raise InvalidInput(
            f"unknown campaign {campaign_name!r} for {ruleset_id}; known: "
            f"{', '.join(ruleset.campaigns)}",
            field="campaign",
        )
    if start_date is None:
        if cgdef.initial_date is None:
            raise InvalidInput(
                f"{cgdef.rule} is not in the seed text: pass start_date, one of "
                f"{', '.join(cgdef.calendar)}",
                field="start_date",
            )
        start = cgdef.initial_date
    else:
        start = known_date(ruleset, list(cgdef.calendar), start_date, "start_date")
        if cgdef.initial_date is not None and start != cgdef.initial_date:
            raise InvalidInput(
                f"{cgdef.rule}: {campaign_name} starts on {cgdef.initial_date}",
                field="start_date",
            )
    calendar = list(cgdef.calendar[cgdef.calendar.index(start) :])
    cpp_amounts = dict.fromkeys(ruleset.sides, 0)
    for side, amount in (initial_cpp or {}).items():
        if side not in ruleset.sides:
            raise InvalidInput(
                f"unknown side {side!r}; sides are {', '.join(ruleset.sides)}",
                field="initial_cpp",
            )
        if not 0 <= amount <= MAX_INITIAL_CPP:
            raise InvalidInput(f"initial CPP must be 0 to {MAX_INITIAL_CPP}", field="initial_cpp")
        cpp_amounts[side] = amount
    # DESIGN §7: the CG definition (the ruleset's sample when none is given),
    # validated, and recorded with its hash.
    if definition is None:
        doc, doc_hash = sample_definition(ruleset)
    else:
        doc = validated_definition(ruleset, definition)
        doc_hash = defbook.definition_hash(doc)
    payload = {
        "campaign": str(campaign_id),
        "ruleset": ruleset.id,
        "campaign_name": cgdef.name,
        "title": title,
        "sides": list(ruleset.sides),
        "calendar": calendar,
        "start_date": start,
        "extendable": cgdef.extendable,
        "cpp": ruleset.rules.has_roster,
        "initial_cpp": cpp_amounts,
        "protocol": dice.PROTOCOL,
        "definition": doc,
        "definition_hash": doc_hash,
    }
    record = new_record(ctx, 1, "CampaignCreated", payload, None, GENESIS)
    record["internal"] = {"token_hashes": token_hashes}
    return record


def initial_ob(doc: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """RG given in the Initial-Scenario OB: rows of the RG Purchase Record,
    with the FPP a chart line grants (DESIGN §10; 9.619 "given as a
    reinforcement in the initial CG Scenario")."""
    chart = doc.get("rg_chart") or {}
    out: dict[str, list[dict[str, Any]]] = {}
    for side, given in (doc.get("initial_ob") or {}).items():
        out[side] = []
        for ob in given:
            entry = purchasebook.find_entry(chart.get(side) or (), ob["rg"]) or {}
            out[side].append({**ob, "fpp": entry.get("fpp")})
    return out
