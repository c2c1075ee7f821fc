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


#: A JSON Schema ``pattern``: text with a character that is not whitespace as
#: Python's ``str.strip`` counts it, the domain's test of a blank text
#: (``cgledger.domain.campaign.core.text``). Spelt out, for ECMA-262's ``\s``
#: differs from Python's.
NOT_BLANK = r"[^\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
#: The ``json_schema_extra`` of a free text that the domain refuses when blank.
TEXT: dict[str, Any] = {"pattern": NOT_BLANK}
