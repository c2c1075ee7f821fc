"""How an endpoint method is declared, and the keyword arguments the
endpoint methods share.

An endpoint method is declared by its signature (:func:`route`): the
parameters that the route's path names fill it, the others are the query (a
GET) or the JSON body (a POST; see ``json_body``), the keyword options
(:class:`Read`, :class:`Write`) name the campaign, ``If-Match`` and the
``Idempotency-Key``, and the answer is read as the return type says. Where
that rule does not fit, the method builds its call's
:class:`~cgledger.client._calls.Spec` itself (:func:`built`).

The :class:`endpoint` descriptor hands the call to the client it is read
from: ``Client.roll(...)`` returns a ``RollView``, ``AsyncClient.roll(...)`` a
coroutine of one. mypy sees both signatures (the descriptor's ``__get__``
overloads).
"""

from __future__ import annotations

import functools
import inspect
import re
import typing
from collections.abc import Callable, Coroutine, Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    Concatenate,
    Generic,
    ParamSpec,
    Required,
    TypedDict,
    TypeVar,
    overload,
)

from cgledger.client._calls import (
    Call,
    Parse,
    Spec,
    content,
    json_body,
    json_object,
    list_of,
    model,
    text,
)

if TYPE_CHECKING:
    from cgledger.client._async import AsyncClient
    from cgledger.client._base import Base
    from cgledger.client._sync import Client

P = ParamSpec("P")
T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

#: The routes of one campaign.
C = "/v1/campaigns/{campaign_id}"

#: An endpoint method as declared: its signature says the call (the client, unused, first).
Declared = Callable[Concatenate[Any, P], T]
#: An endpoint method that builds its call itself.
Build = Callable[Concatenate[Any, P], Spec[T]]


class Options(TypedDict, total=False):
    """A client's options, besides its server, token and transport."""

    #: The campaign the endpoint methods act on unless given ``campaign=``.
    campaign: str | None
    #: Seconds for each request (the live feed reads for longer).
    timeout: float
    #: How many times a call is tried again (transport errors, 429/502/503/504)
    #: and how many times in a row the live feed reconnects.
    retries: int
    #: The first wait between tries, in seconds (doubled each time, jittered).
    backoff: float
    #: The longest wait; a ``Retry-After`` beyond it is not waited for.
    max_wait: float


class Read(TypedDict, total=False):
    #: The campaign id; default: the client's ``campaign``.
    campaign: str | None


class Write(TypedDict, total=False):
    #: The campaign id; default: the client's ``campaign``.
    campaign: str | None
    #: ``True``: the version of the client's last read of the campaign; an
    #: int: that version. A stale one is refused (``Conflict``, nothing appended).
    if_match: int | bool | None
    #: Default: a fresh uuid4 for the call, kept over its retries.
    idempotency_key: str | None


class EventFilters(TypedDict, total=False):
    #: Event types, e.g. ``"DiceRolled"`` or ``["DiceRolled", "TableRolled"]``.
    event_type: str | Sequence[str] | None
    #: The role that acted.
    actor: str | None
    #: A table id.
    table: str | None
    #: A CG Date.
    date: str | None
    #: ``False``: leave out reverted events.
    reverted: bool | None
    campaign: str | None


class Drm(TypedDict, total=False):
    """A DRM named by the roller: its id from the table's ``drms``, with a
    ``count`` (per-count DRM) or a ``value`` (valued DRM, or ``"other"`` with
    a ``note``)."""

    id: Required[str]
    count: int
    value: int
    note: str


class endpoint(Generic[P, T]):
    """An endpoint method: ``method route`` of the API."""

    def __init__(
        self, method: str, route: str, declared: Callable[..., Any], build: Build[P, T]
    ) -> None:
        self.method = method
        self.route = route
        self.declared = declared
        self.build = build
        self.auth = route.startswith(C)
        self.__doc__ = declared.__doc__
        self.__name__ = declared.__name__
        sig = inspect.signature(declared)
        self.signature = sig.replace(parameters=list(sig.parameters.values())[1:])

    def call(self, obj: Any, *args: P.args, **kwargs: P.kwargs) -> Call[T]:
        return Call(self.method, self.route, self.build(obj, *args, **kwargs), auth=self.auth)

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> endpoint[P, T]: ...
    @overload
    def __get__(self, obj: Client, owner: type[Any]) -> Callable[P, T]: ...
    @overload
    def __get__(
        self, obj: AsyncClient, owner: type[Any]
    ) -> Callable[P, Coroutine[Any, Any, T]]: ...
    def __get__(self, obj: Base[Any, Any] | None, owner: type[Any]) -> Any:
        if obj is None:
            return self
        bound = obj._bind(self)
        functools.update_wrapper(bound, self.declared)
        bound.__signature__ = self.signature
        return bound


def route(method: str, path: str) -> Callable[[Declared[P, T]], endpoint[P, T]]:
    """Declare an endpoint method by its signature (the rule above); its
    body is only its docstring."""

    def wrap(declared: Declared[P, T]) -> endpoint[P, T]:
        return endpoint(method, path, declared, _build(method, path, declared))

    return wrap


def built(method: str, path: str) -> Callable[[Build[P, T]], endpoint[P, T]]:
    """Declare an endpoint method whose body builds its call's ``Spec``."""

    def wrap(build: Build[P, T]) -> endpoint[P, T]:
        return endpoint(method, path, build, build)

    return wrap


def _reader(answer: Any) -> Parse[Any]:
    """How to read an answer of the type ``answer``."""
    if answer is bytes:
        return content
    if answer is str:
        return text
    if typing.get_origin(answer) is dict:
        return json_object
    if typing.get_origin(answer) is list:
        return list_of(typing.get_args(answer)[0])
    return model(answer)


def _build(method: str, path: str, declared: Callable[..., Any]) -> Build[..., Any]:
    """The call of a declared endpoint method, from its arguments."""
    sig = inspect.signature(declared)
    parse = _reader(typing.get_type_hints(declared)["return"])
    params = list(sig.parameters.values())[1:]  # after the client
    options = [p.name for p in params if p.kind is p.VAR_KEYWORD]
    in_path = [name for name in re.findall(r"{(\w+)}", path) if name != "campaign_id"]
    fields = [p.name for p in params if p.kind is not p.VAR_KEYWORD and p.name not in in_path]
    missing = set(in_path) - {p.name for p in params}
    if missing:
        raise TypeError(f"{declared.__name__} takes no {', '.join(sorted(missing))} of {path}")

    def build(obj: Any, *args: Any, **kwargs: Any) -> Spec[Any]:
        bound = sig.bind(obj, *args, **kwargs)
        bound.apply_defaults()
        given = bound.arguments
        where = {name: given[name] for name in in_path}
        values = {name: given[name] for name in fields}
        extra = given[options[0]] if options else {}
        if method == "GET":
            return Spec(parse, path=where, query=values, **extra)
        body = json_body(**values) if fields else None
        return Spec(parse, path=where, body=body, **extra)

    return build


def serves(method: str, path: str) -> Callable[[F], F]:
    """Mark a method that is not an :class:`endpoint` with the route it reads."""

    def mark(fn: F) -> F:
        fn.__cgledger_route__ = (method, path)  # type: ignore[attr-defined]
        return fn

    return mark
