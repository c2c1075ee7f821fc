"""What one call of the API is (:class:`Call`, :class:`Spec`) and how its
answer is read (the ``Parse`` functions): plain data, free of I/O."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import httpx2 as httpx
from pydantic import BaseModel, TypeAdapter

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

Parse = Callable[[httpx.Response], T]


# ------------------------------------------------------------------ reading answers


def model(cls: type[M]) -> Parse[M]:
    """Read the answer as ``cls`` (the server's own response model)."""
    return lambda response: cls.model_validate(response.json())


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def list_of(cls: type[M]) -> Parse[list[M]]:
    """Read the answer as a list of ``cls``."""
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(list[cls])  # type: ignore[valid-type]
    found = adapter

    def parse(response: httpx.Response) -> list[M]:
        items: list[M] = found.validate_python(response.json())
        return items

    return parse


def json_object(response: httpx.Response) -> dict[str, Any]:
    body = response.json()
    if not isinstance(body, dict):
        raise ValueError(f"expected a JSON object, got {type(body).__name__}")
    return body


def content(response: httpx.Response) -> bytes:
    return response.content


def text(response: httpx.Response) -> str:
    return response.text


# ------------------------------------------------------------------ calls


@dataclass(frozen=True)
class Spec(Generic[T]):
    """What an endpoint method makes of its arguments: the route's own
    parameters, query, body and how to read the answer."""

    parse: Parse[T]
    path: Mapping[str, str | int] = field(default_factory=dict)
    query: Mapping[str, Any] = field(default_factory=dict)
    #: The JSON body (see :func:`json_body`); ``None``: the request has none.
    body: Any = None
    #: A body that is not JSON (a CSV), sent as it is, with its media type.
    content: bytes | None = None
    content_type: str | None = None
    #: The campaign to act on; ``None``: the client's.
    campaign: str | None = None
    if_match: int | bool | None = None
    idempotency_key: str | None = None


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    route: str
    spec: Spec[T]
    auth: bool = True

    @property
    def on_campaign(self) -> bool:
        return "{campaign_id}" in self.route


def json_body(**fields: Any) -> dict[str, Any]:
    """A JSON body of ``fields``, without those left out (``None``); their
    mappings and sequences as JSON objects and arrays (a ``None`` inside them
    stays: e.g. a JSON Merge Patch's)."""
    return {k: _plain(v) for k, v in fields.items() if v is not None}


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return [_plain(v) for v in value]
    return value


Query = list[tuple[str, str | int | float | bool | None]]


def query_pairs(values: Mapping[str, Any]) -> Query:
    """A query string's pairs: a list value repeats its key, ``None`` is left
    out and a bool is ``true`` or ``false``."""
    out: Query = []
    for key, value in values.items():
        items = value if isinstance(value, list | tuple) else [value]
        for item in items:
            if item is None:
                continue
            word = ("true" if item else "false") if isinstance(item, bool) else str(item)
            out.append((key, word))
    return out
