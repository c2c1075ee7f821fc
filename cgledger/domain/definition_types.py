"""The building blocks of the CG definition models (DESIGN §7): the limits
that keep a definition small, the id patterns and constrained types, the side
type variable, the strict base model and the way a cross-field check reports
its problems."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

# ------------------------------------------------------------------ limits

#: Upper bounds that keep a definition (and the events that record it) small.
MAX_CPP = 10_000
MAX_COUNT = 1_000
MAX_LVP = 1_000
MAX_COORD = 10_000
MIN_LEVEL, MAX_LEVEL = -9, 99
MAX_HEXES = 20_000
MAX_MAP_GROUPS = 50
MAX_RG_PER_SIDE = 500
MAX_AREAS = 200

#: Ids of map groups, hexes, Entry Areas and Blocks: "St", "J19", "StGG1", "US-N", "C".
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:/+-]*$"
#: 8.6191, 9.6171: an RG's alphanumeric ID, e.g. "I2", "V3", "HW1", "G4a".
RG_ID_PATTERN = r"^[A-Z]{1,3}[0-9]{1,2}[a-z]?$"
#: A side id as a ruleset names it: "US", "German", "British", "American".
SIDE_PATTERN = r"^[A-Za-z][A-Za-z .-]*$"

Id = Annotated[str, StringConstraints(min_length=1, max_length=20, pattern=ID_PATTERN)]
HexId = Id
RGId = Annotated[str, StringConstraints(min_length=2, max_length=20, pattern=RG_ID_PATTERN)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=200)]
#: An RG chart footnote, as the chart prints it ("l", "a", "s", "m4").
Footnote = Annotated[
    str, StringConstraints(min_length=1, max_length=3, pattern=r"^[A-Za-z0-9]{1,3}$")
]
Title = Annotated[str, StringConstraints(max_length=200)]
Notes = Annotated[str, StringConstraints(max_length=2000)]
RGNotes = Annotated[str, StringConstraints(max_length=500)]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
Limit = Annotated[int, Field(ge=1, le=MAX_COUNT)]
Coord = Annotated[int, Field(ge=-MAX_COORD, le=MAX_COORD)]
Level = Annotated[int, Field(ge=MIN_LEVEL, le=MAX_LEVEL)]

#: The side type of the generic models; :func:`definition_model` binds it to
#: ``Literal[<the ruleset's sides>]``.
SideT = TypeVar("SideT", bound=str)

Loc = tuple[int | str, ...]
#: One error found by a cross-field check: (loc, error type, message, input).
Problem = tuple[Loc, str, str, Any]


def raise_problems(title: str, problems: Sequence[Problem]) -> None:
    """Raise one ``ValidationError`` holding every problem, each with its own
    ``loc`` (relative to the model whose validator calls this; pydantic
    prefixes the path to that model)."""
    if not problems:
        return
    raise ValidationError.from_exception_data(
        title,
        [
            InitErrorDetails(
                type=PydanticCustomError(kind, "{reason}", {"reason": message}),
                loc=loc,
                input=value,
            )
            for loc, kind, message, value in problems
        ],
    )


class StrictModel(BaseModel):
    """Strict (no "3" for 3, no ``true`` for 1), closed (an unknown field is an
    error) and immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    @classmethod
    def model_parametrized_name(cls, params: tuple[Any, ...]) -> str:
        # "MapGroup", not "MapGroup[Literal['US', 'German']]", in schemas.
        del params
        return cls.__name__
