"""Issue 13, DESIGN §8: every table is bound to its RePh step, its side(s) and
its CG Dates. A wrong side is 403, a wrong step or date is 409, and the detail
starts with the table's rule number.

A table-driven matrix: for each ruleset, at the moments of a campaign (A)
fresh, before the Initial Scenario; (B) just after the Initial Scenario ended;
(C) just after the next CG Date began, no action done yet; and (D) as (C) after
the CPP Replenishment (KGP and ABtF), every side asks to roll every table. The
expected answer is computed from public data only (the table listing, ``GET
/reph``, ``GET /initiative`` and the campaign's calendar): 403 or 409 where the
binding refuses the roll, else the roll is made.

Issue 26 item 3: the body is validated before the step binding, so a roll
with a DRM that does not exist is 422 naming it in any step (403 only where
the side may not roll the table at all), and the referee's too (a ruling, at
any time). A refused request appends nothing; each roll the binding allows is
made with a valid body, then undone by the referee.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

pytestmark = pytest.mark.shared_app

#: How each ruleset's campaign is created for these tests.
CREATE: dict[str, dict[str, Any]] = {
    "kgp": {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}},
    "abtf": {"ruleset": "abtf", "campaign": "CG I", "start_date": "18 PM"},
    "sg": {"ruleset": "sg", "campaign": "SG"},
}

#: The CG Date a campaign whose seed gives no further one names next (SG's
#: calendar is extendable: later CG Dates are named when begun).
NAMED_NEXT = {"sg": "6 Afternoon"}

SCENARIO = "scenario"

#: Tables of an optional rule the CG definitions used here do not adopt
#: (8.6171 Random Weather, "by mutual consent").
NOT_ADOPTED = frozenset({"kgp:8.6171", "kgp:8.6171-mist"})
#: Tables their rule gives to a moment none of these is, by the rule that says
#: so: the Dual Attack setup dr is made with the Initiative (8.6233a,
#: 9.62133a); 8.625's Dual Attack Table and 9.6215's First Move dr need a Dual
#: Attack; 9.6216's weather, EC and wind a scenario that 9.6213 generated.
NOT_NOW = {
    "kgp:8.6233a": "8.6233a",
    "kgp:8.625": "8.625",
    "abtf:9.6213a": "9.62133a",
    "abtf:9.6215": "9.6215",
    "abtf:9.62161": "9.62161",
    "abtf:9.62163": "9.62163",
    "abtf:9.62164": "9.62164",
}

#: Rolls the rules require of every side in a step on every CG Date but the
#: Initial Scenario's (9.6202's ELR Loss/Gain DR): none of these moments makes
#: them, so a step after theirs cannot be reached.
REQUIRED_EACH_DATE = {"abtf": {"9.620": "9.6202"}}

#: A DRM no table has: refused (422) before the step binding is read.
BODY = {"drm": [{"id": "no-such-drm"}]}


def _valid_body(table: dict[str, Any]) -> dict[str, Any]:
    """A body the table accepts: no DRM, and each input's first choice or lowest value."""
    inputs = {
        i["id"]: (i["choices"][0] if i.get("choices") else i["lo"]) for i in table.get("inputs", ())
    }
    return {"drm": [], "inputs": inputs}


def _fresh(game: Game) -> None:
    """(A) The fresh campaign, before its Initial Scenario."""


def _after_initial(game: Game) -> None:
    """(B) Just after the Initial Scenario ended."""
    game.end_scenario()


def _next_date(game: Game) -> None:
    """(C) Just after the next CG Date began; no action done on it yet."""
    game.end_scenario()
    named = NAMED_NEXT.get(game.created["ruleset"])
    if named is None:
        game.next_date(replenish=False)
    else:
        game.finish_date()
        created(game.post("referee", "/cg-dates", {"cg_date": named}))


def _replenished(game: Game) -> None:
    """(D) As (C), after every side's CPP Replenishment (8.616, 9.616; SG has
    none): the steps after it are reachable, so the optional rule 8.6171 is
    what refuses the KGP Random Weather tables."""
    _next_date(game)
    game.replenish()


MOMENTS: dict[str, Callable[[Game], None]] = {
    "fresh": _fresh,
    "after-initial-scenario": _after_initial,
    "next-cg-date": _next_date,
    "next-cg-date-replenished": _replenished,
}

#: The step actions each moment has done, for every side. No moment buys an
#: RG, so no determination roll is pending (8.620, 9.618): always done.
DONE_ACTIONS: dict[str, frozenset[str]] = {
    "fresh": frozenset({"rg-determinations"}),
    "after-initial-scenario": frozenset({"rg-determinations"}),
    "next-cg-date": frozenset({"rg-determinations"}),
    "next-cg-date-replenished": frozenset({"cpp-replenishments", "rg-determinations"}),
}


def _tables(client: TestClient, ruleset: str) -> list[dict[str, Any]]:
    r = client.get(f"/v1/rulesets/{ruleset}/tables")
    assert r.status_code == 200, r.text
    tables: list[dict[str, Any]] = r.json()
    return tables


@dataclass(frozen=True)
class Now:
    """What the moment has done: the step actions made by every side, and
    whether the Initiative of the CG Date still waits for chits."""

    done: frozenset[str]
    initiative_waits: bool
    ruleset: str = ""


def _now(game: Game, moment: str, reph: dict[str, Any]) -> Now:
    waits = False
    if not reph["initial"]:
        date = reph["cg_date"].replace(" ", "%20")
        r = game.get("referee", f"/initiative?cg_date={date}")
        if r.status_code == 200:  # SG has no Initiative
            (view,) = r.json()["items"]
            waits = view["determined"] is None
    return Now(DONE_ACTIONS[moment], waits, game.created["ruleset"])


SIDE = "not its side"
IN_SCENARIO = "scenario not in play"
DATE = "not on this CG Date"
NA = "step n/a"
DONE = "step done"
NEW_DATE = "new CG Date not begun"
BLOCKED = "an earlier step cannot be passed"
OPTIONAL = "optional rule not adopted"
NOT_THEN = "its rule gives it another moment"
LOCKSTEP = "the other side has not completed the steps before (SG 1.2)"
#: SG 1.2: "Both players (if applicable), American first, complete each step
#: before moving on to the next step".
IN_TURN = {"sg": ("American", "German")}
ALLOWED = "allowed: the roll is made"

#: The cases (ruleset, moment), each with the clauses of the binding that
#: decide at least one of its rolls (SG has no CPP Replenishment, so no (D);
#: its fresh campaign has no RePh step before the Initial Scenario, and its
#: new CG Date begins at 4.0, its last step).
DECISIVE: dict[tuple[str, str], set[str]] = {
    ("kgp", "fresh"): {ALLOWED, SIDE, DATE, IN_SCENARIO, NA},
    ("kgp", "after-initial-scenario"): {ALLOWED, SIDE, DATE, IN_SCENARIO, NEW_DATE, BLOCKED},
    ("kgp", "next-cg-date"): {ALLOWED, SIDE, DATE, IN_SCENARIO, DONE, BLOCKED},
    ("kgp", "next-cg-date-replenished"): {
        ALLOWED,
        SIDE,
        DATE,
        IN_SCENARIO,
        DONE,
        BLOCKED,
        OPTIONAL,
    },
    ("abtf", "fresh"): {ALLOWED, SIDE, DATE, NA},
    ("abtf", "after-initial-scenario"): {ALLOWED, SIDE, DATE, NEW_DATE, BLOCKED},
    ("abtf", "next-cg-date"): {ALLOWED, SIDE, DATE, DONE, BLOCKED},
    ("abtf", "next-cg-date-replenished"): {ALLOWED, SIDE, DATE, DONE, BLOCKED},
    ("sg", "fresh"): {SIDE, NA},
    ("sg", "after-initial-scenario"): {SIDE, LOCKSTEP},
    ("sg", "next-cg-date"): {SIDE, DONE},
}


def _date_excludes(table: dict[str, Any], cg_date: str, calendar: list[str]) -> bool:
    """Whether the table's date binding (``on_dates``, ``from_date``) leaves
    ``cg_date`` out, CG Dates ordered by the campaign's calendar."""
    on_dates = table.get("on_dates")
    if on_dates and cg_date not in on_dates:
        return True
    from_date = table.get("from_date")
    if from_date is None:
        return False
    assert from_date in calendar, f"{table['id']}: from_date {from_date} not in {calendar}"
    return calendar.index(from_date) > calendar.index(cg_date)


def _blocked_before(
    table_step: str, side: str, reph: dict[str, Any], new_date_step: str, now: Now
) -> bool:
    """Whether a step between ``side``'s current step (inclusive) and
    ``table_step`` (exclusive) cannot be passed now: it applies to the side
    and requires an action not done, or it is the New CG Date step while the
    new date is due, or it is another joint step (the Initiative, 8.623)
    waiting for both sides' chits (no Initiative before the Initial Scenario)."""
    order = [s["rule"] for s in reph["steps"]]
    current = reph["current"][side]
    start = len(order) if current == SCENARIO else order.index(current)
    required = REQUIRED_EACH_DATE.get(now.ruleset, {})
    for step in reph["steps"][start : order.index(table_step)]:
        if step["status"][side] == "n/a":
            continue
        if step["action"] is not None and step["action"] not in now.done:
            return True
        if step["rule"] in required and not reph["initial"]:
            return True
        if step["rule"] == new_date_step and reph["new_date_due"]:
            return True
        if step["joint"] and step["rule"] != new_date_step and now.initiative_waits:
            return True
    return False


def expected(
    table: dict[str, Any],
    side: str,
    reph: dict[str, Any],
    calendar: list[str],
    new_date_step: str,
    now: Now,
) -> tuple[int, str]:
    """The answer to ``side``'s roll on ``table`` with a valid body, from
    public data (the table listing, ``GET /reph``, the calendar and the
    actions done), and why."""
    if table.get("sides") and side not in table["sides"]:
        return 403, SIDE
    step = table["step"]
    if step == SCENARIO:
        return 409, IN_SCENARIO  # at none of these moments
    if _date_excludes(table, reph["cg_date"], calendar):
        return 409, DATE
    (row,) = (s for s in reph["steps"] if s["rule"] == step)
    if row["status"][side] in ("n/a", "done"):
        return 409, NA if row["status"][side] == "n/a" else DONE
    if step == new_date_step and reph["new_date_due"]:
        return 409, NEW_DATE
    if _blocked_before(step, side, reph, new_date_step, now):
        return 409, BLOCKED
    if _waits_in_turn(table, side, reph):
        return 409, LOCKSTEP
    if table["id"] in NOT_ADOPTED:
        return 409, OPTIONAL
    if table["id"] in NOT_NOW:
        return 409, NOT_THEN
    return 201, ALLOWED


def _waits_in_turn(table: dict[str, Any], side: str, reph: dict[str, Any]) -> bool:
    """SG 1.2: a side acts in a step once the side before it in turn has
    completed that step, and the side after it every step before it (steps
    both take; a step is completed when its status is ``done`` or ``n/a``)."""
    order = IN_TURN.get(table["id"].split(":")[0], ())
    if side not in order:
        return False
    rows = [s["rule"] for s in reph["steps"]]
    here = rows.index(table["step"])
    for other in order:
        if other == side:
            continue
        upto = here + 1 if order.index(other) < order.index(side) else here
        for row in reph["steps"][:upto]:
            both = row["status"][side] != "n/a" and row["status"][other] != "n/a"
            if both and row["status"][other] != "done":
                return True
    return False


def _new_date_step(reph: dict[str, Any]) -> str:
    """The ruleset's New CG Date step: the joint step titled so (KGP 8.612,
    ABtF 9.612), or where none is (SG) the first joint step (4.0 Next CG
    Scenario, where the next CG Date begins)."""
    joint = [s for s in reph["steps"] if s["joint"]]
    titled = [s["rule"] for s in joint if s["title"].startswith("New CG Date")]
    assert len(titled) <= 1, titled
    return titled[0] if titled else joint[0]["rule"]


@pytest.mark.parametrize(
    ("ruleset", "moment"), list(DECISIVE), ids=[f"{r}-{m}" for r, m in DECISIVE]
)
def test_every_table_is_bound_to_its_step_side_and_dates(
    client: TestClient, ruleset: str, moment: str
) -> None:
    game = Game(client, CREATE[ruleset])
    MOMENTS[moment](game)
    campaign = ok(game.get("referee"))
    calendar: list[str] = campaign["cg_dates"]
    sides: list[str] = campaign["sides"]
    reph = ok(game.get("referee", "/reph"))
    new_date_step = _new_date_step(reph)
    now = _now(game, moment, reph)
    version = game.version()
    tables = [t for t in _tables(client, ruleset) if not t.get("endpoint")]
    assert tables
    failures: list[str] = []
    seen: set[str] = set()
    allowed: list[tuple[dict[str, Any], str, str]] = []
    for table in tables:
        url = f"/tables/{table['id']}/rolls"
        for side in sides:
            want, why = expected(table, side, reph, calendar, new_date_step, now)
            seen.add(why)
            where = f"{table['id']} (step {table['step']}) by {side} at {moment} ({why})"
            # The unknown DRM: 422 naming it whatever the step (403: not its table).
            unknown = 403 if why == SIDE else 422
            r = game.post(side, url, {**_valid_body(table), **BODY})
            if r.status_code != unknown:
                failures.append(f"{where}, unknown DRM: expected {unknown}, got {r.text}")
            elif unknown == 422 and assert_problem(r, 422)["field"] != "drm[0].id":
                failures.append(f"{where}, unknown DRM: not named: {r.text}")
            assert game.version() == version, f"{where}: something was appended"
            if want == 201:
                allowed.append((table, side, where))
                continue
            r = game.post(side, url, _valid_body(table))
            if r.status_code != want:
                failures.append(f"{where}: expected {want}, got {r.status_code} {r.text}")
                continue
            body = assert_problem(r, want)
            rule = NOT_NOW.get(table["id"], table["rule"]) if why == NOT_THEN else table["rule"]
            if not body["detail"].startswith(f"{rule}:"):
                failures.append(f"{where}: detail does not start with {rule}: {body}")
            assert game.version() == version, f"{where}: something was appended"
        # The referee may roll any table at any time (a ruling): only the DRM fails.
        r = game.post("referee", url, {**_valid_body(table), **BODY})
        if r.status_code != 422:
            failures.append(f"{table['id']} by the referee at {moment}: {r.status_code} {r.text}")
        assert game.version() == version, f"{table['id']} by the referee: something was appended"
    # Each roll the binding allows is made, then undone: the next one starts
    # from the same moment.
    for table, side, where in allowed:
        r = game.post(side, f"/tables/{table['id']}/rolls", _valid_body(table))
        if r.status_code != 201:
            failures.append(f"{where}: expected 201, got {r.status_code} {r.text}")
            continue
        undo = {"seqs": [r.json()["seq"]], "reason": "the binding matrix probes the next roll"}
        assert created(game.post("referee", "/undo-requests", undo))["status"] == "applied"
    assert not failures, "\n".join(failures)
    # Not vacuous: each clause the moment should exercise decided some case.
    missing = DECISIVE[ruleset, moment] - seen
    assert not missing, f"no case at {moment} was decided by {sorted(missing)}"


@pytest.mark.parametrize("ruleset", list(CREATE))
def test_every_table_lists_a_step_of_its_sequence(client: TestClient, ruleset: str) -> None:
    r = client.get("/v1/rulesets")
    assert r.status_code == 200, r.text
    (info,) = (rs for rs in r.json() if rs["id"] == ruleset)
    steps = {s["rule"] for s in info["reph_steps"]}
    tables = _tables(client, ruleset)
    assert len(tables) == info["tables"]
    for table in tables:
        assert "step" in table, f"{table['id']} lists no step"
        assert table["step"] in steps | {SCENARIO}, f"{table['id']}: step {table['step']}"
