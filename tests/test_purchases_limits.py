"""RG purchase limits over REST (DESIGN §10; 8.619-8.6196, 9.617-9.6176), on
SQLite and PostgreSQL (the ``client`` fixture).

Table-driven over the sample RG charts of both CPP rulesets: every chart entry
with a CG Date maximum is bought up to it and once more (8.6195, 9.6175);
every entry with a CG maximum likewise, on one CG Date (a definition without
CG Date maxima) and across CG Dates (the sample chart itself) (8.6196,
9.6176). Then: the CG Date maximum counts per Map Group where 8.6195 says so
and per CG Date where 9.6175 does; the CPP cost is checked (8.6194, 9.6173)
and altered by 8.6194b Early Entry; a batch is all or nothing; RG given in the
Initial-Scenario OB never count (8.6196, 9.6178). Fortifications cost the
FPP of each side's Fortification Purchase Table (8.621, 9.619), never more
than held, and unspent FPP are forfeit when the step completes. Every refusal
appends nothing: the campaign version, the RG Purchase Record and the CG
Roster line stay as they were.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.domain.rulesets import REGISTRY

pytestmark = pytest.mark.shared_app


@dataclass(frozen=True)
class Kind:
    """A CPP ruleset's purchase rules by number, and how a campaign is made."""

    ruleset: str
    body: dict[str, Any]
    sides: tuple[str, str]
    groups: tuple[str, str]
    #: The CG Date maximum counts per Map Group (8.6195), else per CG Date (9.6175).
    per_map_group: bool
    buy: str
    price: str
    date_max: str
    cg_max: str

    def campaign(
        self, client: TestClient, cpp: int = 200, definition: dict[str, Any] | None = None
    ) -> Game:
        body = {**self.body, "initial_cpp": dict.fromkeys(self.sides, cpp)}
        if definition is not None:
            body["definition"] = definition
        return Game(client, body)

    def sample(self) -> dict[str, Any]:
        return copy.deepcopy(dict(REGISTRY[self.ruleset].sample_definition))

    def item(self, key: str, group: str | None = None, **extra: Any) -> dict[str, Any]:
        """One RG of a purchase; the first Map Group where its maximum counts per group."""
        out: dict[str, Any] = {"rg": key, **extra}
        if group is not None:
            out["map_group"] = group
        elif self.per_map_group:
            out["map_group"] = self.groups[0]
        return out


KGP = Kind(
    "kgp",
    {"ruleset": "kgp", "campaign": "CG I", "title": "limits"},
    ("US", "German"),
    ("Sx", "Sy"),
    True,
    "8.619",
    "8.6194",
    "8.6195",
    "8.6196",
)
ABTF = Kind(
    "abtf",
    {"ruleset": "abtf", "campaign": "CG I", "title": "limits", "start_date": "18 PM"},
    ("British", "German"),
    ("Bx", "By"),
    False,
    "9.617",
    "9.6173",
    "9.6175",
    "9.6176",
)
KINDS = {k.ruleset: k for k in (KGP, ABTF)}


def key_of(entry: dict[str, Any]) -> str:
    """How a purchase names a chart entry: its ID, or 'I1(K)' for a KG's (9.6178)."""
    kg = entry.get("kg")
    return str(entry["id"]) if kg is None else f"{entry['id']}({kg})"


def chart_cases(limit: str) -> list[Any]:
    out = []
    for kind in KINDS.values():
        for side, entries in kind.sample()["rg_chart"].items():
            for entry in entries:
                if entry.get(limit) is not None:
                    out.append(
                        pytest.param(kind, side, entry, id=f"{kind.ruleset}-{side}-{key_of(entry)}")
                    )
    return out


def record(game: Game, side: str, role: str = "referee") -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = ok(game.get(role, f"/rg-record?side={side}"))["rows"]
    return rows


def line(game: Game, side: str) -> dict[str, Any]:
    """The side's CG Roster line of the current CG Date, as the referee sees it."""
    found: dict[str, Any] = ok(game.get("referee", f"/roster?side={side}"))["lines"][-1]
    return found


def buy(game: Game, side: str, body: dict[str, Any]) -> dict[str, Any]:
    return created(game.post(side, "/rg-purchases", {"secret": False, **body}))


def refused(game: Game, side: str, status: int, send: Callable[[], Any]) -> dict[str, Any]:
    """The request is refused with ``status`` and appends nothing: the version,
    the side's RG Purchase Record and its CG Roster line are unchanged."""
    before = (game.version(), record(game, side), line(game, side))
    problem = assert_problem(send(), status)
    assert (game.version(), record(game, side), line(game, side)) == before, problem
    return problem


def refuse_buy(game: Game, side: str, body: dict[str, Any], status: int) -> dict[str, Any]:
    return refused(
        game, side, status, lambda: game.post(side, "/rg-purchases", {"secret": False, **body})
    )


def bought(rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    return [r for r in rows if not r.get("redacted") and r["rg"] == key and not r["ob"]]


def to_next_date(game: Game, kind: Kind, side: str) -> None:
    """The next CG Date begins and ``side`` reaches its RG purchase step."""
    game.next_date()
    game.advance(side, kind.buy)


# ------------------------------------------------------------------ the chart's limits


@pytest.mark.parametrize(("kind", "side", "entry"), chart_cases("per_date_max"))
def test_per_date_max_then_one_more(
    client: TestClient, kind: Kind, side: str, entry: dict[str, Any]
) -> None:
    game = kind.campaign(client)
    key, most = key_of(entry), entry["per_date_max"]
    for n in range(most):
        out = buy(game, side, kind.item(key))
        assert out["seq"] == game.version()
        assert len(bought(record(game, side), key)) == n + 1
    problem = refuse_buy(game, side, kind.item(key), 409)
    cg_max = entry.get("cg_max")
    if cg_max is not None and cg_max <= most:
        assert problem["detail"].startswith(f"{kind.cg_max}: CG maximum for {key} ({cg_max})")
    else:
        expected = f"{kind.date_max}: CG Date maximum for {key} ({most}) reached"
        assert problem["detail"].startswith(expected), problem
    # A batch that would go over is refused whole, whatever else it holds.
    others = [e for e in kind.sample()["rg_chart"][side] if key_of(e) != key]
    batch = [kind.item(key_of(e)) for e in others[:1]] + [kind.item(key)]
    problem = refuse_buy(game, side, {"rgs": batch}, 409)
    assert problem["detail"].startswith((kind.date_max, kind.cg_max)), problem
    assert len(bought(record(game, side), key)) == most


@pytest.mark.parametrize(("kind", "side", "entry"), chart_cases("cg_max"))
def test_cg_max_on_one_date_then_one_more(
    client: TestClient, kind: Kind, side: str, entry: dict[str, Any]
) -> None:
    """With no CG Date maxima in the chart, the CG maximum is all that limits."""
    definition = kind.sample()
    for entries in definition["rg_chart"].values():
        for e in entries:
            e["per_date_max"] = None
    game = kind.campaign(client, definition=definition)
    key, most = key_of(entry), entry["cg_max"]
    for _ in range(most):
        buy(game, side, kind.item(key))
    rows = bought(record(game, side), key)
    # 8.6198/9.6178: #P counts the RG bought so far, #R what the CG maximum leaves.
    assert [(r["purchased"], r["remaining"]) for r in rows] == [
        (n, most - n) for n in range(1, most + 1)
    ]
    problem = refuse_buy(game, side, kind.item(key), 409)
    assert problem["detail"].startswith(f"{kind.cg_max}: CG maximum for {key} ({most}) reached")
    # On the other Map Group too: the CG maximum counts the whole CG.
    other = kind.item(key, kind.groups[1])
    problem = refuse_buy(game, side, other, 409)
    assert problem["detail"].startswith(f"{kind.cg_max}: CG maximum for {key} ({most}) reached")


def both_limits() -> list[Any]:
    return [
        p
        for p in chart_cases("cg_max")
        if p.values[2].get("per_date_max") is not None  # type: ignore[union-attr]
    ]


@pytest.mark.parametrize(("kind", "side", "entry"), both_limits())
def test_cg_max_across_cg_dates(
    client: TestClient, kind: Kind, side: str, entry: dict[str, Any]
) -> None:
    """The sample chart: bought up to the CG Date maximum on each CG Date until
    the CG maximum is reached; on the next CG Date one more is refused."""
    game = kind.campaign(client)
    key, per_date, most = key_of(entry), entry["per_date_max"], entry["cg_max"]
    dates = []
    total = 0
    while total < most:
        if total:
            to_next_date(game, kind, side)
        dates.append(game.cg_date())
        for _ in range(min(per_date, most - total)):
            buy(game, side, kind.item(key))
            total += 1
    to_next_date(game, kind, side)
    problem = refuse_buy(game, side, kind.item(key), 409)
    assert problem["detail"].startswith(f"{kind.cg_max}: CG maximum for {key} ({most}) reached")
    rows = bought(record(game, side), key)
    assert len(rows) == most
    assert sorted({r["cg_date"] for r in rows}, key=dates.index) == dates
    assert [r["remaining"] for r in rows] == list(range(most - 1, -1, -1))


# ------------------------------------------------------------------ per Map Group or per CG Date


def test_8_6195_date_max_counts_per_map_group(client: TestClient) -> None:
    """8.6195: "per CG Date per Map Group"."""
    game = KGP.campaign(client)
    entry = next(e for e in KGP.sample()["rg_chart"]["German"] if e["id"] == "I1")
    most = entry["per_date_max"]
    for group in KGP.groups:
        for _ in range(most):
            buy(game, "German", KGP.item("I1", group))
        problem = refuse_buy(game, "German", KGP.item("I1", group), 409)
        assert problem["detail"].startswith(f"8.6195: CG Date maximum for I1 ({most}) reached")
        assert group in problem["detail"]
    rows = bought(record(game, "German"), "I1")
    assert sorted(r["map_group"] for r in rows) == sorted(KGP.groups * most)
    # With two Map Groups in the CG, a purchase must say which one it is for.
    problem = refuse_buy(game, "German", {"rg": "HW1"}, 422)
    assert problem["field"] == "map_group"
    assert problem["detail"].startswith("8.6195")
    problem = refuse_buy(game, "German", {"rgs": [KGP.item("F1"), {"rg": "HW1"}]}, 422)
    assert problem["field"] == "rgs.1.map_group"
    problem = refuse_buy(game, "German", {"rg": "HW1", "map_group": "Nowhere"}, 422)
    assert problem["field"] == "map_group"


def test_9_6175_date_max_counts_per_cg_date(client: TestClient) -> None:
    """9.6175: "per CG Date (note that these limits are per CG Date and not
    calendar date)": the Map Groups share one count, and none need be named."""
    game = ABTF.campaign(client)
    entry = next(e for e in ABTF.sample()["rg_chart"]["British"] if e["id"] == "I1")
    most = entry["per_date_max"]
    assert most >= 2
    buy(game, "British", {"rg": "I1"})
    for n in range(1, most):
        buy(game, "British", {"rg": "I1", "map_group": ABTF.groups[n % 2]})
    for group in (None, *ABTF.groups):
        body = {"rg": "I1"} if group is None else {"rg": "I1", "map_group": group}
        problem = refuse_buy(game, "British", body, 409)
        assert problem["detail"].startswith(f"9.6175: CG Date maximum for I1 ({most}) reached")
    # The next CG Date counts afresh.
    to_next_date(game, ABTF, "British")
    buy(game, "British", {"rg": "I1", "map_group": ABTF.groups[1]})


# ------------------------------------------------------------------ the price


@pytest.mark.parametrize("kind", KINDS.values(), ids=list(KINDS))
def test_cpp_must_equal_the_chart_price(client: TestClient, kind: Kind) -> None:
    game = kind.campaign(client)
    side = kind.sides[1]
    entry = kind.sample()["rg_chart"][side][0]
    key, cost = key_of(entry), entry["cpp"]
    for wrong in (cost - 1, cost + 1, 0):
        problem = refuse_buy(game, side, kind.item(key, cpp=wrong), 422)
        assert problem["field"] == "cpp"
        assert problem["detail"].startswith(f"{kind.price}: ")
        assert str(cost) in problem["detail"]
    batch = [kind.item(key, cpp=cost), kind.item(key, cpp=cost + 2)]
    problem = refuse_buy(game, side, {"rgs": batch}, 422)
    assert problem["field"] == "rgs.1.cpp"
    assert problem["detail"].startswith(f"{kind.price}: ")
    buy(game, side, kind.item(key, cpp=cost))
    (row,) = bought(record(game, side), key)
    assert row["cpp"] == cost
    assert line(game, side)["spent"] == cost


@pytest.mark.parametrize("kind", KINDS.values(), ids=list(KINDS))
def test_more_than_the_cpp_left(client: TestClient, kind: Kind) -> None:
    """8.619 (9.617): the CPP expended are subtracted from the side's current
    CPP total; more than it holds is refused."""
    side = kind.sides[1]
    chart = kind.sample()["rg_chart"][side]
    first, second = chart[0], chart[1]
    game = kind.campaign(client, cpp=first["cpp"] + second["cpp"] - 1)
    buy(game, side, kind.item(key_of(first)))
    problem = refuse_buy(game, side, kind.item(key_of(second)), 409)
    assert problem["detail"].startswith(f"{kind.buy}: "), problem
    assert line(game, side)["spent"] == first["cpp"]
    # The opponent's CPP are its own.
    opponent = kind.sides[0]
    other = kind.sample()["rg_chart"][opponent][0]
    buy(game, opponent, kind.item(key_of(other)))


@pytest.mark.parametrize("kind", KINDS.values(), ids=list(KINDS))
def test_unknown_rg(client: TestClient, kind: Kind) -> None:
    game = kind.campaign(client)
    side = kind.sides[1]
    known = key_of(kind.sample()["rg_chart"][side][0])
    problem = refuse_buy(game, side, kind.item("Z9"), 422)
    assert problem["field"] == "rg"
    batch = [kind.item(known), kind.item(known), kind.item("Z9")]
    problem = refuse_buy(game, side, {"rgs": batch}, 422)
    assert problem["field"] == "rgs.2.rg"
    # An RG of the opponent's chart only is not on this side's.
    theirs = {key_of(e) for e in kind.sample()["rg_chart"][kind.sides[0]]}
    mine = {key_of(e) for e in kind.sample()["rg_chart"][side]}
    for key in sorted(theirs - mine)[:1]:
        problem = refuse_buy(game, side, kind.item(key), 422)
        assert problem["field"] == "rg"


def test_unknown_rg_in_a_batch_of_one_names_its_place(client: TestClient) -> None:
    game = KGP.campaign(client)
    problem = refuse_buy(game, "German", {"rgs": [KGP.item("Z9")]}, 422)
    assert problem["field"] == "rgs.0.rg"


# ------------------------------------------------------------------ 8.6194 modifiers


def frd_half_more(cost: int) -> int:
    """8.6194b: the listed CPP cost increased by 50% (FRD)."""
    return cost + (cost * 50) // 100


def test_early_entry_costs_half_more_for_us_i_v_g(client: TestClient) -> None:
    game = KGP.campaign(client)
    chart = KGP.sample()["rg_chart"]
    spent = 0
    for entry in chart["US"]:
        key = key_of(entry)
        body = KGP.item(key, modifiers=["early-entry"])
        if not key.startswith(("I", "V", "G")):
            problem = refuse_buy(game, "US", body, 422)
            assert problem["field"] == "modifiers"
            assert problem["detail"].startswith("8.6194")
            continue
        cost = frd_half_more(entry["cpp"])
        if entry["cpp"] != cost:
            # The listed price is no longer the price.
            problem = refuse_buy(game, "US", {**body, "cpp": entry["cpp"]}, 422)
            assert (problem["field"], problem["detail"][:6]) == ("cpp", "8.6194")
        buy(game, "US", {**body, "cpp": cost})
        spent += cost
        row = bought(record(game, "US"), key)[-1]
        assert (row["cpp"], row["modifiers"]) == (cost, ["early-entry"])
    assert spent > 0, "the sample US chart has an I, V or G RG"
    assert line(game, "US")["spent"] == spent
    # 8.6194b is a U.S. rule: no German RG may use it.
    for entry in chart["German"]:
        problem = refuse_buy(
            game, "German", KGP.item(key_of(entry), modifiers=["early-entry"]), 422
        )
        assert problem["field"] == "modifiers"
        assert problem["detail"].startswith("8.6194")
    # An unknown modifier, or one named twice.
    problem = refuse_buy(game, "German", KGP.item("I1", modifiers=["cheaper"]), 422)
    assert problem["field"] == "modifiers"
    us_i = next(key_of(e) for e in chart["US"] if e["id"].startswith("I"))
    twice = KGP.item(us_i, modifiers=["early-entry", "early-entry"])
    assert refuse_buy(game, "US", twice, 422)["field"] == "modifiers"


def test_9_6173_has_no_early_entry(client: TestClient) -> None:
    game = ABTF.campaign(client)
    for side in ABTF.sides:
        entry = ABTF.sample()["rg_chart"][side][0]
        body = {"rg": key_of(entry), "modifiers": ["early-entry"]}
        problem = refuse_buy(game, side, body, 422)
        assert problem["field"] == "modifiers"


# ------------------------------------------------------------------ batches


def test_a_batch_is_all_or_nothing(client: TestClient) -> None:
    chart = {key_of(e): e for e in KGP.sample()["rg_chart"]["German"]}
    i1, hw1, f1 = chart["I1"], chart["HW1"], chart["F1"]
    most = i1["per_date_max"]
    game = KGP.campaign(client)
    # Only the last item breaks the CG Date maximum.
    batch = [KGP.item("HW1"), KGP.item("F1")] + [KGP.item("I1")] * (most + 1)
    problem = refuse_buy(game, "German", {"rgs": batch}, 409)
    assert problem["detail"].startswith(f"8.6195: CG Date maximum for I1 ({most}) reached")
    # Only the last item breaks the CG maximum (the batch's own items count).
    batch = [KGP.item("HW1", KGP.groups[n % 2]) for n in range(hw1["cg_max"] + 1)]
    problem = refuse_buy(game, "German", {"rgs": batch}, 409)
    assert problem["detail"].startswith(f"8.6196: CG maximum for HW1 ({hw1['cg_max']}) reached")
    # Only the last item is unknown, or mispriced.
    batch = [KGP.item("HW1"), KGP.item("F1"), KGP.item("Z9")]
    assert refuse_buy(game, "German", {"rgs": batch}, 422)["field"] == "rgs.2.rg"
    batch = [KGP.item("HW1"), KGP.item("F1", cpp=f1["cpp"] + 1)]
    assert refuse_buy(game, "German", {"rgs": batch}, 422)["field"] == "rgs.1.cpp"
    assert record(game, "German") == []
    # A batch within every limit: one event, its RG in order.
    batch = [KGP.item("I1")] * most + [KGP.item("HW1", KGP.groups[1]), KGP.item("F1")]
    out = buy(game, "German", {"rgs": batch})
    rows = record(game, "German")
    assert [(r["seq"], r["item"], r["rg"]) for r in rows] == [
        (out["seq"], n, item["rg"]) for n, item in enumerate(batch)
    ]
    assert [r["map_group"] for r in rows] == [item["map_group"] for item in batch]
    spent = most * i1["cpp"] + hw1["cpp"] + f1["cpp"]
    assert (line(game, "German")["spent"], line(game, "German")["fpp"]) == (spent, f1["fpp"])


def test_a_batch_over_the_cpp_left_by_its_last_item(client: TestClient) -> None:
    chart = {key_of(e): e for e in KGP.sample()["rg_chart"]["German"]}
    cost = chart["I1"]["cpp"] + chart["HW1"]["cpp"]
    game = KGP.campaign(client, cpp=cost + chart["F1"]["cpp"] - 1)
    batch = [KGP.item("I1"), KGP.item("HW1"), KGP.item("F1")]
    problem = refuse_buy(game, "German", {"rgs": batch}, 409)
    assert problem["detail"].startswith("8.619: ")
    buy(game, "German", {"rgs": batch[:2]})
    assert line(game, "German")["left"] == chart["F1"]["cpp"] - 1


# ------------------------------------------------------------------ Initial-Scenario OB


def ob_definition(kind: Kind, side: str, key: str, count: int) -> dict[str, Any]:
    definition = kind.sample()
    for e in definition["rg_chart"][side]:
        if key_of(e) == key:
            e["per_date_max"] = None
    given: dict[str, Any] = {"rg": key, "count": count}
    if kind.per_map_group:
        given["map_group"] = kind.groups[0]
    definition["initial_ob"] = {side: [given]}
    return definition


OB_CASES = [
    pytest.param(KGP, "German", "I1", id="kgp-German-I1"),
    pytest.param(ABTF, "German", "I1(X)", id="abtf-German-I1(X)"),
]


@pytest.mark.parametrize(("kind", "side", "key"), OB_CASES)
def test_initial_ob_rg_never_count_against_the_cg_max(
    client: TestClient, kind: Kind, side: str, key: str
) -> None:
    """8.6196: "RG given in a CG's Initial-Scenario OB never count against this
    maximum"; 9.6178: "these latter do not apply towards RG purchase limits"."""
    game = kind.campaign(client, definition=ob_definition(kind, side, key, 2))
    entry = next(e for e in kind.sample()["rg_chart"][side] if key_of(e) == key)
    most = entry["cg_max"]
    for role in ("referee", side, kind.sides[0]):
        rows = record(game, side, role)
        assert [(r["rg"], r["ob"], r["seq"]) for r in rows] == [(key, True, 1)] * 2, role
        assert [r["map_group"] for r in rows] == [
            kind.groups[0] if kind.per_map_group else None
        ] * 2
    for _ in range(most):
        buy(game, side, kind.item(key))
    problem = refuse_buy(game, side, kind.item(key), 409)
    assert problem["detail"].startswith(f"{kind.cg_max}: CG maximum for {key} ({most}) reached")
    rows = record(game, side)
    assert [r["ob"] for r in rows] == [True] * 2 + [False] * most
    assert [r["remaining"] for r in rows[2:]] == list(range(most - 1, -1, -1))


def test_initial_ob_rg_do_not_fill_the_date_max(client: TestClient) -> None:
    """8.6195 counts the RG *purchased* per CG Date per Map Group: the OB-given
    ones on the same Map Group leave the purchases free."""
    definition = KGP.sample()
    definition["initial_ob"] = {"German": [{"rg": "I1", "count": 2, "map_group": "Sx"}]}
    game = KGP.campaign(client, definition=definition)
    entry = next(e for e in KGP.sample()["rg_chart"]["German"] if e["id"] == "I1")
    for _ in range(entry["per_date_max"]):
        buy(game, "German", KGP.item("I1", "Sx"))
    refuse_buy(game, "German", KGP.item("I1", "Sx"), 409)
    assert len(record(game, "German")) == 2 + entry["per_date_max"]


def test_the_sample_charts_are_the_ones_served(client: TestClient) -> None:
    """The cases above are drawn from the samples the API serves."""
    for kind in KINDS.values():
        served = ok(client.get(f"/v1/rulesets/{kind.ruleset}/sample-definition"))
        assert served["rg_chart"] == kind.sample()["rg_chart"]


# ------------------------------------------------------------------ FPP and Fortifications

#: The Fortification Purchase Tables, FPP per item by side: 8.621 (U.S./German;
#: footnote 2, cut after "U.S./", read U.S./German as its EX prices a German
#: A-T factor at 4) and 9.619 (British/German; footnote 2, cut after
#: "German/", read German/British; "British Only", "German Only" and footnote
#: "B": only the British may purchase a Breach).
FORT_COSTS: dict[str, dict[str, dict[str, float]]] = {
    "kgp": {
        "trench": {"US": 7, "German": 7},
        "foxhole-3s": {"US": 3, "German": 3},
        "foxhole-2s": {"US": 2, "German": 2},
        "foxhole-1s": {"US": 1, "German": 1},
        "ap-mine-factor": {"US": 1, "German": 1.5},
        "at-mine-factor": {"US": 3, "German": 4},
        "roadblock": {"US": 7, "German": 7},
        "dummy": {"US": 1, "German": 1},
        "hip-squad": {"US": 3, "German": 3},
        "hip-hs": {"US": 2, "German": 2},
        "hip-crew": {"US": 1, "German": 1},
        "hip-smc": {"US": 1, "German": 1},
    },
    "abtf": {
        "trench": {"British": 6, "German": 6},
        "foxhole-3s": {"British": 3, "German": 3},
        "foxhole-2s": {"British": 2, "German": 2},
        "foxhole-1s": {"British": 1, "German": 1},
        "ap-mine-factor": {"British": 6, "German": 3},
        "at-mine-factor": {"British": 4},
        "wire": {"German": 10},
        "fortified-location": {"British": 10, "German": 10},
        "breach": {"British": 5},
        "hip-squad": {"British": 3, "German": 3},
        "hip-hs": {"British": 2, "German": 2},
        "hip-crew": {"British": 1, "German": 1},
        "hip-smc": {"British": 1, "German": 1},
        "dummy": {"British": 1, "German": 1},
    },
}
FORTIFY = {"kgp": "8.621", "abtf": "9.619"}


def rich_in_fpp(kind: Kind, fpp: int) -> dict[str, Any]:
    """The sample, whose F1 grants ``fpp`` FPP and may be bought at will."""
    definition = kind.sample()
    for entries in definition["rg_chart"].values():
        for e in entries:
            if e.get("fpp"):
                e.update(fpp=fpp, per_date_max=None, cg_max=None)
    return definition


def fort_cases() -> list[Any]:
    return [
        pytest.param(
            KINDS[ruleset],
            side,
            kind,
            id=f"{ruleset}-{side}-{kind}",
        )
        for ruleset, table in FORT_COSTS.items()
        for side in KINDS[ruleset].sides
        for kind in table
    ]


@pytest.mark.parametrize(("kind", "side", "fort"), fort_cases())
def test_fortification_costs(client: TestClient, kind: Kind, side: str, fort: str) -> None:
    """8.621 (9.619): Fortifications cost FPP at the side's price; a type the
    side may not buy is 422; more than the FPP held is 409."""
    cost = FORT_COSTS[kind.ruleset][fort].get(side)
    held = 30
    game = kind.campaign(client, definition=rich_in_fpp(kind, held))
    buy(game, side, kind.item("F1"))
    assert line(game, side)["fpp"] == held
    rule = FORTIFY[kind.ruleset]

    def send(n: int) -> Any:
        return game.post(side, "/fortification-purchases", {"items": [{"type": fort, "count": n}]})

    if cost is None:
        problem = refused(game, side, 422, lambda: send(1))
        assert problem["field"] == "items.0.type"
        return
    most = int(held // cost)
    problem = refused(game, side, 409, lambda: send(most + 1))
    assert problem["detail"].startswith(f"{rule}: "), problem
    created(send(most))
    after = line(game, side)
    assert (after["fpp_spent"], after["fortifications"]) == (most * cost, {fort: most})
    problem = refused(game, side, 409, lambda: send(1))
    assert problem["detail"].startswith(f"{rule}: "), problem


@pytest.mark.parametrize("kind", KINDS.values(), ids=list(KINDS))
def test_fpp_are_forfeit_and_count_on_their_cg_date_only(client: TestClient, kind: Kind) -> None:
    """8.621 (9.619): "All FPP unspent upon the completion of this step are
    forfeit"; Fortifications are bought with the FPP of the current CG Date."""
    side = kind.sides[1]
    game = kind.campaign(client)
    f1 = next(e for e in kind.sample()["rg_chart"][side] if e.get("fpp"))
    rule = FORTIFY[kind.ruleset]
    # No FPP yet: nothing can be bought.

    def send() -> Any:
        return game.post(
            side, "/fortification-purchases", {"items": [{"type": "dummy", "count": 1}]}
        )

    assert refused(game, side, 409, send)["detail"].startswith(f"{rule}: ")
    buy(game, side, kind.item(key_of(f1)))
    created(send())
    first = line(game, side)
    assert (first["fpp"], first["fpp_spent"], first["fpp_forfeit"]) == (f1["fpp"], 1, None)
    # The step completes: the rest is forfeit.
    game.advance(side, "scenario")
    first = ok(game.get("referee", f"/roster?side={side}"))["lines"][-1]
    assert first["fpp_forfeit"] == f1["fpp"] - 1
    # On the next CG Date the FPP left over count for nothing.
    to_next_date(game, kind, side)
    now = line(game, side)
    assert (now["fpp"], now["fpp_spent"]) == (0, 0)
    assert refused(game, side, 409, send)["detail"].startswith(f"{rule}: ")
