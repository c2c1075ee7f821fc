"""Review 27: CG-Scenario End and New CG Date as proposals (DESIGN §5, §8, §13).

Odd answers (twice, after undo, after the referee's call, by the wrong role,
racing Idempotency-Keys) are refused with the right status, never a 500; the
state rebuilt from the events (snapshots every 3 events, a full replay, an
undo's rebuild) is the state kept live; the old routes keep their fields; and
a CG-Scenario End or New CG Date recorded before the proposal existed is
answered, replayed, by whoever really answered it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.api.app import create_app
from cgledger.domain.campaign.aggregate import Campaign
from cgledger.service import Ledger
from cgledger.settings import Settings

KGP = {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}}
SG = {"ruleset": "sg", "campaign": "SG"}
EX = {"cvp": {"American": 20, "German": 41}, "vp": {"American": 63}, "vp_required": 55}
TYPO = {**EX, "cvp": {"American": 2, "German": 41}}

#: The slices the agreement protocol and the calendar keep (DESIGN §13).
SLICES = (
    "ready",
    "scenario_end_proposal",
    "scenario_end_proposals",
    "cg_date_proposals",
    "steps",
    "awaiting_new_date",
    "calendar",
    "date_index",
    "reverted",
)


def _answer(game: Game, role: str, seq: int, how: str, **headers: str) -> Any:
    return game.post(role, f"/proposals/{seq}/{how}", {}, **headers)


# ---------------------------------------------------------------- odd answers


def _cg_date_game(client: TestClient) -> tuple[Game, int]:
    game = Game(client, KGP)
    game.end_scenario()
    return game, int(created(game.post("US", "/cg-dates", {}))["seq"])


def _end_game(client: TestClient) -> tuple[Game, int]:
    game = Game(client, SG)
    return game, int(created(game.post("American", "/scenario-end", TYPO))["seq"])


def _undo(game: Game, role: str, seqs: list[int]) -> None:
    created(game.post(role, "/undo-requests", {"seqs": seqs, "reason": "review"}))


def _referee(game: Game, path: str, body: dict[str, Any]) -> None:
    created(game.post("referee", path, body))


#: (name, setup, what is then asked, the status it must get). Each setup
#: starts from a side's pending proposal ``seq`` of ``game``.
ODD: list[tuple[str, str, Callable[[Game, int], Any], Callable[[Game, int], Any], int]] = [
    ("cg-date approved twice", "cg", lambda g, s: ok(_answer(g, "German", s, "approve")),
     lambda g, s: _answer(g, "German", s, "approve"), 409),
    ("cg-date withdrawn, then rejected", "cg", lambda g, s: ok(_answer(g, "US", s, "withdraw")),
     lambda g, s: _answer(g, "German", s, "reject"), 409),
    ("cg-date withdrawn, then approved", "cg", lambda g, s: ok(_answer(g, "US", s, "withdraw")),
     lambda g, s: _answer(g, "referee", s, "approve"), 409),
    ("cg-date after the referee's call", "cg", lambda g, s: _referee(g, "/cg-dates", {}),
     lambda g, s: _answer(g, "German", s, "approve"), 409),
    ("cg-date withdrawn by the referee", "cg", lambda g, s: None,
     lambda g, s: _answer(g, "referee", s, "withdraw"), 403),
    ("cg-date approved by its proposer", "cg", lambda g, s: None,
     lambda g, s: _answer(g, "US", s, "approve"), 403),
    ("cg-date undone by its proposer", "cg", lambda g, s: _undo(g, "US", [s]),
     lambda g, s: _answer(g, "German", s, "approve"), 404),
    ("end approved twice", "end", lambda g, s: ok(_answer(g, "German", s, "approve")),
     lambda g, s: _answer(g, "referee", s, "approve"), 409),
    ("end after the referee's different call", "end",
     lambda g, s: _referee(g, "/scenario-end", EX),
     lambda g, s: _answer(g, "German", s, "approve"), 409),
    ("end withdrawn, then approved", "end", lambda g, s: ok(_answer(g, "American", s, "withdraw")),
     lambda g, s: _answer(g, "German", s, "approve"), 409),
    ("end rejected by its proposer", "end", lambda g, s: None,
     lambda g, s: _answer(g, "American", s, "reject"), 403),
    ("end undone by its proposer", "end", lambda g, s: _undo(g, "American", [s]),
     lambda g, s: _answer(g, "German", s, "reject"), 404),
]  # fmt: skip


@pytest.mark.parametrize(
    ("kind", "setup", "asked", "status"), [o[1:] for o in ODD], ids=[o[0] for o in ODD]
)
def test_odd_answers_to_a_joint_proposal_are_refused_with_their_status(
    client: TestClient,
    kind: str,
    setup: Callable[[Game, int], Any],
    asked: Callable[[Game, int], Any],
    status: int,
) -> None:
    game, seq = (_cg_date_game if kind == "cg" else _end_game)(client)
    setup(game, seq)
    version = game.version()
    assert_problem(asked(game, seq), status)
    assert game.version() == version  # nothing appended


def test_one_idempotency_key_approves_once_and_is_refused_for_a_rejection(
    client: TestClient,
) -> None:
    game, seq = _cg_date_game(client)
    first = ok(_answer(game, "German", seq, "approve", **{"Idempotency-Key": "review27"}))
    version = game.version()
    again = _answer(game, "German", seq, "approve", **{"Idempotency-Key": "review27"})
    assert again.status_code == 200
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.json() == first
    assert_problem(_answer(game, "German", seq, "reject", **{"Idempotency-Key": "review27"}), 422)
    assert game.version() == version


# ---------------------------------------------------------------- replay == live


@pytest.fixture
def snappy(settings: Settings) -> Iterator[tuple[TestClient, Settings]]:
    """The app with a snapshot of the aggregate every 3 events (tests/test_api_audit.py)."""
    every3 = settings.model_copy(update={"snapshot_interval": 3})
    with TestClient(create_app(every3)) as c:
        yield c, every3


def _slices(campaign: Campaign) -> dict[str, Any]:
    return {k: getattr(campaign, k) for k in SLICES}


def _same_every_way(settings: Settings, game: Game) -> None:
    """The campaign as loaded (snapshots every 3 events), replayed from its
    events alone, and rebuilt from its state events (an undo's rebuild), at
    every version: the same slices."""
    led = Ledger(settings)
    try:
        head = led.load(game.id)
        for version in range(1, head.version + 1):
            loaded = _slices(led.load(game.id, version=version))
            replayed = _slices(led._replay(head.id, version))
            rebuilt = led.load(game.id, version=version)
            rebuilt._rebuild_state()
            assert loaded == replayed == _slices(rebuilt), version
    finally:
        led.close()


def test_new_cg_date_proposals_rebuilt_are_as_live(snappy: tuple[TestClient, Settings]) -> None:
    client, settings = snappy
    game, ready = _cg_date_game(client)
    live: list[dict[str, Any]] = []

    def seen() -> None:
        live.append(ok(game.get("German", "/proposals?kind=cg-date")))

    rejected = ok(_answer(game, "German", ready, "reject"))["answer"]["seq"]
    seen()
    _undo(game, "German", [rejected])  # the German takes its rejection back alone
    seen()
    assert ok(game.get("German", f"/proposals/{ready}"))["status"] == "pending"
    rejected = ok(_answer(game, "German", ready, "reject"))["answer"]["seq"]
    # The CGDateReady undone after its rejection: a suffix, by the referee.
    created(game.post("referee", "/undo-requests", {"to_seq": ready - 1, "reason": "review"}))
    seen()
    assert_problem(game.get("German", f"/proposals/{ready}"), 404)
    assert ok(game.get("German"))["ready_for_next_cg_date"] == []
    again = created(game.post("US", "/cg-dates", {}))["seq"]
    began = created(game.post("German", "/cg-dates", {}))
    assert began["proposal"] == {"seq": again, "status": "applied"}
    created(game.post("referee", "/undo-requests", {"seqs": [began["seq"]], "reason": "review"}))
    assert ok(game.get("German", f"/proposals/{again}"))["status"] == "pending"
    ok(_answer(game, "US", again, "withdraw"))
    assert created(game.post("referee", "/cg-dates", {}))["proposal"] is None
    seen()
    _same_every_way(settings, game)
    # A fresh app (no cache) answers as the live one did.
    with TestClient(create_app(settings)) as fresh:
        reread = Game.__new__(Game)
        reread.__dict__.update({**game.__dict__, "client": fresh})
        assert ok(reread.get("German", "/proposals?kind=cg-date"))["items"] == live[-1]["items"]


def test_scenario_end_proposals_rebuilt_are_as_live(snappy: tuple[TestClient, Settings]) -> None:
    client, settings = snappy
    game, typo = _end_game(client)
    ended = created(game.post("referee", "/scenario-end", EX))
    assert ok(game.get("German", f"/proposals/{typo}"))["status"] == "rejected"
    created(game.post("referee", "/undo-requests", {"seqs": [ended["seq"]], "reason": "review"}))
    assert ok(game.get("German", f"/proposals/{typo}"))["status"] == "pending"
    assert ok(game.get("German", "/reph"))["scenario_end_proposal"]["seq"] == typo
    ok(_answer(game, "German", typo, "reject"))
    right = created(game.post("American", "/scenario-end", EX))["seq"]
    ok(_answer(game, "referee", right, "approve"))
    _same_every_way(settings, game)


# ---------------------------------------------------------------- old routes' fields

#: The fields ``POST /cg-dates`` and ``POST /scenario-end`` answered at ba95ee0.
CG_DATE_FIELDS = {"id", "ruleset", "campaign", "cg_date", "seq", "version", "checkpoint"}
END_FIELDS = {"seq", "status", "event", "checkpoint"}


def test_the_old_routes_keep_their_fields(client: TestClient) -> None:
    game, ready = _cg_date_game(client)
    del ready
    began = created(game.post("German", "/cg-dates", {}))
    assert set(began) >= CG_DATE_FIELDS
    sg = Game(client, SG)
    first = created(sg.post("American", "/scenario-end", EX))
    second = created(sg.post("German", "/scenario-end", EX))
    for out in (first, second):
        assert set(out) >= END_FIELDS
    assert (first["status"], second["status"]) == ("proposed", "recorded")


# ---------------------------------------------------------------- events recorded before


@pytest.fixture
def before_proposals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands append their events as the code before this change did:
    ``CGDateBegan`` without ``by``, ``ScenarioEnded`` without ``proposal``."""
    append = Campaign.append
    dropped = {"CGDateBegan": "by", "ScenarioEnded": "proposal"}

    def old(self: Campaign, ctx: Any, kind: str, payload: dict[str, Any], *a: Any, **k: Any) -> int:
        if kind in dropped:
            payload = {key: v for key, v in payload.items() if key != dropped[kind]}
        return append(self, ctx, kind, payload, *a, **k)

    monkeypatch.setattr(Campaign, "append", old)


@pytest.mark.usefixtures("before_proposals")
def test_a_referees_new_cg_date_recorded_before_is_answered_by_the_referee(
    client: TestClient,
) -> None:
    """A ``CGDateBegan`` recorded before it named ``by``: the referee began the
    date while the U.S. was ready. The U.S. readiness was applied by the
    referee, not by the German, who never said anything."""
    game, ready = _cg_date_game(client)
    created(game.post("referee", "/cg-dates", {}))
    began = [e for e in ok(game.get("referee", "/events"))["items"] if e["type"] == "CGDateBegan"]
    assert began[-1]["actor"] == "referee"
    answer = ok(game.get("US", f"/proposals/{ready}"))["answer"]
    assert answer["by"] == "referee", answer


@pytest.mark.usefixtures("before_proposals")
def test_a_referees_different_scenario_end_recorded_before_does_not_apply_the_proposal(
    client: TestClient,
) -> None:
    """A ``ScenarioEnded`` recorded before it named its proposal: the referee
    recorded a different CVP than the American's pending one. The American's
    body was not what was recorded, so it was not applied (live today, the
    same call rejects it)."""
    game, typo = _end_game(client)
    created(game.post("referee", "/scenario-end", EX))
    ended = [e for e in ok(game.get("referee", "/events"))["items"] if e["type"] == "ScenarioEnded"]
    assert ended[-1]["payload"]["cvp"] != TYPO["cvp"]
    view = ok(game.get("German", f"/proposals/{typo}"))
    assert view["status"] != "applied", view


# ---------------------------------------------------------------- the page's odd queries

PAGE_QUERIES = [
    ("map_group=", 200),
    ("map_group=Nope", 422),
    ("map_group=Sy&map_digest=", 200),
    ("map_group=Sx&map_digest=" + "z" * 64, 200),
    ("map_digest=" + "0" * 65, 422),
    ("log_after=-1", 422),
    ("log_after=99999999999", 200),
    ("log_after=x", 422),
]


@pytest.mark.parametrize(("query", "status"), PAGE_QUERIES)
def test_the_page_answers_odd_queries_without_a_500(
    client: TestClient, query: str, status: int
) -> None:
    game, _ = _cg_date_game(client)
    r = game.get("German", f"/page?{query}")
    if status == 200:
        assert ok(r)["map"]["svg"]
    else:
        assert_problem(r, status)
