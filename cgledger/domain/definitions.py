"""CG definitions (DESIGN §7, §9, §10, a CONTRACT): the common models, JSON
Merge Patch (RFC 7396) and the definition hash. Pure data and validation: no
ruleset is named here, and nothing here touches the ledger or the API.

A definition holds what the rule texts leave to each CG's chart pages: the
Attack-Chit limits (8.6231, 9.62131), the RG charts (8.619-8.6196,
9.617-9.6176) and the Map Groups with their Strategic Locations, LVP and
Entry Areas (8.603, 8.605; 9.605).

The common models are generic in the side type. A ruleset binds them to its
sides with :func:`definition_model`, which parametrises the model with
``Literal[<sides>]``: an unknown side anywhere (``attack_chits`` and
``rg_chart`` keys, an Entry Area's ``side``, ``hq`` keys, ``initial_control``
values) is then a pydantic error whose ``loc`` names the field, and the JSON
Schema lists the sides as an ``enum``. Checks that span fields (duplicate ids,
a hex that is not in its Map Group) raise errors with the same kind of ``loc``
(e.g. ``("map_groups", 0, "entry_areas", 1, "hexes", 3)``).

A ruleset adds its own fields by subclassing the generic models, keeping them
generic in ``SideT`` (see ``cgledger/domain/rulesets/kgp/definition.py``).

The limits, id patterns, constrained types and the strict base model are in
:mod:`cgledger.domain.definition_types`, the Map Group models (§9) in
:mod:`cgledger.domain.definition_maps`; this module holds the RG chart and the
definition itself, and names them all.
"""

from __future__ import annotations

import copy
import hashlib
import re
from collections.abc import Mapping, Sequence
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    Generic,
    Literal,
    Self,
    TypeVar,
    cast,
    overload,
)

from pydantic import Field, StringConstraints, model_validator

from cgledger.domain import hexes
from cgledger.domain.definition_maps import EntryArea, Hex, MapGroup
from cgledger.domain.definition_types import (
    ID_PATTERN,
    MAX_AREAS,
    MAX_COORD,
    MAX_COUNT,
    MAX_CPP,
    MAX_HEXES,
    MAX_LEVEL,
    MAX_LVP,
    MAX_MAP_GROUPS,
    MAX_RG_PER_SIDE,
    MIN_LEVEL,
    RG_ID_PATTERN,
    SIDE_PATTERN,
    Count,
    Footnote,
    HexId,
    Id,
    Limit,
    Name,
    Notes,
    Problem,
    RGId,
    RGNotes,
    SideT,
    StrictModel,
    Title,
    raise_problems,
)
from cgledger.domain.dice import canon

if TYPE_CHECKING:  # the rulesets package imports this module
    from cgledger.domain.rulesets.readings import Reading

__all__ = [
    "ID_PATTERN",
    "MAX_AREAS",
    "MAX_COORD",
    "MAX_COUNT",
    "MAX_CPP",
    "MAX_HEXES",
    "MAX_LEVEL",
    "MAX_LVP",
    "MAX_MAP_GROUPS",
    "MAX_RG_PER_SIDE",
    "MIN_LEVEL",
    "RG_ID_PATTERN",
    "SIDE_PATTERN",
    "CGDefinition",
    "Count",
    "EntryArea",
    "Hex",
    "HexId",
    "Id",
    "Limit",
    "MapGroup",
    "Name",
    "Notes",
    "Problem",
    "RGEntry",
    "RGId",
    "SideT",
    "StrictModel",
    "Title",
    "asl_axial",
    "definition_hash",
    "definition_model",
    "hex_entry",
    "merge_patch",
    "raise_problems",
]

# ------------------------------------------------------------------ RG chart


class RGEntry(StrictModel):
    """One line of a side's RG chart (8.619, 9.617).

    The limits are checked when an RG is purchased: ``per_date_max`` per CG
    Date (8.6195: per CG Date *per Map Group*; 9.6175), ``cg_max`` per
    CG (8.6196, 9.6176; RG given in an Initial-Scenario OB don't
    count). ``null`` means no limit. ``fpp``: the RG grants that many
    Fortification Purchase Points instead of units (8.619/8.621, 9.619).
    """

    id: RGId = Field(description="8.6191/9.6171 ID, e.g. I2, V3, HW1")
    name: Name = Field(description="8.6192/9.6172 Group Type, e.g. 'SS Inf Pltn'")
    cpp: Annotated[int, Field(ge=0, le=MAX_CPP)] = Field(
        description="8.6194/9.6173 CPP cost (3.4: Purchase Points)"
    )
    per_date_max: Limit | None = Field(
        default=None, description="8.6195/9.6175 CG Date max (null: no limit)"
    )
    cg_max: Limit | None = Field(default=None, description="8.6196/9.6176 CG max (null: no limit)")
    fpp: Annotated[int, Field(ge=1, le=MAX_CPP)] | None = Field(
        default=None, description="FPP granted instead of units (8.619, 8.621)"
    )
    notes: RGNotes = Field(default="", description="chart footnotes (9.6177)")
    footnotes: Annotated[list[Footnote], Field(max_length=10)] = Field(
        default_factory=list,
        description="the chart's footnote letters that trigger rolls, e.g. 'l' (a leader DR, "
        "8.6206), 'a' (an armor leader DR, 8.6206)",
    )
    unit_type: Annotated[str, StringConstraints(max_length=60)] = Field(
        default="", description="8.6193/9.6174 the Unit Type the RG receives, e.g. '6-5-8'"
    )
    units: Annotated[list[Annotated[int, Field(ge=0, le=MAX_COUNT)]], Field(max_length=2)] = Field(
        default_factory=list,
        description="8.6193/9.6174 units received [Full] or [Full, Depleted]",
    )
    sw: Annotated[list[Name], Field(max_length=20)] = Field(
        default_factory=list,
        description="8.6204/9.6182: the SW a Full-Strength platoon of this RG receives, one "
        "entry per weapon, as its Infantry-Type-Platoon SW Chart lists them (a Depleted one "
        "makes a dr for each)",
    )
    equipment: Annotated[list[Name], Field(max_length=20)] = Field(
        default_factory=list,
        description="8.6205: the Equipment a Full-Strength HW Pltn receives, one entry per "
        "piece (a Depleted one makes a dr for each)",
    )

    @property
    def key(self) -> str:
        """How purchases name this entry; unique within a side's chart."""
        return self.id


class ObRG(StrictModel):
    """RG given in the Initial-Scenario OB (8.6196, 9.6178): they never count
    against the CG maximum, yet have their lines on the RG Purchase Record and
    their determination rolls (8.6201-8.6206: "as well as for each such RG he
    receives in an Initial-Scenario OB")."""

    rg: Annotated[str, StringConstraints(min_length=2, max_length=30)] = Field(
        description="the chart entry's key (its ID; 9.6178: 'I1(K)' for a German KG's RG)"
    )
    count: Annotated[int, Field(ge=1, le=50)] = 1
    map_group: Id | None = None


# ------------------------------------------------------------------ definition

#: A reading id or choice (DESIGN §14; ``cgledger.domain.rulesets.readings``).
ReadingKey = Annotated[
    str, StringConstraints(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9][A-Za-z0-9-]*$")
]


class CGDefinition(StrictModel, Generic[SideT]):
    """The common part of a CG definition (DESIGN §7). Bind it to a ruleset's
    sides with :func:`definition_model`.

    Class variables a ruleset may set (they are not fields):
    ``SIDES`` (set by :func:`definition_model`); ``PURCHASING_SIDES``, the
    sides that may have an RG chart (``None``: every side);
    ``RG_DATE_MAX_PER_MAP_GROUP``, whether ``per_date_max`` counts per CG Date
    and Map Group (8.6195) rather than per CG Date (9.6175).
    """

    SIDES: ClassVar[tuple[str, ...]] = ()
    PURCHASING_SIDES: ClassVar[tuple[str, ...] | None] = None
    #: The optional rules a CG definition may adopt (``optional_rules``).
    OPTIONAL_RULES: ClassVar[tuple[str, ...]] = ()
    RG_DATE_MAX_PER_MAP_GROUP: ClassVar[bool] = False
    #: The readings a CG definition may select (``readings``, DESIGN §14): the
    #: ruleset's ``Ruleset.readings``.
    READINGS: ClassVar[tuple[Reading, ...]] = ()

    sample: bool = Field(
        default=False, description="synthetic data (the ruleset's sample), not a real CG"
    )
    title: Title = ""
    notes: Notes = ""
    optional_rules: Annotated[Sequence[Id], Field(max_length=20)] = Field(
        default_factory=list,
        description="optional rules the players adopt by mutual consent, by rule number "
        "(e.g. 8.6171 Random Weather); the opponent consents by playing the campaign, or by "
        "approving the amendment that adds one",
    )
    attack_chits: Mapping[SideT, Count] = Field(
        default_factory=dict,
        description="8.6231/9.62131: the most Attack Chits a side may select in the CG; "
        "a side left out has no limit",
    )
    rg_chart: Mapping[SideT, Annotated[Sequence[RGEntry], Field(max_length=MAX_RG_PER_SIDE)]] = (
        Field(default_factory=dict, description="each side's RG chart (8.619, 9.617)")
    )
    map_groups: Annotated[Sequence[MapGroup[SideT]], Field(max_length=MAX_MAP_GROUPS)] = Field(
        default_factory=list, description="DESIGN §9"
    )
    initial_ob: Mapping[SideT, Annotated[Sequence[ObRG], Field(max_length=100)]] = Field(
        default_factory=dict,
        description="RG given in the Initial-Scenario OB (8.6196, 9.6178): on the RG Purchase "
        "Record, never counted against the CG maximum",
    )
    readings: Annotated[Mapping[ReadingKey, ReadingKey], Field(max_length=50)] = Field(
        default_factory=dict,
        description="DESIGN §14: where the seed text is cut or contradicts its example, the "
        'reading the players agree, by reading id: {"<id>": "<choice>"} (GET '
        "/v1/rulesets/{r}/readings lists each with its choices and default); an id left out "
        "takes its default. Amended like any field, so a read with ?at= uses the readings in "
        "force at that event",
    )

    def _reading_problems(self) -> list[Problem]:
        """DESIGN §14: an unknown reading id, or a choice the reading does not
        offer, names ``readings.<id>``."""
        known = {r.id: r for r in type(self).READINGS}
        out: list[Problem] = []
        for rid, choice in self.readings.items():
            found = known.get(rid)
            if found is None:
                listed = ", ".join(known) or "it has none"
                why = f"no reading {rid!r} in this ruleset ({listed})"
                out.append((("readings", rid), "unknown_reading", why, rid))
            elif choice not in found.choices:
                listed = ", ".join(found.choices)
                why = f"{found.rule}: {choice!r} is no choice of reading {rid!r} ({listed})"
                out.append((("readings", rid), "unknown_choice", why, choice))
        return out

    def rg_entry(self, side: str, key: str) -> RGEntry | None:
        """The chart entry a purchase names (``RGEntry.key``), or ``None``."""
        for entry in self.rg_chart.get(cast(SideT, side), ()):
            if entry.key == key:
                return entry
        return None

    def map_group(self, group_id: str) -> MapGroup[SideT] | None:
        for group in self.map_groups:
            if group.id == group_id:
                return group
        return None

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        problems: list[Problem] = []
        known = type(self).OPTIONAL_RULES
        for i, rule in enumerate(self.optional_rules):
            if rule not in known:
                problems.append(
                    (
                        ("optional_rules", i),
                        "unknown_optional_rule",
                        f"{rule!r} is no optional rule of this ruleset "
                        f"({', '.join(known) or 'it has none'})",
                        rule,
                    )
                )
        problems += self._reading_problems()
        allowed = type(self).PURCHASING_SIDES
        for side, entries in self.rg_chart.items():
            if allowed is not None and side not in allowed and entries:
                problems.append(
                    (
                        ("rg_chart", side),
                        "no_purchases",
                        f"{side} purchases no RG here; only {', '.join(allowed)} has an RG chart",
                        side,
                    )
                )
            first: dict[str, int] = {}
            for i, entry in enumerate(entries):
                if entry.key in first:
                    problems.append(
                        (
                            ("rg_chart", side, i, "id"),
                            "duplicate_id",
                            f"8.6191: RG {entry.key!r} is listed twice in the {side} chart "
                            f"(also rg_chart.{side}.{first[entry.key]})",
                            entry.id,
                        )
                    )
                else:
                    first[entry.key] = i
        for side, given in self.initial_ob.items():
            for i, ob in enumerate(given):
                if self.rg_entry(side, ob.rg) is None:
                    problems.append(
                        (
                            ("initial_ob", side, i, "rg"),
                            "unknown_rg",
                            f"{ob.rg!r} is not in the {side} RG chart",
                            ob.rg,
                        )
                    )
                if ob.map_group is not None and self.map_group(ob.map_group) is None:
                    problems.append(
                        (
                            ("initial_ob", side, i, "map_group"),
                            "unknown_map_group",
                            f"no map group {ob.map_group!r}",
                            ob.map_group,
                        )
                    )
        groups: dict[str, int] = {}
        for i, group in enumerate(self.map_groups):
            if group.id in groups:
                problems.append(
                    (
                        ("map_groups", i, "id"),
                        "duplicate_id",
                        f"map group {group.id!r} is listed twice "
                        f"(also map_groups.{groups[group.id]})",
                        group.id,
                    )
                )
            else:
                groups[group.id] = i
        raise_problems(type(self).__name__, problems)
        return self


DefT = TypeVar("DefT", bound=CGDefinition[Any])


@overload
def definition_model(
    sides: Sequence[str], *, name: str | None = None
) -> type[CGDefinition[Any]]: ...


@overload
def definition_model(
    sides: Sequence[str], base: type[DefT], *, name: str | None = None
) -> type[DefT]: ...


def definition_model(
    sides: Sequence[str],
    base: type[CGDefinition[Any]] = CGDefinition,
    *,
    name: str | None = None,
) -> type[CGDefinition[Any]]:
    """``base`` (a generic :class:`CGDefinition` subclass) bound to ``sides``:
    every side-typed field accepts exactly these sides. The class has
    ``SIDES == tuple(sides)``."""
    sides = tuple(sides)
    if not sides or len(set(sides)) != len(sides):
        raise ValueError(f"sides must be distinct and at least one: {sides!r}")
    for side in sides:
        if len(side) > 20 or not re.match(SIDE_PATTERN, side):
            raise ValueError(f"bad side id {side!r}")
    side_type = cast(Any, Literal)[sides]
    bound = cast(Any, base)[side_type]
    namespace = {
        "__module__": base.__module__,
        "__qualname__": name or base.__name__,
        "__doc__": base.__doc__,
        "SIDES": sides,
    }
    return cast("type[CGDefinition[Any]]", type(name or base.__name__, (bound,), namespace))


# ------------------------------------------------------------------ helpers

_ASL_HEX = re.compile(r"^([A-Z])(\1?)([0-9]{1,2})$")


def asl_axial(hex_id: str) -> tuple[int, int]:
    """Axial ``(q, r)`` of a plain ASL board hex id ("A1", "B0", "J19", "GG10"):
    :func:`cgledger.domain.hexes.to_axial` restricted to one board's ids (no
    board number, rows up to 99). Map-group prefixes and board offsets are for
    the caller to add."""
    if _ASL_HEX.match(hex_id) is None:
        raise ValueError(f"{hex_id!r} is not a plain ASL hex id (e.g. 'J19', 'GG1')")
    return hexes.to_axial(hex_id)


def hex_entry(hex_id: str, **fields: Any) -> dict[str, Any]:
    """A §9 hex dict for a plain ASL hex id, with its axial coordinates."""
    q, r = asl_axial(hex_id)
    return {"hex": hex_id, "q": q, "r": r, **fields}


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7396 JSON Merge Patch: ``patch`` applied to ``target``.

    Pure: returns a new document and never mutates (or shares structure with)
    either argument. A member set to ``null`` is removed; an object merges into
    an object; anything else (arrays included) replaces the target.
    """
    if not isinstance(patch, Mapping):
        return copy.deepcopy(patch)
    out: dict[str, Any] = (
        {k: copy.deepcopy(v) for k, v in target.items()} if isinstance(target, Mapping) else {}
    )
    for name, value in patch.items():
        if value is None:
            out.pop(name, None)
        else:
            out[name] = merge_patch(out.get(name), value)
    return out


def definition_hash(doc: dict[str, Any]) -> str:
    """DESIGN §7: sha256 hex digest of ``canon(doc)`` (DESIGN §2)."""
    return hashlib.sha256(canon(doc)).hexdigest()
