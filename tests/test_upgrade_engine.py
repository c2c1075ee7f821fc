"""A database written before rulesets became packages and before the
aggregate stopped keeping what grows with the history still opens, answers as
it did, and goes on.

``tests/data/legacy-kgp/`` was written by the code of commit af8a77e
(``tests/data/make_legacy_db.py``): KGP events under their old topics
(``cgledger:RGPurchased``, ...), snapshots of the old aggregate (schema 2, with
every commitment, sealed seed, secret and roll bookkeeping in it), and no
keyed entries. ``legacy.json`` holds what the old code answered.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cgledger.api.app import create_app
from cgledger.settings import Settings
from cgledger.verify import verify_bytes

LEGACY = Path(__file__).parent / "data" / "legacy-kgp"
ANSWERS: dict[str, Any] = json.loads((LEGACY / "legacy.json").read_text())
CID = ANSWERS["campaign"]
URL = f"/v1/campaigns/{CID}"


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(LEGACY / "data", target)
    return target


@pytest.fixture
def client(data_dir: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=data_dir, database_url=None))) as c:
        yield c


def _h(role: str, **extra: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {ANSWERS['tokens'][role]}", **extra}


def _get(client: TestClient, path: str, role: str) -> dict[str, Any]:
    r = client.get(URL + path, headers=_h(role))
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def _same(old: Any, new: Any, path: str = "") -> None:
    """Every field the old answer had is there, equal (new fields may be added,
    at any depth: a roster line gained its FPP columns, DESIGN §10)."""
    if isinstance(old, dict):
        assert isinstance(new, dict), (path, old, new)
        for key, value in old.items():
            assert key in new, (f"{path}.{key}", value)
            _same(value, new[key], f"{path}.{key}")
    elif isinstance(old, list) and old and all(isinstance(x, dict) for x in old):
        assert isinstance(new, list), (path, old, new)
        assert len(new) == len(old), (path, old, new)
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            _same(a, b, f"{path}[{i}]")
    elif path.endswith(".hidden"):
        # The names of the values hidden: the old ones, and new columns built
        # from the same hidden events.
        assert set(old) <= set(new), (path, old, new)
        assert set(new) - set(old) <= NEW_COLUMNS, (path, old, new)
    else:
        assert new == old, (path, old, new)


#: The roster columns added since the answers were recorded (8.621, 8.622).
NEW_COLUMNS = {"fpp", "fpp_spent", "fortifications", "fpp_forfeit", "recon_available"}


def test_the_old_campaign_answers_as_it_did(client: TestClient) -> None:
    old = ANSWERS["campaign_view"]
    new = _get(client, "", "US")
    _same({k: v for k, v in old.items() if k != "reph_step"}, new)
    assert new["version"] == ANSWERS["version"]
    # Created before CG definitions: none is in force.
    assert new["definition_hash"] is None
    assert _get(client, "/definition", "US")["definition"] is None


def test_the_old_rosters_and_rolls_answer_as_they_did(client: TestClient) -> None:
    for viewer, roster in ANSWERS["rosters"].items():
        _same(roster, _get(client, "/roster?side=German", viewer))
    for index, views in ANSWERS["rolls"].items():
        for viewer, view in views.items():
            _same(view, _get(client, f"/rolls/{index}", viewer))


def test_an_old_secret_roll_of_the_first_batch_is_revealed_and_verifies(
    client: TestClient,
) -> None:
    index, owner = ANSWERS["unrevealed"], ANSWERS["unrevealed_owner"]
    opponent = "US" if owner == "German" else "German"
    assert _get(client, f"/rolls/{index}", opponent)["dice"] is None
    r = client.post(f"{URL}/rolls/{index}/reveal", headers=_h(owner))
    assert r.status_code == 200, r.text
    seen = _get(client, f"/rolls/{index}", opponent)
    assert seen["seed"] is not None
    assert seen["dice"] == _get(client, f"/rolls/{index}", owner)["dice"]
    report = verify_bytes(client.get(f"{URL}/export", headers=_h("referee")).content)
    assert report.rolls_recomputed >= 1
    assert report.events == ANSWERS["version"] + 1


def test_an_old_idempotency_key_still_replays(client: TestClient) -> None:
    idem = ANSWERS["idempotent"]
    r = client.post(
        f"{URL}/rolls", json=idem["body"], headers=_h("US", **{"Idempotency-Key": idem["key"]})
    )
    assert r.status_code == 201, r.text
    assert r.headers["Idempotent-Replayed"] == "true"
    _same({k: v for k, v in idem["first"].items() if k != "checkpoint"}, r.json())
    assert _get(client, "", "US")["version"] == ANSWERS["version"]


def test_the_old_campaign_goes_on(client: TestClient, data_dir: Path) -> None:
    r = client.post(f"{URL}/rolls", json={"dice": 2, "purpose": "after"}, headers=_h("German"))
    assert r.status_code == 201, r.text
    assert r.json()["index"] == ANSWERS["campaign_view"]["rolls"]
    # 8.619 through the ruleset's action, on the CPP line the old code kept:
    # the US has replenished (8.616) and bought nothing yet on 19 PM.
    left = _get(client, "/roster?side=US", "US")["lines"][-1]["left"]
    # Created before CG definitions, it has no RG chart: a purchase is refused
    # until the sides agree one by a definition amendment (DESIGN §7, §10).
    r = client.post(f"{URL}/rg-purchases", json={"rg": "I2", "cpp": 1}, headers=_h("US"))
    assert r.status_code == 422, r.text
    assert "no US RG chart" in r.json()["detail"]
    chart = {"rg_chart": {"US": [{"id": "I2", "name": "Inf Pltn", "cpp": 1}]}}
    r = client.post(
        f"{URL}/definition-amendments",
        json={"patch": chart, "reason": "type in the RG chart"},
        headers=_h("US"),
    )
    assert r.status_code == 201, r.text
    aid = r.json()["id"]
    r = client.post(f"{URL}/definition-amendments/{aid}/approve", headers=_h("German"))
    assert r.status_code in (200, 201), r.text
    r = client.post(f"{URL}/rg-purchases", json={"rg": "I2", "cpp": 1}, headers=_h("US"))
    assert r.status_code == 201, r.text
    line = _get(client, "/roster?side=US", "US")["lines"][-1]
    assert [p["rg"] for p in line["rg_purchased"]] == ["I2"]
    assert line["left"] == left - 1
    # The German's old line: the undone HW1 is gone, I1 and the Recon stay.
    german = _get(client, "/roster?side=German", "German")["lines"][-1]
    assert [p["rg"] for p in german["rg_purchased"]] == ["I1"]
    assert german["recon_cpp"] == 1
    report = verify_bytes(client.get(f"{URL}/export", headers=_h("referee")).content)
    # The roll, the amendment asked and approved, the purchase.
    assert report.events == ANSWERS["version"] + 4
    # A second server on the same files answers the same.
    with TestClient(create_app(Settings(data_dir=data_dir, database_url=None))) as again:
        r = again.get(URL, headers=_h("US"))
        assert r.status_code == 200
        assert r.json()["version"] == ANSWERS["version"] + 4


def test_an_old_campaign_takes_a_definition_amendment(client: TestClient) -> None:
    """A campaign created before CG definitions has none in force: an amendment
    starts from nothing (``base_hash`` null), and its answers and listing are
    valid (a review found them failing their response model)."""
    r = client.post(
        f"{URL}/definition-amendments",
        json={"patch": {"attack_chits": {"US": 3}}, "reason": "the CG's chart"},
        headers=_h("referee"),
    )
    assert r.status_code == 201, r.text
    assert r.json()["base_hash"] is None
    assert r.json()["status"] == "applied"  # the referee's applies at once
    listed = client.get(f"{URL}/definition-amendments", headers=_h("US"))
    assert listed.status_code == 200, listed.text
    assert [a["base_hash"] for a in listed.json()["items"]] == [None]
