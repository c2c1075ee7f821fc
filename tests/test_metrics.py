"""``GET /metrics`` (Prometheus): requests by route template, appends and
rolls, and nothing that tells a campaign or a secret die."""

from __future__ import annotations

from conftest import Game, created
from fastapi.testclient import TestClient


def _value(text: str, name: str, **labels: str) -> float:
    total = 0.0
    for line in text.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        if all(f'{k}="{v}"' in line for k, v in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


PURPOSE = "zq-secret-purpose-7f3"


def test_metrics_count_requests_appends_and_rolls(client: TestClient) -> None:
    game = Game(client, {"ruleset": "sg", "campaign": "SG"})
    before = client.get("/metrics").text
    created(game.post("American", "/rolls", {"dice": 2, "purpose": "public"}))
    # A purpose no route name holds ("hidden" is in /hidden-fortifications).
    created(game.post("American", "/rolls", {"dice": 2, "purpose": PURPOSE, "secret": True}))
    r = client.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    assert r.headers["Cache-Control"] == "no-store"
    after = r.text
    route = "/v1/campaigns/{campaign_id}/rolls"
    key = {"method": "POST", "route": route, "status": "201"}
    total = "cgledger_http_requests_total"
    assert _value(after, total, **key) - _value(before, total, **key) == 2
    rolls = "cgledger_rolls_total"
    for kind in ("public", "secret"):
        assert _value(after, rolls, kind=kind) - _value(before, rolls, kind=kind) == 1
    appended = "cgledger_events_appended_total"
    # The public roll is a DiceRolled, the secret one a sealed record (DESIGN
    # §2a): the metrics count it under its public type, as the log shows it.
    for kind in ("DiceRolled", "RecordSealed"):
        rolled = {"type": kind}
        assert _value(after, appended, **rolled) - _value(before, appended, **rolled) >= 1, kind
    # Route templates only: no campaign id, no raw path, no purpose text.
    assert game.id not in after
    assert PURPOSE not in after
    client.get("/no/such/place")
    assert 'route="unmatched"' in client.get("/metrics").text
    assert "/no/such/place" not in client.get("/metrics").text
