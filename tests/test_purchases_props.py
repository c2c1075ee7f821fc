"""Purchases by property (DESIGN §10; 8.619-8.621, 9.617-9.619): a Hypothesis
state machine over the REST API, on SQLite.

One campaign per example, on the sample definition of a CPP ruleset (with RG
given in the Initial-Scenario OB now and then) and a random initial CPP.
Random roles buy random RG (one, or a batch of 0-3; from the chart or not;
for a random Map Group or none; with the price, a wrong one or none; with an
8.6194 modifier now and then; secret or not), make the determination rolls
(8.620, 9.618), buy Fortifications with their FPP (8.621, 9.619), advance
their RePh step, undo their own latest action, and begin new CG Dates.

Every answer is checked against what the ledger showed just before: a
purchase is accepted only within the CPP left, the chart's price and its
limits, and refused only for one of those (or the step); a refusal appends
nothing. After every step, on every CG Roster line the CPP spent never exceed
the total and the FPP spent never exceed the FPP granted; the RG Purchase
Record breaks no limit (counted per RG, and per CG Date and Map Group where
8.6195 says so); and ``GET /rg-record?at=<version>`` answers what the live
answer at that version was.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass
from typing import Any

import hypothesis
from conftest import Game, assert_problem, examples
from fastapi.testclient import TestClient
from hypothesis import HealthCheck
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from cgledger.domain.rulesets import REGISTRY

REFEREE = "referee"


@dataclass(frozen=True)
class Kind:
    ruleset: str
    body: dict[str, Any]
    sides: tuple[str, str]
    groups: tuple[str, ...]
    per_map_group: bool
    sequence: str
    buy: str
    price: str
    date_max: str
    cg_max: str
    determine: str
    fortify: str
    #: Steps a side may be told to advance to.
    targets: tuple[str, ...]
    #: 8.6194 modifiers: id -> (sides, ID prefixes), +50% FRD.
    modifiers: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]
    #: The Fortification Purchase Table: type -> {side: FPP cost}.
    forts: dict[str, dict[str, float]]
    ob: dict[str, Any]


def _table(sides: tuple[str, str], rows: dict[str, tuple[float | None, float | None]]) -> Any:
    return {
        t: {s: c for s, c in zip(sides, costs, strict=True) if c is not None}
        for t, costs in rows.items()
    }


KGP = Kind(
    ruleset="kgp",
    body={"ruleset": "kgp", "campaign": "CG I", "title": "purchase props"},
    sides=("US", "German"),
    groups=("Sx", "Sy"),
    per_map_group=True,
    sequence="8.6",
    buy="8.619",
    price="8.6194",
    date_max="8.6195",
    cg_max="8.6196",
    determine="8.620",
    fortify="8.621",
    targets=("8.620", "8.621", "8.622"),
    modifiers={
        "early-entry": (("US",), ("I", "V", "G")),  # 8.6194b
    },
    # 8.621 Fortification Purchase Table (U.S./German).
    forts=_table(
        ("US", "German"),
        {
            "trench": (7, 7),
            "foxhole-3s": (3, 3),
            "foxhole-2s": (2, 2),
            "foxhole-1s": (1, 1),
            "ap-mine-factor": (1, 1.5),
            "at-mine-factor": (3, 4),
            "roadblock": (7, 7),
            "dummy": (1, 1),
            "hip-squad": (3, 3),
            "hip-hs": (2, 2),
            "hip-crew": (1, 1),
            "hip-smc": (1, 1),
        },
    ),
    ob={"German": [{"rg": "I1", "count": 1, "map_group": "Sx"}]},
)
ABTF = Kind(
    ruleset="abtf",
    body={"ruleset": "abtf", "campaign": "CG I", "title": "purchase props", "start_date": "18 PM"},
    sides=("British", "German"),
    groups=("Bx", "By"),
    per_map_group=False,
    sequence="9.6",
    buy="9.617",
    price="9.6173",
    date_max="9.6175",
    cg_max="9.6176",
    determine="9.618",
    fortify="9.619",
    targets=("9.618", "9.619", "9.620"),
    modifiers={},
    # 9.619 Fortification Purchase Table (British/German); footnote 2 "German/" cut.
    forts=_table(
        ("British", "German"),
        {
            "trench": (6, 6),
            "foxhole-3s": (3, 3),
            "foxhole-2s": (2, 2),
            "foxhole-1s": (1, 1),
            "ap-mine-factor": (6, 3),
            "at-mine-factor": (4, None),
            "wire": (None, 10),
            "fortified-location": (10, 10),
            "hip-squad": (3, 3),
            "hip-hs": (2, 2),
            "hip-crew": (1, 1),
            "hip-smc": (1, 1),
            "dummy": (1, 1),
        },
    ),
    ob={"German": [{"rg": "I1(X)", "count": 1}]},
)
KINDS = {k.ruleset: k for k in (KGP, ABTF)}
MAX_DATES = 2


def key_of(entry: dict[str, Any]) -> str:
    kg = entry.get("kg")
    return str(entry["id"]) if kg is None else f"{entry['id']}({kg})"


def rule_of(detail: str) -> str:
    return detail.split(":", 1)[0]


class PurchaseMachine(RuleBasedStateMachine):
    def __init__(self, client: TestClient) -> None:
        super().__init__()
        self.client = client
        self.kind = KGP
        self.game: Game | None = None
        self.chart: dict[str, dict[str, dict[str, Any]]] = {}
        self.dates = 0
        self.version = 0
        self.cache: dict[tuple[int, str, str], Any] = {}
        #: version -> (role, side) -> GET /rg-record as answered live then.
        self.answers: dict[int, dict[tuple[str, str], dict[str, Any]]] = {}

    # ------------------------------------------------------------------ helpers

    @property
    def g(self) -> Game:
        assert self.game is not None
        return self.game

    def fresh(self) -> int:
        """The campaign version, read again (after anything that may append)."""
        self.version = self.g.version()
        return self.version

    def read(self, role: str, path: str) -> Any:
        """A GET as ``role``, kept until the version changes (a read model is a
        function of the events: nothing may change it but an append)."""
        key = (self.version, role, path)
        if key not in self.cache:
            r = self.g.get(role, path)
            assert r.status_code == 200, r.text
            self.cache = {k: v for k, v in self.cache.items() if k[0] == self.version}
            self.cache[key] = r.json()
        return copy.deepcopy(self.cache[key])

    def record(self, side: str, role: str = REFEREE) -> dict[str, Any]:
        found: dict[str, Any] = self.read(role, f"/rg-record?side={side}")
        return found

    def rows(self, side: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.record(side)["rows"]
        return found

    def lines(self, side: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.read(REFEREE, f"/roster?side={side}")["lines"]
        return found

    def step(self, side: str) -> str:
        current: str = self.read(REFEREE, "/reph")["current"][side]
        return current

    def pending(self, side: str) -> list[dict[str, Any]]:
        """The side's RG of the current CG Date that still need a roll."""
        today = self.cg_date()
        return [row for row in self.rows(side) if row["cg_date"] == today and row["needs"]]

    def cg_date(self) -> str:
        date: str = self.read(REFEREE, "")["cg_date"]
        return date

    def order(self, step: str) -> int:
        if step == "scenario":
            return 10_000
        return REGISTRY[self.kind.ruleset].step_order(step)

    def snapshot(self) -> Any:
        return (
            self.version,
            {s: self.rows(s) for s in self.kind.sides},
            {s: self.lines(s) for s in self.kind.sides},
        )

    def send(self, role: str, path: str, body: Any) -> Any:
        """POST; a refusal is problem+json and changes nothing."""
        before = self.snapshot()
        r = self.g.post(role, path, body)
        assert r.status_code < 500, r.text
        if r.status_code >= 400:
            problem = assert_problem(r, r.status_code)
            assert self.fresh() == before[0], f"refused {path} ({problem['detail']}) appended"
            self.cache.clear()  # read the same version again: nothing may differ
            assert self.snapshot() == before, f"refused {path} ({problem['detail']}) changed"
            hypothesis.event(f"{path} refused {r.status_code} {rule_of(problem['detail'])}")
        else:
            assert r.status_code == 201, r.text
            assert self.fresh() > before[0]
            hypothesis.event(f"{path} accepted")
        return r

    # ------------------------------------------------------------------ setup

    @initialize(
        ruleset=st.sampled_from(sorted(KINDS)),
        cpp=st.integers(0, 60),
        ob=st.booleans(),
    )
    def create(self, ruleset: str, cpp: int, ob: bool) -> None:
        kind = self.kind = KINDS[ruleset]
        definition = copy.deepcopy(dict(REGISTRY[ruleset].sample_definition))
        if ob:
            definition["initial_ob"] = kind.ob
        self.chart = {
            side: {key_of(e): e for e in entries}
            for side, entries in definition["rg_chart"].items()
        }
        body = {**kind.body, "definition": definition}
        body["initial_cpp"] = dict.fromkeys(kind.sides, cpp)
        self.game = Game(self.client, body)
        self.dates = 0
        self.answers = {}
        self.cache = {}
        self.fresh()

    # ------------------------------------------------------------------ rules

    def _items(self, data: st.DataObject, side: str, size: int) -> list[dict[str, Any]]:
        """Valid RG (by their price, Map Group and modifiers), one of which is
        spoilt now and then: off the chart, for no or an unknown Map Group, at
        a wrong price, or with a modifier that does not apply."""
        keys = sorted(self.chart[side])
        items = []
        for _ in range(size):
            key = data.draw(st.sampled_from(keys), label="rg")
            item: dict[str, Any] = {"rg": key}
            if self.kind.per_map_group or data.draw(st.booleans(), label="name a group"):
                item["map_group"] = data.draw(st.sampled_from(self.kind.groups), label="group")
            entry = self.chart[side][key]
            cost = entry["cpp"]
            mods = [
                m
                for m, (sides, prefixes) in self.kind.modifiers.items()
                if side in sides and entry["id"].startswith(prefixes)
            ]
            if mods and data.draw(st.integers(0, 3), label="modified") == 0:
                item["modifiers"] = mods
                cost += cost * 50 // 100
            if data.draw(st.booleans(), label="state the price"):
                item["cpp"] = cost
            items.append(item)
        if items and data.draw(st.integers(0, 3), label="spoil") == 0:
            item = items[data.draw(st.integers(0, len(items) - 1), label="spoilt")]
            how = data.draw(
                st.sampled_from(("rg", "group", "no group", "cpp", "modifier", "bogus")),
                label="how",
            )
            if how == "rg":
                item["rg"] = "Z9"
            elif how == "group":
                item["map_group"] = "Nowhere"
            elif how == "no group":
                item.pop("map_group", None)
            elif how == "cpp":
                item["cpp"] = item.get("cpp", self.chart[side][item["rg"]]["cpp"]) + 1
            elif how == "modifier":
                item["modifiers"] = ["early-entry"]
            else:
                item["modifiers"] = ["cheaper"]
        return items

    def _price(self, side: str, item: dict[str, Any]) -> int | None:
        """The item's CPP cost (8.6194), or ``None`` if the purchase is invalid (422)."""
        entry = self.chart[side].get(item["rg"])
        if entry is None:
            return None
        group = item.get("map_group")
        if group is not None and group not in self.kind.groups:
            return None
        if group is None and self.kind.per_map_group:
            return None
        cost = int(entry["cpp"])
        mods = item.get("modifiers", [])
        if len(set(mods)) != len(mods):
            return None
        for mod in mods:
            if mod not in self.kind.modifiers:
                return None
            sides, prefixes = self.kind.modifiers[mod]
            if side not in sides or not entry["id"].startswith(prefixes):
                return None
            cost += cost * 50 // 100
        if item.get("cpp") is not None and item["cpp"] != cost:
            return None
        return cost

    def _over_limit(self, side: str, items: list[dict[str, Any]], rows: list[Any]) -> bool:
        counted = [
            (r["rg"], r["cg_date"], r["map_group"]) for r in rows if not r.get("ob")
        ]  # the referee sees every row
        today = self.cg_date()
        for item in items:
            entry = self.chart[side][item["rg"]]
            group = item.get("map_group")
            if group is None and len(self.kind.groups) == 1:
                group = self.kind.groups[0]
            key = item["rg"]
            mine = [c for c in counted if c[0] == key]
            if entry.get("cg_max") is not None and len(mine) + 1 > entry["cg_max"]:
                return True
            same = [
                c for c in mine if c[1] == today and (not self.kind.per_map_group or c[2] == group)
            ]
            if entry.get("per_date_max") is not None and len(same) + 1 > entry["per_date_max"]:
                return True
            counted.append((key, today, group))
        return False

    @rule(data=st.data(), secret=st.booleans())
    def purchase_one(self, data: st.DataObject, secret: bool) -> None:
        self.purchase(data, 1, secret)

    @rule(data=st.data(), size=st.integers(0, 3), secret=st.booleans())
    def purchase_batch(self, data: st.DataObject, size: int, secret: bool) -> None:
        self.purchase(data, size, secret)

    def purchase(self, data: st.DataObject, size: int, secret: bool) -> None:
        side = data.draw(st.sampled_from(self.kind.sides), label="side")
        role = data.draw(st.sampled_from((side, side, side, REFEREE, "other")), label="role")
        if role == "other":
            role = next(s for s in self.kind.sides if s != side)
        items = self._items(data, side, size)
        body: dict[str, Any] = {"secret": secret, "side": side}
        if size == 1 and data.draw(st.booleans(), label="single"):
            body.update(items[0])
        else:
            body["rgs"] = items
        rows = self.rows(side)
        line = self.lines(side)[-1]
        step = self.step(side)
        r = self.send(role, "/rg-purchases", body)
        if role not in (side, REFEREE):
            assert r.status_code == 403, r.text
            return
        prices = [self._price(side, item) for item in items]
        invalid = None in prices or (not items and not secret)
        # The items are checked in order: a limit broken before an invalid item shows first.
        valid = items[: prices.index(None)] if None in prices else items
        over = self._over_limit(side, valid, rows)
        costly = not invalid and sum(p or 0 for p in prices) > line["total"] - line["spent"]
        past = self.order(step) > self.order(self.kind.buy)
        if r.status_code == 201:
            assert not invalid, (body, r.text)
            assert not over, (body, r.text)
            assert not costly, (body, r.text)
            assert not past, (body, step, r.text)
            new = [x for x in self.rows(side) if x["seq"] == r.json()["seq"]]
            assert [(x["rg"], x["cpp"]) for x in new] == [
                (i["rg"], p) for i, p in zip(items, prices, strict=True)
            ]
            return
        problem = r.json()
        if r.status_code == 422:
            assert invalid, (body, problem)
        else:
            assert r.status_code == 409, r.text
            found = rule_of(problem["detail"])
            if found in (self.kind.date_max, self.kind.cg_max):
                assert over, (body, problem)
            elif found == self.kind.buy:
                assert costly, (body, problem)
            else:  # the RePh step: only refused where the side is not at its purchase step
                assert step != self.kind.buy, (body, step, problem)
        if step == self.kind.buy:
            assert invalid or over or costly, (body, step, problem)

    @rule(data=st.data())
    def determine(self, data: st.DataObject) -> None:
        """Mostly a side with a roll to make (8.620, 9.618)."""
        # The draws never depend on the ledger's state (it depends on the dice).
        pick = data.draw(st.integers(0, 1), label="side")
        prefer = data.draw(st.integers(0, 3), label="prefer one waiting") > 0
        name_it = data.draw(st.booleans(), label="name it")
        waiting = [s for s in self.kind.sides if self.pending(s)]
        side = waiting[pick % len(waiting)] if waiting and prefer else self.kind.sides[pick]
        body: dict[str, Any] = {}
        pending = self.pending(side)
        if pending and name_it:
            body = {"for_purchase": pending[0]["seq"], "item": pending[0]["item"]}
        step = self.step(side)
        r = self.send(side, "/rg-determinations", body)
        if r.status_code == 201:
            assert pending, r.text
            answer = r.json()
            seq = answer["seq"]
            rolled = [
                (x["seq"], x["item"])
                for x in self.rows(side)
                if seq in [y["seq"] for y in x["rolls"]]
            ]
            # The RG named, or else the first of the CG Date that needs a roll.
            first = (
                body.get("for_purchase", pending[0]["seq"]),
                body.get("item", pending[0]["item"]),
            )
            if answer["event"]["type"] != "RecordSealed":
                # A public roll (a public RG, a table the rules do not make
                # secret): one event per request, one roll of that one RG.
                assert rolled == [first], (body, rolled)
                (row,) = [x for x in self.rows(side) if (x["seq"], x["item"]) == first]
                assert [y["seq"] for y in row["rolls"]].count(seq) == 1, row
            else:
                # A hidden roll is sealed with the other hidden rolls the request
                # covers (DESIGN §2a): those of the RG named, else of its
                # purchase, in one record. The record holds exactly the rolls
                # the RG Purchase Record shows from it, the named RG's among them.
                made = answer["event"]["secret"]["rolls"]
                assert made, answer
                assert sorted({(y["for_purchase"], y["item"]) for y in made}) == sorted(rolled)
                assert first in rolled, (body, rolled)
                if "item" in body:
                    assert rolled == [first], (body, rolled)
                else:
                    assert {s for s, _ in rolled} == {first[0]}, (body, rolled)
        elif pending:
            assert self.order(step) > self.order(self.kind.determine), r.text
        else:
            assert r.status_code in (409, 422), r.text

    @rule(
        data=st.data(),
        secret=st.booleans(),
        size=st.integers(0, 3),
    )
    def fortify(self, data: st.DataObject, secret: bool, size: int) -> None:
        side = data.draw(st.sampled_from(self.kind.sides), label="side")
        types = sorted(self.kind.forts)
        items = [
            {
                "type": data.draw(st.sampled_from(types) | st.just("moat"), label="type"),
                "count": data.draw(st.integers(1, 4), label="count"),
            }
            for _ in range(size)
        ]
        line = self.lines(side)[-1]
        step = self.step(side)
        pending = self.pending(side)
        r = self.send(side, "/fortification-purchases", {"items": items, "secret": secret})
        costs = [self.kind.forts.get(i["type"], {}).get(side) for i in items]
        invalid = None in costs or (not items and not secret)
        cost = 0.0 if invalid else sum(c * i["count"] for c, i in zip(costs, items, strict=True))
        held = line["fpp"] - line["fpp_spent"]
        if r.status_code == 201:
            assert not invalid, (items, r.text)
            assert cost <= held, (items, line, r.text)
            after = self.lines(side)[-1]
            assert after["fpp_spent"] == line["fpp_spent"] + cost
            forts = Counter(line["fortifications"])
            for i in items:  # one type twice in a batch adds up
                forts[i["type"]] += i["count"]
            assert after["fortifications"] == {k: v for k, v in forts.items() if v}
            return
        detail = r.json()["detail"]
        if r.status_code == 422:
            assert invalid, (items, detail)
        elif rule_of(detail) == self.kind.fortify:
            assert cost > held, (items, line, detail)
        # From the purchase step on, the step is passable once no roll is missing.
        steps = (self.kind.buy, self.kind.determine, self.kind.fortify)
        if step in steps and not pending:
            assert invalid or cost > held, (items, step, line, detail)

    @rule(data=st.data())
    def advance(self, data: st.DataObject) -> None:
        side = data.draw(st.sampled_from(self.kind.sides), label="side")
        to = data.draw(st.sampled_from(self.kind.targets), label="to")
        step = self.step(side)
        pending = self.pending(side)
        r = self.send(side, "/reph/advance", {"to": to})
        determined = self.order(step) > self.order(self.kind.determine)
        if pending and not determined and to == self.kind.fortify:
            # The determination step cannot be passed while a roll is missing.
            assert r.status_code == 409, r.text
            detail = r.json()["detail"]
            assert detail.startswith(self.kind.determine), detail
            assert "rg-determinations" in detail, detail

    @precondition(lambda self: self.dates < MAX_DATES)
    @rule()
    def new_cg_date(self) -> None:
        self.g.next_date()
        self.dates += 1
        for side in self.kind.sides:
            self.g.advance(side, self.kind.buy)
        self.fresh()

    @rule()
    def undo_own_latest(self) -> None:
        """A side undoes its own latest purchase or step alone (DESIGN §5)."""
        version = self.version
        (event,) = self.read(REFEREE, f"/events?after={version - 1}&limit=1")["items"]
        kinds = ("RGPurchased", "FortificationsPurchased", "RePhAdvanced")
        actor = event["actor"]
        if actor not in self.kind.sides or event["type"] not in kinds:
            return
        if event["reverted_by"] is not None:
            return
        before = self.answers.get(version - 1)
        body = {"seqs": [version], "reason": "oops"}
        r = self.send(actor, "/undo-requests", body)
        assert r.status_code == 201, r.text
        assert r.json()["status"] == "applied", r.text
        hypothesis.event(f"undid {event['type']}")
        if before is not None:
            for side in self.kind.sides:
                then = before[(REFEREE, side)]
                assert self.record(side)["rows"] == then["rows"], side

    # ------------------------------------------------------------------ invariants

    @invariant()
    def nothing_is_overspent_and_no_limit_broken(self) -> None:
        if self.game is None:
            return
        for side in self.kind.sides:
            rows = [r for r in self.rows(side) if not r["ob"]]
            spent: Counter[str] = Counter()
            granted: Counter[str] = Counter()
            for row in rows:
                spent[row["cg_date"]] += row["cpp"]
                granted[row["cg_date"]] += row["fpp"] or 0
            for line in self.lines(side):
                assert line["spent"] <= line["total"], line
                assert line["left"] >= 0, line
                assert line["fpp_spent"] <= line["fpp"], line
                assert line["spent"] == spent[line["cg_date"]], (line, rows)
                assert line["fpp"] == granted[line["cg_date"]], (line, rows)
                if line["fpp_forfeit"] is not None:
                    assert line["fpp_forfeit"] == line["fpp"] - line["fpp_spent"], line
            per_rg = Counter(r["rg"] for r in rows)
            per_date = Counter(
                (r["rg"], r["cg_date"], r["map_group"] if self.kind.per_map_group else None)
                for r in rows
            )
            for key, n in per_rg.items():
                most = self.chart[side][key].get("cg_max")
                assert most is None or n <= most, (side, key, n)
            for (key, date, group), n in per_date.items():
                most = self.chart[side][key].get("per_date_max")
                assert most is None or n <= most, (side, key, date, group, n)

    @invariant()
    def the_record_as_of_any_version_is_the_live_one(self) -> None:
        if self.game is None:
            return
        version = self.version
        views = [(role, side) for side in self.kind.sides for role in (REFEREE, *self.kind.sides)]
        now = {(role, side): self.record(side, role) for role, side in views}
        if version in self.answers:
            assert self.answers[version] == now, "nothing was appended, yet the record changed"
        self.answers[version] = now
        # As of now, and as of an earlier version (one drawn by the version itself).
        earlier = sorted(v for v in self.answers if v < version)
        checks = [(version, view) for view in views]
        if earlier:
            then = earlier[(version * 7919) % len(earlier)]
            checks += [(then, views[(version * 31) % len(views)])]
        for v, (role, side) in checks:
            r = self.g.get(role, f"/rg-record?side={side}&at={v}")
            assert r.status_code == 200, r.text
            assert r.json() == self.answers[v][(role, side)], (role, side, v, version)


def test_random_purchase_histories(client: TestClient) -> None:
    run_state_machine_as_test(
        lambda: PurchaseMachine(client),
        settings=hypothesis.settings(
            # 15 histories of 20 steps (150 under the thorough profile): each
            # step reads every side's record as every role, now and as of before.
            max_examples=examples(15),
            stateful_step_count=20,
            database=None,
            suppress_health_check=[
                HealthCheck.too_slow,
                HealthCheck.filter_too_much,
                HealthCheck.data_too_large,
            ],
        ),
    )
