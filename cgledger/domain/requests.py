"""The base of every request body model, in the engine and in the rulesets.
Unknown fields are refused, so a typo names its field; strict types, so "3"
is not 3 and true is not 1 (a roll index, once used, is gone)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

#: A client's nonce for the dice protocol (DESIGN §2).
Nonce: Any = Field(default=None, min_length=1, max_length=200)


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
