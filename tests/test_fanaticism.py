"""Issue 26 item 5: KGP SSR CG14 GERMAN FANATICISM, "For two CG scenarios of
each CG [EXC: once during CG II], the German may declare that all of his
Personnel are Fanatic for the entire scenario (including vs Bombardment).
This must be declared immediately upon the conclusion of all on-map setup."
The ledger counts the declarations of the CG and refuses the one beyond
(409 naming CG14). Pure domain (``domain_game``), but for one HTTP test."""

from __future__ import annotations

import pytest
from conftest import Game, assert_problem, created, ok
from domain_game import DomainGame
from fastapi.testclient import TestClient

from cgledger.domain.errors import Forbidden, RuleViolation
from cgledger.domain.rulesets.kgp import fanaticism
from cgledger.domain.rulesets.kgp.definition import SAMPLE


def _game(cg: str) -> DomainGame:
    return DomainGame("kgp", cg, definition=dict(SAMPLE), initial_cpp={"German": 2})


def _set_up(game: DomainGame) -> None:
    """The CG scenario of the date is set up: an Initial Scenario in play, or
    after an Attack chit each side at 8.625 (8.624 Unit Setup completed)."""
    if game.c.is_initial_date():
        game.ready()
        return
    assert game.choose("attack") == "dual-attack"
    for side in game.c.sides:
        game.advance(side, "8.625")


def _declare(game: DomainGame, role: str = "German") -> int:
    return game.perform(role, "fanaticism", {"side": "German"} if role == "referee" else {})


def _refusal(game: DomainGame, role: str = "German") -> str:
    with pytest.raises(RuleViolation) as refused:
        _declare(game, role)
    assert refused.value.rule == "CG14"
    return refused.value.detail


@pytest.mark.parametrize(("cg", "limit"), [("CG I", 2), ("CG II", 1), ("CG III", 2)])
def test_two_cg_scenarios_of_each_cg_once_in_cg_ii(cg: str, limit: int) -> None:
    assert fanaticism.limit_of(cg) == limit
    game = _game(cg)
    dates = []
    for _ in range(limit):
        _set_up(game)
        _declare(game)
        dates.append(game.cg_date)
        game.next_date()
    _set_up(game)
    before = game.c.version
    detail = _refusal(game)
    times = "once" if limit == 1 else f"for {limit} CG scenarios"
    assert detail == (
        f"CG14: the German may declare Fanaticism {times} of {cg}; declared on {', '.join(dates)}"
    )
    assert game.c.version == before
    assert [d["cg_date"] for d in game.c.rules["fanaticism"]] == dates


def test_one_declaration_per_cg_scenario_and_it_lasts_for_the_scenario() -> None:
    game = _game("CG I")
    _set_up(game)
    seq = _declare(game)
    shown = game.c.ruleset.rules.conditions(game.c.engine)["fanaticism"]["German"]
    assert (shown["rule"], shown["seq"], shown["cg_date"]) == ("CG14", seq, "19 AM")
    assert (shown["declared"], shown["limit"]) == (1, 2)
    assert _refusal(game).startswith(
        "CG14: the German declared Fanaticism for the 19 AM CG scenario already"
    )
    game.end_scenario()
    assert "fanaticism" not in game.c.ruleset.rules.conditions(game.c.engine)
    assert _refusal(game).startswith("CG14: the German declared Fanaticism for the 19 AM")


@pytest.mark.parametrize("to", [None, "8.623", "8.624"])
def test_declared_upon_the_conclusion_of_all_on_map_setup(to: str | None) -> None:
    """Not before every side has completed 8.624 Unit Setup (the German at
    8.625 is not enough while the U.S. sets up), nor after the scenario's end."""
    game = _game("CG I")
    game.next_date()  # 19 PM
    if to is not None:
        assert game.choose("attack") == "dual-attack"
        game.advance("German", "8.625")
        game.advance("US", to)
    detail = _refusal(game)
    assert detail.startswith(
        "CG14: Fanaticism is declared immediately upon the conclusion of all on-map setup"
    )
    if to is not None:
        game.advance("US", "8.625")
        _declare(game)


def test_only_the_german_declares() -> None:
    game = _game("CG I")
    _set_up(game)
    with pytest.raises(Forbidden) as refused:
        game.perform("US", "fanaticism", {})
    assert refused.value.detail == "CG14: the German declares Fanaticism, not the US"
    assert game.c.rules["fanaticism"] == []
    _declare(game, "referee")  # the referee records it for the German
    assert len(game.c.rules["fanaticism"]) == 1


def test_the_declaration_over_http(client: TestClient) -> None:
    """POST /fanaticism: public, shown with the campaign while the scenario lasts."""
    game = Game(client, {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}})
    for side in ("US", "German"):
        game.advance(side, "scenario")
    assert_problem(game.post("US", "/fanaticism", {}), 403)
    made = created(game.post("German", "/fanaticism", {}))
    for role in ("US", "German"):
        shown = ok(game.get(role))["conditions"]["fanaticism"]["German"]
        assert (shown["seq"], shown["rule"]) == (made["seq"], "CG14")
