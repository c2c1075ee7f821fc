"""Issue 13's "Done when", over the REST API alone: a KGP CG I campaign is
played from 19 AM to its last CG Date (21 PM), ABtF CG I from 18 PM to 21 EVE
and SG from 6 Morning on, every CG Date driven one RePh step at a time
(``POST /reph/advance`` to each step ``GET /reph`` shows pending), with the
actions the steps require (8.616/9.616 CPP Replenishment, 8.618, 9.6201, the
SAN Adjustment where the SAN calls for it), table rolls in their own steps,
Initiative chits of every kind and scenarios played to their end. On every
CG Date out-of-step actions are refused (409, the detail starting with a rule
number) and append nothing. At the end the log holds every step, roll and
Initiative, the rosters add up, and ``GET /reph?at=`` answers what was seen
live.

Secret acts (8.616's Secret DR, a secret purchase, hidden determinations,
Secret table rolls) are sealed records (DESIGN §2a), read by the act they hold
(``kind_of``); each step the rules make secret that a side completes holds
exactly one sealed record of each of its acts, empty where the side made none.

Dice are never assumed: where a result decides what comes next (a SAN that
falls below the threshold, 8.618's shortage once it starts) the test branches
on it.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.sealed import kind_of, values_of

pytestmark = pytest.mark.shared_app

SCENARIO = "scenario"
ATTACK, IDLE = "attack", "idle"
CHIT = {"A": ATTACK, "I": IDLE}

KGP = {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}}
ABTF = {"ruleset": "abtf", "campaign": "CG I", "start_date": "18 PM"}
SG = {"ruleset": "sg", "campaign": "SG"}

#: The events a player's request appends (its main event); the others are the
#: ledger's bookkeeping around them.
ACTIONS = frozenset(
    {
        "RePhAdvanced",
        "TableRolled",
        "CPPReplenished",
        "AmmunitionShortageRolled",
        "RGPurchased",
        "RGDetermined",
        "FortificationsPurchased",
        "FortificationsPlaced",
        "InitiativeChosen",
        "InitiativeDetermined",
        "ScenarioEndProposed",
        "ScenarioEnded",
        "CGDateReady",
        "CGDateBegan",
        "ControlProposed",
        "ControlRecorded",
    }
)
BOOKKEEPING = frozenset(
    {
        "CampaignCreated",
        "CommitmentsPublished",
        "TableDefined",
        "SecretRevealed",
        "DefinitionAmendmentRequested",
        "DefinitionAmended",
    }
)


class Play:
    """A campaign played over REST one RePh step at a time. Every event a
    request appends is noted by seq with its type; every refusal is checked
    to append nothing; every ``GET /reph`` answer is kept for the replay check."""

    #: The ruleset's New CG Date step and Initiative step (None: it has none).
    new_date_step = ""
    initiative_step: str | None = None
    initiative_rule = ""
    limit_rule = ""
    #: The first CG Date's RePh comes before its Initial Scenario (8.6), not after.
    reph_before_initial = True

    def __init__(self, client: TestClient, body: dict[str, Any]) -> None:
        self.game = Game(client, body)
        self.client = client
        self.sides: tuple[str, ...] = tuple(self.game.created["sides"])
        self.calendar: list[str] = list(self.game.created["cg_dates"])
        self.cg_date: str = self.game.created["cg_date"]
        self.appended: dict[int, str] = {}
        self.live: list[dict[str, Any]] = []
        self.acted: set[tuple[str, str, str]] = set()
        self.refused: dict[str, list[str]] = {}
        #: By CG Date: the scenario its Initiative generated ("initial" first).
        self.scenarios: dict[str, str] = {}
        self.used: dict[str, Counter[str]] = {side: Counter() for side in self.sides}
        self.chits: dict[str, dict[str, str]] = {}
        #: By seq, each step advanced to: its side, CG Date and step.
        self.steps: dict[int, dict[str, str]] = {}
        #: By seq, each record an advance appended before its own: its side,
        #: CG Date and the step it advanced to.
        self.passed: dict[int, dict[str, str]] = {}
        ruleset = next(
            r for r in ok(client.get("/v1/rulesets")) if r["id"] == self.game.created["ruleset"]
        )
        self.first_step: str = ruleset["reph_steps"][0]["rule"]
        #: Issue 14: by version, the Setup Areas of each map group and the LVP
        #: answered live; and the Control the test gave, by (group, hex).
        self.territory: dict[int, dict[str, Any]] = {}
        self.groups: list[dict[str, Any]] = list(self.definition().get("map_groups") or ())
        self.control: dict[tuple[str, str], str | None] = {
            (g["id"], hx): side for g in self.groups for hx, side in g["initial_control"].items()
        }
        self.has_setup_areas = any(
            s["rule"] in ("8.605", "9.605") for s in ruleset["reph_steps"]
        ) and bool(self.groups)
        self.matrix: dict[tuple[str, ...], str] = {}
        if ruleset["initiative"] is not None:
            for row in ruleset["initiative"]["matrix"]:
                key = tuple(row["chits"][side] for side in self.sides)
                self.matrix[key] = row["scenario"]

    # ------------------------------------------------------------ requests

    def act(self, role: str, path: str, body: Any, kind: str) -> dict[str, Any]:
        """A request that must append ``kind`` (its main event)."""
        out = created(self.game.post(role, path, body))
        assert out["seq"] not in self.appended
        self.appended[out["seq"]] = kind
        return out

    def refuse(self, role: str, path: str, body: Any, rule: str) -> str:
        """An out-of-step request: 409, the detail starting with ``rule``, and
        nothing appended."""
        before = self.game.version()
        problem = assert_problem(self.game.post(role, path, body), 409)
        detail: str = problem["detail"]
        assert detail.startswith(f"{rule}: "), detail
        assert self.game.version() == before, detail
        self.refused.setdefault(self.cg_date, []).append(detail)
        return detail

    def not_made(self, side: str, table: str) -> None:
        """A SAN Adjustment dr at a SAN below the rule's threshold, which the
        ledger fills in: 422 on the dr's input, nothing appended."""
        before = self.game.version()
        problem = assert_problem(self.game.post(side, f"/tables/{table}/rolls", {}), 422)
        assert "san" in problem["detail"], problem
        assert self.game.version() == before

    def roll(self, side: str, table: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        out = self.act(side, f"/tables/{table}/rolls", body or {}, "TableRolled")
        assert out["table"]["id"] == table
        assert out["cg_date"] == self.cg_date
        return out

    def determine(self, side: str, seq: int, rule: str) -> list[dict[str, Any]]:
        """Every roll the RG bought at ``seq`` needs (DESIGN §10), one by one,
        until the ledger says it needs no further one; its record row is then
        complete, and the opponent sees one stub for a secret purchase."""
        made = []
        for _ in range(12):
            r = self.game.post(side, "/rg-determinations", {"for_purchase": seq})
            if r.status_code == 409:
                assert r.json()["detail"].startswith(f"{rule}: "), r.text
                assert "needs no further roll" in r.json()["detail"], r.text
                break
            made.append(created(r))
            self.appended[made[-1]["seq"]] = "RGDetermined"
        assert made, f"an RG of {side} needed no roll"
        rows = ok(self.game.get(side, f"/rg-record?side={side}"))["rows"]
        (row,) = [r for r in rows if r["seq"] == seq]
        assert row["needs"] == []
        # A sealed determination holds every hidden roll it made, in order
        # (DESIGN §2a); a public one is one roll.
        sealed = [m["event"]["secret"] for m in made if m["event"]["type"] == "RecordSealed"]
        assert len(sealed) <= 1, "the hidden rolls of one purchase are one sealed record"
        hidden = [r["need"] for part in sealed for r in part["rolls"]]
        counts = [
            len(m["event"]["secret"]["rolls"]) if m["event"]["type"] == "RecordSealed" else 1
            for m in made
        ]
        assert sorted(r["seq"] for r in row["rolls"]) == sorted(
            m["seq"] for m, n in zip(made, counts, strict=True) for _ in range(n)
        )
        other = next(s for s in self.sides if s != side)
        seen = ok(self.game.get(other, f"/rg-record?side={side}"))["rows"]
        mine = [r for r in seen if r["seq"] == seq]
        bought = ok(self.game.get(other, f"/events?after={seq - 1}&limit=1"))["items"][0]
        if bought["type"] == "RecordSealed":
            # A secret purchase: the opponent sees one stub row.
            assert mine == [{"seq": seq, "cg_date": row["cg_date"], "redacted": True}]
        else:
            # A public one: its row, without what its sealed rolls decided.
            (shown,) = mine
            assert shown["rg"] == row["rg"]
            for need in hidden:
                assert need in shown["hidden"], (need, shown)
                assert shown[need] is None, (need, shown)
                assert row[need] is not None, (need, row)
            assert [r["seq"] for r in shown["rolls"]] == [
                m["seq"] for m in made if m["event"]["type"] != "RecordSealed"
            ]
        return made

    def reph(self) -> dict[str, Any]:
        view = ok(self.game.get("referee", "/reph"))
        self.live.append(view)
        return view

    def conditions(self) -> dict[str, Any]:
        found: dict[str, Any] = ok(self.game.get("referee"))["conditions"]
        return found

    def definition(self) -> dict[str, Any]:
        found: dict[str, Any] = ok(self.game.get("referee", "/definition"))["definition"]
        return found

    # ------------------------------------------------------------ the sequence

    def on_step(self, side: str, step: str) -> None:
        """What ``side`` does in ``step`` (the ruleset's)."""

    def arrive(self, side: str, step: str, view: dict[str, Any]) -> None:
        if step == self.new_date_step and view["new_date_due"]:
            return  # its actions belong to the new CG Date, which has not begun
        key = (view["cg_date"], side, step)
        if key not in self.acted:
            self.acted.add(key)
            self.on_step(side, step)

    def walk(self, until: str, *sides: str) -> None:
        """The sides (every side by default) take their steps up to ``until``
        (``SCENARIO``: every step, then ready for the scenario) one at a time:
        a side acts in its current step (``on_step``), then advances to the next
        step ``GET /reph`` shows pending for it. The side furthest behind moves
        first, the first side on a tie: SG 1.2 "Both players (if applicable),
        American first, complete each step before moving on to the next step";
        8.6's steps, "performed simultaneously by each side", allow it too."""
        sides = sides or self.sides
        view = self.reph()
        order = [step["rule"] for step in view["steps"]]
        limit = len(order) if until == SCENARIO else order.index(until)

        def behind(side: str) -> tuple[int, int]:
            at = view["current"][side]
            return (len(order) if at == SCENARIO else order.index(at), self.sides.index(side))

        while True:
            nexts = {}
            for side in sides:
                pending = [s["rule"] for s in view["steps"] if s["status"][side] == "pending"]
                if pending and order.index(pending[0]) <= limit:
                    nexts[side] = pending[0]
            if not nexts:
                break
            side = min(nexts, key=behind)
            self.arrive(side, view["current"][side], view)
            view = self.advance(side, nexts[side])
        for side in sides:
            self.arrive(side, view["current"][side], view)
            if until == SCENARIO and view["current"][side] != SCENARIO:
                view = self.advance(side, SCENARIO)

    def advance(self, side: str, to: str) -> dict[str, Any]:
        before = self.game.version()
        view = self.act(side, "/reph/advance", {"to": to}, "RePhAdvanced")
        assert view["current"][side] == to
        assert view["cg_date"] == self.cg_date
        self.steps[view["seq"]] = {"side": side, "cg_date": self.cg_date, "step": to}
        # DESIGN §4: the empty sealed records of the secret steps it passed.
        for seq in range(before + 1, view["seq"]):
            self.passed[seq] = {"side": side, "cg_date": self.cg_date, "to": to}
        return view

    def choose(self, pair: str) -> str:
        """Initiative Determination: each side's chit (``pair``: "A"/"I" by side),
        the first chooser refused a second chit and, where a side has used all
        of one kind its CG definition allows, that kind refused."""
        chits = {side: CHIT[c] for side, c in zip(self.sides, pair, strict=True)}
        definition = self.definition()
        limits = {
            ATTACK: definition.get("attack_chits") or {},
            IDLE: definition.get("idle_chits") or {},
        }
        for side, chit in chits.items():
            assert self.used[side][chit] < limits[chit].get(side, 99), (side, chit)
            other = IDLE if chit == ATTACK else ATTACK
            limit = limits[other].get(side)
            if limit is not None and self.used[side][other] >= limit:
                self.refuse(side, "/initiative", {"chit": other}, self.limit_rule)
        # The sides take turns choosing first.
        first, second = self.sides if len(self.scenarios) % 2 else self.sides[::-1]
        one = self.act(first, "/initiative", {"chit": chits[first]}, "InitiativeChosen")
        assert one["chosen"] == {first: True, second: False}
        assert one["chits"][second] is None
        self.refuse(first, "/initiative", {"chit": chits[first]}, self.initiative_rule)
        out = self.act(second, "/initiative", {"chit": chits[second]}, "InitiativeDetermined")
        scenario: str = out["scenario"]
        assert out["chits"] == chits
        assert scenario == self.matrix[tuple(chits[side] for side in self.sides)]
        for side, chit in chits.items():
            self.used[side][chit] += 1
        self.chits[self.cg_date] = chits
        view = self.reph()
        assert view["scenario"]["type"] == scenario
        if scenario == "dual-attack":
            assert view["scenario"]["setup_first"] in self.sides
        return scenario

    def end_scenario(self, body: dict[str, Any]) -> dict[str, Any]:
        """CG-Scenario End: both sides send the same body."""
        first, second = self.sides
        one = self.act(first, "/scenario-end", body, "ScenarioEndProposed")
        assert one["status"] == "proposed"
        self.refuse(first, "/scenario-end", body, self.first_step)  # sent already
        out = self.act(second, "/scenario-end", body, "ScenarioEnded")
        assert out["status"] == "recorded"
        view = self.reph()
        assert view["new_date_due"] is True
        assert view["current"] == dict.fromkeys(self.sides, self.first_step)
        payload: dict[str, Any] = out["event"]["payload"]
        return payload

    def in_play(self, ready: str) -> None:
        """Hook: ``ready`` has completed its steps, the other side not yet;
        then both have (``ready`` is "")."""

    def play(self, date: str, pair: str | None, cvp: dict[str, int]) -> str:
        """Play CG Date ``date`` up to where the next one may begin: its RePh
        step by step, the Initiative (``pair``), and unless Idle its scenario to
        its end, then the steps before New CG Date. Returns the scenario type."""
        assert self.game.cg_date() == self.cg_date == date
        view = self.reph()
        assert view["cg_date"] == date
        assert view["new_date_due"] is False
        initial = view["initial"]
        assert initial == (date == self.calendar[0])
        # 8.6121: no new CG Date before CG-Scenario End or an Idle date.
        self.refuse(self.sides[0], "/cg-dates", {}, self.new_date_step)
        # The scenario type: the Initiative's, or without one (SG) a CG scenario.
        scenario = "initial" if initial else SCENARIO
        if self.initiative_step is not None:
            if initial:
                # 8.6233 (9.6213): no Initiative for the Initial Scenario.
                self.refuse(self.sides[1], "/initiative", {"chit": ATTACK}, self.initiative_rule)
                assert pair is None
            self.walk(self.initiative_step)
            if not initial:
                assert pair is not None
                scenario = self.choose(pair)
        self.scenarios[date] = scenario
        self.after_initiative(scenario)
        if scenario == IDLE:
            # 8.6232 note 2: an Idle date returns both sides to New CG Date.
            view = self.reph()
            assert view["new_date_due"] is True
            assert view["current"] == dict.fromkeys(self.sides, self.new_date_step)
            assert all(
                s["status"][self.sides[0]] == "n/a" for s in view["steps"] if "‡" in s["markers"]
            )
            return scenario
        first, second = self.sides
        self.walk(SCENARIO, first)
        self.in_play(first)
        self.walk(SCENARIO, second)
        self.in_play("")
        self.refuse(second, "/cg-dates", {}, self.new_date_step)
        self.shift_control()
        self.end_scenario({"cvp": cvp, **self.scenario_extra(date)})
        ended = self.look()
        self.walk(self.new_date_step)
        if ended is not None:
            self.check_frozen(ended)
        return scenario

    # ------------------------------------------------------------ territory

    def shift_control(self) -> None:
        """During the scenario, a side takes a Strategic Location of each map
        group from the other (a different one each date): one Control event."""
        n = len(self.scenarios)
        for group in self.groups:
            strategic = [h for h in group["hexes"] if h.get("strategic")]
            hx = strategic[n % len(strategic)]
            held = self.control.get((group["id"], hx["hex"]))
            taker = self.sides[1] if held == self.sides[0] else self.sides[0]
            levels = hx.get("levels") or [0]
            ground = 0 if 0 in levels else min(levels)
            body = {"map_group": group["id"], "locations": [
                {"hex": hx["hex"], "level": ground, "side": taker}]}  # fmt: skip
            # A side's Control is a proposal (DESIGN §13); the side that loses
            # the Location approves it, and then it is recorded.
            proposed = self.act(taker, "/control", body, "ControlProposed")
            assert proposed["status"] == "pending", proposed
            giver = self.sides[0] if taker == self.sides[1] else self.sides[1]
            approved = ok(self.game.post(giver, f"/proposals/{proposed['seq']}/approve"))
            assert approved["status"] == "applied", approved
            self.appended[approved["answer"]["seq"]] = "ControlRecorded"
            self.control[(group["id"], hx["hex"])] = taker

    def expected_lvp(self) -> dict[str, int]:
        """8.6032: the LVP of the Locations each side Controls, from the
        Control this test gave (a hex's LVP goes with its ground Location)."""
        totals = dict.fromkeys(self.sides, 0)
        for group in self.groups:
            for h in group["hexes"]:
                side = self.control.get((group["id"], h["hex"]))
                if side is not None and h.get("lvp"):
                    totals[side] += h["lvp"]
        return totals

    def look(self) -> dict[str, Any] | None:
        """After a CG-Scenario End: every map group's Setup Areas (live, not
        frozen yet) and the LVP rows, kept for the ``?at=`` check. A ruleset
        with neither Setup Areas nor LVP on its map (SG keeps VP) has no rows."""
        lvp = any(h.get("lvp") for g in self.groups for h in g["hexes"])
        if not self.has_setup_areas and not lvp:
            assert ok(self.game.get("referee", "/lvp"))["rows"] == []
            return None
        seen: dict[str, Any] = {"lvp": ok(self.game.get("referee", "/lvp"))}
        row = seen["lvp"]["rows"][-1]
        assert row["cg_date"] == self.cg_date
        assert row["current_lvp"] == self.expected_lvp()
        assert set(row["cg_lvp"]) == set(self.sides)
        assert row["rule"]
        if self.has_setup_areas:
            for group in self.groups:
                view = ok(self.game.get("referee", f"/setup-areas?map_group={group['id']}"))
                assert view["frozen"] is False
                assert len(view["hexes"]) == len(group["hexes"])
                seen[group["id"]] = view
                # ... and as a map: one hex drawn per hex, in the status shown.
                r = self.game.get(self.sides[1], f"/setup-areas.svg?map_group={group['id']}")
                assert r.status_code == 200
                assert r.headers["content-type"].startswith("image/svg+xml")
                drawn = dict(re.findall(r'data-hex="([^"]+)" data-status="([^"]+)"', r.text))
                assert drawn == {h["hex"]: h["status"] for h in view["hexes"]}
        self.territory[seen["lvp"]["version"]] = seen
        return seen

    def check_frozen(self, ended: dict[str, Any]) -> None:
        """Past the Setup Area step the answer is frozen: what was computed at
        scenario end, whatever Control is recorded now."""
        if not self.has_setup_areas:
            return
        for group in self.groups:
            url = f"/setup-areas?map_group={group['id']}"
            view = ok(self.game.get(self.sides[1], url))
            assert view["frozen"] is True
            assert view["frozen_at"] > ended["lvp"]["version"]
            keys = ("hexes", "areas", "sides")
            assert {k: view[k] for k in keys} == {k: ended[group["id"]][k] for k in keys}

    def check_territory_replay(self) -> None:
        """``?at=`` answers the Setup Areas and LVP given live at that version."""
        assert len(self.territory) >= 2 or not self.has_setup_areas
        for version, seen in self.territory.items():
            assert ok(self.game.get("referee", f"/lvp?at={version}")) == seen["lvp"]
            for group in self.groups if self.has_setup_areas else ():
                url = f"/setup-areas?map_group={group['id']}&at={version}"
                assert ok(self.game.get(self.sides[0], url)) == seen[group["id"]]

    def after_initiative(self, scenario: str) -> None:
        """What the rules have done once the scenario type is known."""
        del scenario

    def scenario_extra(self, date: str) -> dict[str, Any]:
        del date
        return {}

    def begin(self, following: str, body: dict[str, Any] | None = None) -> None:
        """8.6121: each side says it is ready; the second begins the next date."""
        date = self.cg_date
        first, second = self.sides
        one = self.act(first, "/cg-dates", body or {}, "CGDateReady")
        assert one["cg_date"] == date
        assert one["ready_for_next_cg_date"] == [first]
        self.refuse(first, "/cg-dates", body or {}, self.new_date_step)  # ready already
        out = self.act(second, "/cg-dates", {}, "CGDateBegan")
        assert out["cg_date"] == following
        self.cg_date = following
        assert out["ready_for_next_cg_date"] == []
        view = self.reph()
        assert view["new_date_due"] is False
        assert view["current"] == dict.fromkeys(self.sides, self.new_date_step)

    # ------------------------------------------------------------ the end

    def events(self) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        after = 0
        for _ in range(1000):
            r = self.client.get(
                f"{self.game.url}/events",
                params={"after": after, "limit": 100},
                headers=self.game.h("referee"),
            )
            page = ok(r)
            items.extend(page["items"])
            if page["next_after"] is None:
                return items
            after = page["next_after"]
        raise AssertionError("paging through /events never ended")

    def check_log(self) -> list[dict[str, Any]]:
        """Every request's event is in the log, and nothing else a player
        does; one InitiativeDetermined per non-initial date, one ScenarioEnded
        per non-Idle date, one CGDateBegan per date after the first; every roll."""
        log = self.events()
        campaign = ok(self.game.get("referee"))
        assert [e["seq"] for e in log] == list(range(1, campaign["version"] + 1))
        by_seq = {e["seq"]: e for e in log}
        for seq, kind in self.appended.items():
            assert kind_of(by_seq[seq]) == kind, (seq, kind)
        for e in log:
            assert kind_of(e) in ACTIONS | BOOKKEEPING, e["type"]
            assert e["reverted_by"] is None
            if kind_of(e) in ACTIONS:
                assert e["seq"] in self.appended or e["seq"] in self.passed, e
        self.check_sealed(log)
        dates = list(self.scenarios)

        def of(kind: str) -> list[str]:
            return [e["payload"]["cg_date"] for e in log if e["type"] == kind]

        played = [d for d, s in self.scenarios.items() if s != IDLE]
        assert of("ScenarioEnded") == played
        assert of("CGDateBegan") == dates[1:]
        # Every step each side took, in its CG Date.
        for seq, step in self.steps.items():
            payload = by_seq[seq]["payload"]
            assert {k: payload[k] for k in step} == step, (seq, payload)
        if self.initiative_step is not None:
            determined = [e["payload"] for e in log if e["type"] == "InitiativeDetermined"]
            assert [(p["cg_date"], p["chits"], p["scenario"]) for p in determined] == [
                (d, self.chits[d], self.scenarios[d]) for d in dates[1:]
            ]
        else:
            assert of("InitiativeDetermined") == of("InitiativeChosen") == []
        # Every roll, by index, once: the table rolls, the Secret CPP DRs, 8.618's
        # DRs and the Dual Attack drs.
        rolls = [e["payload"]["roll"]["index"] for e in log if "roll" in e["payload"]]
        assert rolls == list(range(campaign["rolls"]))
        return log

    def check_sealed(self, log: list[dict[str, Any]]) -> None:
        """DESIGN §4: completing a step whose acts the rules make secret records
        exactly one sealed record of each such act for the side, EMPTY (no
        roll, nothing bought) when the side did not make it there; the advance
        that passes the step records it, just before its own event."""
        rs = REGISTRY[self.game.created["ruleset"]]
        order = [st.id for st in rs.reph_steps]
        secret_steps = {st.id: st.sealed for st in rs.reph_steps if st.sealed}
        acts: Counter[tuple[str, str, str, str]] = Counter()
        for e in log:
            if e["type"] != "RecordSealed":
                continue
            p, kind = e["payload"], kind_of(e)
            if p["step"] in secret_steps and kind in secret_steps[p["step"]]:
                acts[(p["side"], p["cg_date"], p["step"], kind)] += 1
        assert set(acts.values()) == {1}, [k for k, n in acts.items() if n > 1]
        by_seq = {e["seq"]: e for e in log}
        for seq, at in self.passed.items():
            e = by_seq[seq]
            if e["type"] == "CommitmentsPublished":
                continue  # the next batch of commitments, before the roll index it opens
            p = e["payload"]
            assert e["type"] == "RecordSealed", e
            assert (p["side"], p["cg_date"]) == (at["side"], at["cg_date"]), (seq, at)
            assert p["step"] in secret_steps, e
            assert kind_of(e) in secret_steps[p["step"]], e
            to = len(order) if at["to"] == SCENARIO else order.index(at["to"])
            assert order.index(p["step"]) < to, (seq, at)
            assert e["secret"]["rolls"] == [], e
            assert not any(e["secret"].get(k) for k in ("rgs", "items")), e
        # ... and each side has one of each act of each secret step it
        # completed on each CG Date played: each step that applied to it (8.6:
        # before the Initial Scenario its '†' steps; no '‡' step on an Idle
        # date), except on an Idle date the Initiative step and those after
        # it, which the sequence leaves for New CG Date (8.6232 note 2).
        idle_from = (
            len(order) if self.initiative_step is None else order.index(self.initiative_step)
        )
        expected = {
            (side, date, st.id, kind)
            for date, scenario in self.scenarios.items()
            for st in rs.reph_steps
            for side in self.sides
            if rs.step_applies(
                st,
                side,
                date,
                initial=date == self.calendar[0] and self.reph_before_initial,
                scenario=scenario,
            )
            and not (scenario == IDLE and order.index(st.id) >= idle_from)
            for kind in st.sealed
        }
        assert set(acts) == expected, sorted(set(acts) ^ expected)

    def check_replay(self) -> None:
        """``GET /reph?at=`` answers what was answered live at that version."""
        views = {view["version"]: view for view in self.live}
        versions = sorted(views)
        middle = versions[len(versions) // 4 : 3 * len(versions) // 4]
        picked = middle[:: max(1, len(middle) // 5)]
        assert len(picked) >= 3
        for version in picked:
            assert ok(self.game.get("referee", f"/reph?at={version}")) == views[version]
        self.check_territory_replay()


# ---------------------------------------------------------------------- KGP


#: 8.6122: the SAN each side states at its first SAN Adjustment dr.
KGP_FIRST_SAN = {"US": 4, "German": 6}


class KgpPlay(Play):
    new_date_step = "8.612"
    initiative_step = "8.623"
    initiative_rule = "8.6232"
    limit_rule = "8.6231"

    def __init__(self, client: TestClient) -> None:
        super().__init__(client, KGP)
        self.shortage: str | None = None
        self.purchased: dict[str, int] = {}
        self.bought: dict[str, int] = {}

    def on_step(self, side: str, step: str) -> None:
        date = self.cg_date
        if step == "8.606":
            self.roll(side, "kgp:8.606-infantry")
        elif step == "8.610" and side == "German":
            # "-1 If German": the ledger's (issue 26 item 3).
            out = self.roll(side, "kgp:8.610")
            assert [(d["id"], d["by"]) for d in out["drm"]] == [("german", "ledger")]
        elif step == "8.612":
            self.san(side)
        elif step == "8.616":
            self.refuse(side, "/reph/advance", {"to": "8.617"}, "8.616")
            self.act(side, "/cpp-replenishments", {}, "CPPReplenished")
        elif step == "8.618":
            self.ammunition_shortage()
        elif step == "8.619" and date == "19 PM":
            rg, cpp = {"US": ("I1", 5), "German": ("HW1", 3)}[side]
            body = {"rg": rg, "cpp": cpp, "map_group": "Sx", "secret": side == "German"}
            self.bought[side] = self.act(side, "/rg-purchases", body, "RGPurchased")["seq"]
            self.purchased[side] = cpp
        elif step == "8.620" and side in self.bought:
            self.refuse(side, "/reph/advance", {"to": "8.621"}, "8.620")
            self.determine(side, self.bought.pop(side), "8.620")
            # A table of a step it has passed (8.613), or one that does not
            # apply before the Initial Scenario.
            self.refuse(side, "/tables/kgp:8.613/rolls", {}, "8.613")

    def san(self, side: str) -> None:
        """8.6122: "Each side whose SAN is currently ≥ 4 must make a dr"; the
        ledger knows the SAN from the side's last dr (stated at the first)."""
        known = self.conditions().get("san", {}).get(side)
        if known is None:
            body: dict[str, Any] = {"inputs": {"san": KGP_FIRST_SAN[side]}}
        elif known["value"] >= 4:
            self.refuse(side, "/reph/advance", {"to": "8.613"}, "8.6122")
            body = {}
        else:
            # Not made at a SAN < 4: the ledger's SAN is below the dr's input.
            self.not_made(side, "kgp:8.6122")
            return
        out = self.roll(side, "kgp:8.6122", body)
        start = out["inputs"]["san"]
        if known is not None:
            assert start == known["value"]
        now = self.conditions()["san"][side]
        assert now["value"] == (start - 2 if out["outcome"]["band"] == 1 else start)
        assert now["seq"] == out["seq"]

    def ammunition_shortage(self) -> None:
        """8.618: from 20 AM the German makes a DR each CG Date until a Final DR
        ≥ 12 starts the shortage for the rest of the CG."""
        if self.shortage is not None:
            self.refuse("German", "/ammunition-shortage", {}, "8.618")
            return
        self.refuse("German", "/reph/advance", {"to": "8.619"}, "8.618")
        out = self.act("German", "/ammunition-shortage", {}, "AmmunitionShortageRolled")
        payload = out["event"]["payload"]
        # Counted: the CG scenarios ended on the CG Dates from 20 AM on.
        after = [d for d, s in self.scenarios.items() if s != IDLE and d in CG_I_FROM_20_AM]
        (drm,) = payload["drm"]
        assert (drm["id"], drm["count"]) == ("scenarios-after-20-am", len(after))
        assert payload["shortage"] is (payload["final"] >= 12)
        if payload["shortage"]:
            self.shortage = self.cg_date
            assert self.conditions()["ammunition_shortage"]["since"] == self.shortage

    def in_play(self, ready: str) -> None:
        """KGP3's SSR table is rolled only while the CG scenario is in play."""
        if ready:
            self.refuse(ready, "/tables/kgp:KGP3-recall/rolls", {}, "KGP3")
        else:
            self.roll("US", "kgp:KGP3-recall")


CG_I_FROM_20_AM = ("20 AM", "20 PM", "20 N", "21 AM", "21 PM")
#: KGP CG I's Initiative chits (US, German) from 19 PM: two Dual Attacks, two
#: Idle dates, a US and two German Assaults; US 3 and German 4 Attack Chits,
#: the sample definition's limits (8.6231).
KGP_CHITS = {
    "19 PM": ("AA", "dual-attack"),
    "19 N": ("II", "idle"),
    "20 AM": ("AI", "us-assault"),
    "20 PM": ("IA", "german-assault"),
    "20 N": ("II", "idle"),
    "21 AM": ("AA", "dual-attack"),
    "21 PM": ("IA", "german-assault"),
}


def _check_cpp_roster(
    play: Play, log: list[dict[str, Any]], halve_left: bool, initial: dict[str, int]
) -> None:
    """One CPP line per CG Date, each side's, with the CPP Replenishment of
    each CG Date after the Initial Scenario's as the log records it (8.6162,
    9.616); the columns add up (8.619, 9.617)."""
    for side in play.sides:
        roster = ok(play.game.get("referee", f"/roster?side={side}"))
        lines = roster["lines"]
        assert [line["cg_date"] for line in lines] == play.calendar
        # A Secret DR: one sealed record each (DESIGN §2a), read by the referee.
        replenished = [
            e for e in log if kind_of(e) == "CPPReplenished" and e["payload"]["side"] == side
        ]
        assert {e["type"] for e in replenished} == {"RecordSealed"}
        assert [e["payload"]["cg_date"] for e in replenished] == play.calendar[1:]
        for e, line in zip(replenished, lines[1:], strict=True):
            assert line["cpp_base"] == values_of(e)["base"], line
            assert line["repl"] == values_of(e)["repl"], line
        assert [line["initial"] for line in lines] == [True] + [False] * (len(lines) - 1)
        assert lines[0]["start"] == initial.get(side, 0)
        assert lines[0]["repl"] is None
        for before, line in zip([None, *lines], lines, strict=False):
            if before is not None:
                assert line["start"] == before["left"] - before.get("recon_cpp", 0), line
            if line["cpp_base"] is None:
                assert line["repl"] in (None, 0), line
            else:
                assert isinstance(line["repl"], int), line
            assert line["total"] == line["start"] + (line["repl"] or 0), line
            assert line["spent"] == sum(rg["cpp"] for rg in line["rg_purchased"]), line
            unspent = line["total"] - line["spent"]
            assert line["left"] == (-(-unspent // 2) if halve_left else unspent), line
        # What the side itself sees is what the referee sees: its own roster.
        own = ok(play.game.get(side, "/roster"))
        assert own["lines"] == lines


def test_kgp_cg_i_is_played_from_19_am_to_its_last_cg_date(client: TestClient) -> None:
    play = KgpPlay(client)
    assert play.calendar == ["19 AM", "19 PM", "19 N", "20 AM", "20 PM", "20 N", "21 AM", "21 PM"]
    limits = play.definition()["attack_chits"]
    for n, side in enumerate(play.sides):
        attacks = sum(pair[n] == "A" for pair, _ in KGP_CHITS.values())
        assert attacks == limits[side], (side, attacks)
    assert {s for _, s in KGP_CHITS.values()} == set(play.matrix.values())
    for i, date in enumerate(play.calendar):
        pair, expected = KGP_CHITS.get(date, (None, "initial"))
        cvp = {"US": 2 + i, "German": 3 * i % 7}
        assert play.play(date, pair, cvp) == expected
        if date == play.calendar[-1]:
            break
        play.begin(play.calendar[i + 1])
    # 8.6121: 21 PM is CG I's last CG Date.
    for role in ("US", "referee"):
        detail = play.refuse(role, "/cg-dates", {}, "8.612")
        assert detail == "8.612: 21 PM is the last CG Date of CG I"
    assert play.game.cg_date() == "21 PM"
    assert set(play.refused) == set(play.calendar)
    assert play.used["US"][ATTACK] == 3  # the last US Attack Chit was refused on 21 PM
    assert any(d.startswith("8.6231: US has selected 3 Attack") for d in play.refused["21 PM"])
    log = play.check_log()
    # 8.618 from 20 AM: one German DR a CG Date until the shortage starts.
    shortage = [e["payload"]["cg_date"] for e in log if e["type"] == "AmmunitionShortageRolled"]
    dates = list(CG_I_FROM_20_AM)
    expected = dates if play.shortage is None else dates[: dates.index(play.shortage) + 1]
    assert shortage == expected
    _check_cpp_roster(play, log, halve_left=False, initial={"German": 2})
    for side, cpp in play.purchased.items():
        line = ok(play.game.get("referee", f"/roster?side={side}"))["lines"][1]
        assert line["spent"] == cpp
    play.check_replay()
    assert play.has_setup_areas
    assert len(play.territory) >= 3


# ---------------------------------------------------------------------- ABtF


#: 9.6122: the SAN each side states at its first dr, and the SAN at which the
#: dr must be made (British ≥ 4, 9.61221; German ≥ 5, 9.61222).
ABTF_FIRST_SAN = {"British": 4, "German": 6}
ABTF_SAN = {"British": ("abtf:9.61221", 4), "German": ("abtf:9.61222", 5)}


class AbtfPlay(Play):
    new_date_step = "9.612"
    initiative_step = "9.621"
    initiative_rule = "9.62132"
    limit_rule = "9.62131"

    def __init__(self, client: TestClient) -> None:
        super().__init__(client, ABTF)
        self.purchased: dict[str, int] = {}
        self.bought: dict[str, int] = {}

    def after_initiative(self, scenario: str) -> None:
        """9.6215: a Dual Assault's First Move dr (the German's); 9.6216: the
        British weather, EC and wind, in that order, for a generated scenario."""
        if scenario in (IDLE, "initial"):
            for table, rule in (("abtf:9.62161", "9.62161"), ("abtf:9.6215", "9.6215")):
                self.refuse(self.sides[0 if rule == "9.62161" else 1],
                            f"/tables/{table}/rolls", {}, rule)  # fmt: skip
            return
        self.refuse("British", "/tables/abtf:9.62163/rolls", {}, "9.62163")  # weather first
        for table in ("abtf:9.62161", "abtf:9.62163", "abtf:9.62164"):
            out = self.roll("British", table)
            night = self.cg_date.endswith(" N")
            assert ("night" in {d["id"] for d in out["drm"]}) is night
        if scenario == "dual-attack":
            self.roll("German", "abtf:9.6215")
        else:
            self.refuse("German", "/tables/abtf:9.6215/rolls", {}, "9.6215")
        weather = self.conditions()["weather"]["campaign"]
        assert (weather["cg_date"], weather["rule"]) == (self.cg_date, "9.62161")

    def on_step(self, side: str, step: str) -> None:
        date = self.cg_date
        if step == "9.605":
            self.roll(side, "abtf:9.6054-infantry")
        elif step == "9.610" and side == "British":
            # "-1 British": the ledger's (issue 26 item 3).
            out = self.roll(side, "abtf:9.6101")
            assert [(d["id"], d["by"]) for d in out["drm"]] == [("british", "ledger")]
        elif step == "9.612":
            self.san(side)
        elif step == "9.616":
            self.refuse(side, "/reph/advance", {"to": "9.617"}, "9.616")
            self.act(side, "/cpp-replenishments", {}, "CPPReplenished")
        elif step == "9.617" and side == "British" and date == "18 EVE":
            body = {"rg": "I1", "cpp": 6}
            self.bought[side] = self.act(side, "/rg-purchases", body, "RGPurchased")["seq"]
            self.purchased[side] = 6
        elif step == "9.618" and side in self.bought:
            self.determine(side, self.bought.pop(side), "9.618")
        elif step == "9.618" and side == "British" and date == "19 AM":
            self.given(side)
        elif step == "9.620" and side == "German":
            self.elr(side)
        elif step == "9.620":
            self.british_ammunition()
            self.refuse(side, "/tables/abtf:9.613/rolls", {}, "9.613")
            # 9.6202 is required of every side (the British too), but before
            # the Initial Scenario, where the CG's OB gives the ELR.
            if date != self.calendar[0]:
                self.refuse(side, "/reph/advance", {"to": "9.621"}, "9.6202")
                self.elr(side)

    def given(self, side: str) -> None:
        """9.6152: "19AM | I1, I2" are received without purchase on the RG
        Purchase Record, as OB-given lines of the event that began the date;
        9.6181 has each one eligible for Depletion make its Strength DR (the
        sample chart's I1 is; its chart has no I2, whose line holds its ID only)."""
        rows = ok(self.game.get(side, f"/rg-record?side={side}"))["rows"]
        given = [r for r in rows if r["cg_date"] == self.cg_date and r["ob"]]
        assert [(r["rg"], r["cpp"], r["purchased"]) for r in given] == [
            ("I1", 0, None),
            ("I2", 0, None),
        ]
        self.refuse(side, "/reph/advance", {"to": "9.619"}, "9.618")
        for row in given:
            body = {"for_purchase": row["seq"], "item": row["item"]}
            needs = row["needs"]
            while needs:
                made = created(self.game.post(side, "/rg-determinations", body))
                self.appended[made["seq"]] = "RGDetermined"
                (now,) = [
                    r
                    for r in ok(self.game.get(side, f"/rg-record?side={side}"))["rows"]
                    if (r["seq"], r["item"]) == (body["for_purchase"], body["item"])
                ]
                needs = now["needs"]
        assert given[0]["needs"] != []  # I1's chart line is eligible for Depletion
        assert given[1]["needs"] == []  # no chart line lists I2

    def san(self, side: str) -> None:
        table, threshold = ABTF_SAN[side]
        rule = table.removeprefix("abtf:")
        known = self.conditions().get("san", {}).get(side)
        if known is None:
            body: dict[str, Any] = {"inputs": {"san": ABTF_FIRST_SAN[side]}}
        elif known["value"] >= threshold:
            self.refuse(side, "/reph/advance", {"to": "9.613"}, rule)
            body = {}
        else:
            self.not_made(side, table)
            return
        out = self.roll(side, table, body)
        start = out["inputs"]["san"]
        if known is not None:
            assert start == known["value"]
        now = self.conditions()["san"][side]
        assert now["value"] == (start - 2 if out["outcome"]["band"] == 1 else start)

    def elr(self, side: str) -> None:
        """9.6202 ELR Loss/Gain, with the DRMs the ledger counts: "-3 Per Idle CG
        Date since the last CG Scenario", "+1 Per CG Scenario since the last Idle
        CG Date", "+1 Per Attack Chit selected by that side since the last Idle
        CG Date"."""
        idle_dates = scenarios = attacks = 0
        for date, scenario in self.scenarios.items():
            if scenario == IDLE:
                idle_dates, scenarios, attacks = idle_dates + 1, 0, 0
            else:
                idle_dates, scenarios = 0, scenarios + 1
                attacks += self.chits.get(date, {}).get(side) == ATTACK
        out = self.roll(side, "abtf:9.6202")
        counted = {d["id"]: d.get("count") for d in out["drm"]}
        expected = {"idle-dates": idle_dates, "scenarios": scenarios, "attack-chits": attacks}
        assert {k: counted[k] for k in expected} == expected, (self.cg_date, out["drm"])

    def british_ammunition(self) -> None:
        """9.6201: from 19 AM the British DR each CG Date, required, "not
        performed if the previous CG Date was Idle"."""
        date = self.cg_date
        index = self.calendar.index(date)
        before = self.calendar[index - 1] if index else None
        if index < self.calendar.index("19 AM"):
            detail = self.refuse("British", "/tables/abtf:9.6201/rolls", {}, "9.6201")
            assert "from 19 AM on" in detail
        elif before is not None and self.scenarios.get(before) == IDLE:
            detail = self.refuse("British", "/tables/abtf:9.6201/rolls", {}, "9.6201")
            assert "not made after an Idle CG Date" in detail
        else:
            self.refuse("British", "/reph/advance", {"to": "9.621"}, "9.6201")
            out = self.roll("British", "abtf:9.6201")
            counted = {d["id"]: d for d in out["drm"]}
            assert counted["attack-chits"]["count"] == self.used["British"][ATTACK]


#: ABtF CG I's Initiative chits (British, German) from 18 EVE: five Idle dates,
#: a Dual Attack, three British and four German Assaults; 4 British and 5
#: German Attack Chits, the sample definition's limits (9.62131).
ABTF_CHITS = {
    "18 EVE": ("AA", "dual-attack"),
    "18 N": ("II", "idle"),
    "19 AM": ("IA", "german-assault"),
    "19 PM": ("AI", "british-assault"),
    "19 EVE": ("II", "idle"),
    "19 N": ("AI", "british-assault"),
    "20 AM": ("IA", "german-assault"),
    "20 PM": ("II", "idle"),
    "20 EVE": ("II", "idle"),
    "20 N": ("IA", "german-assault"),
    "21 AM": ("AI", "british-assault"),
    "21 PM": ("II", "idle"),
    "21 EVE": ("IA", "german-assault"),
}


def test_abtf_cg_i_is_played_from_18_pm_to_21_eve(client: TestClient) -> None:
    play = AbtfPlay(client)
    assert play.calendar[0] == "18 PM"
    assert play.calendar[-1] == "21 EVE"
    assert list(ABTF_CHITS) == play.calendar[1:]
    definition = play.definition()
    needed = {
        kind: {
            side: sum(pair[n] == letter for pair, _ in ABTF_CHITS.values())
            for n, side in enumerate(play.sides)
        }
        for letter, kind in (("A", "attack_chits"), ("I", "idle_chits"))
    }
    # The Attack Chits fit the sample's limits, which the CG then reaches.
    assert needed["attack_chits"] == definition["attack_chits"]
    # 9.62131: a side selects a chit on each of the 13 CG Dates after the
    # Initial Scenario; the synthetic sample allows enough of them.
    for side in play.sides:
        assert needed["idle_chits"][side] <= definition["idle_chits"][side]
        assert definition["attack_chits"][side] + definition["idle_chits"][side] >= 13
    for i, date in enumerate(play.calendar):
        pair, expected = ABTF_CHITS.get(date, (None, "initial"))
        cvp = {"British": 1 + i % 4, "German": 2 * i % 5}
        assert play.play(date, pair, cvp) == expected
        if date == play.calendar[-1]:
            break
        play.begin(play.calendar[i + 1])
    for role in ("German", "referee"):
        detail = play.refuse(role, "/cg-dates", {}, "9.612")
        assert detail == "9.612: 21 EVE is the last CG Date of CG I"
    assert set(play.refused) == set(play.calendar)
    # The limits were reached and held: the British 4th Attack Chit was his last.
    assert dict(play.used["British"]) == {ATTACK: 4, IDLE: 9}
    assert dict(play.used["German"]) == {ATTACK: 5, IDLE: 8}
    assert any(
        d.startswith("9.62131: British has selected 4 Attack") for d in play.refused["21 EVE"]
    )
    log = play.check_log()
    # 9.6201: on each CG Date from 19 AM whose previous date was not Idle.
    british = [
        e["payload"]["cg_date"]
        for e in log
        if e["type"] == "TableRolled" and e["payload"]["rule"] == "abtf:9.6201"
    ]
    since = play.calendar[play.calendar.index("19 AM") :]
    assert british == [
        d for d in since if play.scenarios[play.calendar[play.calendar.index(d) - 1]] != IDLE
    ]
    _check_cpp_roster(play, log, halve_left=True, initial={})
    line = ok(play.game.get("referee", "/roster?side=British"))["lines"][1]
    assert line["spent"] == play.purchased["British"]
    play.check_replay()
    assert play.has_setup_areas
    assert len(play.territory) >= 3


# ---------------------------------------------------------------------- SG


class SgPlay(Play):
    new_date_step = "4.0"
    reph_before_initial = False  # 1.2: SG1 is played before any step of the sequence

    def __init__(self, client: TestClient) -> None:
        super().__init__(client, SG)

    def on_step(self, side: str, step: str) -> None:
        if step == "3.1":
            self.roll(side, "sg:3.1")
        elif step == "3.3":
            self.roll(side, "sg:3.3-sw")
        elif step == "3.6":
            self.roll(side, f"sg:3.6-{side.lower()}-infantry")
            # 3.1 is past: steps are taken in their numbered order (1.2).
            self.refuse(side, "/tables/sg:3.1/rolls", {}, "3.1")
        elif step == "3.7":
            self.roll(side, "sg:3.7")

    def scenario_extra(self, date: str) -> dict[str, Any]:
        vp, required = SG_VP[date]
        return {"vp": {"American": vp}, "vp_required": required}


#: SG's CG Dates as the players name them (the seed gives only 6 Morning), and
#: each scenario's American VP scored, VP required, and CVP earned by side.
SG_VP = {
    "6 Morning": (63, 55),
    "6 Afternoon": (30, 90),
    "7 Morning": (120, 40),
    "7 Afternoon": (10, 300),
}
SG_CVP = {
    "6 Morning": {"American": 20, "German": 41},
    "6 Afternoon": {"American": 5, "German": 20},
    "7 Morning": {"American": 12, "German": 0},
    "7 Afternoon": {"American": 7, "German": 9},
}


def test_sg_is_played_over_the_cg_dates_its_players_name(client: TestClient) -> None:
    play = SgPlay(client)
    dates = list(SG_VP)
    assert play.calendar == dates[:1]
    for i, date in enumerate(dates):
        view = play.reph()
        if i == 0:
            # 1.2: SG1 is played before any step of the sequence.
            assert view["current"] == dict.fromkeys(play.sides, SCENARIO)
            play.refuse("American", "/tables/sg:3.3-sw/rolls", {}, "3.3")
        else:
            assert view["current"] == dict.fromkeys(play.sides, "4.0")
            play.refuse("German", "/tables/sg:3.3-sw/rolls", {}, "3.3")  # passed
        assert play.play(date, None, SG_CVP[date]) == ("initial" if i == 0 else SCENARIO)
        if i + 1 < len(dates):
            play.begin(dates[i + 1], {"cg_date": dates[i + 1]})
            assert ok(play.game.get("referee"))["cg_dates"] == dates[: i + 2]
    # The seed's calendar ends on 6 Morning and the CG is extendable: the next
    # CG Date must be named, and one played already is not begun again.
    before = play.game.version()
    problem = assert_problem(play.game.post("American", "/cg-dates", {}), 422)
    assert problem["field"] == "cg_date"
    assert problem["detail"].startswith("4.0: the CG Dates after 7 Afternoon are the players'")
    assert problem["detail"].endswith("name the next one")
    problem = assert_problem(
        play.game.post("referee", "/cg-dates", {"cg_date": "6 Afternoon"}), 422
    )
    assert problem["field"] == "cg_date"
    assert play.game.version() == before
    assert set(play.refused) == set(dates)
    log = play.check_log()
    # 2.91-2.92: the American's VP and Purchase Points of each scenario.
    vp_total = suffered = available = 0
    expected = []
    for date in dates:
        vp, required = SG_VP[date]
        vp_total += vp
        suffered += SG_CVP[date]["German"]  # the American's CVP suffered
        differential = required - vp_total
        points = max(0, differential + suffered)
        available += points
        expected.append(
            {
                "cg_date": date,
                "vp": vp,
                "vp_total": vp_total,
                "vp_required": required,
                "vp_differential": differential,
                "cvp_suffered": suffered,
                "purchase_points": points,
                "purchase_points_available": available,
                # 2.9 (cut after "and/"): reaching the total wins; CG VC: >= 150
                # VP while the German has amassed < 105 CVP.
                "winner": "American" if vp_total >= required else None,
                "cg_winner": "American" if vp_total >= 150 and suffered < 105 else None,
            }
        )
    assert any(line["purchase_points"] == 0 for line in expected)  # negatives ignored
    ended = [e for e in log if e["type"] == "ScenarioEnded"]
    for role in ("American", "German", "referee"):
        roster = ok(play.game.get(role, "/roster?side=American"))
        lines = [
            {k: v for k, v in line.items() if k not in ("seq", "winner_rule")}
            for line in roster["lines"]
        ]
        assert lines == expected
        assert all(line["winner_rule"].startswith("2.9: ") for line in roster["lines"])
        assert [line["seq"] for line in roster["lines"]] == [e["seq"] for e in ended]
        assert ok(play.game.get(role, "/roster?side=German"))["lines"] == []
    play.check_replay()
    assert not play.has_setup_areas  # SG: VP, no Setup Areas
