"""``cgledger.client.Client`` against a live server (``live.serving``): a CG
Date played through the client with typed answers, rule errors as
``ApiError``, retries that never append twice, ``If-Match``, the live feed
and its resumption, and one client method for every route of the API."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from live import serving

from cgledger.api.app import create_app
from cgledger.api.models import (
    ActionResult,
    CampaignView,
    EventItem,
    EventPage,
    RollView,
    RosterView,
    TableRollView,
)
from cgledger.client import ApiError, AsyncClient, Client, Conflict
from cgledger.client._declare import endpoint
from cgledger.domain.sealed import kind_of
from cgledger.settings import Settings
from cgledger.verify import verify_bytes

KGP = {"ruleset": "kgp", "name": "CG I", "title": "client", "initial_cpp": {"German": 2}}
SIDES = ("US", "German")


@pytest.fixture
def lite(tmp_path: Path) -> Settings:
    """SQLite only: most tests here test the client, not the database."""
    return Settings(data_dir=tmp_path / "data", database_url=None, create_per_minute=1_000_000)


@pytest.fixture
def base_url(lite: Settings) -> Iterator[str]:
    with serving(lite) as url:
        yield url


class Campaign:
    """A campaign created through the client, with a client per role."""

    def __init__(self, base: str, **client_options: Any) -> None:
        with Client(base) as anon:
            self.created = anon.create_campaign(**KGP)
        assert self.created.tokens is not None
        self.id = self.created.id
        self.tokens = self.created.tokens
        self.clients = {
            role: Client(base, token, campaign=self.id, **client_options)
            for role, token in self.tokens.items()
        }

    def __getitem__(self, role: str) -> Client:
        return self.clients[role]

    def close(self) -> None:
        for api in self.clients.values():
            api.close()


@pytest.fixture
def game(base_url: str) -> Iterator[Campaign]:
    found = Campaign(base_url)
    yield found
    found.close()


def refusal(action: Callable[[], Any]) -> ApiError | None:
    """The ApiError ``action`` raised, or None where it succeeded."""
    try:
        action()
    except ApiError as exc:
        return exc
    return None


def advance(game: Campaign, side: str, to: str) -> None:
    """``side`` completes its steps up to ``to``, making each action a step
    requires on the way (the 409 names its path), as ``conftest.Game.advance``."""
    api = game[side]
    for _ in range(60):
        exc = refusal(lambda: api.advance(to))
        if exc is None or "a step is not taken again" in exc.detail:
            return
        assert exc.status == 409, exc
        needed = re.search(r"\(POST /v1/campaigns/[^/]+/([^)]+)\)", exc.detail)
        if needed is not None and needed.group(1) != "cg-dates":
            assert isinstance(api.action(needed.group(1)), ActionResult)
        elif "Initiative chits" in exc.detail:
            view = game["referee"].initiative(cg_date=game["referee"].get_campaign().cg_date)
            for chooser, chosen in view.items[0].chosen.items():
                if not chosen:
                    game[chooser].choose_initiative("idle")
            if game["referee"].reph().new_date_due:
                return
        else:
            raise exc
    raise AssertionError(f"{side} could not reach {to}")


def play_a_cg_date(game: Campaign) -> None:
    """The Initial Scenario (19 AM) to its end, then 19 PM begun and replenished."""
    for side in SIDES:
        advance(game, side, "scenario")
    ended = game["referee"].scenario_end({"US": 0, "German": 0})
    assert ended.status == "recorded"
    began = game["referee"].begin_cg_date()
    assert began.cg_date == "19 PM"
    for side in SIDES:
        done = game[side].cpp_replenishment()
        assert isinstance(done, ActionResult)
        # 8.616's Secret DR is sealed (DESIGN §2a): the owner reads its act.
        assert done.event.type == "RecordSealed"
        assert kind_of(done.event.model_dump()) == "CPPReplenished"
        other = next(s for s in SIDES if s != side)
        stub = game[other].events(after=done.seq - 1, limit=1).items[0]
        assert (stub.seq, stub.type, stub.secret) == (done.seq, "RecordSealed", None)


# ---------------------------------------------------------------- the whole API


def _routes(cls: type) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for name in dir(cls):
        attr = getattr(cls, name)
        if isinstance(attr, endpoint):
            found.add((attr.method, attr.route))
        marked = getattr(attr, "__cgledger_route__", None)
        if marked is not None:
            found.add(marked)
    return found


@pytest.mark.parametrize("cls", [Client, AsyncClient])
def test_every_route_of_the_api_has_a_client_method(cls: type) -> None:
    spec = create_app().openapi()
    api = {(method.upper(), path) for path, item in spec["paths"].items() for method in item}
    covered = _routes(cls)
    missing = sorted(api - covered, key=lambda r: (r[1], r[0]))
    assert not missing, f"routes without a client method: {missing}"
    # The only route the client has beyond the document: any ruleset command.
    assert covered - api == {("POST", "/v1/campaigns/{campaign_id}/{action}")}


@pytest.mark.store
def test_playing_a_cg_date_through_the_client(settings: Settings) -> None:
    with serving(settings) as base:
        game = Campaign(base)
        try:
            _play(game)
        finally:
            game.close()


def _play(game: Campaign) -> None:
    german, us, referee = game["German"], game["US"], game["referee"]
    view = german.get_campaign()
    assert isinstance(view, CampaignView)
    assert view.you == "German"
    assert view.sides == list(SIDES)
    public = us.roll(2, "client test")
    assert isinstance(public, RollView)
    assert public.dice is not None
    assert len(public.dice) == 2
    secret = german.roll(1, "hidden", secret=True)
    assert secret.secret
    assert secret.dice is not None
    stub = us.get_roll(secret.index)
    assert stub.dice is None, "the opponent sees a stub"
    assert german.reveal_roll(secret.index).seed is not None
    assert us.get_roll(secret.index).dice == secret.dice
    escape = referee.roll_table("kgp:8.606-infantry", drm=[{"id": "isolated"}])
    assert isinstance(escape, TableRollView)
    path = referee.last_response.request.url.raw_path.decode()
    assert path == f"/v1/campaigns/{game.id}/tables/kgp:8.606-infantry/rolls"
    assert escape.drm is not None
    assert [d.id for d in escape.drm] == ["isolated"]
    assert escape.final == (escape.original or 0) + escape.drm[0].value
    play_a_cg_date(game)
    roster = german.roster()
    assert isinstance(roster, RosterView)
    assert roster.lines is not None
    assert [line["cg_date"] for line in roster.lines] == ["19 AM", "19 PM"]
    early = german.roster(at=public.seq)
    assert early.lines is not None
    assert [line["cg_date"] for line in early.lines] == ["19 AM"]
    version = referee.get_campaign().version
    seqs = [e.seq for e in referee.iter_events(page_size=7)]
    assert seqs == list(range(1, version + 1))
    page = referee.events(event_type=["DiceRolled", "RecordSealed"], limit=2)
    assert isinstance(page, EventPage)
    assert [(e.seq, e.type) for e in page.items] == [
        (public.seq, "DiceRolled"),
        (secret.seq, "RecordSealed"),
    ]
    rolled = [e.seq for e in referee.iter_events(event_type="DiceRolled", page_size=1)]
    assert rolled == [public.seq]
    # The secret roll, both Secret 8.616 DRs and the sealed records of the
    # steps passed, read one page at a time; the referee reads every act.
    sealed = list(referee.iter_events(event_type="RecordSealed", page_size=1))
    assert sealed[0].seq == secret.seq
    assert {e.type for e in sealed} == {"RecordSealed"}
    kinds = [kind_of(e.model_dump()) for e in sealed]
    assert kinds[0] == "DiceRolled"
    assert kinds.count("CPPReplenished") == 2
    report = verify_bytes(us.export())
    assert report.events == version


def test_the_read_models_answer_as_typed(game: Campaign) -> None:
    """One call of each read endpoint: each answer validates as its model."""
    us, referee = game["US"], game["referee"]
    rolled = us.roll(2, "for the stats")
    assert referee.health().status == "ok"
    assert referee.index().openapi == "/openapi.json"
    assert len(referee.server_key().public_key) == 64
    rulesets = referee.rulesets()
    assert "kgp" in [r.id for r in rulesets]
    tables = referee.tables("kgp")
    assert referee.table("kgp", tables[0].id).hash == tables[0].hash
    assert "properties" in referee.definition_schema("kgp")
    assert referee.sample_definition("kgp").sample
    definition = us.definition()
    assert definition.hash == game.created.definition_hash
    assert us.state().at == us.get_campaign().version
    assert us.checkpoint(at=rolled.seq).seq == rolled.seq
    assert us.dice_stats().rolls == 1
    assert us.reph().cg_date == "19 AM"
    assert us.initiative().items == []
    assert us.lvp().rows == []
    group = definition.definition.map_groups[0]["id"] if definition.definition else None
    assert us.control(group).map_groups[0].map_group == group
    assert us.setup_areas(group).map_group == group
    assert us.setup_areas_svg(group).startswith("<svg")
    assert us.rg_record().side == "US"
    assert us.undo_requests().items == []
    assert us.disputes().items == []
    assert us.amendments().items == []


def test_undo_disputes_and_amendments(game: Campaign) -> None:
    us, german, referee = game["US"], game["German"], game["referee"]
    rolled = us.roll(2, "disputed")
    dispute = german.file_dispute(rolled.seq, "that roll looks wrong")
    assert dispute.status == "open"
    assert german.dispute(dispute.id).evidence is not None
    resolved = referee.resolve_dispute(dispute.id, "uphold", "the proof checks")
    assert resolved.status != "open"
    asked = us.request_undo("misclick", seqs=[rolled.seq])
    assert asked.status == "pending", "a roll the opponent saw needs approval"
    assert us.undo_request(asked.id).id == asked.id
    assert german.approve_undo(asked.id).status == "applied"
    again = us.request_undo("again", seqs=[us.roll(1, "second").seq])
    assert german.reject_undo(again.id, "no").status == "rejected"
    amendment = german.request_amendment({"attack_chits": {"German": 9}}, "errata")
    assert us.amendment(amendment.id).status == "pending"
    assert us.approve_amendment(amendment.id).status == "applied"
    other = german.request_amendment({"attack_chits": {"German": 8}}, "more")
    assert us.reject_amendment(other.id, "no").status == "rejected"
    assert us.definition().definition is not None
    assert [a.id for a in us.amendments().items] == [amendment.id, other.id]


def test_control_proposals(game: Campaign) -> None:
    """DESIGN §13: a side's Control is pending until the opponent approves it;
    every kind of proposal is listed and answered by its seq."""
    us, german = game["US"], game["German"]
    c1 = [{"hex": "C1", "side": "US"}]
    proposed = us.record_control("Sx", c1)
    assert proposed.status == "pending"
    assert proposed.seq is not None
    (pending,) = german.proposals(status="pending").items
    assert (pending.seq, pending.kind, pending.by) == (proposed.seq, "control", "US")
    assert german.proposal(proposed.seq).proposed["locations"] == [{**c1[0], "level": 0}]
    assert german.approve_proposal(proposed.seq).status == "applied"
    (group,) = us.control("Sx").map_groups
    assert {x.hex: x.side for x in group.locations}["C1"] == "US"
    again = us.record_control("Sx", [{"hex": "C1", "side": None}])
    assert again.seq is not None
    assert german.reject_proposal(again.seq, "no").status == "rejected"
    last = us.record_control("Sx", [{"hex": "B2", "side": None}])
    assert last.seq is not None
    assert us.withdraw_proposal(last.seq).status == "withdrawn"
    assert [p.status for p in us.proposals(kind="control").items] == [
        "applied", "rejected", "withdrawn",
    ]  # fmt: skip


# ---------------------------------------------------------------- errors


def test_a_rule_refusal_is_an_api_error_naming_the_rule(game: Campaign) -> None:
    version = game["German"].get_campaign().version
    with pytest.raises(ApiError) as caught:
        game["German"].ammunition_shortage()
    error = caught.value
    assert error.status == 409
    assert not isinstance(error, Conflict), "a rule refusal is not a version conflict"
    assert error.rule == "8.618"
    assert error.detail.startswith("8.618: ")
    assert str(error) == f"409 Conflict: {error.detail}"
    assert error.type == "urn:cgledger:problem:rule-violation"
    assert error.response.status_code == 409
    assert game["German"].get_campaign().version == version, "nothing appended"
    with pytest.raises(ApiError) as unknown:
        game["German"].rg_purchase("NO-SUCH-RG")
    assert unknown.value.status == 422
    assert unknown.value.detail.startswith("8.6194: ")


def test_auth_errors(game: Campaign, base_url: str) -> None:
    with pytest.raises(ApiError) as forbidden:
        game["US"].advance("scenario", side="German")
    assert forbidden.value.status == 403
    with Client(base_url, "not-a-token", campaign=game.id) as stranger:
        with pytest.raises(ApiError) as unauthorized:
            stranger.get_campaign()
        assert unauthorized.value.status == 401
        assert stranger.health().status == "ok", "health needs no token"
    with Client(base_url) as anon, pytest.raises(ValueError, match="no campaign"):
        anon.get_campaign()


# ---------------------------------------------------------------- retries


class Flaky(httpx.BaseTransport):
    """A transport that sends through ``inner`` and records every request;
    ``plan`` decides, request by request, what happens instead."""

    def __init__(
        self, inner: httpx.BaseTransport, plan: list[Callable[[httpx.Request], Any]]
    ) -> None:
        self.inner = inner
        self.plan = plan
        self.requests: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if request.method == "POST" and self.plan:
            return self.plan.pop(0)(request) or self.inner.handle_request(request)
        return self.inner.handle_request(request)

    def close(self) -> None:
        self.inner.close()


def lost_answer(inner: httpx.BaseTransport) -> Callable[[httpx.Request], Any]:
    """The server does the request; its answer is lost on the way back."""

    def fail(request: httpx.Request) -> Any:
        response = inner.handle_request(request)
        response.read()
        response.close()
        raise httpx.ReadError("connection reset by peer", request=request)

    return fail


def answer(status: int, **headers: str) -> Callable[[httpx.Request], Any]:
    return lambda request: httpx.Response(status, headers=headers, request=request)


def client_with(
    base: str, game: Campaign, role: str, plan: Callable[[httpx.BaseTransport], list[Any]]
) -> tuple[Client, Flaky, list[float]]:
    inner = httpx.HTTPTransport()
    flaky = Flaky(inner, plan(inner))
    waits: list[float] = []
    api = Client(
        base,
        game.tokens[role],
        campaign=game.id,
        transport=flaky,
        sleep=waits.append,
        retries=3,
    )
    return api, flaky, waits


def posts(flaky: Flaky) -> list[httpx.Request]:
    return [r for r in flaky.requests if r.method == "POST"]


def test_a_retry_after_a_lost_answer_appends_once(game: Campaign, base_url: str) -> None:
    api, flaky, waits = client_with(base_url, game, "German", lambda inner: [lost_answer(inner)])
    with api:
        before = api.get_campaign().version
        rolled = api.roll(2, "once only")
        replayed = api.last_response.headers.get("Idempotent-Replayed")
        after = api.get_campaign().version
    assert after == before + 1, "the retry appended nothing"
    assert rolled.seq == after
    assert replayed == "true", "the second answer is the first one replayed"
    sent = posts(flaky)
    assert len(sent) == 2
    keys = {r.headers["Idempotency-Key"] for r in sent}
    assert len(keys) == 1, "one Idempotency-Key for the logical call"
    assert len(waits) == 1
    # The roll the server did is the one the client got.
    assert game["referee"].get_roll(rolled.index).dice == rolled.dice


def test_a_callers_idempotency_key_is_used_and_replays(game: Campaign) -> None:
    api = game["US"]
    first = api.roll(2, "keyed", idempotency_key="turn-7-roll")
    again = api.roll(2, "keyed", idempotency_key="turn-7-roll")
    assert again.seq == first.seq
    assert again.dice == first.dice
    assert api.last_response.headers["Idempotent-Replayed"] == "true"
    assert api.get_campaign().version == first.seq


def test_503_and_429_are_tried_again(game: Campaign, base_url: str) -> None:
    api, flaky, waits = client_with(
        base_url,
        game,
        "US",
        lambda _: [answer(503), answer(429, **{"Retry-After": "2"}), answer(502)],
    )
    with api:
        before = api.get_campaign().version
        rolled = api.roll(1, "busy server")
        assert api.get_campaign().version == before + 1
    assert rolled.seq == before + 1
    assert len(posts(flaky)) == 4
    assert len({r.headers["Idempotency-Key"] for r in posts(flaky)}) == 1
    assert len(waits) == 3
    assert waits[1] == 2.0, "Retry-After is honoured"


def test_retries_run_out(game: Campaign, base_url: str) -> None:
    api, flaky, waits = client_with(base_url, game, "US", lambda _: [answer(503)] * 4)
    with api, pytest.raises(ApiError) as caught:
        api.roll(1, "never")
    assert caught.value.status == 503
    assert len(posts(flaky)) == 4, "the first try and 3 retries"
    assert len(waits) == 3
    too_long = [answer(429, **{"Retry-After": "3600"})]
    api, flaky, waits = client_with(base_url, game, "US", lambda _: too_long)
    with api, pytest.raises(ApiError) as limited:
        api.roll(1, "later")
    assert limited.value.status == 429
    assert waits == [], "a Retry-After beyond max_wait is not waited for"


def test_a_refused_request_is_not_tried_again(game: Campaign, base_url: str) -> None:
    api, flaky, waits = client_with(base_url, game, "German", lambda _: [])
    with api, pytest.raises(ApiError):
        api.ammunition_shortage()
    assert len(posts(flaky)) == 1
    assert waits == []


# ---------------------------------------------------------------- If-Match


def test_if_match_with_a_stale_version_is_a_conflict_and_appends_nothing(
    game: Campaign,
) -> None:
    us, german = game["US"], game["German"]
    with pytest.raises(ValueError, match="no version"):
        us.roll(2, "blind", if_match=True)
    read = us.get_campaign().version
    assert us.version() == read
    fresh = us.roll(2, "fresh", if_match=True)
    assert fresh.seq == read + 1
    assert us.version() == fresh.seq, "an append is a read of the new version"
    german.roll(1, "meanwhile")
    current = german.get_campaign().version
    with pytest.raises(Conflict) as caught:
        us.roll(2, "stale", if_match=True)
    assert caught.value.status == 409
    assert str(caught.value).startswith("409 Conflict: ")
    with pytest.raises(Conflict):
        us.roll(2, "stale", if_match=read)
    assert german.get_campaign().version == current, "nothing appended"
    assert us.roll(2, "explicit", if_match=current).seq == current + 1
    # The remembered version comes from the ETag of any read.
    us.roster()
    assert us.version() == current + 1


# ---------------------------------------------------------------- the live feed


def test_the_feed_delivers_new_events_live(game: Campaign) -> None:
    us, german = game["US"], game["German"]
    assert list(us.stream(follow=False)) == [], "by default the feed starts now"
    start = us.get_campaign().version
    errors: list[BaseException] = []
    connected = threading.Event()

    def write() -> None:
        try:
            assert connected.wait(30)
            german.roll(2, "live one", secret=True)
            german.roll(1, "live two")
        except BaseException as exc:  # reported by the test
            errors.append(exc)

    writer = threading.Thread(target=write)
    writer.start()
    got = []
    # From the last event on: it arrives first, so the feed is connected
    # before the writer appends.
    feed = us.stream(after=start - 1)
    try:
        for item in feed:
            got.append(item)
            connected.set()
            if len(got) == 3:
                break
    finally:
        connected.set()
        feed.close()
        writer.join(30)
    assert not errors, errors
    assert [i.seq for i in got] == [start, start + 1, start + 2]
    assert [i.type for i in got[1:]] == ["RecordSealed", "DiceRolled"]
    hidden, public = got[1:]
    assert isinstance(hidden.event, EventItem)
    assert hidden.event.payload["roll"]["secret"] is True
    assert hidden.event.payload["roll"]["protocol"] == "cgledger-dice/2"
    assert hidden.event.secret is None, "redacted for the opponent"
    assert kind_of(hidden.event.model_dump()) == "RecordSealed", "no act named to the opponent"
    assert public.checkpoint is not None
    assert public.checkpoint.seq == public.seq
    assert public.reconnects == 0


class Dropping(httpx.BaseTransport):
    """Cuts the first ``drops`` answers of the live feed after ``events``
    events; records each feed request."""

    def __init__(self, drops: int, events: int = 1) -> None:
        self.inner = httpx.HTTPTransport()
        self.drops = drops
        self.events = events
        self.feeds: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if not request.url.path.endswith("/stream"):
            return response
        self.feeds.append(request)
        if self.drops == 0:
            return response
        self.drops -= 1
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=Cut(response, self.events),
            request=request,
        )

    def close(self) -> None:
        self.inner.close()


class Cut(httpx.SyncByteStream):
    def __init__(self, response: httpx.Response, events: int) -> None:
        self.response = response
        self.events = events

    def __iter__(self) -> Iterator[bytes]:
        seen = b""
        for chunk in self.response.iter_raw():
            seen += chunk
            yield chunk
            if seen.count(b"\nid: ") + seen.startswith(b"id: ") >= self.events:
                break
        self.response.close()
        raise httpx.ReadError("connection reset by peer")


def feed_client(base: str, game: Campaign, transport: Dropping, waits: list[float]) -> Client:
    """The US side's client over ``transport``, with 2 retries, its waits noted."""
    return Client(
        base,
        game.tokens["US"],
        campaign=game.id,
        transport=transport,
        sleep=waits.append,
        retries=2,
    )


def test_the_feed_resumes_with_last_event_id(game: Campaign, base_url: str) -> None:
    german = game["German"]
    for n in range(4):
        german.roll(1, f"backlog {n}")
    version = german.get_campaign().version
    transport = Dropping(drops=2, events=2)
    waits: list[float] = []
    with feed_client(base_url, game, transport, waits) as us:
        items = list(us.stream(after=0, follow=False))
    assert [i.seq for i in items] == list(range(1, version + 1)), "no gap, no repeat"
    assert len(transport.feeds) == 3
    assert [r.headers["Last-Event-ID"] for r in transport.feeds] == ["0", "2", "4"]
    assert [i.reconnects for i in items[:2]] == [0, 0]
    assert {i.reconnects for i in items[4:]} == {2}
    assert waits == [3.0, 3.0], "the server's retry: 3000 is honoured"


def test_the_feed_gives_up_after_its_retries(game: Campaign, base_url: str) -> None:
    game["German"].roll(1, "one")
    transport = Dropping(drops=10, events=0)
    waits: list[float] = []
    with feed_client(base_url, game, transport, waits) as us, pytest.raises(httpx.ReadError):
        list(us.stream(after=0))
    assert len(transport.feeds) == 3, "the first connection and 2 reconnections"
    assert len(waits) == 2


def test_a_feed_refused_is_an_api_error(game: Campaign, base_url: str) -> None:
    with Client(base_url, "bad", campaign=game.id) as stranger, pytest.raises(ApiError) as caught:
        next(iter(stranger.stream(after=0)))
    assert caught.value.status == 401
    with pytest.raises(ApiError) as unknown:
        next(iter(game["US"].stream(after=0, campaign="no-such/campaign")))
    assert unknown.value.status == 404
    assert unknown.value.response.request.url.raw_path.decode().startswith(
        "/v1/campaigns/no-such%2Fcampaign/stream"
    )
