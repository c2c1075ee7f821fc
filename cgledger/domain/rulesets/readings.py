"""Readings as agreed data (DESIGN §14): where the OCR'd seed text is cut, or
contradicts its own example, the ledger's choice is a :class:`Reading` that a
playing group sees (``GET /v1/rulesets/{r}/readings``) and changes by
agreement: a CG definition's ``readings: {"<id>": "<choice>"}`` selects one,
an id left out takes its default, and an amendment (DESIGN §7) changes it
from that event on.

A rule that follows a reading reads the choice in force: a counted DRM or a
table rule from ``Facts.readings``, other code (purchasing, the RePh markers)
from the campaign's ``readings()``. Each default is the reading the ledger
took before readings were data, so nothing recorded changes meaning.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

#: How a reading id and a choice are spelled (``definitions.ReadingKey``):
#: letters, digits and hyphens, no dot (``readings.<id>`` names it in an
#: error's field path).
ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,59}$")


@dataclass(frozen=True)
class Reading:
    """One reading (DESIGN §14).

    ``id``: how a definition names it; ``rule``: the rule it reads; ``text``:
    the seed's words, quoted; ``choices``: each choice and what it means;
    ``default``: the choice the ledger takes when the definition names none;
    ``why``: why that default."""

    id: str
    rule: str
    text: str
    choices: Mapping[str, str]
    default: str
    why: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "choices", MappingProxyType(dict(self.choices)))
        if len(self.choices) < 2:
            raise ValueError(f"reading {self.id}: a reading needs two choices at least")
        if self.default not in self.choices:
            raise ValueError(f"reading {self.id}: its default {self.default!r} is no choice")
        for name in (self.id, *self.choices):
            if not ID_PATTERN.match(name):
                raise ValueError(f"reading {self.id}: {name!r} is no reading id or choice")
        if not (self.text and self.why and self.rule):
            raise ValueError(f"reading {self.id}: rule, text and why are required")

    def chosen(self, readings: Mapping[str, str]) -> str:
        """Its choice among the ``readings`` in force (its default if they name none)."""
        found = readings.get(self.id, self.default)
        return found if found in self.choices else self.default

    def describe(self) -> dict[str, Any]:
        """As ``GET /v1/rulesets/{r}/readings`` lists it."""
        return {
            "id": self.id,
            "rule": self.rule,
            "text": self.text,
            "choices": dict(self.choices),
            "default": self.default,
            "why": self.why,
        }


def check(readings: Iterable[Reading]) -> tuple[Reading, ...]:
    """``readings`` as a tuple, with distinct ids (a ruleset's, at build)."""
    out = tuple(readings)
    seen: set[str] = set()
    for reading in out:
        if reading.id in seen:
            raise ValueError(f"reading {reading.id!r} is listed twice")
        seen.add(reading.id)
    return out


def in_force(readings: Iterable[Reading], chosen: Mapping[str, str] | None) -> dict[str, str]:
    """Every reading's choice: the definition's where it names one, else the
    default. An unknown id or choice (a definition that was never validated
    against these readings) is ignored: the default stands."""
    return {reading.id: reading.chosen(chosen or {}) for reading in readings}
