"""Dice statistics (projections.dicestats): chi-square p-values without scipy,
counts and filters on hand-built records, and what each viewer may count."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cgledger.domain import visibility
from cgledger.projections import dicestats
from cgledger.projections.dicestats import chi2_sf, dice_stats

# ---------------------------------------------------------------- builders


def roll_record(
    seq: int,
    dice: Iterable[int],
    *,
    kind: str = "DiceRolled",
    roller: str = "US",
    side: str | None = None,
    owner: str | None = None,
    table: str | None = None,
    cg_date: str | None = None,
    redacted: bool = False,
) -> dict[str, Any]:
    """A record holding one roll. ``owner`` makes it a Secret roll (dice in
    ``record["secret"]``); ``redacted`` gives the stub an opponent receives."""
    dice = list(dice)
    roll: dict[str, Any] = {
        "index": seq,
        "commitment": f"{seq:064x}",
        "side": roller,
        "purpose": table or "free roll",
        "count": len(dice),
        "client_nonce": f"nonce-{seq}",
        "nonce_source": "client",
        "secret": owner is not None,
    }
    payload: dict[str, Any] = {"roll": roll}
    if side is not None:
        payload["side"] = side
    if cg_date is not None:
        payload["cg_date"] = cg_date
    if table is not None:
        payload["table"] = {"id": table, "hash": "ab" * 32}
    secret: dict[str, Any] | None = None
    if owner is None:
        roll["dice"] = dice
        roll["seed"] = "00" * 32
    else:
        payload["owner"] = owner
        secret = None if redacted else {"dice": dice, "original": sum(dice)}
    return {
        "seq": seq,
        "type": kind,
        "recorded_at": "2024-01-01T00:00:00Z",
        "actor": roller,
        "payload": payload,
        "secret_digest": None if owner is None else "cd" * 32,
        "secret": secret,
        "prev_hash": "0" * 64,
        "hash": "1" * 64,
    }


def other_record(seq: int) -> dict[str, Any]:
    return {
        "seq": seq,
        "type": "CommitmentsPublished",
        "recorded_at": "2024-01-01T00:00:00Z",
        "actor": "US",
        "payload": {"first_index": 0, "commitments": []},
        "secret_digest": None,
        "secret": None,
        "prev_hash": "0" * 64,
        "hash": "1" * 64,
    }


def stats(
    records: Iterable[dict[str, Any]],
    viewer: str = "referee",
    *,
    revealed: Iterable[int] = (),
    reverted: Iterable[int] = (),
    **filters: Any,
) -> dict[str, Any]:
    shown = set(revealed)
    undone = set(reverted)
    return dice_stats(
        records,
        viewer,
        is_revealed=lambda seq: seq in shown,
        reverted_by=lambda seq: 999 if seq in undone else None,
        **filters,
    )


class SealedRecord(dict[str, Any]):
    """A record whose ``secret`` must not be read (the test fails if it is)."""

    def __getitem__(self, key: str) -> Any:
        if key == "secret":
            raise AssertionError("record['secret'] was read for a viewer who may not see it")
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        if key == "secret":
            raise AssertionError("record['secret'] was read for a viewer who may not see it")
        return super().get(key, default)


# ---------------------------------------------------------------- chi2_sf


def _sf_by_series(x: float, df: int) -> float:
    """1 - P(df/2, x/2), the regularized lower incomplete gamma by its power
    series: an independent way to the same p-value."""
    a, h = df / 2, x / 2
    term = 1.0 / a
    total = term
    n = 1
    while term > 1e-18 * total:
        term *= h / (a + n)
        total += term
        n += 1
    return 1.0 - math.exp(a * math.log(h) - h - math.lgamma(a) + math.log(total))


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [
        (11.0705, 5, 0.05),
        (15.0863, 5, 0.01),
        (18.3070, 10, 0.05),
        (23.2093, 10, 0.01),
        (3.841459, 1, 0.05),
        (5.991465, 2, 0.05),
        (6.634897, 1, 0.01),
        (7.814728, 3, 0.05),
    ],
)
def test_chi2_sf_known_critical_values(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-4)


@pytest.mark.parametrize("df", [1, 2, 3, 5, 10, 11, 30])
def test_chi2_sf_is_one_at_zero(df: int) -> None:
    assert chi2_sf(0, df) == 1.0
    assert chi2_sf(0.0, df) == 1.0


def _sf_by_simpson(x: float, df: int, width: float = 300.0, steps: int = 30000) -> float:
    """The upper tail integral of the chi-square density by Simpson's rule:
    accurate in the far tail, where 1 - P loses every digit."""

    def pdf(t: float) -> float:
        k = df / 2
        return math.exp((k - 1) * math.log(t) - t / 2 - k * math.log(2) - math.lgamma(k))

    step = width / steps
    total = pdf(x) + pdf(x + width)
    for i in range(1, steps):
        total += (4 if i % 2 else 2) * pdf(x + i * step)
    return total * step / 3


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 25, 100])
@pytest.mark.parametrize("x", [0.01, 0.5, 1.0, 3.3, 7.0, 17.0])
def test_chi2_sf_matches_incomplete_gamma_series(x: float, df: int) -> None:
    assert chi2_sf(x, df) == pytest.approx(_sf_by_series(x, df), rel=1e-9, abs=1e-14)


@pytest.mark.parametrize("df", [1, 2, 5, 7, 10, 25])
@pytest.mark.parametrize("x", [17.0, 40.0, 120.0])
def test_chi2_sf_far_tail_matches_the_integral(x: float, df: int) -> None:
    assert chi2_sf(x, df) == pytest.approx(_sf_by_simpson(x, df), rel=1e-8)


def test_chi2_sf_large_arguments_stay_finite() -> None:
    # The median of chi-square(k) is about k(1 - 2/(9k))^3, just below k.
    assert 0.48 < chi2_sf(1000.0, 1000) < 0.5
    assert chi2_sf(1000.0, 1000) == pytest.approx(_sf_by_series(1000.0, 1000), rel=1e-9)
    assert 0.0 <= chi2_sf(5000.0, 3) < 1e-300
    assert chi2_sf(math.inf, 4) == 0.0


@pytest.mark.parametrize("df", [1, 2, 3, 10])
def test_chi2_sf_of_the_least_positive_float(df: int) -> None:
    # x / 2 underflows to 0.0 here (found by Hypothesis): log(x / 2) would fail.
    assert chi2_sf(5e-324, df) == pytest.approx(1.0)


@pytest.mark.parametrize("df", [0, -1, 2.0, True])
def test_chi2_sf_refuses_bad_df(df: Any) -> None:
    with pytest.raises(ValueError, match="df must be an integer"):
        chi2_sf(1.0, df)


def test_chi2_sf_refuses_nan() -> None:
    with pytest.raises(ValueError, match="NaN"):
        chi2_sf(math.nan, 3)


@given(
    a=st.floats(min_value=0, max_value=500, allow_nan=False),
    b=st.floats(min_value=0, max_value=500, allow_nan=False),
    df=st.integers(min_value=1, max_value=60),
)
def test_chi2_sf_decreases_in_x_and_stays_in_unit_interval(a: float, b: float, df: int) -> None:
    lo, hi = sorted((a, b))
    p_lo, p_hi = chi2_sf(lo, df), chi2_sf(hi, df)
    assert 0.0 <= p_hi <= 1.0
    assert 0.0 <= p_lo <= 1.0
    assert p_hi <= p_lo + 1e-12


# ---------------------------------------------------------------- counts and chi-square


def small_example() -> list[dict[str, Any]]:
    """Three dr (1, 6, 6) and three DR ((3,4), (1,1), (6,5)), all public."""
    return [
        other_record(1),
        roll_record(2, [1]),
        roll_record(3, [6]),
        roll_record(4, [6], roller="German"),
        roll_record(5, [3, 4]),
        roll_record(6, [1, 1], roller="German"),
        roll_record(7, [6, 5], roller="German"),
    ]


def test_small_example_by_hand() -> None:
    out = stats(small_example())
    assert (out["rolls"], out["hidden"], out["reverted"]) == (6, 0, 0)

    dr = out["dr"]
    assert dr["count"] == 3
    assert dr["faces"] == {"1": 1, "2": 0, "3": 0, "4": 0, "5": 0, "6": 2}
    assert dr["mean"] == pytest.approx(13 / 3)
    # expected 0.5 per face: (0.25 + 4 * 0.25 + 2.25) / 0.5 = 7
    assert dr["chi_square"] == pytest.approx(7.0)
    assert dr["df"] == 5
    assert dr["expected_per_cell"] == pytest.approx(0.5)
    assert dr["p_value"] == pytest.approx(chi2_sf(7.0, 5))
    assert dr["p_value"] == pytest.approx(0.220640, rel=1e-5)
    assert dr["low_counts"] is True

    big = out["DR"]
    assert big["count"] == 3
    assert big["totals"] == {str(t): (1 if t in (2, 7, 11) else 0) for t in range(2, 13)}
    assert big["mean"] == pytest.approx(20 / 3)
    # expected 3w/36 = w/12; chi2 = n + sum over the observed cells (1/e - 2) = 3 + 10 + 0 + 4
    assert big["chi_square"] == pytest.approx(17.0)
    assert big["df"] == 10
    assert big["p_value"] == pytest.approx(chi2_sf(17.0, 10))
    assert big["expected_per_cell"]["7"] == pytest.approx(0.5)
    assert big["expected_per_cell"]["2"] == pytest.approx(1 / 12)
    assert sum(big["expected_per_cell"].values()) == pytest.approx(3.0)
    assert big["low_counts"] is True

    # coloured die 3, 1, 6; white die 4, 1, 5: each face at most once, chi2 = 3
    assert big["colored"]["faces"] == {"1": 1, "2": 0, "3": 1, "4": 0, "5": 0, "6": 1}
    assert big["white"]["faces"] == {"1": 1, "2": 0, "3": 0, "4": 1, "5": 1, "6": 0}
    assert big["colored"]["mean"] == pytest.approx(10 / 3)
    assert big["white"]["mean"] == pytest.approx(10 / 3)
    assert big["colored"]["chi_square"] == pytest.approx(3.0)
    assert big["white"]["chi_square"] == pytest.approx(3.0)
    assert big["colored"]["df"] == 5

    # every die: 1,6,6 and 3,4,1,1,6,5 -> expected 1.5 each, (3*2.25 + 3*0.25)/1.5 = 5
    every = out["dice"]
    assert every["count"] == 9
    assert every["faces"] == {"1": 3, "2": 0, "3": 1, "4": 1, "5": 1, "6": 3}
    assert every["mean"] == pytest.approx(33 / 9)
    assert every["chi_square"] == pytest.approx(5.0)
    assert every["p_value"] == pytest.approx(chi2_sf(5.0, 5))

    assert out["by_side"] == {
        "German": {"rolls": 3, "DR_mean": pytest.approx(6.5), "dr_mean": pytest.approx(6.0)},
        "US": {"rolls": 3, "DR_mean": pytest.approx(7.0), "dr_mean": pytest.approx(3.5)},
    }


def test_output_is_json_ready() -> None:
    out = stats(small_example(), table="free", side="US", date=None)
    text = json.dumps(out, allow_nan=False)
    assert json.loads(text) == out
    assert out["filters"] == {
        "side": "US",
        "table": "free",
        "date": None,
        "include_reverted": True,
    }


def test_no_rolls_gives_none_statistics() -> None:
    out = stats([other_record(1)])
    assert (out["rolls"], out["hidden"], out["reverted"]) == (0, 0, 0)
    for block in (out["dr"], out["DR"], out["DR"]["colored"], out["DR"]["white"], out["dice"]):
        assert block["count"] == 0
        assert block["mean"] is None
        assert block["chi_square"] is None
        assert block["p_value"] is None
        assert block["low_counts"] is True
    assert out["dr"]["faces"] == dict.fromkeys("123456", 0)
    assert out["DR"]["totals"] == {str(t): 0 for t in range(2, 13)}
    assert out["by_side"] == {}
    json.dumps(out, allow_nan=False)


def test_perfectly_fair_counts_give_zero_chi_square_and_no_low_counts() -> None:
    records = [roll_record(i, [1 + i % 6]) for i in range(30)]
    pairs = list(itertools.product(range(1, 7), repeat=2)) * 5  # 180 DR, 5 of each pair
    records += [roll_record(100 + i, pair) for i, pair in enumerate(pairs)]
    out = stats(records)
    assert out["dr"]["chi_square"] == 0.0
    assert out["dr"]["p_value"] == 1.0
    assert out["dr"]["low_counts"] is False
    assert out["DR"]["expected_per_cell"]["2"] == pytest.approx(5.0)
    assert out["DR"]["chi_square"] == pytest.approx(0.0, abs=1e-12)
    assert out["DR"]["low_counts"] is False
    assert out["DR"]["mean"] == pytest.approx(7.0)
    assert out["DR"]["colored"]["chi_square"] == 0.0
    assert out["DR"]["white"]["low_counts"] is False


def test_low_counts_just_below_thirty_dr() -> None:
    records = [roll_record(i, [1 + i % 6]) for i in range(29)]
    out = stats(records)
    assert out["dr"]["low_counts"] is True
    assert out["dr"]["p_value"] is not None


def test_a_biased_die_gets_a_small_p_value() -> None:
    records = [roll_record(i, [6]) for i in range(60)]
    out = stats(records)
    # expected 10 per face: (5 * 100 + 2500) / 10 = 300
    assert out["dr"]["chi_square"] == pytest.approx(300.0)
    assert out["dr"]["p_value"] < 1e-50


def test_inconsistent_dice_are_refused() -> None:
    record = roll_record(5, [3, 4])
    record["payload"]["roll"]["count"] = 1
    with pytest.raises(ValueError, match="event 5"):
        stats([record])
    record = roll_record(6, [7])
    with pytest.raises(ValueError, match="event 6"):
        stats([record])


# ---------------------------------------------------------------- filters


def mixed_campaign() -> list[dict[str, Any]]:
    return [
        other_record(1),
        roll_record(2, [2], cg_date="19 AM"),  # free roll, US
        roll_record(3, [4, 4], roller="German", cg_date="19 AM"),  # free roll, German
        roll_record(
            4,
            [5, 2],
            kind="TableRolled",
            side="US",
            table="kgp:8.606-infantry",
            cg_date="19 AM",
        ),
        roll_record(
            5,
            [1, 3],
            kind="TableRolled",
            roller="German",
            side="German",
            table="kgp:8.606-infantry",
            cg_date="19 PM",
        ),
        # The referee rolls the German CPP replenishment: it counts for the German.
        roll_record(
            6,
            [6],
            kind="CPPReplenished",
            roller="referee",
            side="German",
            table="kgp:8.616",
            cg_date="19 PM",
        ),
        roll_record(7, [3]),  # an old free roll without a CG Date
    ]


def test_side_filter_uses_payload_side_then_roll_side() -> None:
    german = stats(mixed_campaign(), side="German")
    assert german["rolls"] == 3
    assert german["dice"]["faces"] == {"1": 1, "2": 0, "3": 1, "4": 2, "5": 0, "6": 1}
    us = stats(mixed_campaign(), side="US")
    assert us["rolls"] == 3
    assert us["dr"]["faces"]["2"] == 1
    assert us["dr"]["faces"]["3"] == 1
    assert stats(mixed_campaign(), side="referee")["rolls"] == 0
    assert set(stats(mixed_campaign())["by_side"]) == {"US", "German"}


@pytest.mark.parametrize("name", ["kgp:8.606-infantry", "8.606-infantry"])
def test_table_filter_with_and_without_prefix(name: str) -> None:
    out = stats(mixed_campaign(), table=name)
    assert out["rolls"] == 2
    assert out["DR"]["totals"]["7"] == 1
    assert out["DR"]["totals"]["4"] == 1
    assert out["filters"]["table"] == name


def test_table_filter_is_exact() -> None:
    assert stats(mixed_campaign(), table="8.606")["rolls"] == 0
    assert stats(mixed_campaign(), table="abtf:8.606-infantry")["rolls"] == 0
    assert stats(mixed_campaign(), table="8.616")["rolls"] == 1


def test_free_filter_selects_rolls_without_a_table() -> None:
    out = stats(mixed_campaign(), table="free")
    assert out["rolls"] == 3
    assert out["dr"]["faces"]["2"] == 1
    assert out["dr"]["faces"]["3"] == 1
    assert out["DR"]["totals"]["8"] == 1


def test_date_filter_and_records_without_a_date() -> None:
    assert stats(mixed_campaign())["rolls"] == 6
    assert stats(mixed_campaign(), date="19 AM")["rolls"] == 3
    assert stats(mixed_campaign(), date="19 PM")["rolls"] == 2
    assert stats(mixed_campaign(), date="19 pm")["rolls"] == 0
    assert stats(mixed_campaign(), date="20 AM")["rolls"] == 0


def test_filters_combine() -> None:
    out = stats(mixed_campaign(), side="German", table="free", date="19 AM")
    assert out["rolls"] == 1
    assert out["DR"]["totals"]["8"] == 1
    assert out["by_side"] == {"German": {"rolls": 1, "DR_mean": 8.0, "dr_mean": None}}


# ---------------------------------------------------------------- visibility


def secret_campaign(*, redacted: bool = False) -> list[dict[str, Any]]:
    """One public US dr, and a Secret German DR on a table (seq 3)."""
    return [
        roll_record(2, [4], cg_date="19 AM"),
        roll_record(
            3,
            [6, 6],
            kind="TableRolled",
            roller="German",
            side="German",
            owner="German",
            table="kgp:8.6206-german",
            cg_date="19 AM",
            redacted=redacted,
        ),
    ]


@pytest.mark.parametrize("viewer", ["US", "observer"])
def test_opponent_does_not_count_an_unrevealed_secret_roll(viewer: str) -> None:
    out = stats(secret_campaign(), viewer)
    assert (out["rolls"], out["hidden"]) == (1, 1)
    assert out["DR"]["count"] == 0
    assert out["dice"]["count"] == 1
    assert out["dice"]["faces"]["6"] == 0
    assert "German" not in out["by_side"]


@pytest.mark.parametrize("viewer", ["German", "referee"])
def test_owner_and_referee_count_the_secret_roll(viewer: str) -> None:
    out = stats(secret_campaign(), viewer)
    assert (out["rolls"], out["hidden"]) == (2, 0)
    assert out["DR"]["totals"]["12"] == 1
    assert out["by_side"]["German"] == {"rolls": 1, "DR_mean": 12.0, "dr_mean": None}


@pytest.mark.parametrize("viewer", ["US", "observer", "German", "referee"])
def test_after_reveal_everyone_counts_it(viewer: str) -> None:
    out = stats(secret_campaign(), viewer, revealed=[3])
    assert (out["rolls"], out["hidden"]) == (2, 0)
    assert out["DR"]["totals"]["12"] == 1


def test_hidden_counts_only_rolls_matching_the_filters() -> None:
    assert stats(secret_campaign(), "US", side="German")["hidden"] == 1
    assert stats(secret_campaign(), "US", side="US")["hidden"] == 0
    assert stats(secret_campaign(), "US", table="free")["hidden"] == 0
    assert stats(secret_campaign(), "US", table="8.6206-german")["hidden"] == 1
    assert stats(secret_campaign(), "US", date="19 PM")["hidden"] == 0


def test_a_redacted_record_never_raises_for_the_opponent() -> None:
    out = stats(secret_campaign(redacted=True), "US")
    assert (out["rolls"], out["hidden"]) == (1, 1)


def test_secret_is_never_read_when_may_see_says_no() -> None:
    records = [SealedRecord(r) for r in secret_campaign()]
    out = stats(records, "US")
    assert (out["rolls"], out["hidden"]) == (1, 1)
    with pytest.raises(AssertionError, match="was read"):
        stats(records, "German")


def test_visibility_is_decided_by_may_see(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str | None, str, bool]] = []

    def recording(owner: str | None, viewer: str, *, revealed: bool) -> bool:
        calls.append((owner, viewer, revealed))
        return visibility.may_see(owner, viewer, revealed=revealed)

    monkeypatch.setattr(dicestats, "may_see", recording)
    stats(secret_campaign(), "US")
    assert calls == [("German", "US", False)]
    monkeypatch.setattr(dicestats, "may_see", lambda *a, **k: False)
    assert stats(secret_campaign(), "referee")["hidden"] == 1


# ---------------------------------------------------------------- reverted rolls


def test_reverted_rolls_are_counted_and_marked_by_default() -> None:
    out = stats(small_example(), reverted=[2, 5])
    assert (out["rolls"], out["reverted"]) == (6, 2)
    assert out["dr"]["faces"]["1"] == 1


def test_include_reverted_false_leaves_them_out() -> None:
    out = stats(small_example(), reverted=[2, 5], include_reverted=False)
    assert (out["rolls"], out["reverted"]) == (4, 0)
    assert out["dr"]["faces"]["1"] == 0
    assert out["DR"]["totals"]["7"] == 0
    assert out["dr"]["mean"] == pytest.approx(6.0)
    assert out["filters"]["include_reverted"] is False


def test_include_reverted_false_also_drops_hidden_reverted_rolls() -> None:
    out = stats(secret_campaign(), "US", reverted=[3], include_reverted=False)
    assert (out["rolls"], out["hidden"], out["reverted"]) == (1, 0, 0)
    out = stats(secret_campaign(), "US", reverted=[3])
    assert (out["rolls"], out["hidden"], out["reverted"]) == (1, 1, 0)


# ---------------------------------------------------------------- properties

ROLLS = st.lists(
    st.tuples(
        st.sampled_from(["US", "German"]),
        st.one_of(
            st.lists(st.integers(1, 6), min_size=1, max_size=1),
            st.lists(st.integers(1, 6), min_size=2, max_size=2),
        ),
    ),
    max_size=60,
)


@given(ROLLS)
def test_counts_add_up_and_means_are_arithmetic_means(rolls: list[tuple[str, list[int]]]) -> None:
    records = [roll_record(i + 1, dice, roller=side) for i, (side, dice) in enumerate(rolls)]
    out = stats(records, "US")
    drs = [d for _, d in rolls if len(d) == 1]
    big = [d for _, d in rolls if len(d) == 2]
    assert out["rolls"] == len(rolls)
    assert out["hidden"] == 0
    assert out["dr"]["count"] == len(drs)
    assert sum(out["dr"]["faces"].values()) == len(drs)
    assert out["DR"]["count"] == len(big)
    assert sum(out["DR"]["totals"].values()) == len(big)
    assert sum(out["DR"]["colored"]["faces"].values()) == len(big)
    assert sum(out["DR"]["white"]["faces"].values()) == len(big)
    assert sum(out["dice"]["faces"].values()) == len(drs) + 2 * len(big)
    assert out["dice"]["count"] == len(drs) + 2 * len(big)
    assert sum(v["rolls"] for v in out["by_side"].values()) == len(rolls)
    if drs:
        assert out["dr"]["mean"] == pytest.approx(sum(d[0] for d in drs) / len(drs))
    if big:
        assert out["DR"]["mean"] == pytest.approx(sum(sum(d) for d in big) / len(big))
        assert out["DR"]["colored"]["mean"] == pytest.approx(sum(d[0] for d in big) / len(big))
    if rolls:
        every = [x for _, d in rolls for x in d]
        assert out["dice"]["mean"] == pytest.approx(sum(every) / len(every))
        assert 0.0 <= out["dice"]["p_value"] <= 1.0
        assert out["dice"]["chi_square"] >= 0.0
