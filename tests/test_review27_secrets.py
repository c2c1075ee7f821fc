"""Review 27: a side's CG-Scenario End and New CG Date proposals (DESIGN §13)
and the page's map digest tell the opponent nothing of the other side's
secrets (DESIGN §4). The KGP histories of ``test_indistinguishable`` (the
German buys many RG and Fortifications and sets them up, or nothing), played
on: the U.S. proposes the CG-Scenario End, the German approves it from
``/proposals``, the U.S. says it is ready for the New CG Date and the German
rejects it. The U.S. reads everything it can at each of those points
(``opponent_view.read_everything``: the page and its map digest included)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, created, ok
from fastapi.testclient import TestClient
from opponent_view import Masker, diff, read_everything, report
from test_indistinguishable import KGP_CHOICES, KGP_SETTING, kgp_history, masker

from cgledger.domain.rulesets import REGISTRY

pytestmark = [pytest.mark.shared_app]

END = {"cvp": {"US": 3, "German": 5}}
GROUPS = [g["id"] for g in REGISTRY["kgp"].sample_definition["map_groups"]]


def _digests(game: Game) -> dict[str, str]:
    """The U.S. page's map digest of each map group. ``opponent_view`` masks it
    (32 hex digits, as if random), but it is computed from what the map is
    drawn from, so it must be the same in both histories."""
    out = {}
    for group in GROUPS:
        out[group] = ok(game.get("US", f"/page?map_group={group}"))["map"]["digest"]
    return out


def test_the_us_cannot_tell_the_german_secrets_apart_through_joint_proposals(
    client: TestClient,
) -> None:
    readings: dict[str, Any] = {}
    for name in ("many", "none"):
        h = kgp_history(client, KGP_CHOICES[name])
        game = h.game
        for side in ("German", "US"):
            h.do(side, "/reph/advance", {"to": "scenario"})
        proposal = h.do("US", "/scenario-end", END)
        assert proposal["proposal"]["status"] == "pending"
        first = read_everything(game, "US", masker(game, "US"), KGP_SETTING)
        digests = [_digests(game)]
        ok(game.post("German", f"/proposals/{proposal['seq']}/approve", {}))
        ready = created(game.post("US", "/cg-dates", {}))
        assert ready["proposal"]["status"] == "pending"
        ok(game.post("German", f"/proposals/{ready['seq']}/reject", {"note": "not yet"}))
        second = read_everything(game, "US", masker(game, "US"), KGP_SETTING)
        digests.append(_digests(game))
        readings[name] = (first, second, digests)
    for i in range(2):
        lines = diff(readings["many"][i], readings["none"][i])
        assert not lines, report("many", "none", lines)
    assert readings["many"][2] == readings["none"][2]


def test_the_opponents_reading_compares_the_page_map_digest() -> None:
    """``opponent_view.Masker`` masks every run of 16+ hex digits as random,
    the page's ``map.digest`` with them; but the digest is computed from what
    the map is drawn from (``cgledger.projections.map_digest``), not random, so
    ``test_indistinguishable`` (which reads ``/page`` for each map group)
    cannot see a digest that differs with the opponent's secret: it must be
    compared as it is."""
    m = Masker("c", {"US": "t"}, "US")
    page = {"map": {"map_group": "Sx", "digest": "0123456789abcdef" * 2, "svg": None}}
    assert m.mask(page)["map"]["digest"] == page["map"]["digest"]
