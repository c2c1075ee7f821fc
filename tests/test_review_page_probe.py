"""Review probes of GET /page: bad query parameters and rulesets answer 2xx/4xx, never 500."""

from __future__ import annotations

import pytest
from conftest import Game

pytestmark = [pytest.mark.shared_app]

BODIES = {
    "kgp": {"ruleset": "kgp", "campaign": "CG I"},
    "abtf": {"ruleset": "abtf", "campaign": "CG I", "start_date": "18 AM"},
    "sg": {"ruleset": "sg", "campaign": "SG"},
}
QUERIES = (
    "",
    "?map_group=Bx",
    "?map_group=Sx",
    "?map_group=nonesuch",
    "?map_group=",
    "?map_group=%00",
    "?log_after=999999999",
    "?log_after=-1",
    "?map_digest=zz",
    "?map_digest=" + "0" * 64,
    "?at=3",
    "?log_after=abc",
    "?map_group=" + "x" * 21,
)


@pytest.mark.parametrize("ruleset", sorted(BODIES))
@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("role", ["referee", "observer", "nobody"])
def test_page_never_500(client, ruleset: str, query: str, role: str) -> None:  # type: ignore[no-untyped-def]
    game = Game(client, BODIES[ruleset])
    headers = game.h(role) if role in game.tokens else {"Authorization": "Bearer x"}
    r = client.get(f"{game.url}/page{query}", headers=headers)
    assert r.status_code < 500, (r.status_code, r.text[:500])
