"""Request bodies. Unknown fields are refused, so a typo names its field."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator

from domain.campaign import MAX_PURPOSE

Nonce = Field(default=None, min_length=1, max_length=200)


class Body(BaseModel):
    # strict: "3" is not 3 and true is not 1 (a roll index, once used, is gone).
    model_config = ConfigDict(extra="forbid", strict=True)


class CampaignCreate(Body):
    ruleset: str = Field(examples=["kgp"])
    campaign: str = Field(examples=["CG I"])
    title: str = Field(default="", max_length=200)
    start_date: str | None = Field(
        default=None, description="Needed where the seed gives no Initial Scenario date (abtf)."
    )
    initial_cpp: dict[str, StrictInt] | None = Field(
        default=None,
        description="CPP each side holds before the Initial Scenario (from its OB, 8.51-8.53).",
    )


class RollCreate(Body):
    dice: StrictInt = Field(ge=1, le=2, description="1 for a dr, 2 for a DR")
    purpose: str = Field(min_length=1, max_length=MAX_PURPOSE)
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
    inputs: dict[str, StrictInt | str] = Field(
        default_factory=dict, description="The table's inputs (see its `inputs`)"
    )
    secret: bool | None = Field(
        default=None, description="Defaults to secret where the rule makes the roll Secret"
    )
    client_nonce: str | None = Nonce


class CGDateCreate(Body):
    cg_date: str | None = Field(
        default=None, description="The CG Date to begin; required only past a seed's calendar."
    )


class ReplenishmentCreate(Body):
    side: str | None = Field(default=None, description="Defaults to the caller's side.")
    client_nonce: str | None = Nonce


class RGItem(Body):
    rg: str = Field(examples=["I2"], max_length=8)
    cpp: StrictInt = Field(
        ge=1, le=10_000, description="CPP cost from the side's RG chart (8.6194)"
    )


class RGPurchaseCreate(Body):
    """Either one RG (``rg`` and ``cpp``) or a batch (``rgs``). A secret batch,
    even an empty one, is one event: the opponent cannot count the RG."""

    side: str | None = None
    rg: str | None = Field(default=None, examples=["I2"], max_length=8)
    cpp: StrictInt | None = Field(default=None, ge=1, le=10_000)
    rgs: list[RGItem] | None = Field(default=None, max_length=50)
    secret: bool = Field(default=True, description="8.619: purchases may be kept secret")

    @model_validator(mode="after")
    def one_form(self) -> Self:
        single = self.rg is not None or self.cpp is not None
        if single == (self.rgs is not None):
            raise ValueError("give either rg and cpp, or rgs")
        if single and (self.rg is None or self.cpp is None):
            raise ValueError("rg and cpp go together")
        return self

    def items(self) -> list[tuple[str, int]]:
        if self.rgs is not None:
            return [(item.rg, item.cpp) for item in self.rgs]
        assert self.rg is not None
        assert self.cpp is not None
        return [(self.rg, self.cpp)]


class ReconCreate(Body):
    side: str | None = None
    cpp: StrictInt = Field(ge=1, le=2, description="8.622: 1 CPP, or 2 for the +5 drm")
    lax: bool = Field(default=False, description="8.622: -1 if the Majority Squad Type is Lax")
    secret: bool = True
    client_nonce: str | None = Nonce


class UndoRequestCreate(Body):
    """DESIGN §5: name the events to revert (``seqs``), or revert everything
    after ``to_seq``; give a reason the opponent will read."""

    seqs: list[StrictInt] | None = Field(default=None, min_length=1, max_length=100)
    to_seq: StrictInt | None = Field(default=None, ge=0)
    reason: str = Field(min_length=1, max_length=500)

    @model_validator(mode="after")
    def one_form(self) -> Self:
        if (self.seqs is None) == (self.to_seq is None):
            raise ValueError("give either seqs or to_seq")
        return self


class UndoRejection(Body):
    note: str | None = Field(default=None, min_length=1, max_length=500)


class DisputeCreate(Body):
    seq: StrictInt = Field(ge=1, description="The event disputed")
    claim: str = Field(min_length=1, max_length=1000)


class DisputeResolution(Body):
    decision: Literal["uphold", "revert"]
    note: str = Field(min_length=1, max_length=500)
