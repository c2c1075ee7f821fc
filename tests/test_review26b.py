"""Adversarial review B of issue 26's verify checks (``verify_counted``,
``verify_determinations``): honest campaigns whose export ``cgledger verify``
must accept (a false alarm tells the players the server cheated).

* 8.618's DR made by the referee for the German (a ruling, ``"side":
  "German"`` in its payload, its dice the referee's): the ledger counted its
  DRMs as the referee's ruling (``ledger_counts`` of the referee), and the
  referee may name the ledger's count itself (``_check_stated``). verify must
  read the roll as the referee's, as its dice (``roll.side``) say.

The campaigns are played in-process, once per module."""

from __future__ import annotations

import random
from functools import cache

import pytest
from domain_game import DomainGame
from forge import parse, reseal
from kgp_commands import replenish_cpp
from test_purchases_ex import _campaign, _ctx, _idle_date
from test_readings_cpp import _export
from test_verify_counted import _refused

from cgledger.domain.campaign import Campaign
from cgledger.domain.errors import RuleViolation
from cgledger.domain.rulesets.kgp.definition import SAMPLE
from cgledger.domain.rulesets.kgp.rules import ShortageCreate
from cgledger.domain.visibility import REFEREE
from cgledger.verify import verify_bytes

US, GERMAN = "US", "German"


@cache
def _shortage_ruling(stated: int | None) -> tuple[Campaign, int]:
    """KGP CG I on 20 AM: the referee makes 8.618's German DR (with
    ``stated``: naming the ledger's count of scenarios itself). The campaign
    and the DR's seq."""
    rng = random.Random(618)
    c = _campaign(rng)
    for side in c.sides:
        c.advance(_ctx(side, rng), side, "scenario")
    c.end_scenario(_ctx(REFEREE, rng), {"cvp": dict.fromkeys(c.sides, 0)})
    c.begin_cg_date(_ctx(REFEREE, rng), None)
    while c.cg_date != "20 AM":
        _idle_date(c, rng)
    assert c.cg_date == "20 AM"
    for side in c.sides:
        replenish_cpp(c, _ctx(side, rng), side, None)
    body = ShortageCreate(side=GERMAN, scenarios_after_20_am=stated)
    seq = c.perform(_ctx(REFEREE, rng), "ammunition-shortage", body)
    return c, seq


@pytest.mark.parametrize("viewer", [REFEREE, US, GERMAN])
@pytest.mark.parametrize("stated", [None, 0])
def test_the_referees_8_618_ruling_verifies(stated: int | None, viewer: str) -> None:
    c, seq = _shortage_ruling(stated)
    record = c.record(seq)
    assert record["type"] == "AmmunitionShortageRolled"
    assert record["payload"]["side"] == GERMAN
    assert record["payload"]["roll"]["side"] == REFEREE
    by = {d["id"]: d.get("by") for d in record["payload"]["drm"]}
    assert by == {"scenarios-after-20-am": "roller" if stated is not None else "ledger"}
    assert verify_bytes(_export(c, viewer)).counted_checked >= 1


def test_the_referees_8_618_ruling_with_another_count_is_refused() -> None:
    """A forger who changes the ruling's named count (re-reading nothing else
    is needed for this check) is still refused at the DR."""
    c, seq = _shortage_ruling(0)
    header, events = parse(_export(c))
    event = events[seq - 1]
    assert event["secret"] is None  # 8.618's DR is public
    event["payload"]["counted"]["scenarios-after-20-am"] = 1
    _refused(reseal(header, events), seq, "scenarios-after-20-am")


def test_a_chit_beyond_its_limit_appends_nothing_though_secret_steps_lie_between() -> None:
    """8.6231: a chit the CG definition's limit refuses is refused before the
    side passes the steps between it and 8.623, so the refusal appends
    nothing (the empty sealed records of the secret steps 8.619-8.621 came
    first, and a random history caught the campaign three events on)."""
    doc = {**SAMPLE, "attack_chits": {"German": 0}}
    game = DomainGame("kgp", "CG I", definition=doc)
    game.next_date()
    game.advance("German", "8.617")  # past 8.616's action, before the secret 8.619-8.621
    step = game.c.current_step("German")
    before = game.c.version
    with pytest.raises(RuleViolation) as refused:
        game.c.choose_initiative(game.ctx("German"), "German", "attack")
    assert refused.value.detail.startswith("8.6231: German has selected 0 Attack Chit(s)")
    assert (game.c.version, game.c.current_step("German")) == (before, step)
    game.c.choose_initiative(game.ctx("German"), "German", "idle")
    assert game.c.version > before


@pytest.mark.parametrize("what", ["fortifications", "rg"])
def test_a_refused_act_appends_nothing_though_secret_steps_lie_between(what: str) -> None:
    """A command that would pass secret steps on its way (the empty sealed
    records of 8.619-8.620) and is refused by its own rule (FPP the side
    does not hold; CPP it does not have) appends nothing: the steps are
    passed only once nothing can refuse."""
    game = DomainGame("kgp", "CG I", definition=SAMPLE)
    game.next_date()
    game.advance("German", "8.617")
    before = (game.c.version, game.c.current_step("German"))
    action, body = (
        ("fortification-purchases", {"items": [{"type": "foxhole-1s", "count": 1}]})
        if what == "fortifications"
        else ("rg-purchases", {"rgs": [{"rg": "I1", "map_group": "Sx"}] * 40})
    )
    with pytest.raises(RuleViolation) as refused:
        game.perform("German", action, {**body, "secret": True})
    assert refused.value.detail.startswith("8.621" if what == "fortifications" else "8.619")
    assert (game.c.version, game.c.current_step("German")) == before
