"""Results that last (DESIGN §8, issue 13 item 3): a table result the rules say
lasts becomes campaign state, shown under ``conditions`` in ``GET
/campaigns/{id}`` and the roster and in ``?at=`` reads: 8.6122's SAN, 8.617's
weather (the Historical Weather Chart, or 8.6171's tables by consent), ABtF
9.6201's Ammunition Shortage Level, 9.6202's ELR and 9.6216's weather, EC and
wind; and a roll the rules require (8.6122 at a SAN ≥ 4, 9.6201) stops an advance."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from dice_steer import table_nonce
from fastapi.testclient import TestClient

pytestmark = pytest.mark.shared_app

KGP = {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}}
ABTF = {"ruleset": "abtf", "campaign": "CG I", "start_date": "18 PM"}


def _roll(game: Game, role: str, table: str, body: dict[str, Any] | None = None) -> Any:
    return game.post(role, f"/tables/{table}/rolls", body or {})


def _conditions(game: Game, role: str = "referee") -> dict[str, Any]:
    found: dict[str, Any] = ok(game.get(role))["conditions"]
    return found


def _sample(client: TestClient, ruleset: str, **extra: Any) -> dict[str, Any]:
    sample: dict[str, Any] = ok(client.get(f"/v1/rulesets/{ruleset}/sample-definition"))
    return {**sample, **extra}


# ---------------------------------------------------------------- 8.6122 SAN


@pytest.mark.parametrize(("original", "expected"), [(2, 6), (3, 4)])
def test_8_6122_ex_the_san_adjustment_lasts(kgp: Game, original: int, expected: int) -> None:
    """8.6122 EX: "The U.S. SAN is currently 6. Due to the +2 drm (6 - 4 = 2) to
    the U.S. Sniper adjustment dr, an Original dr of ≥ 3 will lower the U.S. SAN
    to 4." The result is campaign state, seen by both sides and in ``?at=`` reads.
    The Original dr on either side of the 3 is chosen by the nonce (``dice_steer``)."""
    kgp.next_date()  # 19 PM: both sides at 8.612
    before = kgp.version()
    assert "san" not in _conditions(kgp)
    nonce = table_nonce(kgp, "kgp:8.6122", "US", original)
    roll = created(_roll(kgp, "US", "kgp:8.6122", {"inputs": {"san": 6}, "client_nonce": nonce}))
    assert roll["roll"]["dice"] == [original]
    assert roll["final"] == original + 2
    for role in ("US", "German", "referee"):
        san = _conditions(kgp, role)["san"]
        assert san["US"]["value"] == expected
        assert (san["US"]["rule"], san["US"]["cg_date"], san["US"]["seq"]) == (
            "8.6122",
            "19 PM",
            roll["seq"],
        )
        assert "German" not in san
    roster = ok(kgp.get("German", "/roster?side=US"))
    assert roster["conditions"]["san"]["US"]["value"] == expected
    then = ok(kgp.get("German", f"/roster?side=US&at={before}"))
    assert "san" not in then["conditions"]


@pytest.mark.parametrize(("original", "kept"), [(1, 7), (2, 5)])
def test_the_kept_san_is_the_next_drs_input_and_its_dr_is_required(
    kgp: Game, original: int, kept: int
) -> None:
    """8.6122: "Each side whose SAN is currently ≥ 4 must make a dr": once the
    ledger knows the SAN, the dr is required before 8.612 is passed, and the
    SAN it holds is the dr's input unless the side states another. At a SAN of
    7 the drm is +3: an Original 1 keeps it, a 2 (Final 5) lowers it by 2."""
    kgp.next_date()
    nonce = table_nonce(kgp, "kgp:8.6122", "US", original)
    first = created(_roll(kgp, "US", "kgp:8.6122", {"inputs": {"san": 7}, "client_nonce": nonce}))
    assert (first["roll"]["dice"], first["final"]) == ([original], original + 3)
    kgp.next_date()  # 19 N
    problem = assert_problem(kgp.post("US", "/reph/advance", {"to": "8.613"}), 409)
    assert problem["detail"].startswith(
        "8.6122: US makes the SAN Adjustment dr on 19 N before step 8.612 is passed"
    )
    # The German's SAN is not on record: its dr is not required of it.
    created(kgp.post("German", "/reph/advance", {"to": "8.613"}))
    second = created(_roll(kgp, "US", "kgp:8.6122"))
    assert second["inputs"] == {"san": kept}
    assert second["final"] == second["roll"]["dice"][0] + kept - 4
    created(kgp.post("US", "/reph/advance", {"to": "8.613"}))


def test_a_lasting_result_is_not_a_secret_roll(kgp: Game) -> None:
    kgp.next_date()
    before = kgp.version()
    body = {"inputs": {"san": 5}, "secret": True}
    problem = assert_problem(_roll(kgp, "US", "kgp:8.6122", body), 422)
    assert problem["detail"].startswith("8.6122: the SAN Adjustment's result lasts (san)")
    assert kgp.version() == before


def test_a_referees_ruling_roll_changes_no_sides_san(kgp: Game) -> None:
    """The referee may roll any table at any time (DESIGN §8), as a ruling: it
    belongs to no side, so it moves no side's step and changes no SAN."""
    created(_roll(kgp, "referee", "kgp:8.6122", {"inputs": {"san": 9}}))
    assert "san" not in _conditions(kgp)
    assert ok(kgp.get("US", "/reph"))["current"] == {"US": "8.619", "German": "8.619"}


def test_an_undone_san_roll_leaves_no_san(kgp: Game) -> None:
    """Undo by replay (DESIGN §5) rebuilds the lasting results too."""
    kgp.next_date()
    roll = created(_roll(kgp, "US", "kgp:8.6122", {"inputs": {"san": 6}}))
    assert "san" in _conditions(kgp)
    created(kgp.post("referee", "/undo-requests", {"seqs": [roll["seq"]], "reason": "ruling"}))
    assert "san" not in _conditions(kgp)
    assert ok(kgp.get("US", "/reph"))["current"]["US"] == "8.612"


# ---------------------------------------------------------------- 8.617 weather


@pytest.mark.parametrize(
    ("date", "weather", "moon", "clouds"),
    [
        ("19 AM", "Extremely Heavy Mist", None, None),
        ("19 N", "Moderate Mist", "No Moon", "Overcast"),
        ("20 PM", "Very Heavy Mist", None, None),
    ],
)
def test_8_617_the_historical_weather_chart_gives_the_dates_weather(
    kgp: Game, date: str, weather: str, moon: str | None, clouds: str | None
) -> None:
    kgp.to_date(date)
    shown = _conditions(kgp, "US")["weather"]["campaign"]
    assert (shown["value"], shown["moon_phase"], shown["cloud_cover"]) == (weather, moon, clouds)
    assert (shown["rule"], shown["cg_date"]) == ("8.617", date)


def test_8_6171_random_weather_only_by_consent(kgp: Game) -> None:
    """8.617: "by mutual consent players may choose to use the optional 8.6171
    table(s)": without it in the CG definition the roll is refused."""
    kgp.next_date()
    created(kgp.post("US", "/cpp-replenishments", {}))
    before = kgp.version()
    problem = assert_problem(_roll(kgp, "US", "kgp:8.6171"), 409)
    assert problem["detail"].startswith(
        "8.6171: the Random Weather tables are used only by mutual consent"
    )
    assert kgp.version() == before


@pytest.mark.parametrize(("total", "follows"), [(2, "preceding-overcast"), (12, "preceding-clear")])
def test_8_6171_random_weather_lasts_and_its_drms_are_counted(
    client: TestClient, total: int, follows: str
) -> None:
    """The 20 AM roll is steered (``dice_steer``) to each end of the table, so
    the 20 PM roll's DRM for the preceding weather is counted either way."""
    definition = _sample(client, "kgp", optional_rules=["8.6171"])
    game = Game(client, {**KGP, "definition": definition})
    game.to_date("20 AM")
    created(game.post("US", "/cpp-replenishments", {}))
    # The chart is not used: the weather on record is 8.6171's, of an earlier date.
    earlier = _conditions(game)["weather"]["campaign"]
    assert (earlier["rule"], earlier["cg_date"]) == ("8.6171", "19 N")
    nonce = table_nonce(game, "kgp:8.6171", "US", total)
    roll = created(_roll(game, "US", "kgp:8.6171", {"client_nonce": nonce}))
    # "-1 If the current CG Date is AM" and the preceding CG Date's (19 N) weather
    # are counted by the ledger.
    preceding = {("preceding-overcast", -1)} if "Overcast" in earlier["value"] else set()
    if earlier["value"] == "Clear":
        preceding = {("preceding-clear", 1)}
    assert {(d["id"], d["value"]) for d in roll["drm"]} == {("am", -1)} | preceding
    weather = _conditions(game, "German")["weather"]["campaign"]
    assert (weather["rule"], weather["seq"], weather["cg_date"]) == ("8.6171", roll["seq"], "20 AM")
    bands = {0: "Mist & Overcast", 1: "Mist", 2: "Overcast", 3: "Clear"}
    assert weather["value"] == bands[roll["outcome"]["band"]]
    # A stated AM DRM that the date does not have is refused on 20 PM.
    game.next_date()
    created(game.post("US", "/cpp-replenishments", {}))
    problem = assert_problem(_roll(game, "US", "kgp:8.6171", {"drm": [{"id": "am"}]}), 422)
    assert problem["detail"] == (
        "8.6171: am is computed by the ledger; do not state it (it does not apply on 20 PM)"
    )
    again = created(_roll(game, "US", "kgp:8.6171"))
    preceding = {"preceding-overcast": "Overcast" in weather["value"], "preceding-clear": False}
    preceding["preceding-clear"] = weather["value"] == "Clear"
    applied = {d["id"] for d in again["drm"]}
    assert applied == {k for k, v in preceding.items() if v}
    assert follows in applied  # the branch this case steered to


def test_an_unknown_optional_rule_is_422_naming_the_field(client: TestClient) -> None:
    definition = _sample(client, "kgp", optional_rules=["8.6172"])
    r = client.post("/v1/campaigns", json={**KGP, "definition": definition})
    problem = assert_problem(r, 422)
    assert "optional_rules" in str(problem), problem


# ---------------------------------------------------------------- ABtF


@pytest.mark.parametrize(("original", "change"), [(8, 0), (9, 1)])
def test_abtf_9_6201_is_a_required_dr_and_its_level_lasts(
    client: TestClient, original: int, change: int
) -> None:
    """9.6201: "Commencing on the 19AM CG Date (and every CG Date thereafter)
    the British player makes a DR": required before 9.620 is passed; "Shortage
    increases one Level" (a Final DR ≥ 10) lasts (the Level at the start is SSR
    CG 17's, so the ledger shows the change). The ledger counts the +1 Campaign
    Exhaustion DRM of 19 AM; the Original DR is chosen by the nonce."""
    game = Game(client, {**ABTF, "start_date": "18 N"})
    game.next_date()  # 19 AM
    created(game.post("British", "/cpp-replenishments", {}))
    # 9.6152 gives the British I1 and I2 on 19 AM: their 9.6181 Strength DRs
    # (the sample chart's I1 is eligible for Depletion) come before 9.620.
    game.advance("British", "9.619")
    problem = assert_problem(game.post("British", "/reph/advance", {"to": "9.621"}), 409)
    assert problem["detail"].startswith(
        "9.6201: British makes the Ammunition Shortage Level Change DR on 19 AM"
    )
    # Passing the secret steps 9.617-9.619 records the British's empty sealed
    # records there, the 9.618 one with a roll index of its own (DESIGN §4): the
    # side moves to 9.620 first, so that the nonce steers the index it rolls.
    created(game.post("British", "/reph/advance", {"to": "9.620"}))
    nonce = table_nonce(game, "abtf:9.6201", "British", original)
    index = ok(game.get("British"))["rolls"]
    roll = created(_roll(game, "British", "abtf:9.6201", {"client_nonce": nonce}))
    assert roll["roll"]["index"] == index  # no other roll was drawn before it
    assert (sum(roll["roll"]["dice"]), roll["final"]) == (original, original + 1)
    level = _conditions(game, "German")["ammunition_shortage_level"]["British"]
    assert level["change"] == change
    assert "value" not in level
    # 9.6202's ELR Loss/Gain DR is required of every side too.
    problem = assert_problem(game.post("British", "/reph/advance", {"to": "9.621"}), 409)
    assert problem["detail"].startswith("9.6202: British makes the ELR Loss/Gain DR on 19 AM")
    created(_roll(game, "British", "abtf:9.6202"))
    created(game.post("British", "/reph/advance", {"to": "9.621"}))


def test_abtf_9_6202_elr_changes_add_up(client: TestClient) -> None:
    """9.6202: "ELR +1" on a Final DR ≤ 2, "ELR -1" on ≥ 13, per side. Each band
    is reached at its edge by a chosen nonce (``dice_steer``): the ledger counts
    +1 on 18 EVE (the Initial Scenario, "Per CG Scenario since the last Idle CG
    Date"), -3 on 18 N and -6 on 19 AM ("Per Idle CG Date since the last CG
    Scenario": ``next_date`` passes Idle dates)."""
    game = Game(client, ABTF)
    game.next_date()  # 18 EVE
    created(game.post("German", "/cpp-replenishments", {}))
    total = 0
    # (CG Date, Original DR, its Final, the ELR change)
    for date, original, final, change in (
        ("18 EVE", 12, 13, -1),
        ("18 N", 6, 3, 0),
        ("19 AM", 8, 2, +1),
    ):
        assert game.cg_date() == date
        # Past 9.617-9.619 first: the empty sealed 9.618 record takes a roll
        # index (DESIGN §4), so the nonce is found for the index rolled next.
        created(game.post("German", "/reph/advance", {"to": "9.620"}))
        nonce = table_nonce(game, "abtf:9.6202", "German", original)
        roll = created(_roll(game, "German", "abtf:9.6202", {"client_nonce": nonce}))
        assert (sum(roll["roll"]["dice"]), roll["final"]) == (original, final)
        total += change
        elr = _conditions(game, "British")["elr"]
        assert elr["German"]["change"] == total
        assert elr["German"]["seq"] == roll["seq"]
        # The British's ELR is its own (its DR, which 9.6202 requires of every
        # side, is made by ``next_date`` on the way).
        assert all(v["seq"] != roll["seq"] for s, v in elr.items() if s != "German")
        # Once per CG Date: the ELR of the date is rolled, not per unit.
        problem = assert_problem(_roll(game, "German", "abtf:9.6202"), 409)
        assert problem["detail"].startswith("9.6202: German has made the ELR Loss/Gain DR")
        game.next_date()
        created(game.post("German", "/cpp-replenishments", {}))


@pytest.mark.parametrize(
    ("original", "first_weather", "counted"),
    [
        (2, "Mist", {"previous-mist"}),
        (5, "Overcast", {"previous-overcast"}),
        (6, "Clear", set()),
        (11, "Clear & Gusty", {"previous-gusty"}),
    ],
)
def test_abtf_weather_lasts_and_the_previous_scenarios_weather_is_counted(
    client: TestClient, original: int, first_weather: str, counted: set[str]
) -> None:
    """9.62161: the British DR for "the weather for the upcoming CG" lasts; on the
    next scenario's roll the ledger counts "Previous CG Scenario was ..." from it
    (Mist, Overcast, Clear & Gusty; a plain Clear has no DRM). The first DR,
    with no DRM, is chosen by the nonce to read each band at its edge."""
    game = Game(client, ABTF)
    game.next_date()  # 18 EVE
    for side in ("British", "German"):
        game.advance(side, "9.621")
    game.choose_chits("attack")
    nonce = table_nonce(game, "abtf:9.62161", "British", original)
    first = created(_roll(game, "British", "abtf:9.62161", {"client_nonce": nonce}))
    assert [d["id"] for d in first["drm"]] == []  # no earlier weather on record, not night
    assert (first["final"], first["outcome"]["text"]) == (original, first_weather)
    weather = _conditions(game, "German")["weather"]["campaign"]
    assert (weather["value"], weather["rule"]) == (first_weather, "9.62161")
    game.end_scenario()
    game.next_date()  # 18 N
    for side in ("British", "German"):
        game.advance(side, "9.621")
    game.choose_chits("attack")
    second = created(_roll(game, "British", "abtf:9.62161"))
    assert {d["id"] for d in second["drm"]} == {"night"} | counted


def test_8_6171_consent_given_by_an_approved_amendment(kgp: Game) -> None:
    """The opponent consents by approving the amendment that adopts 8.6171; until
    then the Historical Weather Chart stands."""
    kgp.next_date()
    created(kgp.post("US", "/cpp-replenishments", {}))
    patch = {"patch": {"optional_rules": ["8.6171"]}, "reason": "random weather, agreed"}
    asked = created(kgp.post("US", "/definition-amendments", patch))
    assert asked["status"] == "pending"
    assert_problem(_roll(kgp, "US", "kgp:8.6171"), 409)  # not yet consented
    assert _conditions(kgp)["weather"]["campaign"]["rule"] == "8.617"
    done = ok(kgp.post("German", f"/definition-amendments/{asked['id']}/approve"))
    assert done["status"] == "applied"
    roll = created(_roll(kgp, "US", "kgp:8.6171"))
    weather = _conditions(kgp)["weather"]["campaign"]
    assert (weather["rule"], weather["seq"]) == ("8.6171", roll["seq"])


@pytest.mark.parametrize(("original", "weather"), [(8, "Mist"), (9, "Overcast")])
def test_8_6171_mist_density_follows_a_mist_result_only(
    client: TestClient, original: int, weather: str
) -> None:
    """8.6171: "Also make a subsequent dr on the KGP Random Mist Density Table"
    (the Mist results' '†' note); "There is no Mist initially" after the others.
    On 19 PM no DRM applies: the Original DR, chosen by the nonce, reads the
    last Mist band or the Overcast one."""
    definition = _sample(client, "kgp", optional_rules=["8.6171"])
    game = Game(client, {**KGP, "definition": definition})
    game.next_date()
    created(game.post("US", "/cpp-replenishments", {}))
    problem = assert_problem(_roll(game, "US", "kgp:8.6171-mist"), 409)
    assert problem["detail"].startswith("8.6171: the Mist Density dr follows a Random Weather")
    nonce = table_nonce(game, "kgp:8.6171", "US", original)
    rolled = created(_roll(game, "US", "kgp:8.6171", {"client_nonce": nonce}))
    assert (rolled["final"], rolled["outcome"]["text"]) == (original, weather)
    if weather == "Mist":
        # Required before 8.617 is passed, then made once.
        problem = assert_problem(game.post("US", "/reph/advance", {"to": "8.619"}), 409)
        assert problem["detail"].startswith("8.6171: US makes the KGP Random Mist Density")
        density = created(_roll(game, "US", "kgp:8.6171-mist"))
        assert _conditions(game)["mist_density"]["campaign"]["seq"] == density["seq"]
        assert_problem(_roll(game, "US", "kgp:8.6171-mist"), 409)
    else:
        assert_problem(_roll(game, "US", "kgp:8.6171-mist"), 409)
        assert "mist_density" not in _conditions(game)
    created(game.post("US", "/reph/advance", {"to": "8.619"}))
