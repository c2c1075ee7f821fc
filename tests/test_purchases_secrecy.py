"""Secret purchases stay secret (DESIGN §4, §10; 8.619: "The CPP expended,
those remaining, and the RG(s) purchased may all be kept secret"; 8.6192,
8.6201-8.6206 Secret DR, 8.621, 8.6242), on SQLite and PostgreSQL.

The German buys in secret on the Initial Scenario's CG Date (a batch of
several RG, an empty batch, Fortifications), makes every determination roll,
and on the next CG Date buys FPP and Fortifications again and records their
setup Locations. Then everything the U.S. token can read is read (the
campaign, the log, the export, the live feed, the German Roster and RG
Purchase Record now and as of earlier versions, every roll, the dice
statistics, the RePh, Setup Areas, LVP, state, ...) along with the answers to
U.S. attempts to act on the German events. No secret value may appear in any
of it: the RG the German alone can buy, the Group Type names, the CPP costs,
the strengths, the tables the rolls were made on, the FPP and the
Fortifications. The RG Purchase Record shows the U.S. one stub per secret
purchase event, not one per RG. The German and the referee do see each of
those values, in the same reads.

What the campaign's definition publishes (the RG charts) and the tables that
a side's first secret determination roll defines all at once (every
determination table of the ruleset, so the set tells nothing) are public by
design: they are left out of the search, and that they are left out is
checked.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.domain.rulesets import REGISTRY

pytestmark = [pytest.mark.store, pytest.mark.shared_app]

KGP = {"ruleset": "kgp", "campaign": "CG I", "title": "secrecy"}
#: The determination tables of the rolls the German makes here (8.6201
#: strength, 8.6204 a Depleted platoon's SW, 8.6205 a Depleted HW Pltn's
#: Equipment, 8.6206 its leader).
TABLES = ("kgp:8.6201", "kgp:8.6204", "kgp:8.6205", "kgp:8.6206-german")
FIRST = [
    {"rg": "I1", "map_group": "Sx"},
    {"rg": "I1", "map_group": "Sy"},
    {"rg": "HW1", "map_group": "Sx"},
    {"rg": "F1", "map_group": "Sx"},
]
SECOND = [{"rg": "F1", "map_group": "Sx"}, {"rg": "HW1", "map_group": "Sy"}]


def chart(side: str) -> dict[str, dict[str, Any]]:
    sample = REGISTRY["kgp"].sample_definition
    return {e["id"]: dict(e) for e in sample["rg_chart"][side]}


def secret_patterns() -> dict[str, str]:
    """What the German's secret purchases hold, as patterns over the JSON
    texts (``json.dumps`` spacing): the RG only the German chart lists, the
    Group Type names only it has, the costs, the rolls' results and tables,
    the FPP and the Fortifications."""
    german, us = chart("German"), chart("US")
    out: dict[str, str] = {}
    for rg in sorted(german.keys() - us.keys()):
        out[f"RG {rg}"] = rf'"{re.escape(rg)}"'
    us_names = {e["name"] for e in us.values()}
    bought = {item["rg"] for item in FIRST + SECOND}
    for entry in (german[rg] for rg in sorted(bought)):
        if entry["name"] not in us_names:
            out[f"name {entry['name']}"] = re.escape(entry["name"])
    for cost in sorted({german[rg]["cpp"] for rg in bought}):
        out[f"cost {cost}"] = rf'"cpp": {cost}\b'
    out["strength"] = r'"strength": "[FD]"'
    out["strength result"] = r"Full Strength|Depleted"
    out["leader"] = r'"leader": "'
    for table in TABLES:
        out[f"table {table}"] = re.escape(table) + r"(?![\w-])"
    out["FPP"] = r'"fpp": [1-9]'
    out["FPP spent"] = r'"fpp_spent": [1-9]'
    out["A-T mines"] = r'"at-mine-factor"'
    out["Dummy"] = r'"dummy"'
    return out


PATTERNS = secret_patterns()
#: Every table a determination roll of the ruleset may be read on.
DETERMINATION = frozenset(REGISTRY["kgp"].rules.purchases.tables)
#: Each of these must show to the German (and the referee) in the reads below:
#: the patterns of the tables rolled on are added once known.
ALWAYS_SHOWN = [k for k in PATTERNS if not k.startswith("table ")]


# ------------------------------------------------------------------ the campaign


class Secrets:
    """The German's secret events, seqs and rolls, as made."""

    def __init__(self) -> None:
        self.purchases: list[int] = []
        self.empty: list[int] = []
        self.forts: list[int] = []
        self.setups: list[int] = []
        self.rolls: list[int] = []


def determine_all(game: Game, secrets: Secrets) -> None:
    """8.620: every roll the German's RG need, named by purchase and item."""
    for _ in range(40):
        rows = ok(game.get("German", "/rg-record?side=German"))["rows"]
        today = game.cg_date()
        todo = [r for r in rows if r["cg_date"] == today and r["needs"]]
        if not todo:
            break
        body = {"for_purchase": todo[0]["seq"], "item": todo[0]["item"]}
        out = created(game.post("German", "/rg-determinations", body))
        assert out["roll"]["secret"] is True, out
        secrets.rolls.append(out["roll"]["index"])
    problem = assert_problem(game.post("German", "/rg-determinations", {}), 409)
    assert problem["detail"].startswith("8.620: "), problem


def play(client: TestClient) -> tuple[Game, Secrets]:
    game = Game(client, {**KGP, "initial_cpp": {"German": 40, "US": 40}})
    s = Secrets()
    # 19 AM (the Initial Scenario; 8.619-8.621 are '†'): a batch, an empty batch.
    s.purchases.append(created(game.post("German", "/rg-purchases", {"rgs": FIRST}))["seq"])
    empty = created(game.post("German", "/rg-purchases", {"rgs": [], "secret": True}))
    s.empty.append(empty["seq"])
    determine_all(game, s)
    body = {"items": [{"type": "at-mine-factor", "count": 1}]}
    s.forts.append(created(game.post("German", "/fortification-purchases", body))["seq"])
    # 19 PM: FPP again, Fortifications, and (8.624) their setup Locations.
    game.next_date()
    game.advance("German", "8.619")
    s.purchases.append(created(game.post("German", "/rg-purchases", {"rgs": SECOND}))["seq"])
    determine_all(game, s)
    items = [{"type": "dummy", "count": 1}, {"type": "at-mine-factor", "count": 1}]
    s.forts.append(
        created(game.post("German", "/fortification-purchases", {"items": items}))["seq"]
    )
    for side in ("US", "German"):
        game.advance(side, "8.623")
    game.choose_chits("attack")
    game.advance("German", "8.624")
    view = ok(game.get("German", "/setup-areas?map_group=Sx"))
    area = next(a for a in view["areas"] if a["side"] == "German" and not a["isolated"])
    hexes = area["hexes"]
    setup = {
        "map_group": "Sx",
        "items": [
            {"type": "at-mine-factor", "hex": hexes[0], "count": 2},
            {"type": "dummy", "hex": hexes[-1]},
        ],
        "retained": {area["id"]: 1},
    }
    s.setups.append(created(game.post("German", "/fortification-setups", setup))["seq"])
    return game, s


# ------------------------------------------------------------------ reading as a role


def strip_public(event: dict[str, Any], defined: list[str]) -> dict[str, Any]:
    """An event without what is public by design: the CG definition in the
    creation event (the RG charts) and the tables public rolls defined
    (collected in ``defined``: no sealed roll defines one in public)."""
    event = copy.deepcopy(event)
    kind = event.get("type")
    if kind == "CampaignCreated":
        assert "definition" in event["payload"]
        del event["payload"]["definition"]
    elif kind == "TableDefined":
        defined.append(event["payload"]["table"])
        event["payload"] = {}
    return event


class Reader:
    """Everything ``role`` reads, as JSON texts with the public parts left out."""

    def __init__(self, game: Game, role: str) -> None:
        self.game = game
        self.role = role
        self.texts: list[tuple[str, str]] = []
        #: Tables defined, per source (events, export, feed).
        self.defined: dict[str, list[str]] = {}
        #: GET /dice-stats?table=, by table (without the filters echoed).
        self.by_table: dict[str, Any] = {}

    def add(self, label: str, body: Any) -> None:
        text = body if isinstance(body, str) else json.dumps(body)
        self.texts.append((label, text))

    def get(self, path: str) -> Any:
        r = self.game.get(self.role, path)
        assert r.status_code == 200, (path, r.text)
        self.add(f"GET {path} headers", json.dumps(dict(r.headers)))
        if r.headers["content-type"].startswith("application/json"):
            body = r.json()
            self.add(f"GET {path}", body)
            return body
        return r.text

    def events(self) -> list[dict[str, Any]]:
        path = "/events?after=0&limit=1000"
        r = self.game.get(self.role, path)
        items: list[dict[str, Any]] = ok(r)["items"]
        defined = self.defined.setdefault("events", [])
        for e in items:
            self.add(f"GET {path} #{e['seq']}", strip_public(e, defined))
        return items

    def export(self) -> None:
        r = self.game.get(self.role, "/export")
        assert r.status_code == 200, r.text
        lines = r.text.splitlines()
        self.add("GET /export header", json.loads(lines[0]))
        defined = self.defined.setdefault("export", [])
        for line in lines[1:]:
            e = json.loads(line)
            self.add(f"GET /export #{e['seq']}", strip_public(e, defined))

    def feed(self) -> None:
        r = self.game.get(self.role, "/stream?after=0&follow=false")
        assert r.status_code == 200, r.text
        defined = self.defined.setdefault("stream", [])
        for line in r.text.splitlines():
            if not line.startswith("data: "):
                self.add("GET /stream (not data)", line)
                continue
            data = json.loads(line[len("data: ") :])
            if isinstance(data, dict) and isinstance(data.get("event"), dict):
                data = {**data, "event": strip_public(data["event"], defined)}
            self.add("GET /stream data", data)

    def attempt(self, path: str, body: Any, status: int | None = None) -> dict[str, Any]:
        """A POST the role may not make: 4xx, nothing appended."""
        before = self.game.version()
        r = self.game.post(self.role, path, body)
        assert 400 <= r.status_code < 500, (path, body, r.text)
        if status is not None:
            assert r.status_code == status, (path, body, r.text)
        problem = assert_problem(r, r.status_code)
        assert self.game.version() == before, (path, body)
        self.add(f"POST {path} {body}", problem)
        return problem

    def found(self, pattern: str) -> list[str]:
        return [label for label, text in self.texts if re.search(pattern, text)]


def read_everything(game: Game, role: str, s: Secrets) -> Reader:
    reader = Reader(game, role)
    campaign = reader.get("")
    reader.events()
    reader.export()
    reader.feed()
    reader.get("/state")
    reader.get("/roster?side=German")
    reader.get("/roster?side=US")
    reader.get("/rg-record?side=German")
    for v in sorted(
        {1, s.purchases[0], s.empty[0], s.forts[0], s.purchases[-1], campaign["version"]}
    ):
        reader.get(f"/rg-record?side=German&at={v}")
        reader.get(f"/roster?side=German&at={v}")
    for index in range(campaign["rolls"]):
        reader.get(f"/rolls/{index}")
    reader.get("/dice-stats")
    # Filtered by a table, the statistics echo the filter: they are compared instead.
    by_table = {}
    for table in (*TABLES, "kgp:8.6202"):
        stats = ok(game.get(role, f"/dice-stats?table={table}"))
        assert stats.pop("filters")["table"] == table
        by_table[table] = stats
    reader.add(
        "GET /dice-stats?table= (all the same)", len({json.dumps(v) for v in by_table.values()})
    )
    reader.by_table = by_table
    reader.get("/dice-stats?side=German")
    reader.get("/reph")
    for group in ("Sx", "Sy"):
        reader.get(f"/setup-areas?map_group={group}")
        reader.get(f"/control?map_group={group}")
    reader.get("/setup-areas.svg?map_group=Sx")
    reader.get("/lvp")
    reader.get("/initiative?cg_date=19%20PM")
    reader.get("/undo-requests")
    reader.get("/disputes")
    reader.get("/checkpoint")
    return reader


# ------------------------------------------------------------------ the test


@pytest.fixture(scope="module")
def played(module_client: TestClient) -> tuple[Game, Secrets]:
    """Played once per module (and backend): the tests only read it."""
    return play(module_client)


def used_tables(game: Game) -> set[str]:
    """The tables the German's determination rolls were read on (referee's log)."""
    events = ok(game.get("referee", "/events?after=0&limit=1000"))["items"]
    return {
        roll["rule"]
        for e in events
        if e["type"] == "RecordSealed" and e["secret"]["kind"] == "RGDetermined"
        for roll in e["secret"]["rolls"]
    }


def test_the_us_sees_no_secret_of_the_german(played: tuple[Game, Secrets]) -> None:
    game, s = played
    us = read_everything(game, "US", s)
    # What the U.S. may try to do with the German events: refused, and telling nothing.
    first = s.purchases[0]
    told = us.attempt("/rg-determinations", {"for_purchase": first}, 422)
    other = us.attempt("/rg-determinations", {"for_purchase": 2}, 422)
    assert re.sub(r"\d+", "N", told["detail"]) == re.sub(r"\d+", "N", other["detail"])
    assert told["field"] == other["field"]
    us.attempt("/rg-determinations", {"for_purchase": first, "item": 2})
    us.attempt("/rg-determinations", {"for_purchase": first, "side": "German"}, 403)
    us.attempt("/rg-determinations", {"side": "German"}, 403)
    for seq in s.purchases + s.empty + s.forts + s.setups:
        us.attempt(f"/events/{seq}/reveal", None, 403)
    for index in s.rolls:
        us.attempt(f"/rolls/{index}/reveal", None, 403)
    us.attempt("/fortification-purchases", {"side": "German", "items": []}, 403)
    us.attempt("/rg-purchases", {"side": "German", "rg": "HW1", "map_group": "Sx"}, 403)
    leaks = {name: us.found(p) for name, p in PATTERNS.items()}
    assert {k: v for k, v in leaks.items() if v} == {}

    # What the U.S. does see: one stub per secret purchase event.
    rows = ok(game.get("US", "/rg-record?side=German"))["rows"]
    assert all(r == {"seq": r["seq"], "cg_date": r["cg_date"], "redacted": True} for r in rows)
    assert [r["seq"] for r in rows] == sorted(s.purchases + s.empty)
    assert len(rows) < len(FIRST) + len(SECOND)
    placed = ok(game.get("US", "/rg-record?side=German"))["fortifications"]["placed"]
    assert [(p["seq"], p["redacted"], "items" in p) for p in placed] == [(s.setups[0], True, False)]
    # The Roster hides every number a secret purchase decides.
    for line in ok(game.get("US", "/roster?side=German"))["lines"]:
        for name in ("spent", "left", "fpp", "fpp_spent", "fortifications"):
            assert line[name] is None, (name, line)
            assert name in line["hidden"], (name, line)
        assert line["rg_purchased"] == []
    # Every secret roll is a stub, and none names its table or purchase.
    for index in s.rolls:
        roll = ok(game.get("US", f"/rolls/{index}"))
        assert (roll["dice"], roll["seed"], roll["outcome"]) == (None, None, None), roll
        assert roll["purpose"] == "sealed (cgledger-dice/2)", roll
        assert (roll["count"], roll["client_nonce"], roll["rule"]) == (0, "", None), roll
    # Statistics filtered by table tell no table from another.
    assert len({json.dumps(v) for v in us.by_table.values()}) == 1, us.by_table
    # No table a sealed roll read is defined in public: the record carries it.
    assert set(TABLES) <= DETERMINATION
    for source, defined in us.defined.items():
        assert not set(defined) & DETERMINATION, source


@pytest.mark.parametrize("role", ["German", "referee"])
def test_the_german_and_the_referee_see_them(played: tuple[Game, Secrets], role: str) -> None:
    """The same reads show each secret value to its owner and to the referee:
    the search above looks for what is there."""
    game, s = played
    reader = read_everything(game, role, s)
    used = used_tables(game)
    assert {"kgp:8.6201", "kgp:8.6206-german"} <= used <= set(TABLES)
    wanted = ALWAYS_SHOWN + [f"table {t}" for t in sorted(used)]
    missing = [name for name in wanted if not reader.found(PATTERNS[name])]
    assert missing == []
    rows = ok(game.get(role, "/rg-record?side=German"))["rows"]
    assert [(r["seq"], r["rg"]) for r in rows] == [
        (seq, item["rg"])
        for seq, batch in zip(s.purchases, (FIRST, SECOND), strict=True)
        for item in batch
    ]
    assert all(r["strength"] in ("F", "D") for r in rows if r["rg"] != "F1")
    placed = ok(game.get(role, "/rg-record?side=German"))["fortifications"]["placed"]
    assert [sorted(i["type"] for i in p["items"]) for p in placed] == [["at-mine-factor", "dummy"]]
    line = ok(game.get(role, "/roster?side=German"))["lines"][-1]
    assert (line["fpp"], line["fortifications"]) == (
        chart("German")["F1"]["fpp"],
        {"dummy": 1, "at-mine-factor": 1},
    )


def test_an_empty_secret_batch_shows_a_stub_like_any_other(client: TestClient) -> None:
    """8.619: the RG purchased may be kept secret, so an empty secret batch
    (buying nothing) must look like any secret purchase: one stub per event."""
    game = Game(client, {**KGP, "initial_cpp": {"German": 40}})
    bought = created(game.post("German", "/rg-purchases", {"rgs": FIRST[2:3]}))["seq"]
    empty = created(game.post("German", "/rg-purchases", {"rgs": []}))["seq"]
    rows = ok(game.get("US", "/rg-record?side=German"))["rows"]
    assert [r["seq"] for r in rows] == [bought, empty]
