"""Every endpoint of the REST API, written once for both clients.

An endpoint method builds a :class:`~cgledger.client._core.Spec` from its
arguments; the :class:`endpoint` descriptor pairs it with the route's method
and path and hands the call to the client it is read from: ``Client.roll(...)``
returns a ``RollView``, ``AsyncClient.roll(...)`` a coroutine of one. mypy
sees both signatures (the descriptor's ``__get__`` overloads).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    Concatenate,
    Generic,
    Literal,
    ParamSpec,
    Required,
    TypedDict,
    TypeVar,
    Unpack,
    overload,
)

import httpx2 as httpx

from cgledger.api.models import (
    ActionResult,
    AmendmentPage,
    AmendmentView,
    CampaignCreated,
    CampaignView,
    CGDateView,
    Checkpoint,
    ControlView,
    Definition,
    DefinitionView,
    DiceStats,
    DisputePage,
    DisputeView,
    EventItem,
    EventPage,
    Health,
    Index,
    InitiativePage,
    InitiativeView,
    LvpView,
    RePhView,
    RevealedEvent,
    RGRecordView,
    RollView,
    RosterView,
    RulesetInfo,
    ScenarioEndResult,
    ServerKey,
    SetupAreasView,
    StateView,
    TableInfo,
    TableRollView,
    UndoRequestPage,
    UndoRequestView,
)
from cgledger.client._core import (
    Call,
    Core,
    Plan,
    Spec,
    StreamItem,
    call_steps,
    content,
    drop_none,
    feed_steps,
    json_object,
    list_of,
    model,
    page_steps,
    text,
)

if TYPE_CHECKING:
    from cgledger.client._async import AsyncClient
    from cgledger.client._sync import Client

P = ParamSpec("P")
T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

C = "/v1/campaigns/{campaign_id}"


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
        self, method: str, route: str, build: Callable[Concatenate[Base, P], Spec[T]]
    ) -> None:
        self.method = method
        self.route = route
        self.build = build
        self.auth = route.startswith(C)
        self.__doc__ = build.__doc__
        self.__name__ = build.__name__
        sig = inspect.signature(build)
        self.signature = sig.replace(parameters=list(sig.parameters.values())[1:])

    def call(self, obj: Base, *args: P.args, **kwargs: P.kwargs) -> Call[T]:
        return Call(self.method, self.route, self.build(obj, *args, **kwargs), auth=self.auth)

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> endpoint[P, T]: ...
    @overload
    def __get__(self, obj: Client, owner: type[Any]) -> Callable[P, T]: ...
    @overload
    def __get__(
        self, obj: AsyncClient, owner: type[Any]
    ) -> Callable[P, Coroutine[Any, Any, T]]: ...
    def __get__(self, obj: Base | None, owner: type[Any]) -> Any:
        if obj is None:
            return self
        bound = obj._bind(self)
        functools.update_wrapper(bound, self.build)
        bound.__signature__ = self.signature
        return bound


def route(
    method: str, path: str
) -> Callable[[Callable[Concatenate[Base, P], Spec[T]]], endpoint[P, T]]:
    """Declare an endpoint method (its body builds the call's ``Spec``)."""

    def wrap(build: Callable[Concatenate[Base, P], Spec[T]]) -> endpoint[P, T]:
        return endpoint(method, path, build)

    return wrap


def serves(method: str, path: str) -> Callable[[F], F]:
    """Mark a method that is not an :class:`endpoint` with the route it reads."""

    def mark(fn: F) -> F:
        fn.__cgledger_route__ = (method, path)  # type: ignore[attr-defined]
        return fn

    return mark


def _body(parse: Callable[..., T], body: Mapping[str, Any], **w: Any) -> Spec[T]:
    return Spec(parse, body=dict(body), has_body=True, **w)


class Base:
    """The endpoint methods and the state both clients share."""

    _core: Core
    _http: httpx.Client | httpx.AsyncClient

    def _bind(self, ep: endpoint[Any, Any]) -> Any:
        raise NotImplementedError

    def _configure(self, token: str | None, options: Options) -> float:
        """Set up the shared state; the request timeout."""
        self._core = Core(
            token=token,
            campaign=options.get("campaign"),
            retries=options.get("retries", 3),
            backoff=options.get("backoff", 0.5),
            max_wait=options.get("max_wait", 60.0),
        )
        return options.get("timeout", 30.0)

    @property
    def campaign(self) -> str | None:
        """The campaign the client acts on by default."""
        return self._core.campaign

    @campaign.setter
    def campaign(self, value: str | None) -> None:
        self._core.campaign = value

    @property
    def token(self) -> str | None:
        return self._core.token

    @token.setter
    def token(self, value: str | None) -> None:
        self._core.token = value

    @property
    def last_response(self) -> Any:
        """The last answer (``httpx2.Response``), e.g. for ``Idempotent-Replayed``."""
        return self._core.last_response

    def version(self, campaign: str | None = None) -> int | None:
        """The campaign version of the client's last read (what ``if_match=True`` sends)."""
        return self._core.versions.get(self._core.campaign_id(campaign))

    # ---------------------------------------------------------------- service

    @route("GET", "/v1/health")
    def health(self) -> Spec[Health]:
        """The server's health, version and database (no token needed)."""
        return Spec(model(Health))

    @route("GET", "/")
    def index(self) -> Spec[Index]:
        """Where the service's pieces are."""
        return Spec(model(Index))

    @route("GET", "/v1/server-key")
    def server_key(self) -> Spec[ServerKey]:
        """The Ed25519 public key that signs every checkpoint."""
        return Spec(model(ServerKey))

    @route("GET", "/v1/rulesets")
    def rulesets(self) -> Spec[list[RulesetInfo]]:
        return Spec(list_of(RulesetInfo))

    @route("GET", "/v1/rulesets/{ruleset}/tables")
    def tables(self, ruleset: str) -> Spec[list[TableInfo]]:
        return Spec(list_of(TableInfo), path={"ruleset": ruleset})

    @route("GET", "/v1/rulesets/{ruleset}/tables/{table_id}")
    def table(self, ruleset: str, table_id: str) -> Spec[TableInfo]:
        return Spec(model(TableInfo), path={"ruleset": ruleset, "table_id": table_id})

    @route("GET", "/v1/rulesets/{ruleset}/definition-schema")
    def definition_schema(self, ruleset: str) -> Spec[dict[str, Any]]:
        """The JSON Schema of the ruleset's CG definitions."""
        return Spec(json_object, path={"ruleset": ruleset})

    @route("GET", "/v1/rulesets/{ruleset}/sample-definition")
    def sample_definition(self, ruleset: str) -> Spec[Definition]:
        return Spec(model(Definition), path={"ruleset": ruleset})

    # ---------------------------------------------------------------- campaigns

    @route("POST", "/v1/campaigns")
    def create_campaign(
        self,
        ruleset: str,
        name: str,
        *,
        title: str = "",
        start_date: str | None = None,
        initial_cpp: Mapping[str, int] | None = None,
        definition: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Spec[CampaignCreated]:
        """Create a campaign of ``ruleset`` (an id of ``rulesets()``) for the CG ``name``
        (the body's ``campaign``, e.g. ``"CG I"``). The answer holds each
        role's token, once."""
        body = drop_none(
            ruleset=ruleset,
            campaign=name,
            title=title,
            start_date=start_date,
            initial_cpp=None if initial_cpp is None else dict(initial_cpp),
            definition=None if definition is None else dict(definition),
        )
        return _body(model(CampaignCreated), body, idempotency_key=idempotency_key)

    @route("GET", C)
    def get_campaign(self, **r: Unpack[Read]) -> Spec[CampaignView]:
        return Spec(model(CampaignView), **r)

    @route("GET", C + "/state")
    def state(self, *, at: int | None = None, **r: Unpack[Read]) -> Spec[StateView]:
        return Spec(model(StateView), query={"at": at}, **r)

    @route("GET", C + "/checkpoint")
    def checkpoint(self, *, at: int | None = None, **r: Unpack[Read]) -> Spec[Checkpoint]:
        """The signed checkpoint of the log's head (or of event ``at``)."""
        return Spec(model(Checkpoint), query={"at": at}, **r)

    # ---------------------------------------------------------------- dice

    @route("POST", C + "/rolls")
    def roll(
        self,
        dice: int,
        purpose: str,
        *,
        secret: bool = False,
        client_nonce: str | None = None,
        **w: Unpack[Write],
    ) -> Spec[RollView]:
        """Roll 1 (dr) or 2 (DR) dice; ``secret`` hides them from the opponent."""
        body = drop_none(dice=dice, purpose=purpose, secret=secret, client_nonce=client_nonce)
        return _body(model(RollView), body, **w)

    @route("POST", C + "/tables/{table_id}/rolls")
    def roll_table(
        self,
        table_id: str,
        *,
        drm: Sequence[Drm] = (),
        inputs: Mapping[str, int | str] | None = None,
        secret: bool | None = None,
        client_nonce: str | None = None,
        **w: Unpack[Write],
    ) -> Spec[TableRollView]:
        """Roll on a rule table (an id of ``tables(ruleset)``) with named DRMs."""
        body = drop_none(
            drm=[dict(d) for d in drm],
            inputs=dict(inputs or {}),
            secret=secret,
            client_nonce=client_nonce,
        )
        path = {"table_id": table_id}
        return Spec(model(TableRollView), path=path, body=body, has_body=True, **w)

    @route("GET", C + "/rolls/{index}")
    def get_roll(self, index: int, **r: Unpack[Read]) -> Spec[RollView]:
        return Spec(model(RollView), path={"index": index}, **r)

    @route("POST", C + "/rolls/{index}/reveal")
    def reveal_roll(self, index: int, **w: Unpack[Write]) -> Spec[RollView]:
        """Publish the seed of one's own Secret roll."""
        return Spec(model(RollView), path={"index": index}, **w)

    @route("GET", C + "/dice-stats")
    def dice_stats(
        self,
        *,
        side: str | None = None,
        table: str | None = None,
        date: str | None = None,
        reverted: bool | None = None,
        at: int | None = None,
        **r: Unpack[Read],
    ) -> Spec[DiceStats]:
        query = {"side": side, "table": table, "date": date, "reverted": reverted, "at": at}
        return Spec(model(DiceStats), query=query, **r)

    # ---------------------------------------------------------------- events

    @route("GET", C + "/events")
    def events(
        self,
        *,
        after: int = 0,
        limit: int | None = None,
        before: int | None = None,
        **f: Unpack[EventFilters],
    ) -> Spec[EventPage]:
        """One page of the event log as the caller may see it (``next_after``
        pages on; ``iter_events`` reads them all); ``before`` ends the window
        below that seq, to page back from the newest end."""
        kinds = f.get("event_type")
        query = {
            "after": after,
            "limit": limit,
            "before": before,
            "type": [kinds] if isinstance(kinds, str) else kinds,
            "actor": f.get("actor"),
            "table": f.get("table"),
            "date": f.get("date"),
            "reverted": f.get("reverted"),
        }
        return Spec(model(EventPage), query=query, campaign=f.get("campaign"))

    @route("POST", C + "/events/{seq}/reveal")
    def reveal_event(self, seq: int, **w: Unpack[Write]) -> Spec[RevealedEvent]:
        """Reveal the secret part of one's own event (e.g. a secret purchase)."""
        return Spec(model(RevealedEvent), path={"seq": seq}, **w)

    @route("GET", C + "/export")
    def export(self, **r: Unpack[Read]) -> Spec[bytes]:
        """The JSONL export (``cgledger verify`` checks it), as bytes."""
        return Spec(content, **r)

    # ---------------------------------------------------------------- the Refit Phase

    @route("POST", C + "/cg-dates")
    def begin_cg_date(self, cg_date: str | None = None, **w: Unpack[Write]) -> Spec[CGDateView]:
        """8.6121: begin the next CG Date (``cg_date`` only past the calendar)."""
        return _body(model(CGDateView), drop_none(cg_date=cg_date), **w)

    @route("GET", C + "/reph")
    def reph(self, *, at: int | None = None, **r: Unpack[Read]) -> Spec[RePhView]:
        """The RePh sequence of the current CG Date, each side's step status."""
        return Spec(model(RePhView), query={"at": at}, **r)

    @route("POST", C + "/reph/advance")
    def advance(self, to: str, *, side: str | None = None, **w: Unpack[Write]) -> Spec[RePhView]:
        """Complete the side's steps up to ``to`` (a rule number, or ``"scenario"``)."""
        return _body(model(RePhView), drop_none(to=to, side=side), **w)

    @route("POST", C + "/initiative")
    def choose_initiative(
        self, chit: Literal["attack", "idle"], *, side: str | None = None, **w: Unpack[Write]
    ) -> Spec[InitiativeView]:
        return _body(model(InitiativeView), drop_none(chit=chit, side=side), **w)

    @route("GET", C + "/initiative")
    def initiative(
        self, *, cg_date: str | None = None, at: int | None = None, **r: Unpack[Read]
    ) -> Spec[InitiativePage]:
        return Spec(model(InitiativePage), query={"cg_date": cg_date, "at": at}, **r)

    @route("POST", C + "/scenario-end")
    def scenario_end(
        self,
        cvp: Mapping[str, int],
        *,
        control: Sequence[Mapping[str, Any]] | None = None,
        winner: str | None = None,
        vp: Mapping[str, int] | None = None,
        vp_required: int | None = None,
        **w: Unpack[Write],
    ) -> Spec[ScenarioEndResult]:
        """CG-Scenario End: the CVP each side earned (and, where the ruleset
        keeps VP, the VP scored and required: 2.91)."""
        body = drop_none(
            cvp=dict(cvp),
            control=None if control is None else [dict(c) for c in control],
            winner=winner,
            vp=None if vp is None else dict(vp),
            vp_required=vp_required,
        )
        return _body(model(ScenarioEndResult), body, **w)

    @route("GET", C + "/roster")
    def roster(
        self, side: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> Spec[RosterView]:
        """The side's CG Roster (default: the caller's side), as of ``at``."""
        return Spec(model(RosterView), query={"side": side, "at": at}, **r)

    @route("GET", C + "/rg-record")
    def rg_record(
        self, side: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> Spec[RGRecordView]:
        return Spec(model(RGRecordView), query={"side": side, "at": at}, **r)

    # The ruleset commands (POST /v1/campaigns/{id}/<action>); ``side`` is the
    # referee's to name.

    @route("POST", C + "/cpp-replenishments")
    def cpp_replenishment(
        self, *, side: str | None = None, client_nonce: str | None = None, **w: Unpack[Write]
    ) -> Spec[ActionResult]:
        return _body(model(ActionResult), drop_none(side=side, client_nonce=client_nonce), **w)

    @route("POST", C + "/rg-purchases")
    def rg_purchase(
        self,
        rg: str | None = None,
        *,
        cpp: int | None = None,
        map_group: str | None = None,
        modifiers: Sequence[str] | None = None,
        objective_hex: str | None = None,
        rgs: Sequence[Mapping[str, Any]] | None = None,
        secret: bool | None = None,
        side: str | None = None,
        **w: Unpack[Write],
    ) -> Spec[ActionResult]:
        """Buy an RG (``rg``), or a batch (``rgs``)."""
        body = drop_none(
            rg=rg,
            cpp=cpp,
            map_group=map_group,
            modifiers=None if modifiers is None else list(modifiers),
            objective_hex=objective_hex,
            rgs=None if rgs is None else [dict(x) for x in rgs],
            secret=secret,
            side=side,
        )
        return _body(model(ActionResult), body, **w)

    @route("POST", C + "/rg-determinations")
    def rg_determination(
        self,
        *,
        for_purchase: int | None = None,
        item: int | None = None,
        table: str | None = None,
        drm: Sequence[Drm] | None = None,
        client_nonce: str | None = None,
        side: str | None = None,
        **w: Unpack[Write],
    ) -> Spec[ActionResult]:
        """The next roll an RG needs (or the one on ``table``)."""
        body = drop_none(
            for_purchase=for_purchase,
            item=item,
            table=table,
            drm=None if drm is None else [dict(d) for d in drm],
            client_nonce=client_nonce,
            side=side,
        )
        return _body(model(ActionResult), body, **w)

    @route("POST", C + "/fortification-purchases")
    def fortification_purchase(
        self,
        items: Sequence[Mapping[str, Any]],
        *,
        secret: bool | None = None,
        side: str | None = None,
        **w: Unpack[Write],
    ) -> Spec[ActionResult]:
        """Spend FPP, e.g. ``[{"type": "at-mine-factor", "count": 4}]``."""
        body = drop_none(items=[dict(x) for x in items], secret=secret, side=side)
        return _body(model(ActionResult), body, **w)

    @route("POST", C + "/fortification-setups")
    def fortification_setup(
        self,
        items: Sequence[Mapping[str, Any]],
        *,
        map_group: str | None = None,
        retained: Mapping[str, Any] | None = None,
        side: str | None = None,
        **w: Unpack[Write],
    ) -> Spec[ActionResult]:
        """Record the (secret) setup Locations of Fortifications."""
        body = drop_none(
            items=[dict(x) for x in items],
            map_group=map_group,
            retained=None if retained is None else dict(retained),
            side=side,
        )
        return _body(model(ActionResult), body, **w)

    @route("POST", C + "/hidden-fortifications")
    def hidden_fortifications(
        self, *, map_group: str | None = None, **w: Unpack[Write]
    ) -> Spec[ActionResult]:
        """Place the opponent's still-hidden Fortifications in one's Setup Areas on-map."""
        return _body(model(ActionResult), drop_none(map_group=map_group), **w)

    @route("POST", C + "/recon")
    def recon(
        self,
        cpp: int,
        *,
        lax: bool | None = None,
        secret: bool | None = None,
        client_nonce: str | None = None,
        side: str | None = None,
        **w: Unpack[Write],
    ) -> Spec[ActionResult]:
        body = drop_none(cpp=cpp, lax=lax, secret=secret, client_nonce=client_nonce, side=side)
        return _body(model(ActionResult), body, **w)

    @route("POST", C + "/ammunition-shortage")
    def ammunition_shortage(
        self,
        *,
        scenarios_after_20_am: int | None = None,
        client_nonce: str | None = None,
        side: str | None = None,
        **w: Unpack[Write],
    ) -> Spec[ActionResult]:
        body = drop_none(
            scenarios_after_20_am=scenarios_after_20_am, client_nonce=client_nonce, side=side
        )
        return _body(model(ActionResult), body, **w)

    @route("POST", C + "/{action}")
    def action(
        self, action: str, body: Mapping[str, Any] | None = None, **w: Unpack[Write]
    ) -> Spec[ActionResult]:
        """Any ruleset command by its path (``GET /v1/rulesets``' ``actions``)."""
        return Spec(
            model(ActionResult), path={"action": action}, body=dict(body or {}), has_body=True, **w
        )

    # ---------------------------------------------------------------- territory

    @route("POST", C + "/control")
    def record_control(
        self,
        map_group: str,
        locations: Sequence[Mapping[str, Any]] = (),
        *,
        blocks: Sequence[Mapping[str, Any]] | None = None,
        rule: str | None = None,
        **w: Unpack[Write],
    ) -> Spec[ControlView]:
        """Record Control, e.g. ``[{"hex": "J19", "side": "US"}]``."""
        body = drop_none(
            map_group=map_group,
            locations=[dict(x) for x in locations],
            blocks=None if blocks is None else [dict(x) for x in blocks],
            rule=rule,
        )
        return _body(model(ControlView), body, **w)

    @route("GET", C + "/control")
    def control(
        self, map_group: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> Spec[ControlView]:
        return Spec(model(ControlView), query={"map_group": map_group, "at": at}, **r)

    @route("GET", C + "/lvp")
    def lvp(self, *, at: int | None = None, **r: Unpack[Read]) -> Spec[LvpView]:
        return Spec(model(LvpView), query={"at": at}, **r)

    @route("GET", C + "/setup-areas")
    def setup_areas(
        self, map_group: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> Spec[SetupAreasView]:
        return Spec(model(SetupAreasView), query={"map_group": map_group, "at": at}, **r)

    @route("GET", C + "/setup-areas.svg")
    def setup_areas_svg(
        self, map_group: str | None = None, *, at: int | None = None, **r: Unpack[Read]
    ) -> Spec[str]:
        """The Setup Areas drawn as an SVG map (text)."""
        return Spec(text, query={"map_group": map_group, "at": at}, **r)

    # ---------------------------------------------------------------- undo

    @route("POST", C + "/undo-requests")
    def request_undo(
        self,
        reason: str,
        *,
        seqs: Sequence[int] | None = None,
        to_seq: int | None = None,
        **w: Unpack[Write],
    ) -> Spec[UndoRequestView]:
        """Revert events ``seqs``, or everything after ``to_seq``."""
        body = drop_none(reason=reason, seqs=None if seqs is None else list(seqs), to_seq=to_seq)
        return _body(model(UndoRequestView), body, **w)

    @route("GET", C + "/undo-requests")
    def undo_requests(
        self,
        *,
        status: str | None = None,
        after: int = 0,
        limit: int | None = None,
        **r: Unpack[Read],
    ) -> Spec[UndoRequestPage]:
        query = {"status": status, "after": after, "limit": limit}
        return Spec(model(UndoRequestPage), query=query, **r)

    @route("GET", C + "/undo-requests/{rid}")
    def undo_request(self, rid: int, **r: Unpack[Read]) -> Spec[UndoRequestView]:
        return Spec(model(UndoRequestView), path={"rid": rid}, **r)

    @route("POST", C + "/undo-requests/{rid}/approve")
    def approve_undo(self, rid: int, **w: Unpack[Write]) -> Spec[UndoRequestView]:
        return Spec(model(UndoRequestView), path={"rid": rid}, **w)

    @route("POST", C + "/undo-requests/{rid}/reject")
    def reject_undo(
        self, rid: int, note: str | None = None, **w: Unpack[Write]
    ) -> Spec[UndoRequestView]:
        """Reject (or, by the side that asked, withdraw) an undo request."""
        body = drop_none(note=note)
        return Spec(model(UndoRequestView), path={"rid": rid}, body=body, has_body=True, **w)

    # ---------------------------------------------------------------- disputes

    @route("POST", C + "/disputes")
    def file_dispute(self, seq: int, claim: str, **w: Unpack[Write]) -> Spec[DisputeView]:
        return _body(model(DisputeView), {"seq": seq, "claim": claim}, **w)

    @route("GET", C + "/disputes")
    def disputes(
        self, *, after: int = 0, limit: int | None = None, **r: Unpack[Read]
    ) -> Spec[DisputePage]:
        return Spec(model(DisputePage), query={"after": after, "limit": limit}, **r)

    @route("GET", C + "/disputes/{did}")
    def dispute(self, did: int, **r: Unpack[Read]) -> Spec[DisputeView]:
        """The dispute with its evidence."""
        return Spec(model(DisputeView), path={"did": did}, **r)

    @route("POST", C + "/disputes/{did}/resolve")
    def resolve_dispute(
        self,
        did: int,
        decision: Literal["uphold", "revert"],
        note: str,
        **w: Unpack[Write],
    ) -> Spec[DisputeView]:
        body = {"decision": decision, "note": note}
        return Spec(model(DisputeView), path={"did": did}, body=body, has_body=True, **w)

    # ---------------------------------------------------------------- definitions

    @route("GET", C + "/definition")
    def definition(self, *, at: int | None = None, **r: Unpack[Read]) -> Spec[DefinitionView]:
        return Spec(model(DefinitionView), query={"at": at}, **r)

    @route("POST", C + "/definition-amendments")
    def request_amendment(
        self, patch: Mapping[str, Any], reason: str, **w: Unpack[Write]
    ) -> Spec[AmendmentView]:
        """Propose a JSON Merge Patch to the definition in force."""
        return _body(model(AmendmentView), {"patch": dict(patch), "reason": reason}, **w)

    @route("GET", C + "/definition-amendments")
    def amendments(
        self, *, after: int = 0, limit: int | None = None, **r: Unpack[Read]
    ) -> Spec[AmendmentPage]:
        return Spec(model(AmendmentPage), query={"after": after, "limit": limit}, **r)

    @route("GET", C + "/definition-amendments/{aid}")
    def amendment(self, aid: int, **r: Unpack[Read]) -> Spec[AmendmentView]:
        return Spec(model(AmendmentView), path={"aid": aid}, **r)

    @route("POST", C + "/definition-amendments/{aid}/approve")
    def approve_amendment(self, aid: int, **w: Unpack[Write]) -> Spec[AmendmentView]:
        return Spec(model(AmendmentView), path={"aid": aid}, **w)

    @route("POST", C + "/definition-amendments/{aid}/reject")
    def reject_amendment(
        self, aid: int, note: str | None = None, **w: Unpack[Write]
    ) -> Spec[AmendmentView]:
        body = drop_none(note=note)
        return Spec(model(AmendmentView), path={"aid": aid}, body=body, has_body=True, **w)

    # ---------------------------------------------------------------- shared by the iterators

    def _plan(self, call: Call[T]) -> Plan[Any]:
        return Plan(call_steps(self._core, self._http, call))

    def _pages(self, after: int, limit: int | None, filters: EventFilters) -> Plan[EventItem]:
        def page(next_after: int) -> Call[EventPage]:
            return Base.events.call(self, after=max(after, next_after), limit=limit, **filters)

        return Plan(page_steps(self._core, self._http, page))

    def _feed(self, after: int | None, follow: bool, campaign: str | None) -> Plan[StreamItem]:
        start = Base.get_campaign.call(self, campaign=campaign)
        return Plan(feed_steps(self._core, self._http, start, after=after, follow=follow))
