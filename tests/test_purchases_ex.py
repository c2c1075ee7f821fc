"""The worked examples of the purchase rules, played through the commands with
the dice steered by the client nonce (the server's seeds are fixed here):
8.6205's EX (strength, SW and HW Equipment of four German RG on 21 AM), 8.6202's
EX (U.S. quality), 8.621's EX (30 FPP), 9.6182's EX (the "*" dr), and the
8.6194 price modifiers. The API-level checks (limits, secrecy, Hypothesis) are
in the other ``test_purchases_*`` files."""

from __future__ import annotations

import copy
import random
from typing import Any
from uuid import UUID

import pytest

from cgledger.domain import dice
from cgledger.domain.campaign import Campaign, Ctx, validated_definition
from cgledger.domain.errors import InvalidInput, RuleViolation
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.cpp import (
    DeterminationCreate,
    FortificationPurchaseCreate,
    FortItem,
    RGItem,
    RGPurchaseCreate,
)
from cgledger.domain.rulesets.kgp.rules import ShortageCreate
from cgledger.domain.visibility import REFEREE
from cgledger.sealing import AesGcmSealer

SEALER = AesGcmSealer(bytes(32))
KGP = REGISTRY["kgp"]


def _ctx(actor: str, rng: random.Random) -> Ctx:
    return Ctx(actor=actor, now="2026-11-25T00:00:00Z", entropy=rng.randbytes, sealer=SEALER)


def _definition(
    ruleset: str, german: list[dict[str, Any]], other: list[dict[str, Any]]
) -> dict[str, Any]:
    doc = copy.deepcopy(REGISTRY[ruleset].sample_definition)
    first = REGISTRY[ruleset].sides[0]
    doc["rg_chart"] = {"German": german, first: other}
    return doc


#: The RG of the 8.6205 EX (names as in the EX; the SW as 8.6204's SS Inf line
#: and the EX say: two LMG and one PSK). The HW Pltn's Equipment is cut in the
#: seed ("one apiece for the SPW 251/"), so its pieces here are invented.
EX_CHART = [
    {"id": "I2", "name": "SS Inf Pltn", "cpp": 4, "units": [3, 2], "unit_type": "6-5-8",
     "sw": ["LMG", "LMG", "PSK"]},
    {"id": "V2", "name": "Pz IV Sect", "cpp": 5, "units": [2, 1]},
    {"id": "HW2", "name": "SS PzGr HW Pltn", "cpp": 6, "equipment": ["SPW 251/1", "MMG", "HMG"]},
    {"id": "O3", "name": "120+mm Battalion mortar OBA", "cpp": 7, "footnotes": ["s"]},
    {"id": "F1", "name": "Fortifications", "cpp": 2, "fpp": 30},
]  # fmt: skip
US_CHART = [
    {"id": "I1", "name": "Inf Pltn", "cpp": 5},
    {"id": "I6", "name": "Arm'd Inf Pltn", "cpp": 6, "footnotes": ["l"]},
    {"id": "V3", "name": "Med Tank Pltn", "cpp": 9, "footnotes": ["a"]},
    {"id": "O1", "name": "OBA", "cpp": 7},
]


def _campaign(
    rng: random.Random,
    ruleset: str = "kgp",
    *,
    name: str = "CG I",
    start: str | None = None,
    definition: dict[str, Any] | None = None,
    **cpp: int,
) -> Campaign:
    """A campaign on the EX chart (KGP) or the ruleset's sample, or ``definition``."""
    rs = REGISTRY[ruleset]
    if definition is None and ruleset == "kgp":
        definition = _definition("kgp", EX_CHART, US_CHART)
    return Campaign.create(
        _ctx("creator", rng),
        campaign_id=UUID(int=rng.getrandbits(128)),
        ruleset_id=ruleset,
        campaign_name=name,
        title="t",
        start_date=start,
        initial_cpp=cpp or dict.fromkeys(rs.sides, 60),
        token_hashes={},
        definition=definition if definition is not None else copy.deepcopy(rs.sample_definition),
    )


def _nonce(c: Campaign, actor: str, purpose: str, count: int, want: list[int] | int) -> str:
    """A client_nonce that makes the next roll give ``want`` (a total, or the dice)."""
    index = c.roll_count
    seed = c.seed(index, SEALER)
    for n in range(20_000):
        got = dice.roll(
            seed, campaign=c.cid, index=index, client_nonce=str(n), dice=count,
            purpose=purpose, side=actor,
        )  # fmt: skip
        if got == want or sum(got) == want:
            return str(n)
    raise AssertionError(f"no nonce gives {want}")


def _idle_date(c: Campaign, rng: random.Random) -> None:
    """Both sides stand Idle and the next CG Date begins (8.6232 note 2)."""
    from kgp_commands import replenish_cpp

    shortage = KGP.step("8.618")
    for side in c.sides:
        if not c.rules["cpp"][side][-1]["initial"]:
            replenish_cpp(c, _ctx(side, rng), side, None)
        if c.step_applies(shortage, side) and not KGP.rules.step_done(c, side, "8.618"):
            c.perform(_ctx(side, rng), "ammunition-shortage", ShortageCreate())
        c.advance(_ctx(side, rng), side, "8.623")
        c.choose_initiative(_ctx(side, rng), side, "idle")
    c.begin_cg_date(_ctx(REFEREE, rng), None)


def _to_21_am(c: Campaign, rng: random.Random) -> None:
    for side in c.sides:
        c.advance(_ctx(side, rng), side, "scenario")
    c.end_scenario(_ctx(REFEREE, rng), {"cvp": dict.fromkeys(c.sides, 0)})
    c.begin_cg_date(_ctx(REFEREE, rng), None)
    while c.cg_date != "21 AM":
        _idle_date(c, rng)
    from kgp_commands import replenish_cpp

    for side in c.sides:
        replenish_cpp(c, _ctx(side, rng), side, None)
        if not KGP.rules.step_done(c, side, "8.618") and c.step_applies(KGP.step("8.618"), side):
            c.perform(_ctx(side, rng), "ammunition-shortage", ShortageCreate())


def _buy(c: Campaign, rng: random.Random, side: str, *rgs: str, secret: bool = False) -> int:
    items = [RGItem(rg=rg, map_group="Sx") for rg in rgs]
    return c.perform(_ctx(side, rng), "rg-purchases", RGPurchaseCreate(rgs=items, secret=secret))


def _determine(
    c: Campaign, rng: random.Random, side: str, seq: int, item: int, *wants: tuple[int, int]
) -> list[dict[str, Any]]:
    """Make the rolls RG ``item`` of purchase ``seq`` needs now, steered: each
    of ``wants`` is (dice, Original) in the order they are made. A roll on a
    public table for a public RG is an event of its own (one ``want``); the
    hidden ones of the RG (a Secret DR, or any for a secret purchase) are made
    together in one sealed record from one dice stream (DESIGN §2a), steered by
    the stream's nonce. Returns each roll as recorded."""
    row = next(r for r in c.rules["record"][side] if (r["seq"], r["item"]) == (seq, item))
    table = c.table(_next_need(c, side, row).table)
    if not (row["secret"] or table.secret):
        ((count, want),) = wants
        nonce = _nonce(c, side, f"{table.id} {table.title}", count, want)
    else:
        nonce = _stream_nonce(c, side, list(wants))
    body = DeterminationCreate(for_purchase=seq, item=item, client_nonce=nonce)
    record = c.record(c.perform(_ctx(side, rng), "rg-determinations", body))
    if record["type"] != "RecordSealed":
        return [{**record["payload"], **(record["secret"] or {})}]
    rolls: list[dict[str, Any]] = record["secret"]["rolls"]
    assert len(rolls) == len(wants), rolls
    return rolls


def _stream_nonce(c: Campaign, actor: str, wants: list[tuple[int, int]]) -> str:
    """A client_nonce whose dice stream (cgledger-dice/2) gives each of
    ``wants`` (dice, total) in turn."""
    index = c.roll_count
    seed = c.seed(index, SEALER)
    n_dice = sum(count for count, _ in wants)
    for n in range(200_000):
        got = dice.sealed_dice(
            seed, campaign=c.cid, index=index, client_nonce=str(n), side=actor, n=n_dice
        )
        at, fits = 0, True
        for count, want in wants:
            fits = fits and sum(got[at : at + count]) == want
            at += count
        if fits:
            return str(n)
    raise AssertionError(f"no nonce gives {wants}")


def _next_need(c: Campaign, side: str, row: dict[str, Any]) -> Any:
    from cgledger.domain import purchases as book

    entry = book.find_entry(c.definition_doc()["rg_chart"][side], row["rg"])
    assert entry is not None
    return book.missing(c.ruleset.rules.purchases, side, entry, row)[0]


def _row(c: Campaign, side: str, seq: int, item: int) -> dict[str, Any]:
    rows = c.ruleset.rules.rg_record(c, side, lambda _s: True)["rows"]
    found: dict[str, Any] = next(r for r in rows if (r["seq"], r["item"]) == (seq, item))
    return found


def test_8_6205_ex_strength_sw_and_equipment_of_four_german_rg() -> None:
    """8.6205 EX: on 21 AM the German buys two SS Inf Pltn, a Pz IV Sect, an SS
    PzGr HW Pltn and a 120+mm OBA module. The OBA needs no DR; the others make
    one each with +2 ("two days past 19 December"). Final DR 12, 6, 8 and 13:
    one Depleted and one Full SS Inf Pltn, a Full Pz IV Sect, a Depleted HW
    Pltn. The Depleted SS Inf Pltn then makes three Secret dr, one per SW (two
    LMG, one PSK): 6 and 4 for the LMG, 3 for the PSK, so it receives one LMG
    and one PSK; the Full one receives both LMG and the PSK with no dr."""
    rng = random.Random(8_6205)
    c = _campaign(rng, German=60, US=10)
    _to_21_am(c, rng)
    c.advance(_ctx("German", rng), "German", "8.619")
    seq = _buy(c, rng, "German", "I2", "I2", "V2", "HW2", "O3")
    # The Pz IV Sect is a "V"-type RG: -1 (8.6201) as well, so Original 7 makes Final 8.
    finals = {0: (10, 12), 1: (4, 6), 2: (7, 8), 3: (11, 13)}
    # The Depleted SS Inf Pltn (item 0) then makes one Secret dr per SW (two
    # LMG, one PSK), received on an Original dr ≤ 4: 6 and 4, then 3. The
    # Depleted HW Pltn (item 3) makes a dr per piece of Equipment (8.6205): 2, 5, 1.
    # Each RG's Secret rolls are one sealed record, in the order they are made.
    after = {0: [(1, 6), (1, 4), (1, 3)], 3: [(1, 2), (1, 5), (1, 1)]}
    for item, (original, final) in finals.items():
        got = _determine(c, rng, "German", seq, item, (2, original), *after.get(item, []))
        assert got[0]["rule"] == "kgp:8.6201"
        assert {d["id"]: d["value"] for d in got[0]["drm"]}["days-after-dec-19"] == 2
        assert ("v-or-g" in [d["id"] for d in got[0]["drm"]]) == (item == 2)
        assert (got[0]["original"], got[0]["final"]) == (original, final)
        if item == 0:
            assert [r["rule"] for r in got[1:]] == ["kgp:8.6204"] * 3
            assert [r["original"] for r in got[1:]] == [6, 4, 3]
        if item == 3:
            assert [r["rule"] for r in got[1:]] == ["kgp:8.6205"] * 3
    assert [_row(c, "German", seq, i)["strength"] for i in range(4)] == ["D", "F", "F", "D"]
    oba = _row(c, "German", seq, 4)
    assert oba["strength"] is None
    assert oba["needs"] == []
    assert oba["rolls"] == []
    depleted = _row(c, "German", seq, 0)
    assert depleted["sw"] == [
        {"name": "LMG", "received": False},
        {"name": "LMG", "received": True},
        {"name": "PSK", "received": True},
    ]
    assert depleted["units"] == 2
    assert depleted["unit_type"] == "6-5-8"
    full = _row(c, "German", seq, 1)
    assert full["sw"] == [{"name": n, "received": True} for n in ("LMG", "LMG", "PSK")]
    assert full["units"] == 3
    assert full["needs"] == []
    hw = _row(c, "German", seq, 3)
    assert [p["received"] for p in hw["equipment"]] == [True, False, True]
    assert all(_row(c, "German", seq, i)["needs"] == [] for i in range(5))
    # Nothing more is needed: a further roll is refused, nothing appended.
    version = c.version
    with pytest.raises(RuleViolation, match=r"^8\.620: .*needs no further roll"):
        c.perform(
            _ctx("German", rng), "rg-determinations", DeterminationCreate(for_purchase=seq, item=1)
        )
    assert c.version == version
    c.advance(_ctx("German", rng), "German", "8.621")


def test_8_620_waits_for_every_roll_and_refuses_the_wrong_table() -> None:
    rng = random.Random(8_620)
    c = _campaign(rng, German=60, US=10)
    seq = _buy(c, rng, "German", "I2")
    with pytest.raises(RuleViolation, match=r"^8\.620: .*requires its action"):
        c.advance(_ctx("German", rng), "German", "8.621")
    version = c.version
    with pytest.raises(RuleViolation, match=r"^8\.620: .*needs no roll on kgp:8\.6204; it needs"):
        c.perform(
            _ctx("German", rng),
            "rg-determinations",
            DeterminationCreate(for_purchase=seq, table="kgp:8.6204"),
        )
    with pytest.raises(InvalidInput, match="decided by the ledger"):
        c.perform(
            _ctx("German", rng),
            "rg-determinations",
            DeterminationCreate.model_validate({"for_purchase": seq, "drm": [{"id": "v-or-g"}]}),
        )
    with pytest.raises(InvalidInput, match="no RG on its RG Purchase Record"):
        c.perform(_ctx("US", rng), "rg-determinations", DeterminationCreate(for_purchase=seq))
    assert c.version == version
    _determine(c, rng, "German", seq, 0, (2, 5))  # Full: no SW dr
    c.advance(_ctx("German", rng), "German", "8.621")


def test_8_6202_ex_quality_and_the_elite_leader_drm() -> None:
    """8.6202 EX: an Original dr of 5 makes the Inf Pltn 2nd Line; the Arm'd
    Inf Pltn's -1 makes a Final dr of 1: Elite. 8.6206: its leader DR (footnote
    'l') then takes -1 "If all MMC in the RG are Elite"."""
    rng = random.Random(8_6202)
    c = _campaign(rng, German=10, US=60)
    seq = _buy(c, rng, "US", "I1", "I6")
    (got,) = _determine(c, rng, "US", seq, 0, (1, 5))
    assert (got["rule"], got["final"]) == ("kgp:8.6202", 5)
    assert _row(c, "US", seq, 0)["quality"].startswith("2nd Line")
    (got,) = _determine(c, rng, "US", seq, 1, (1, 2))
    assert [d["id"] for d in got["drm"]] == ["armd"]
    assert got["final"] == 1
    assert _row(c, "US", seq, 1)["quality"].startswith("Elite")
    (got,) = _determine(c, rng, "US", seq, 1, (2, 7))
    assert got["rule"] == "kgp:8.6206-us"
    assert "all-elite" in [d["id"] for d in got["drm"]]
    assert got["final"] == 6
    assert _row(c, "US", seq, 1)["leader"] == got["outcome"]["text"]


def test_8_6203_med_tank_models_then_the_armor_leader() -> None:
    rng = random.Random(8_6203)
    c = _campaign(rng, German=10, US=60)
    seq = _buy(c, rng, "US", "V3")
    (got,) = _determine(c, rng, "US", seq, 0, (2, 7))
    assert got["rule"] == "kgp:8.6203-I"
    assert got["outcome"]["text"] == "M4A1 x5"
    (got,) = _determine(c, rng, "US", seq, 0, (2, 3))
    assert got["rule"] == "kgp:8.6206-armor"
    row = _row(c, "US", seq, 0)
    assert (row["models"], row["leader"], row["needs"]) == ("M4A1 x5", "9-2", [])


def test_a_secret_purchase_rolls_without_naming_its_table() -> None:
    """The rolls of a secret purchase are one sealed record (DESIGN §2a): its
    public part names neither table, purchase nor count of dice, no table is
    defined in public, and the record carries the definitions of its tables."""
    rng = random.Random(7)
    c = _campaign(rng, German=60, US=10)
    seq = _buy(c, rng, "German", "HW2", secret=True)
    before = set(c.recorded_tables())
    at = c.perform(_ctx("German", rng), "rg-determinations", DeterminationCreate(for_purchase=seq))
    record = c.record(at)
    public = record["payload"]
    assert record["type"] == "RecordSealed"
    assert set(public) == {"protocol", "owner", "side", "cg_date", "step", "roll"}
    assert set(public["roll"]) == {
        "index",
        "commitment",
        "side",
        "secret",
        "protocol",
        "after_undo",
    }
    assert "8.6201" not in str(public)
    secret = record["secret"]
    assert secret["kind"] == "RGDetermined"
    assert secret["rolls"][0]["rule"] == "kgp:8.6201"
    assert secret["rolls"][0]["for_purchase"] == seq
    assert set(c.recorded_tables()) == before
    assert secret["rolls"][0]["table"]["hash"] in secret["tables"]


def test_8_621_ex_thirty_fpp() -> None:
    """8.621 EX: the German spends 30 FPP: 16 on four A-T mine factors; 9 on
    HIP for one squad (3), two HS (4), one crew (1) and one SMC (1); 5 on five
    "?". Unspent FPP would be forfeit when the step completes."""
    rng = random.Random(8_621)
    c = _campaign(rng, German=60, US=10)
    _buy(c, rng, "German", "F1")
    c.advance(_ctx("German", rng), "German", "8.621")
    spend = [
        [FortItem(type="at-mine-factor", count=4)],
        [
            FortItem(type="hip-squad", count=1),
            FortItem(type="hip-hs", count=2),
            FortItem(type="hip-crew", count=1),
            FortItem(type="hip-smc", count=1),
        ],
        [FortItem(type="dummy", count=5)],
    ]
    costs = []
    for items in spend:
        at = c.perform(
            _ctx("German", rng),
            "fortification-purchases",
            FortificationPurchaseCreate(items=items, secret=False),
        )
        costs.append(c.record(at)["payload"]["fpp_spent"])
    assert costs == [16, 9, 5]
    version = c.version
    with pytest.raises(RuleViolation, match=r"^8\.621: .*cost 1 FPP but German holds 0 FPP"):
        c.perform(
            _ctx("German", rng),
            "fortification-purchases",
            FortificationPurchaseCreate(items=[FortItem(type="dummy", count=1)]),
        )
    assert c.version == version
    (line,) = c.ruleset.rules.roster(c, "German", lambda _s: True)["lines"]
    assert (line["fpp"], line["fpp_spent"], line["fpp_forfeit"]) == (30, 30, None)
    assert line["fortifications"] == {
        "at-mine-factor": 4, "hip-squad": 1, "hip-hs": 2, "hip-crew": 1, "hip-smc": 1, "dummy": 5,
    }  # fmt: skip
    c.advance(_ctx("German", rng), "German", "scenario")
    (line,) = c.ruleset.rules.roster(c, "German", lambda _s: True)["lines"]
    assert line["fpp_forfeit"] == 0


def test_8_621_german_a_p_factors_cost_one_and_a_half_and_unspent_are_forfeit() -> None:
    rng = random.Random(15)
    c = _campaign(rng, German=60, US=10)
    _buy(c, rng, "German", "F1")
    c.advance(_ctx("German", rng), "German", "8.621")
    c.perform(
        _ctx("German", rng),
        "fortification-purchases",
        FortificationPurchaseCreate(items=[FortItem(type="ap-mine-factor", count=3)]),
    )
    c.advance(_ctx("German", rng), "German", "scenario")
    (line,) = c.ruleset.rules.roster(c, "German", lambda _s: True)["lines"]
    assert (line["fpp_spent"], line["fpp_forfeit"]) == (4.5, 25.5)
    with pytest.raises(
        RuleViolation, match=r"^8\.6: .*8\.621 \(Purchasing Fortifications\) is past"
    ):
        c.perform(
            _ctx("German", rng),
            "fortification-purchases",
            FortificationPurchaseCreate(items=[FortItem(type="dummy", count=1)]),
        )


@pytest.mark.parametrize(
    ("side", "rg", "modifiers", "cost"),
    [
        ("US", "I1", ["early-entry"], 7),  # 5 + 50% FRD
        ("US", "V3", ["early-entry"], 13),  # 9 + 4.5 FRD
        ("US", "I6", ["standard-on-map"], 9),
        ("German", "I2", ["standard-on-map"], 6),
        ("German", "HW2", ["standard-on-map"], 9),
    ],
)
def test_8_6194_cost_modifiers(side: str, rg: str, modifiers: list[str], cost: int) -> None:
    rng = random.Random(8_6194)
    c = _campaign(rng, German=60, US=60)
    item = RGItem(rg=rg, map_group="Sx", modifiers=modifiers, cpp=cost)
    at = c.perform(_ctx(side, rng), "rg-purchases", RGPurchaseCreate(rgs=[item], secret=False))
    (bought,) = c.record(at)["payload"]["rgs"]
    assert (bought["cpp"], bought["modifiers"]) == (cost, modifiers)


@pytest.mark.parametrize(
    ("side", "rg", "modifier"),
    [("German", "I2", "early-entry"), ("US", "O1", "early-entry"), ("US", "O1", "standard-on-map")],
)
def test_8_6194_a_modifier_for_another_rg_is_refused(side: str, rg: str, modifier: str) -> None:
    rng = random.Random(1)
    c = _campaign(rng, German=60, US=60)
    item = RGItem(rg=rg, map_group="Sx", modifiers=[modifier])
    with pytest.raises(InvalidInput, match=r"^8\.6194[ab]: "):
        c.perform(_ctx(side, rng), "rg-purchases", RGPurchaseCreate(rgs=[item]))


def test_9_6182_ex_the_star_dr_then_the_depleted_drs() -> None:
    """9.6182 EX: a Depleted German RG I1 makes the "*" dr (4: a PSK), then a
    dr for each possible SW: the LMG on ≤ 3, the PSK on ≤ 2."""
    rng = random.Random(9_6182)
    doc = copy.deepcopy(REGISTRY["abtf"].sample_definition)
    doc["rg_chart"]["German"][0]["units"] = [3, 2]
    c = _campaign(rng, "abtf", name="CG I", start="18 AM", definition=doc, German=30, British=30)
    at = c.perform(
        _ctx("German", rng),
        "rg-purchases",
        RGPurchaseCreate(rgs=[RGItem(rg="I1(X)")], secret=False),
    )
    # 9.6181's Secret DR (Final ≥ 10 is Depleted), then the "*" dr (4: a PSK), then a
    # dr per possible SW: one sealed record, one stream.
    rolls = _determine(c, rng, "German", at, 0, (2, 12), (1, 4), (1, 3), (1, 3))
    assert [r["rule"] for r in rolls[:2]] == ["abtf:9.6181", "abtf:9.6182-star"]
    assert _row(c, "German", at, 0)["strength"] == "D"
    assert rolls[1]["value"] == "PSK"
    lmg, psk = rolls[2:]
    assert (lmg["inputs"]["sw"], lmg["outcome"]["band"]) == ("LMG", 0)
    assert (psk["inputs"]["sw"], psk["outcome"]["band"]) == ("PSK", 1)
    assert _row(c, "German", at, 0)["sw"] == [
        {"name": "LMG", "received": True},
        {"name": "PSK", "received": False},
    ]


def test_8_6196_ex_six_ss_inf_pltn_in_cg_ii() -> None:
    """8.6196 EX: "The German side may purchase a maximum of six SS Inf Pltn
    RG during CG II": the seventh is refused, nothing appended."""
    rng = random.Random(8_6196)
    chart = [{"id": "I2", "name": "SS Inf Pltn", "cpp": 1, "cg_max": 6}]
    c = _campaign(
        rng,
        "kgp",
        name="CG II",
        start=None,
        definition=_definition("kgp", chart, US_CHART),
        German=20,
        US=0,
    )
    if not KGP.rules.step_done(c, "German", "8.618"):
        c.perform(_ctx("German", rng), "ammunition-shortage", ShortageCreate())
    _buy(c, rng, "German", *["I2"] * 6)
    version = c.version
    with pytest.raises(RuleViolation, match=r"^8\.6196: CG maximum for I2 \(6\) reached$"):
        _buy(c, rng, "German", "I2")
    assert c.version == version
    rows = c.ruleset.rules.rg_record(c, "German", lambda _s: True)["rows"]
    assert [(r["purchased"], r["remaining"]) for r in rows] == [(n, 6 - n) for n in range(1, 7)]


def test_8_622_recon_is_cumulative_over_idle_dates_but_not_beyond_a_scenario() -> None:
    """8.622: "The number recorded for each Idle CG Date is cumulative with the
    number recorded for each succeeding CG Date, but not beyond the next CG
    scenario." NA before an Initial Scenario."""
    from kgp_commands import purchase_recon, replenish_cpp

    rng = random.Random(8_622)
    c = _campaign(rng, German=10, US=30)
    for side in c.sides:
        c.advance(_ctx(side, rng), side, "scenario")
    c.end_scenario(_ctx(REFEREE, rng), {"cvp": dict.fromkeys(c.sides, 0)})
    c.begin_cg_date(_ctx(REFEREE, rng), None)

    def date_with_recon(chits: str) -> None:
        for side in c.sides:
            replenish_cpp(c, _ctx(side, rng), side, None)
            if c.step_applies(KGP.step("8.618"), side) and not KGP.rules.step_done(
                c, side, "8.618"
            ):
                c.perform(_ctx(side, rng), "ammunition-shortage", ShortageCreate())
            if side == "US":
                c.advance(_ctx(side, rng), side, "8.622")
                purchase_recon(
                    c, _ctx(side, rng), side, 1, lax=False, secret=False, client_nonce=None
                )
            c.advance(_ctx(side, rng), side, "8.623")
            c.choose_initiative(_ctx(side, rng), side, chits)

    date_with_recon("idle")  # 19 PM, Idle
    c.begin_cg_date(_ctx(REFEREE, rng), None)
    date_with_recon("attack")  # 19 N, a scenario
    lines = c.ruleset.rules.roster(c, "US", lambda _s: True)["lines"]
    recon = [line["recon"] for line in lines]
    assert lines[0]["recon_available"] is None  # 19 AM: NA before the Initial Scenario
    assert lines[1]["recon_available"] == recon[1]
    assert lines[2]["recon_available"] == recon[1] + recon[2]
    for side in c.sides:
        c.advance(_ctx(side, rng), side, "scenario")
    c.end_scenario(_ctx(REFEREE, rng), {"cvp": dict.fromkeys(c.sides, 0)})
    c.begin_cg_date(_ctx(REFEREE, rng), None)
    date_with_recon("idle")  # 20 AM: 19 N's scenario ends the carry
    lines = c.ruleset.rules.roster(c, "US", lambda _s: True)["lines"]
    assert lines[3]["recon_available"] == lines[3]["recon"]
    # A viewer who may not see 19 PM's Recon sees 19 N's total as hidden, not 20 AM's.
    secret = c.rules["cpp"]["US"][1]["recon_seq"]
    seen = c.ruleset.rules.roster(c, "US", lambda seq: seq != secret)["lines"]
    assert seen[2]["recon_available"] is None
    assert "recon_available" in seen[2]["hidden"]
    assert seen[3]["recon_available"] == lines[3]["recon"]


def test_8_6205_exc_a_hw_pltn_always_receives_two_pieces() -> None:
    """8.6205 EXC: "each HW Pltn will always receive ≥ two Equipment pieces":
    when its drs give fewer, the row says so (the rule does not say which)."""
    rng = random.Random(8_62050)
    c = _campaign(rng, German=60, US=10)
    seq = _buy(c, rng, "German", "HW2")
    # Depleted, then a Secret dr per piece of Equipment, in the same record.
    _determine(c, rng, "German", seq, 0, (2, 12), (1, 5), (1, 6), (1, 1))
    row = _row(c, "German", seq, 0)
    assert [p["received"] for p in row["equipment"]] == [False, False, True]
    assert row["note"].startswith("8.6205 EXC: each HW Pltn will always receive ≥ two")


def test_8_6198_the_objective_hex_is_recorded_with_the_purchase() -> None:
    """8.6198: "the Objective Hex of each 'I' and 'HW'-type RG when it is
    initially purchased": a hex of the RG's map group, on its row."""
    rng = random.Random(8_6198)
    c = _campaign(rng, German=60, US=10)
    item = RGItem(rg="I2", map_group="Sx", objective_hex="B2")
    at = c.perform(_ctx("German", rng), "rg-purchases", RGPurchaseCreate(rgs=[item]))
    assert _row(c, "German", at, 0)["objective_hex"] == "B2"
    version = c.version
    wrong = RGItem(rg="I2", map_group="Sx", objective_hex="Z9")
    with pytest.raises(InvalidInput, match=r"^8\.6198: the Objective Hex 'Z9' is not a hex") as e:
        c.perform(_ctx("German", rng), "rg-purchases", RGPurchaseCreate(rgs=[wrong]))
    assert e.value.field == "rgs.0.objective_hex"
    assert c.version == version


def test_9_619_fpp_given_in_the_initial_scenario_ob() -> None:
    """9.619: FPP "either given as a reinforcement in the initial CG Scenario
    ... or purchased": an OB-given chart line with FPP grants them on the
    first CG Date, and they buy Fortifications there."""
    rng = random.Random(9_619)
    doc = copy.deepcopy(REGISTRY["abtf"].sample_definition)
    doc["initial_ob"] = {"British": [{"rg": "F1"}]}
    c = _campaign(rng, "abtf", name="CG I", start="18 AM", definition=doc, German=0, British=0)
    (line,) = c.ruleset.rules.roster(c, "British", lambda _s: True)["lines"]
    assert line["fpp"] == 8
    c.advance(_ctx("British", rng), "British", "9.619")
    items = [FortItem(type="trench", count=1), FortItem(type="foxhole-2s", count=1)]
    c.perform(
        _ctx("British", rng), "fortification-purchases", FortificationPurchaseCreate(items=items)
    )
    (line,) = c.ruleset.rules.roster(c, "British", lambda _s: True)["lines"]
    assert (line["fpp"], line["fpp_spent"]) == (8, 8)


def test_9_6182_a_chart_line_lists_only_the_sw_its_chart_has() -> None:
    """9.6182's dr is "≤ the number listed in parentheses": an SW the RG's
    Infantry-Type SW Chart does not list could never be rolled for, so the CG
    definition refuses it (a Depleted RG would otherwise block 9.618)."""
    doc = copy.deepcopy(REGISTRY["abtf"].sample_definition)
    doc["rg_chart"]["British"][1]["sw"] = ["LMG"]  # V1: no SW chart line
    with pytest.raises(InvalidInput, match=r"9\.6182: the British Infantry-Type SW Chart") as e:
        validated_definition(REGISTRY["abtf"], doc)
    assert e.value.field == "definition.rg_chart.British.1.sw.0"
    doc["rg_chart"]["British"][1]["sw"] = []
    doc["rg_chart"]["British"][0]["sw"] = ["LMG", "PIAT"]
    validated_definition(REGISTRY["abtf"], doc)
