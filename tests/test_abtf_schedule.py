"""Issue 26 item 5: ABtF 9.6152's Reinforcement Schedule as data of the
ruleset, and what the ledger does with it: the RG "received during a RePh
without purchase" on the RG Purchase Record (9.6178) with their 9.6181
Strength DR, the German's 20 FPP on 18 AM (9.619), and the SAN changes of the
kept SAN (9.6122), in force from the start of the CG Scenario (notes 4-5).
Pure domain (``domain_game``), but for one HTTP test of the RG record."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import Game, ok
from domain_game import DomainGame
from fastapi.testclient import TestClient

from cgledger.domain.errors import RuleViolation
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.abtf import schedule
from cgledger.domain.rulesets.abtf.definition import SAMPLE
from cgledger.projections.roster import roster_view

SEED = Path("/work/shared/seeds/003_af10331670ea25f4.txt")
ABTF = REGISTRY["abtf"]


def _seed_rows() -> dict[str, tuple[str, str]]:
    """The 9.6152 schedule's rows as the seed prints them: ``{date: (British, German)}``."""
    if not SEED.exists():
        pytest.skip("the seed texts are not on this machine")
    lines = SEED.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if "9.6152 REINFORCEMENT SCHEDULE" in line)
    rows = {}
    for line in lines[start + 2 :]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not re.fullmatch(r"\d\d(AM|PM|EVE|N)", cells[0]):
            break
        rows[cells[0]] = (cells[1], cells[2] if len(cells) > 2 else "")
    return rows


def _printed(given: tuple[schedule.Given, ...]) -> str:
    """A cell as the OCR prints it: each item with its note numbers glued on."""
    out = []
    for g in given:
        notes = ",".join(g.notes)
        if g.rg is not None:
            out.append(f"{g.rg}{notes}")
        elif g.fpp:
            out.append(f"{g.fpp} FPP{notes}")
        else:
            out.append(f"SAN {g.san:+d}{notes}")
    return ", ".join(out)


@pytest.mark.parametrize("date", ["18 AM", "18 PM", "19 AM", "20 AM"])
def test_the_schedule_is_the_seeds_read_with_its_glued_note_numbers(date: str) -> None:
    """9.6152 word for word: each cell of the data, printed back the way the OCR
    glues a note's number to the item before it, is the seed's cell."""
    printed = _seed_rows()[date.replace(" ", "")]
    ours = tuple(_printed(schedule.received(date, side)) for side in ("British", "German"))
    assert ours == printed


def test_the_san_changes_carry_their_notes_bounds() -> None:
    """Notes 4 and 5: a rise stops at SAN 7, a fall at SAN 2."""
    for change in schedule.SCHEDULED:
        assert (change.rule, change.step) == ("9.6152", "9.615")
        if change.change > 0:
            assert (change.maximum, change.minimum) == (7, None)
            assert "SAN 7 maximum" in change.note
        else:
            assert (change.maximum, change.minimum) == (None, 2)
            assert "SAN 2 minimum" in change.note
    assert set(ABTF.scheduled) == set(schedule.SCHEDULED)


def _definition(**extra: Any) -> dict[str, Any]:
    doc = copy.deepcopy(SAMPLE)
    doc.update(extra)
    return doc


def _game(start: str = "17 N", **extra: Any) -> DomainGame:
    return DomainGame("abtf", "CG I", start_date=start, definition=_definition(**extra))


def _given_rows(game: DomainGame, side: str) -> list[tuple[str, str, int, bool]]:
    return [
        (row["cg_date"], row["rg"], row["seq"], row["ob"])
        for row in game.c.rules["record"][side]
        if row["ob"]
    ]


def test_18_am_gives_the_rg_and_the_fpp_when_the_date_begins() -> None:
    """9.6152 "18AM | I1, I2 | 20 FPP": the British I1 and I2 on the RG
    Purchase Record as OB-given lines of the event that began 18 AM (never
    counted against the CG maximum), the German's 20 FPP on his 18 AM line."""
    game = _game()
    assert _given_rows(game, "British") == []
    game.next_date()
    assert game.cg_date == "18 AM"
    began = game.c.last_event
    assert _given_rows(game, "British") == [
        ("18 AM", "I1", began, True),
        ("18 AM", "I2", began, True),
    ]
    assert _given_rows(game, "German") == []
    german = roster_view(game.c, "German", "referee")["lines"][-1]
    british = roster_view(game.c, "British", "referee")["lines"][-1]
    assert (german["cg_date"], german["fpp"], british["fpp"]) == ("18 AM", 20, 0)


def test_the_rg_given_need_the_9_6181_strength_dr_of_their_chart_line() -> None:
    """9.6181: "For each RG eligible for Depletion that was just purchased (as
    well as for each such RG received in an Initial-Scenario or during a RePh
    without purchase), make one secret DR": the sample chart's I1 is eligible
    ("units": [3, 2]), so 9.618 waits for its DR; I2, on no chart line, needs none."""
    game = _game()
    game.next_date()
    game.advance("British", "9.617")
    with pytest.raises(RuleViolation) as refused:
        game.c.advance(game.ctx("British"), "British", "9.619")
    assert refused.value.detail.startswith("9.618: ")
    assert "/rg-determinations)" in refused.value.detail
    seq = game.c.rules["record"]["British"][-2]["seq"]
    game.perform("British", "rg-determinations", {"for_purchase": seq, "item": 0})
    game.advance("British", "9.619")
    i1, i2 = [r for r in game.c.rules["record"]["British"] if r["ob"]]
    assert "strength" in i1["results"]
    assert i2["results"] == {}


def test_nothing_is_received_on_the_initial_scenarios_date() -> None:
    """9.615 is no '†' step: a CG whose Initial Scenario is on 18 AM has the
    CG's own OB, not 9.6152's (its 18 PM items come on 18 PM)."""
    game = _game("18 AM", san={"British": 3, "German": 4})
    assert _given_rows(game, "British") == []
    assert roster_view(game.c, "German", "referee")["lines"][-1]["fpp"] == 0
    game.ready()
    assert game.kept("san")["British"]["value"] == 3  # no +2 of 18 AM
    game.next_date()
    assert [r[1] for r in _given_rows(game, "British")] == ["G1", "A1"]


def _san(game: DomainGame) -> dict[str, int]:
    return {side: entry["value"] for side, entry in game.kept("san").items()}


@pytest.mark.parametrize(("british", "german"), [(3, 4), (6, 2), (7, 3), (2, 8)])
def test_the_18_am_san_changes_are_in_force_from_its_scenarios_start(
    british: int, german: int
) -> None:
    """9.6152 "18AM | SAN +2 | SAN -1", notes 4 and 5 "SAN 7 maximum", "SAN 2
    minimum (effective at start of scenario)": the SAN of the CG's OB (the
    definition's ``san``) changes when the 18 AM scenario starts, within the
    bounds (a SAN already beyond one stays)."""
    game = _game(san={"British": british, "German": german})
    assert _san(game) == {"British": british, "German": german}
    game.next_date()  # 18 AM
    for side in ("British", "German"):
        game.advance(side, "9.616")  # past 9.612 (its SAN dr, if required) and 9.615
    made = {s: e["value"] for s, e in game.kept("san").items()}
    game.choose("attack")
    assert _san(game) == made  # received in 9.615, not in force before the scenario
    game.ready()
    expected = {
        "British": made["British"] + 2 if made["British"] + 2 <= 7 else max(made["British"], 7),
        "German": made["German"] - 1 if made["German"] - 1 >= 2 else min(made["German"], 2),
    }
    assert _san(game) == expected
    shown = game.kept("san")["British"]["scheduled"]
    assert shown[-1] == {"cg_date": "18 AM", "rule": "9.6152", "change": 2}


def test_an_idle_dates_change_waits_for_the_next_scenario() -> None:
    """18 AM Idle: no scenario starts, so its changes come in force at the start
    of 18 PM's, after 18 PM's SAN Adjustment, which the ledger makes with the
    SAN before them; at 18 PM's start both dates' changes apply, in order."""
    game = _game(san={"British": 3, "German": 4})
    game.next_date()
    game.next_date(play=False)  # 18 AM Idle
    assert game.cg_date == "18 PM"
    assert _san(game) == {"British": 3, "German": 4}
    game.choose("attack")  # neither side's SAN calls for a dr (British 3 < 4, German 4 < 5)
    assert _san(game) == {"British": 3, "German": 4}
    game.ready()
    # British 3 +2 (18 AM) -1 (18 PM) = 4; German 4 -1 (18 AM) +2 (18 PM) = 5.
    assert _san(game) == {"British": 4, "German": 5}
    british = game.kept("san")["British"]["scheduled"]
    assert british[0] == {"cg_date": "18 AM", "rule": "9.6152", "change": 2, "in_force": "18 PM"}


def test_a_stated_san_stands_with_or_without_the_definitions() -> None:
    """The stated SAN stands and is recorded (a SAN also changes outside the
    RePh, which the ledger does not record), with or without the definition's
    SAN; left out, the input is the SAN the campaign keeps."""
    free = _game()
    free.next_date()
    out = free.roll("German", "abtf:9.61222", {"san": 7})
    assert out["inputs"] == {"san": 7}
    known = _game(san={"British": 3, "German": 6})
    known.next_date()
    assert known.roll("German", "abtf:9.61222", {"san": 7})["inputs"] == {"san": 7}
    kept = _game(san={"British": 3, "German": 6})
    kept.next_date()
    assert kept.roll("German", "abtf:9.61222")["inputs"] == {"san": 6}


def test_the_rg_record_shows_the_given_rg_over_http(client: TestClient) -> None:
    """The one HTTP read: both sides see 9.6152's RG on the British record."""
    game = Game(client, {"ruleset": "abtf", "campaign": "CG I", "start_date": "17 N"})
    game.next_date()
    for role in ("British", "German"):
        rows = ok(game.get(role, "/rg-record?side=British"))["rows"]
        given = [(r["cg_date"], r["rg"], r["ob"], r["cpp"]) for r in rows if r.get("ob")]
        assert given == [("18 AM", "I1", True, 0), ("18 AM", "I2", True, 0)]
