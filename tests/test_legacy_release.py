"""A database written by the release of commit c5bd0dd opens with today's code
and reads exactly the same (issue 24 item 6: stored events keep their topics
and payloads), and goes on.

``tests/data/release-c5bd0dd/`` was written by c5bd0dd's own code through its
REST API by ``tests/data/make_release_db.py`` (its docstring has the command
that regenerates it, and the story in full). A KGP campaign, 19 AM to 20 AM:
secret and public purchases and their 8.620 determination rolls (steered to
Depleted, so the SW and Equipment drs follow), FPP and Fortifications bought,
set up and placed by 8.6073, Control recorded alone and with a CG-Scenario
End, two scenario ends with their LVP, an Idle date, New CG Dates, Initiative
chits, undos applied at once, by approval and by a dispute, a rejected undo,
an amendment, reveals of a Secret roll and of a secret purchase, 8.622 Recon
and the 8.618 DR, ending with a dispute and an undo request open. An ABtF
campaign, 18 AM to 18 PM: the 9.618 rolls with the "*" dr, a reveal, an undo,
a scenario end and the Secret replenishment DRs. The database holds the
release's snapshots (every 25 events), so a load starts from one of them.

``answers.json.gz`` holds what c5bd0dd answered, by campaign and role (the two
sides and the referee; no ruleset has an observer): every read of ``READS`` in
the script, every page of ``/events``, every roll, the export and what
``cgledger verify`` said of it. Each answer is compared whole: status, ETag
and body. The one value masked (``VARIES``) is the export header's
``exported_at``: the server's time of the read. Where today's code corrects a
rule the release got wrong, ``CORRECTED`` and ``CORRECTED_BODIES`` list that exact difference, with
its rule (issue 26: 8.6232 note 2's Idle CG-LVP).
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cgledger import cli
from cgledger.api.app import create_app
from cgledger.settings import Settings
from cgledger.verify import verify_bytes

RELEASE = Path(__file__).parent / "data" / "release-c5bd0dd"
#: By campaign ("kgp", "abtf"): its id, tokens, version, and by role and path
#: what the release answered.
ANSWERS: dict[str, Any] = json.loads(gzip.decompress((RELEASE / "answers.json.gz").read_bytes()))
KGP = ANSWERS["kgp"]
#: The fields that vary from one read to the next, by read: the export
#: header's time of the read.
VARIES = {"/export": {"exported_at"}}
READS = [
    (name, role, path)
    for name, campaign in ANSWERS.items()
    for role, reads in campaign["reads"].items()
    for path in reads
    if path != "/export"
]
ROLES = [(name, role) for name, campaign in ANSWERS.items() for role in campaign["reads"]]


def _idle_cg_lvp(body: dict[str, Any]) -> dict[str, Any]:
    """8.6232 note 2 with 8.6033 (issue 26): on an Idle date "each side
    calculates its Current-LVP and CG-LVP Totals", CG-LVP being the Current-LVP
    plus the preceding CG Date's CG-LVP. The release repeated the 19 PM CG-LVP
    on the 19 N Idle row (U.S. 8); the rule gives 6 + 8 = 14 (German 0 + 4 = 4).
    Exactly that value changes; the stored answer must hold the old one."""
    rows = [dict(r) for r in body["rows"]]
    assert rows[2]["scenario"] == "idle"
    assert rows[2]["cg_lvp"] == {"German": 4, "US": 8}, "the release's Idle CG-LVP"
    rows[2]["cg_lvp"] = {"German": 4, "US": 14}
    return {**body, "rows": rows}


#: The answers today's code corrects on purpose, a rule the issue named fixed:
#: by campaign and read path (any role, any ``?at=``), how the release's body changes.
CORRECTED_BODIES = {("kgp", "/lvp"): _idle_cg_lvp}


def _copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("release") / "data"
    shutil.copytree(RELEASE / "data", target)
    return target


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _copy(tmp_path_factory)


@pytest.fixture(scope="module")
def client(data_dir: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=data_dir, database_url=None))) as c:
        yield c


def _url(name: str) -> str:
    return f"/v1/campaigns/{ANSWERS[name]['campaign']}"


def _h(name: str, role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {ANSWERS[name]['tokens'][role]}"}


def _read(client: TestClient, name: str, role: str, path: str) -> dict[str, Any]:
    """A read as the generator recorded it (``_read`` in make_release_db.py)."""
    r = client.get(_url(name) + path, headers=_h(name, role))
    answer = {"status": r.status_code, "etag": r.headers.get("ETag")}
    if r.headers["content-type"].startswith("application/json"):
        return {**answer, "body": r.json()}
    return {**answer, "text": r.text}


def _export(client: TestClient, name: str, role: str) -> tuple[bytes, dict[str, Any]]:
    r = client.get(_url(name) + "/export", headers=_h(name, role))
    lines = [json.loads(line) for line in r.content.splitlines()]
    return r.content, {"status": r.status_code, "etag": r.headers.get("ETag"), "lines": lines}


def _masked(export: dict[str, Any]) -> dict[str, Any]:
    header, *events = export["lines"]
    header = {k: v for k, v in header.items() if k not in VARIES["/export"]}
    return {**export, "lines": [header, *events]}


def _events(name: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = ANSWERS[name]["reads"]["referee"]["/export"]["lines"][1:]
    return events


#: What issue 26's rule fixes correct in the release's answers, by read
#: (campaign, role, path): each a function from the release's answer to the
#: answer due. Nothing else may differ.
#:
#: 9.6152's "18PM | G1, A1" (British): RG "received during a RePh without
#: purchase" (9.6181) that 9.6178 puts on the RG Purchase Record; the release
#: kept no 9.6152. From 18 PM on the British record holds them as OB-given
#: lines of the event that began 18 PM (no chart line of the sample lists G1 or
#: A1, so each shows its ID only and needs no roll).
def _with_9_6152_rows(answer: dict[str, Any]) -> dict[str, Any]:
    (began,) = [
        e["seq"]
        for e in _events("abtf")
        if e["type"] == "CGDateBegan" and e["payload"]["cg_date"] == "18 PM"
    ]
    given = [
        {
            "seq": began, "cg_date": "18 PM", "hidden": [], "item": item, "rg": rg, "name": "",
            "cpp": 0, "map_group": None, "modifiers": [], "ob": True, "purchased": None,
            "remaining": None, "strength": None, "units": None, "unit_type": None,
            "quality": None, "models": None, "sw": [], "equipment": [], "leader": None,
            "objective_hex": None, "fpp": None, "rolls": [], "needs": [],
        }
        for item, rg in enumerate(("G1", "A1"))
    ]  # fmt: skip
    rows = sorted([*answer["body"]["rows"], *given], key=lambda r: (r["seq"], r["item"]))
    return {**answer, "body": {**answer["body"], "rows": rows}}


CORRECTED = {
    ("abtf", role, "/rg-record?side=British"): _with_9_6152_rows
    for role in ("British", "German", "referee")
}


def _due(name: str, role: str, path: str) -> dict[str, Any]:
    """What the release answered, with issue 26's corrections (``CORRECTED``)."""
    answer: dict[str, Any] = ANSWERS[name]["reads"][role][path]
    fix = CORRECTED.get((name, role, path))
    answer = answer if fix is None else fix(answer)
    body_fix = CORRECTED_BODIES.get((name, path.split("?at=", maxsplit=1)[0]))
    return answer if body_fix is None else {**answer, "body": body_fix(answer["body"])}


def test_the_corrections_are_the_reads_that_differ() -> None:
    """Each correction names a read the release made, and changes it."""
    for (name, role, path), fix in CORRECTED.items():
        answer = ANSWERS[name]["reads"][role][path]
        assert fix(answer) != answer, (name, role, path)


def test_the_fixture_is_the_campaign_described() -> None:
    """What the docstrings claim the release wrote is in its log."""
    events = _events("kgp")
    assert {e["type"] for e in events} >= {
        "RGPurchased", "RGDetermined", "FortificationsPurchased", "FortificationsPlaced",
        "FortificationsRevealed", "ControlRecorded", "ScenarioEndProposed", "ScenarioEnded",
        "CGDateReady", "CGDateBegan", "InitiativeChosen", "InitiativeDetermined",
        "UndoRequested", "UndoApplied", "UndoRejected", "DisputeFiled", "DisputeResolved",
        "SecretRevealed", "DefinitionAmendmentRequested", "DefinitionAmended",
        "ReconPurchased", "TableRolled", "AmmunitionShortageRolled", "CPPReplenished",
    }  # fmt: skip
    needs = {e["secret"]["need"] for e in events if e["type"] == "RGDetermined" and e["secret"]}
    assert {"strength", "sw.0", "equipment.0", "leader"} <= needs
    assert len([e for e in events if e["type"] == "ScenarioEnded" and e["payload"]["lvp"]]) == 2
    assert len(events) == KGP["version"]
    assert KGP["reads"]["US"]["/state"]["body"]["pending_undo_requests"]
    assert KGP["reads"]["US"]["/state"]["body"]["open_disputes"]
    abtf = _events("abtf")
    needs = {e["secret"]["need"] for e in abtf if e["type"] == "RGDetermined" and e["secret"]}
    assert {"strength", "sw.star", "sw.0", "leader"} <= needs  # 9.6181, 9.6182, 9.6183
    assert {"CPPReplenished", "ScenarioEnded", "UndoApplied", "SecretRevealed"} <= {
        e["type"] for e in abtf
    }


def _extends(today: Any, release: Any, where: str = "") -> list[str]:
    """Where ``today`` differs from ``release`` other than by an added field
    (contracts evolve by extension: a field may be added, never renamed,
    retyped or changed)."""
    if isinstance(release, dict) and isinstance(today, dict):
        return [
            d
            for k, v in release.items()
            for d in (
                _extends(today[k], v, f"{where}.{k}") if k in today else [f"{where}.{k}: gone"]
            )
        ]
    if isinstance(release, list) and isinstance(today, list) and len(today) == len(release):
        return [d for i, (t, r) in enumerate(zip(today, release, strict=True))
                for d in _extends(t, r, f"{where}[{i}]")]  # fmt: skip
    return [] if today == release else [f"{where}: {release!r} -> {today!r}"[:300]]


#: What a Setup Areas map says: each hex and its status (the drawing around it
#: is presentation, redrawn by issue 27 with Control and a legend of its own).
HEX_STATUS = re.compile(r'data-hex="([^"]+)"[^>]*?data-status="([^"]+)"')


def _svg_data(answer: dict[str, Any]) -> dict[str, Any]:
    return {**answer, "text": sorted(HEX_STATUS.findall(answer["text"]))}


@pytest.mark.parametrize(("name", "role", "path"), READS)
def test_every_read_answers_as_the_release_did(
    client: TestClient, name: str, role: str, path: str
) -> None:
    _assert_read(_read(client, name, role, path), name, role, path)


def _assert_read(today: dict[str, Any], name: str, role: str, path: str) -> None:
    """``today``'s answer to ``path`` is the release's, or extends it."""
    due = _due(name, role, path)
    if ".svg" in path:
        today, due = _svg_data(today), _svg_data(due)
        assert due["text"], "the release's map names its hexes"
    assert _extends(today, due) == [], (name, role, path)


@pytest.mark.parametrize(("name", "role"), ROLES)
def test_every_page_of_events_and_every_roll_was_read(
    client: TestClient, name: str, role: str
) -> None:
    """Following ``next_after`` gives the pages the release gave, and no more."""
    recorded = ANSWERS[name]["reads"][role]
    after: int | None = 0
    pages = set()
    while after is not None:
        page = f"/events?after={after}&limit=25"
        pages.add(page)
        after = _read(client, name, role, page)["body"]["next_after"]
    assert pages == {p for p in recorded if p.startswith("/events?")}
    rolls = _read(client, name, role, "")["body"]["rolls"]
    assert {f"/rolls/{i}" for i in range(rolls)} == {p for p in recorded if p.startswith("/rolls/")}


@pytest.mark.parametrize(("name", "role"), ROLES)
def test_the_export_is_the_same_and_verifies(
    client: TestClient, name: str, role: str, tmp_path: Path
) -> None:
    content, export = _export(client, name, role)
    assert _masked(export) == _masked(ANSWERS[name]["reads"][role]["/export"])
    assert verify_bytes(content).events == ANSWERS[name]["version"]
    # ``cgledger verify FILE`` says what it said of the release's export.
    file = tmp_path / f"{role}.jsonl"
    file.write_bytes(content)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["verify", str(file)])
    said = {"exit": code, "stdout": out.getvalue(), "stderr": err.getvalue()}
    assert {**said, "stdout": said["stdout"].replace(str(file), "FILE")} == (
        ANSWERS[name]["verify"][role]
    )


def test_a_second_server_on_the_files_reads_the_same(client: TestClient, data_dir: Path) -> None:
    """Whatever the first server wrote on load (a snapshot), the next one reads."""
    for name in ANSWERS:
        _read(client, name, "referee", "")
    with TestClient(create_app(Settings(data_dir=data_dir, database_url=None))) as again:
        for name, role, path in READS[:: max(1, len(READS) // 60)]:
            _assert_read(_read(again, name, role, path), name, role, path)


@pytest.fixture
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    settings = Settings(data_dir=_copy(tmp_path_factory), database_url=None)
    with TestClient(create_app(settings)) as c:
        yield c


def test_the_release_campaign_goes_on(fresh: TestClient) -> None:
    """The dispute and the undo request the release left open are settled by
    today's code; the campaign then reads as of the release's head as it did."""
    url, version = _url("kgp"), KGP["version"]
    state = KGP["reads"]["US"]["/state"]["body"]
    (rid,) = state["pending_undo_requests"]
    (did,) = state["open_disputes"]
    r = fresh.post(f"{url}/undo-requests/{rid}/approve", headers=_h("kgp", "German"))
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "applied"
    r = fresh.post(
        f"{url}/disputes/{did}/resolve",
        json={"decision": "uphold", "note": "no DRM yet"},
        headers=_h("kgp", "German"),
    )
    assert r.status_code == 200, r.text
    r = fresh.post(f"{url}/rolls", json={"dice": 2, "purpose": "after"}, headers=_h("kgp", "US"))
    assert r.status_code == 201, r.text
    assert r.json()["index"] == KGP["reads"]["US"][""]["body"]["rolls"]
    content, export = _export(fresh, "kgp", "referee")
    assert verify_bytes(content).events == version + 3
    # The release's events are unchanged under the new ones; the roll the
    # request named is now reverted by the approval.
    old = _events("kgp")
    assert export["lines"][1 : version + 1] == old
    undone = old[-1]["payload"]["reverts"][0]
    page = _read(fresh, "kgp", "US", f"/events?after={undone - 1}&limit=1")["body"]
    assert [(e["seq"], e["reverted_by"]) for e in page["items"]] == [(undone, version + 1)]
    # As of the release's head, the reads are those the release gave.
    for path in ("/roster?side=German", "/rg-record?side=German", "/lvp", "/control"):
        sep = "&" if "?" in path else "?"
        got = _read(fresh, "kgp", "referee", f"{path}{sep}at={version}")["body"]
        assert _extends(got, _due("kgp", "referee", path)["body"]) == [], path


def test_an_added_field_extends_but_a_changed_or_gone_one_does_not() -> None:
    release = {"a": 1, "rows": [{"b": "x"}]}
    assert _extends({"a": 1, "new": 2, "rows": [{"b": "x", "c": 3}]}, release) == []
    assert _extends({"a": 2, "rows": [{"b": "x"}]}, release) == [".a: 1 -> 2"]
    assert _extends({"rows": [{"b": "x"}]}, release) == [".a: gone"]
    assert _extends({"a": 1, "rows": []}, release) != []
    assert _extends({"a": "1", "rows": [{"b": "x"}]}, release) != []
