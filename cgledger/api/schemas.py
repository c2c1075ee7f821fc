"""Request bodies of the engine's own routes. Unknown fields are refused, so a
typo names its field. A ruleset's own commands bring their bodies with them
(``cgledger.domain.rulesets.base.Action``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Self

from pydantic import ConfigDict, Field, StrictInt, StringConstraints, model_validator

from cgledger.domain.requests import TEXT, Body, Nonce
from cgledger.service.campaigns import MAX_INITIAL_CPP
from cgledger.service.dice import MAX_PURPOSE


class CampaignCreate(Body):
    ruleset: str = Field(examples=["kgp"], max_length=40)
    campaign: str = Field(examples=["CG I"], max_length=100)
    title: str = Field(default="", max_length=200)
    start_date: str | None = Field(
        default=None,
        max_length=20,
        description="Needed where the rules give no Initial Scenario date (see GET /v1/rulesets).",
    )
    initial_cpp: (
        dict[
            Annotated[str, StringConstraints(max_length=40)],
            Annotated[StrictInt, Field(ge=0, le=MAX_INITIAL_CPP)],
        ]
        | None
    ) = Field(
        default=None,
        max_length=10,
        description="CPP each side holds before the Initial Scenario (from the CG's OB).",
    )
    definition: dict[str, Any] | None = Field(
        default=None,
        description="The CG definition (GET /v1/rulesets/{r}/definition-schema); "
        "the ruleset's synthetic sample when left out.",
    )


class RollCreate(Body):
    dice: StrictInt = Field(ge=1, le=2, description="1 for a dr, 2 for a DR")
    # Not blank: stated here, checked (and named in the 422) by the domain.
    purpose: str = Field(min_length=1, max_length=MAX_PURPOSE, json_schema_extra=TEXT)
    secret: bool = False
    client_nonce: str | None = Nonce


class DrmItem(Body):
    """A DRM the roller names: its id from the table's ``drms``, with a
    ``count`` (per-count DRM) or a ``value`` (valued DRM), or ``"other"`` with
    a ``value`` and a ``note`` for a modifier the table does not list."""

    id: str = Field(min_length=1, max_length=60, examples=["isolated"])
    count: StrictInt | None = Field(default=None, description="For a per-count DRM")
    value: StrictInt | None = Field(default=None, description="For a valued DRM or 'other'")
    note: str | None = Field(default=None, max_length=200, description="Only for 'other'")


class TableRollCreate(Body):
    drm: list[DrmItem] = Field(default_factory=list, max_length=30)
    inputs: dict[
        Annotated[str, StringConstraints(max_length=60)],
        StrictInt | Annotated[str, StringConstraints(max_length=100)],
    ] = Field(
        default_factory=dict, max_length=30, description="The table's inputs (see its `inputs`)"
    )
    secret: bool | None = Field(
        default=None, description="Defaults to secret where the rule makes the roll Secret"
    )
    client_nonce: str | None = Nonce


class CGDateCreate(Body):
    cg_date: str | None = Field(
        default=None,
        max_length=20,
        description="The CG Date to begin; required only past a seed's calendar.",
    )


class UndoRequestCreate(Body):
    """DESIGN §5: name the events to revert (``seqs``), or revert everything
    after ``to_seq``; give a reason the opponent will read."""

    # What ``one_form`` checks, stated in the JSON Schema.
    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [
                {"required": ["seqs"], "properties": {"seqs": {"not": {"type": "null"}}}},
                {"required": ["to_seq"], "properties": {"to_seq": {"not": {"type": "null"}}}},
            ]
        }
    )

    seqs: list[StrictInt] | None = Field(default=None, min_length=1, max_length=100)
    to_seq: StrictInt | None = Field(default=None, ge=0)
    reason: str = Field(min_length=1, max_length=500, json_schema_extra=TEXT)

    @model_validator(mode="after")
    def one_form(self) -> Self:
        if (self.seqs is None) == (self.to_seq is None):
            raise ValueError("give either seqs or to_seq")
        return self


class UndoRejection(Body):
    note: str | None = Field(default=None, min_length=1, max_length=500, json_schema_extra=TEXT)


class DisputeCreate(Body):
    seq: StrictInt = Field(ge=1, description="The event disputed")
    claim: str = Field(min_length=1, max_length=1000, json_schema_extra=TEXT)


class DisputeResolution(Body):
    decision: Literal["uphold", "revert"]
    note: str = Field(min_length=1, max_length=500, json_schema_extra=TEXT)
