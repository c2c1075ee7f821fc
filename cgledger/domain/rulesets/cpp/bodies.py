"""The request bodies of the CPP roster's commands: CPP Replenishment, RG
purchases from the side's RG chart, the rolls that determine each RG, and
Fortifications bought, set up and placed on-map (docs/DESIGN.md §10)."""

from __future__ import annotations

from typing import Annotated, Any, Self

from pydantic import ConfigDict, Field, StrictInt, StringConstraints, model_validator

from cgledger.domain.requests import Body, Nonce

Short = Annotated[str, StringConstraints(min_length=1, max_length=30)]
MAX_ITEMS = 50


class ReplenishmentCreate(Body):
    side: str | None = Field(
        default=None, max_length=40, description="Defaults to the caller's side."
    )
    client_nonce: str | None = Nonce


class RGItem(Body):
    rg: str = Field(
        examples=["I2"],
        min_length=1,
        max_length=30,
        description="the RG's ID on the side's RG chart (9.6178: 'I1(K)' for a KG's RG)",
    )
    cpp: StrictInt | None = Field(
        default=None,
        ge=0,
        le=10_000,
        description="optional: if given, it must equal the chart's cost after the modifiers "
        "(8.6194)",
    )
    map_group: str | None = Field(
        default=None,
        min_length=1,
        max_length=20,
        description="8.6195: the Map Group the RG is bought for (its CG Date maximum counts "
        "per Map Group); defaults to the only one",
    )
    modifiers: list[Short] = Field(
        default_factory=list,
        max_length=4,
        description="8.6194 CPP-cost modifiers chosen: 'standard-on-map' (a), 'early-entry' (b)",
    )
    objective_hex: str | None = Field(
        default=None,
        min_length=1,
        max_length=20,
        description="8.6198: the Objective Hex of an 'I' or 'HW'-type RG, recorded when it is "
        "purchased (a hex of its map group)",
    )


#: In a JSON Schema: a field sent, and not as null (which is as good as left out).
_GIVEN: dict[str, Any] = {"not": {"type": "null"}}
#: In a JSON Schema: a secret purchase (the default), which may be empty.
_SECRET: dict[str, Any] = {"properties": {"secret": {"const": True}}}


def _some(field: str) -> dict[str, Any]:
    """In a JSON Schema: at least one item in ``field``."""
    return {"properties": {field: {"minItems": 1}}}


class RGPurchaseCreate(Body):
    """Either one RG (``rg``, with ``cpp``, ``map_group`` and ``modifiers``
    if wanted) or a batch (``rgs``). A secret batch, even an empty one, is one
    event: the opponent cannot count the RG. A batch is all or nothing."""

    # What ``one_form`` checks, stated in the JSON Schema: ``rg`` or ``rgs``,
    # not both, and the single RG's fields only with ``rg``.
    model_config = ConfigDict(
        json_schema_extra={
            "anyOf": [
                {"required": ["rg"], "properties": {"rg": _GIVEN}},
                {
                    "required": ["rgs"],
                    "properties": {
                        "rgs": _GIVEN,
                        "cpp": {"type": "null"},
                        "map_group": {"type": "null"},
                        "objective_hex": {"type": "null"},
                        "modifiers": {"maxItems": 0},
                    },
                    "anyOf": [_some("rgs"), _SECRET],
                },
            ],
            "not": {"required": ["rg", "rgs"], "properties": {"rg": _GIVEN, "rgs": _GIVEN}},
        }
    )

    side: str | None = Field(default=None, max_length=40)
    rg: str | None = Field(default=None, examples=["I2"], min_length=1, max_length=30)
    cpp: StrictInt | None = Field(default=None, ge=0, le=10_000)
    map_group: str | None = Field(default=None, min_length=1, max_length=20)
    modifiers: list[Short] = Field(default_factory=list, max_length=4)
    objective_hex: str | None = Field(default=None, min_length=1, max_length=20)
    rgs: list[RGItem] | None = Field(default=None, max_length=MAX_ITEMS)
    secret: bool = Field(default=True, description="8.619: purchases may be kept secret")

    @model_validator(mode="after")
    def one_form(self) -> Self:
        single = self.rg is not None
        extras = (
            self.cpp is not None
            or self.map_group is not None
            or bool(self.modifiers)
            or self.objective_hex is not None
        )
        if single == (self.rgs is not None):
            raise ValueError("give either rg (one RG) or rgs (a batch)")
        if not single and extras:
            raise ValueError(
                "cpp, map_group, modifiers and objective_hex go with rg; in a batch, on each item"
            )
        return self

    def items(self) -> list[RGItem]:
        if self.rgs is not None:
            return list(self.rgs)
        assert self.rg is not None
        return [
            RGItem(
                rg=self.rg,
                cpp=self.cpp,
                map_group=self.map_group,
                modifiers=self.modifiers,
                objective_hex=self.objective_hex,
            )
        ]


class StatedDrm(Body):
    """A DRM the roller states (see the table's ``drms``), e.g. 8.6206's
    "+1 If the current CG Date is or/…", which the seed cuts."""

    id: str = Field(min_length=1, max_length=60)
    count: StrictInt | None = Field(default=None, ge=0, le=100)
    value: StrictInt | None = Field(default=None, ge=-100, le=100)
    note: str | None = Field(default=None, max_length=200)


class StatedFor(Body):
    """DRMs the roller states for one roll of a sealed batch (``secret``)."""

    for_purchase: StrictInt = Field(ge=1, le=2**53, description="the purchase event's seq")
    item: StrictInt = Field(default=0, ge=0, le=MAX_ITEMS)
    table: str | None = Field(
        default=None, min_length=1, max_length=60, description="the roll's table; any if left out"
    )
    drm: list[StatedDrm] = Field(max_length=10)


class DeterminationCreate(Body):
    """A roll that determines an RG on the RG Purchase Record (8.6201-8.6206,
    9.6181-9.6184). The ledger knows which rolls each RG needs and applies the
    DRMs its record decides (Depleted, Elite, V/G-type, British)."""

    side: str | None = Field(default=None, max_length=40)
    for_purchase: StrictInt | None = Field(
        default=None,
        ge=1,
        le=2**53,
        description="the seq of the purchase (RGPurchased) event; left out: the first RG of "
        "the CG Date that still needs a roll",
    )
    item: StrictInt | None = Field(
        default=None,
        ge=0,
        le=MAX_ITEMS,
        description="the RG's place in that purchase (0 first); needed if it bought several",
    )
    table: str | None = Field(
        default=None,
        min_length=1,
        max_length=60,
        description="the table to roll on; defaults to the next roll the RG needs",
    )
    drm: list[StatedDrm] = Field(default_factory=list, max_length=10)
    client_nonce: str | None = Nonce
    secret: bool | None = Field(
        default=None,
        description="true: one sealed record of every secret roll the side's RG need in its "
        "next determination step (DESIGN §2a), empty if none; left out: the roll named, "
        "sealed with the others where it is secret",
    )
    stated: list[StatedFor] = Field(
        default_factory=list,
        max_length=MAX_ITEMS,
        description="with secret: the DRMs the roller states, per roll of the batch",
    )


class FortItem(Body):
    type: str = Field(min_length=1, max_length=30, examples=["at-mine-factor"])
    count: StrictInt = Field(ge=1, le=1000)


class FortificationPurchaseCreate(Body):
    """8.621: Fortifications bought with the FPP granted in 8.619."""

    # Stated in the JSON Schema: none bought is a purchase only when secret.
    model_config = ConfigDict(json_schema_extra={"anyOf": [_some("items"), _SECRET]})

    side: str | None = Field(default=None, max_length=40)
    items: list[FortItem] = Field(max_length=MAX_ITEMS)
    secret: bool = Field(default=True, description="kept on the side's own CG Roster")


class FortLocation(Body):
    type: str = Field(min_length=1, max_length=30)
    hex: str = Field(min_length=1, max_length=20)
    level: StrictInt = Field(default=0, ge=-9, le=99)
    count: StrictInt = Field(
        default=1, ge=1, le=1000, description="items of this type here (a minefield's factors)"
    )


_Retained = dict[
    Annotated[str, StringConstraints(min_length=1, max_length=10)],
    Annotated[StrictInt, Field(ge=0, le=1000)],
]
_RETAINED = (
    "8.621 footnote S: the squad-equivalents Retained in each of the side's "
    "Setup Areas the items go to, by area id (e.g. {'A': 4})"
)


class FortificationGroupSetup(Body):
    """The setup Locations of one more map group, in the same sealed record."""

    map_group: str = Field(min_length=1, max_length=20)
    items: list[FortLocation] = Field(min_length=1, max_length=200)
    retained: _Retained = Field(default_factory=dict, max_length=100, description=_RETAINED)


class FortificationSetupCreate(Body):
    """8.6242: "Record the hex coordinates of new Fortification setup
    Locations"; secret until 8.6073 or the owner reveals them. One request
    holds every map group's Locations (``more``), and may hold none (an empty
    sealed record): one record per side and step, whatever it holds (DESIGN §4)."""

    side: str | None = Field(default=None, max_length=40)
    map_group: str | None = Field(default=None, min_length=1, max_length=20)
    items: list[FortLocation] = Field(
        default_factory=list,
        max_length=200,
        description="the Locations in map_group; none for an empty record",
    )
    retained: _Retained = Field(default_factory=dict, max_length=100, description=_RETAINED)
    more: list[FortificationGroupSetup] = Field(
        default_factory=list,
        max_length=20,
        description="the Locations in further map groups, each named once, in the same record",
    )


class HiddenFortificationCreate(Body):
    """8.6073: each still-hidden Fortification within a Setup Area of the
    purchaser's opponent is placed on-map."""

    map_group: str | None = Field(default=None, min_length=1, max_length=20)
