"""Hex geometry and ASL hex ids (DESIGN §9, ``cgledger.domain.hexes``): axial
neighbours and distance, and ASL ids on both parities of column."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cgledger.domain import hexes


@pytest.mark.parametrize(
    ("letters", "index"),
    [("A", 0), ("B", 1), ("Z", 25), ("AA", 26), ("BB", 27), ("GG", 32), ("ZZ", 51), ("AAA", 52)],
)
def test_column_letters(letters: str, index: int) -> None:
    assert hexes.column_index(letters) == index
    assert hexes.column_letters(index) == letters


@pytest.mark.parametrize("bad", ["", "AB", "a", "Aa", "1", "É"])
def test_a_column_is_one_repeated_capital(bad: str) -> None:
    with pytest.raises(ValueError, match="not an ASL column"):
        hexes.column_index(bad)


@pytest.mark.parametrize(
    ("hex_id", "around"),
    [
        # Column C (index 2, like A): its neighbours in B and D are a row above and level.
        ("C5", {"B4", "B5", "C4", "C6", "D4", "D5"}),
        # Column D (index 3, like B: half a hex lower): level and a row below.
        ("D5", {"C5", "C6", "D4", "D6", "E5", "E6"}),
        # A geomorphic board: A1 touches B0 (on the top edge) and B1.
        ("A1", {"A0", "A2", "B0", "B1"}),
        # GG (index 32) is a column of A's parity, the last of a geomorphic board.
        ("GG10", {"FF9", "FF10", "GG9", "GG11", "HH9", "HH10"}),
    ],
)
def test_neighbours_on_both_parities_of_column(hex_id: str, around: set[str]) -> None:
    q, r = hexes.to_axial(hex_id)
    found = {hexes.from_axial(nq, nr) for nq, nr in hexes.neighbours(q, r) if nq >= 0}
    assert found == around
    assert all(hexes.distance((q, r), hexes.to_axial(h)) == 1 for h in around)


def test_distance_along_a_column_and_across() -> None:
    assert hexes.distance(hexes.to_axial("J19"), hexes.to_axial("J21")) == 2
    assert hexes.distance(hexes.to_axial("J19"), hexes.to_axial("L21")) == 3
    assert hexes.distance(hexes.to_axial("A1"), hexes.to_axial("C1")) == 2


def test_boards_placed_side_by_side_share_the_half_hex_column() -> None:
    """Board 2 to the right of board 1: its column A is board 1's GG."""
    boards = {"1": hexes.Board(), "2": hexes.Board(column=32)}
    assert hexes.to_axial("2A5", boards) == hexes.to_axial("1GG5", boards)
    assert hexes.to_axial("2C5", boards) == hexes.to_axial("II5")
    assert hexes.parse("12J5") == ("12", 9, 5)
    with pytest.raises(ValueError, match="whose place is not given"):
        hexes.to_axial("3A1", boards)
    with pytest.raises(ValueError, match="must be even"):
        hexes.Board(column=33)
    with pytest.raises(ValueError, match="not an ASL hex id"):
        hexes.parse("J")


@given(column=st.integers(0, 120), row=st.integers(0, 200))
def test_ids_and_axial_coordinates_round_trip(column: int, row: int) -> None:
    hex_id = f"{hexes.column_letters(column)}{row}"
    q, r = hexes.to_axial(hex_id)
    assert q == column
    assert hexes.from_axial(q, r) == hex_id


@given(
    a=st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
    b=st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
    c=st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
)
def test_distance_is_a_metric_with_six_neighbours_at_one(
    a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]
) -> None:
    assert hexes.distance(a, a) == 0
    assert hexes.distance(a, b) == hexes.distance(b, a) > 0 or a == b
    assert hexes.distance(a, c) <= hexes.distance(a, b) + hexes.distance(b, c)
    around = hexes.neighbours(*a)
    assert len(set(around)) == 6
    assert all(hexes.distance(a, n) == 1 for n in around)
