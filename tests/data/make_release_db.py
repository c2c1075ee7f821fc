"""Build ``tests/data/release-c5bd0dd/``: a KGP and an ABtF campaign written by
the release of commit c5bd0dd (the code before the campaign became small
components, issue 24), and what that code answered to every read.
``tests/test_legacy_release.py`` opens a copy with today's code and asserts
every read is the same.

Run it from the checkout's root with the release's code first on the import
path (a plain copy of the commit's tree, so nothing of today's checkout is
imported; the script checks that):

    rm -rf /tmp/cg-c5bd0dd && mkdir /tmp/cg-c5bd0dd
    git archive c5bd0dd | tar -x -C /tmp/cg-c5bd0dd
    .venv/bin/python tests/data/make_release_db.py /tmp/cg-c5bd0dd tests/data/release-c5bd0dd

It plays through the REST API (a FastAPI TestClient on SQLite in the output's
``data/``, snapshots every 25 events), the dice steered by client nonces
where a branch matters (the script, in the server's process, reads the
committed seed of the next roll, as tests/test_ammunition_shortage.py does).
Campaign ids, tokens, seeds and times are new on every run, so a rerun writes
a different (equally valid) fixture.

KGP CG I (German 40 CPP, U.S. 10; the sample definition, map group Sx):

- 19 AM (before the Initial Scenario): public and Secret free rolls, one Secret
  roll revealed; a public HW1 purchase whose 8.6201 DR makes it Depleted and
  so needs a dr per piece of Equipment (8.6205); a secret I1 purchase made
  Depleted (a Secret dr per SW, 8.6204, then the leader DR, 8.6206); an F1
  (FPP); an I1 bought and undone at once; the U.S. I1 (quality, 8.6202;
  leader); a dispute upheld and one the referee reverts; a free roll undone by
  request and approval; a rejected undo request; a definition amendment asked
  and approved; a secret Fortification purchase in 8.621; Control recorded;
  the Initial Scenario's CG-Scenario End called by the referee (LVP).
- 19 AM RePh: a table roll (8.606); the New CG Date handshake (both sides).
- 19 PM: CPP Replenishment, 8.622 Recon, the secret I1 purchase revealed,
  Initiative chits (a Dual Attack and its 8.6233a dr), Fortifications set up
  secretly (8.6242), the CG-Scenario End sent by both sides with Control
  changes that give the German Setup Area to the U.S., 8.6073 placing the
  hidden minefield, and the New CG Date (19 N) begun by the referee.
- 19 N: an Idle date (both Idle chits); 20 AM: the 8.618 German Ammunition
  Shortage DR steered to a Final 12 (Shortage in effect); left open: a
  dispute and an undo request.

ABtF CG I from 18 AM (British 12 CPP, German 10; map group Bx): a public
German I1(X) made Depleted (9.6181) so that its "*" dr (9.6182) and SW drs
(9.6183) follow, a secret British I1 with its rolls and its purchase
revealed, Control undone at once, the referee's CG-Scenario End (LVP, 9.6212),
a New CG Date and both Secret CPP Replenishment DRs (9.6162).

It records in ``answers.json.gz`` (gzip-compressed JSON, a tenth of the size;
read it with ``zcat``), for each campaign and each role (the two sides and
the referee; no ruleset has an observer), what the release answered to each
read: ``READS``, every page of ``/events``, every roll, the export, and
``cgledger verify`` of that export. Only the export's ``exported_at`` (the
time of the read) varies from one read to the next.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import shutil
import sqlite3
import sys
from pathlib import Path
from typing import Any

OLD, OUT = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
sys.path.insert(0, str(OLD))

from fastapi.testclient import TestClient  # noqa: E402

from cgledger import cli  # noqa: E402
from cgledger.api.app import create_app  # noqa: E402
from cgledger.domain import dice  # noqa: E402
from cgledger.domain import purchases as book  # noqa: E402
from cgledger.domain.rulesets import REGISTRY  # noqa: E402
from cgledger.settings import Settings  # noqa: E402

assert Path(sys.modules["cgledger.api.app"].__file__ or "").is_relative_to(OLD), "not the old code"

#: The reads recorded for every role of a campaign, beside every page of
#: /events, every roll and the export; ``{a}``/``{b}`` are its two sides and
#: ``{g}`` its map group.
READS = (
    "",
    "/state",
    "/definition",
    "/checkpoint",
    "/roster?side={a}",
    "/roster?side={b}",
    "/rg-record?side={a}",
    "/rg-record?side={b}",
    "/reph",
    "/lvp",
    "/control",
    "/setup-areas",
    "/setup-areas?map_group={g}",
    "/setup-areas.svg?map_group={g}",
    "/dice-stats",
    "/dice-stats?side={b}",
    "/undo-requests",
    "/disputes",
    "/definition-amendments",
    "/initiative",
)
PAGE = 25


class Play:
    """One campaign of ``ruleset`` played over REST."""

    def __init__(self, client: TestClient, ruleset: str, **body: Any) -> None:
        self.client = client
        self.ruleset = REGISTRY[ruleset]
        # The sample definition with its first map group only (the second,
        # large and untouched here, would triple the size of every answer).
        definition = client.get(f"/v1/rulesets/{ruleset}/sample-definition").json()
        definition["map_groups"] = definition["map_groups"][:1]
        self.map_group: str = definition["map_groups"][0]["id"]
        body = {"ruleset": ruleset, "title": "release c5bd0dd", "definition": definition, **body}
        r = client.post("/v1/campaigns", json=body)
        assert r.status_code == 201, r.text
        self.cid: str = r.json()["id"]
        self.tokens: dict[str, str] = r.json()["tokens"]
        self.url = f"/v1/campaigns/{self.cid}"

    def h(self, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[role]}"}

    def post(self, role: str, path: str, body: Any = None, status: int = 201) -> Any:
        r = self.client.post(self.url + path, json=body, headers=self.h(role))
        assert r.status_code == status, (role, path, r.status_code, r.text)
        return r.json()

    def get(self, role: str, path: str) -> Any:
        r = self.client.get(self.url + path, headers=self.h(role))
        assert r.status_code == 200, (path, r.text)
        return r.json()

    def advance(self, side: str, to: str) -> None:
        self.post(side, "/reph/advance", {"to": to})

    # ------------------------------------------------------------ the dice

    def nonce(self, side: str, purpose: str, count: int, want: int | list[int]) -> str:
        """A client_nonce that gives the next roll ``want`` (a total or the dice)."""
        ledger = self.client.app.state.ledger  # type: ignore[attr-defined]
        campaign = ledger.load(self.cid)
        index = campaign.roll_count
        seed = campaign.seed(index, ledger.sealer)
        for n in range(20_000):
            got = dice.roll(
                seed, campaign=campaign.cid, index=index, client_nonce=f"steer-{n}",
                dice=count, purpose=purpose, side=side,
            )  # fmt: skip
            if got == want or sum(got) == want:
                return f"steer-{n}"
        raise AssertionError(f"no nonce gives {want}")

    def determine(self, side: str, seq: int, item: int, want: int | None = None) -> Any:
        """The next roll RG ``item`` of purchase ``seq`` needs (8.620), its
        Original steered to ``want``."""
        body: dict[str, Any] = {"for_purchase": seq, "item": item}
        if want is not None:
            ledger = self.client.app.state.ledger  # type: ignore[attr-defined]
            c = ledger.load(self.cid)
            row = next(r for r in c.rules["record"][side] if (r["seq"], r["item"]) == (seq, item))
            entry = book.find_entry(c.definition_doc()["rg_chart"][side], row["rg"])
            need = book.missing(c.ruleset.rules.purchases, side, entry, row)[0]
            table = c.table(need.table)
            hidden = row["secret"] or table.secret
            step = c.ruleset.rules.purchases.determine
            label = f"{c.ruleset_id}:{step} RG determination"
            purpose = label if hidden else f"{table.id} {table.title}"
            body["client_nonce"] = self.nonce(side, purpose, table.dice, want)
        return self.post(side, "/rg-determinations", body)

    def determine_all(self, side: str, seq: int, item: int, *wants: int) -> None:
        """Every roll the RG still needs, the first ones steered to ``wants``."""
        steered = list(wants)
        for _ in range(12):
            rows = self.get(side, f"/rg-record?side={side}")["rows"]
            row = next(r for r in rows if (r["seq"], r["item"]) == (seq, item))
            if not row["needs"]:
                return
            self.determine(side, seq, item, steered.pop(0) if steered else None)
        raise AssertionError("the RG never stopped needing rolls")


SIDES = ("US", "German")


def play_kgp(p: Play) -> None:
    """KGP CG I, 19 AM to 20 AM (the module's docstring)."""
    # ---------------------------------------------------------------- 19 AM
    secret_rolls, rolled = [], []
    for n in range(6):
        side = SIDES[n % 2]
        roll = p.post(side, "/rolls", {"dice": 2, "purpose": f"free {n}", "secret": n % 3 == 0})
        rolled.append(roll["seq"])
        if roll["secret"]:
            secret_rolls.append((side, roll["index"]))
    side, index = secret_rolls[0]
    p.post(side, f"/rolls/{index}/reveal", status=200)
    # 8.619 German: a public HW1 (Depleted: Original 12 -> a dr per Equipment,
    # 8.6205), a secret I1 (Depleted: a Secret dr per SW, 8.6204, then the
    # leader, 8.6206), an F1 for its FPP.
    hw = p.post("German", "/rg-purchases", {"rg": "HW1", "map_group": "Sx", "secret": False})
    i1 = p.post("German", "/rg-purchases", {"rg": "I1", "map_group": "Sx", "secret": True})
    p.post("German", "/rg-purchases", {"rg": "F1", "map_group": "Sx", "secret": False})
    # A purchase the German takes back alone: its own latest event.
    wrong = p.post("German", "/rg-purchases", {"rg": "I1", "map_group": "Sx", "secret": False})
    undone = p.post("German", "/undo-requests", {"seqs": [wrong["seq"]], "reason": "wrong RG"})
    assert undone["status"] == "applied", undone
    # 8.620: the rolls each RG needs.
    p.determine_all("German", hw["seq"], 0, 12, 2, 5, 1)
    p.determine_all("German", i1["seq"], 0, 12, 6, 4, 3)
    # 8.619 U.S.: an I1 (8.6202 quality, Original 5: 2nd Line; then the leader).
    us = p.post("US", "/rg-purchases", {"rg": "I1", "map_group": "Sx", "secret": False})
    p.determine_all("US", us["seq"], 0, 5)
    # A dispute the German upholds; a free roll the referee disputes and reverts.
    did = p.post("US", "/disputes", {"seq": hw["seq"], "claim": "8.6194: HW1 costs more"})["id"]
    p.post("German", f"/disputes/{did}/resolve", {"decision": "uphold", "note": "3 CPP"}, 200)
    free = p.post("US", "/rolls", {"dice": 1, "purpose": "disputed"})
    did = p.post("referee", "/disputes", {"seq": free["seq"], "claim": "rolled early"})["id"]
    p.post("referee", f"/disputes/{did}/resolve", {"decision": "revert", "note": "early"}, 200)
    # An undo by request: a roll is never undone alone; the U.S. approves.
    free = p.post("German", "/rolls", {"dice": 2, "purpose": "mistake", "secret": True})
    asked = p.post("German", "/undo-requests", {"seqs": [free["seq"]], "reason": "mistake"})
    assert asked["status"] == "pending", asked
    p.post("US", f"/undo-requests/{asked['id']}/approve", status=200)
    asked = p.post("German", "/undo-requests", {"seqs": [rolled[1]], "reason": "cocked die"})
    p.post("US", f"/undo-requests/{asked['id']}/reject", {"note": "it was flat"}, 200)
    # A definition amendment asked by one side and approved by the other.
    amendment = {"patch": {"attack_chits": {"US": 4}}, "reason": "the CG's chart"}
    aid = p.post("US", "/definition-amendments", amendment)["id"]
    p.post("German", f"/definition-amendments/{aid}/approve", status=200)
    # 8.621: Fortifications (5 FPP), kept secret.
    p.advance("German", "8.621")
    items = [{"type": "at-mine-factor", "count": 1}, {"type": "dummy", "count": 1}]
    p.post("German", "/fortification-purchases", {"items": items, "secret": True})
    control = {"map_group": "Sx", "locations": [{"hex": "B2", "level": 1, "side": "German"}]}
    p.post("German", "/control", control)
    for side in SIDES:
        p.advance(side, "scenario")
    p.post("referee", "/scenario-end", {"cvp": {"US": 3, "German": 5}})
    # ----------------------------------------------------- 19 AM's RePh, 19 PM
    p.post("US", "/tables/kgp:8.606-infantry/rolls", {})
    p.post("US", "/cg-dates", {})
    assert p.post("German", "/cg-dates", {})["cg_date"] == "19 PM"
    for side in SIDES:
        p.post(side, "/cpp-replenishments", {})
    p.advance("US", "8.622")
    p.post("US", "/recon", {"cpp": 1, "secret": False})
    p.post("German", f"/events/{i1['seq']}/reveal", status=200)
    for side in SIDES:
        p.advance(side, "8.623")
    for side in SIDES:
        p.post(side, "/initiative", {"chit": "attack"})
    for side in SIDES:
        p.advance(side, "8.624")
    areas = p.get("German", "/setup-areas?map_group=Sx")["areas"]
    mine = next(hx for a in areas if a["side"] == "German" for hx in a["hexes"])
    setup = {"map_group": "Sx", "items": [{"type": "at-mine-factor", "hex": mine}]}
    p.post("German", "/fortification-setups", {**setup, "retained": {"A": 1}})
    for side in SIDES:
        p.advance(side, "scenario")
    # The U.S. takes every German Strategic Location: 8.6073 places the mine.
    taken = [{"hex": "C1", "side": "US"}] + [
        {"hex": "C3", "level": level, "side": "US"} for level in (0, 1, 2)
    ]
    end = {"cvp": {"US": 2, "German": 4}, "control": [{"map_group": "Sx", "locations": taken}]}
    assert p.post("US", "/scenario-end", end)["status"] == "proposed"
    assert p.post("German", "/scenario-end", end)["status"] == "recorded"
    p.advance("US", "8.606")
    shown = p.post("US", "/hidden-fortifications", {"map_group": "Sx"})
    assert shown["event"]["payload"]["revealed"], shown
    p.post("referee", "/cg-dates", {})
    # ---------------------------------------------------------- 19 N, 20 AM
    for side in SIDES:
        p.post(side, "/cpp-replenishments", {})
        p.advance(side, "8.623")
    for side in SIDES:
        p.post(side, "/initiative", {"chit": "idle"})
    assert p.post("referee", "/cg-dates", {})["cg_date"] == "20 AM"
    for side in SIDES:
        p.post(side, "/cpp-replenishments", {})
    shortage = REGISTRY["kgp"].tables["kgp:8.618"]
    nonce = p.nonce("German", f"{shortage.id} {shortage.title}", 2, 12)
    dr = p.post("German", "/ammunition-shortage", {"client_nonce": nonce})
    assert dr["event"]["payload"]["final"] == 12, dr
    # Left open for the new code: a dispute and an undo request.
    p.post("US", "/disputes", {"seq": dr["seq"], "claim": "8.618: the DRM"})
    free = p.post("US", "/rolls", {"dice": 2, "purpose": "last"})
    asked = p.post("US", "/undo-requests", {"seqs": [free["seq"]], "reason": "too soon"})
    assert asked["status"] == "pending", asked


def play_abtf(p: Play) -> None:
    """ABtF CG I, 18 AM to 18 PM (the module's docstring)."""
    # 9.617: a public German I1(X) made Depleted (9.6181: Final >= 10), so its
    # "*" dr (9.6182) and a dr per SW follow; a secret British I1 (its leader).
    german = p.post("German", "/rg-purchases", {"rg": "I1(X)", "secret": False})
    british = p.post("British", "/rg-purchases", {"rg": "I1", "secret": True})
    p.determine_all("German", german["seq"], 0, 11, 4)
    p.determine_all("British", british["seq"], 0)
    p.post("British", f"/events/{british['seq']}/reveal", status=200)
    control = {"map_group": p.map_group, "locations": [{"hex": "C3", "side": "British"}]}
    p.post("British", "/control", control)
    last = p.get("referee", "")["version"]
    undone = p.post("British", "/undo-requests", {"seqs": [last], "reason": "C3 held"})
    assert undone["status"] == "applied", undone
    for side in ("British", "German"):
        p.advance(side, "scenario")
    p.post("referee", "/scenario-end", {"cvp": {"British": 2, "German": 1}})
    p.post("referee", "/cg-dates", {})
    for side in ("British", "German"):
        p.post(side, "/cpp-replenishments", {})


def record(p: Play, out: Path) -> dict[str, Any]:
    answers: dict[str, Any] = {"campaign": p.cid, "tokens": p.tokens, "reads": {}, "verify": {}}
    answers["version"] = p.get("referee", "")["version"]
    a, b = p.ruleset.sides
    reads_of = [path.format(a=a, b=b, g=p.map_group) for path in READS]
    for role in (*p.ruleset.sides, "referee"):
        reads = answers["reads"][role] = {path: _read(p, role, path) for path in reads_of}
        after = 0
        while after is not None:
            path = f"/events?after={after}&limit={PAGE}"
            reads[path] = _read(p, role, path)
            after = reads[path]["body"]["next_after"]
        for index in range(p.get(role, "")["rolls"]):
            reads[f"/rolls/{index}"] = _read(p, role, f"/rolls/{index}")
        export = p.client.get(p.url + "/export", headers=p.h(role))
        assert export.status_code == 200
        lines = [json.loads(line) for line in export.content.splitlines()]
        reads["/export"] = {"status": 200, "etag": export.headers.get("ETag"), "lines": lines}
        answers["verify"][role] = verify(export.content, out / f"{role}.jsonl")
    return answers


def _read(p: Play, role: str, path: str) -> dict[str, Any]:
    r = p.client.get(p.url + path, headers=p.h(role))
    assert r.status_code == 200, (role, path, r.text)
    answer = {"status": r.status_code, "etag": r.headers.get("ETag")}
    if r.headers["content-type"].startswith("application/json"):
        return {**answer, "body": r.json()}
    return {**answer, "text": r.text}


def verify(export: bytes, scratch: Path) -> dict[str, Any]:
    """``cgledger verify FILE``: its exit code and what it prints."""
    scratch.write_bytes(export)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["verify", str(scratch)])
    scratch.unlink()
    assert code == 0, err.getvalue()
    stdout = out.getvalue().replace(str(scratch), "FILE")
    return {"exit": code, "stdout": stdout, "stderr": err.getvalue()}


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    data = OUT / "data"
    settings = Settings(data_dir=data, database_url=None, snapshot_interval=25)
    answers: dict[str, Any] = {}
    with TestClient(create_app(settings)) as client:
        kgp = Play(client, "kgp", campaign="CG I", initial_cpp={"German": 40, "US": 10})
        play_kgp(kgp)
        abtf = Play(
            client, "abtf", campaign="CG I", start_date="18 AM",
            initial_cpp={"British": 12, "German": 10},
        )  # fmt: skip
        play_abtf(abtf)
        for name, p in (("kgp", kgp), ("abtf", abtf)):
            answers[name] = record(p, OUT)
    # Compact the file: the test copies it for every run.
    with contextlib.closing(sqlite3.connect(data / "cgledger.sqlite3")) as db:
        db.execute("VACUUM")
    # Compressed (a tenth of the size): read it with ``zcat answers.json.gz``.
    text = json.dumps(answers, indent=None, sort_keys=True, separators=(",", ":")) + "\n"
    (OUT / "answers.json.gz").write_bytes(gzip.compress(text.encode(), 9, mtime=0))
    for name, p in (("kgp", kgp), ("abtf", abtf)):
        print(f"{OUT}: {name} campaign {p.cid}, {answers[name]['version']} events")


if __name__ == "__main__":
    main()
