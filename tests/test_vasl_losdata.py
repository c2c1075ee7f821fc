"""A VASL board's LOSData read without Java (DESIGN §15,
``cgledger.domain.vasl_losdata``): Java's block-data records whatever their
sizes (an int may straddle two), the header's sizes, and a 422 saying why
for a stream that is not gzip, not block data, cut short, or longer or
shorter than its header says."""

from __future__ import annotations

import gzip
import struct
import zlib
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cgledger.domain.errors import InvalidInput
from cgledger.domain.vasl_losdata import (
    BLOCK,
    CHUNK,
    HEADER,
    STREAM_MAGIC,
    TC_BLOCKDATA,
    TC_BLOCKDATALONG,
    LosData,
    decode,
    encode,
    payload_of,
    stairways,
)

WHERE = "zip.LOSData"


def _stairs(equal: bool = False) -> Callable[[int, int], int]:
    return lambda w, h: stairways(w, h, equal)


def _read(data: bytes, **kw: object) -> LosData:
    options: dict[str, object] = {
        "where": WHERE,
        "stairway_bytes": _stairs(),
        "max_pixels": 10_000,
    } | kw
    return decode(data, **options)  # type: ignore[arg-type]


def _los(width: int = 3, height: int = 2, grid: tuple[int, int] = (7, 5), fill: int = 0) -> LosData:
    pixels = bytes((fill + i) % 256 for i in range(2 * grid[0] * grid[1]))
    stairs = bytes(i % 2 for i in range(stairways(width, height, False)))
    return LosData(width, height, *grid, payload_of(width, height, grid, pixels, stairs))


def _framed(payload: bytes, sizes: list[int]) -> bytes:
    """``payload`` in records of ``sizes`` (cycled), short ones with 0x77."""
    out, at, i = [STREAM_MAGIC], 0, 0
    while at < len(payload):
        size = sizes[i % len(sizes)]
        block = payload[at : at + size]
        tag = bytes((TC_BLOCKDATA, len(block))) if len(block) <= 0xFF and i % 3 else None
        out.append(tag or struct.pack(">Bi", TC_BLOCKDATALONG, len(block)))
        out.append(block)
        at, i = at + size, i + 1
    return gzip.compress(b"".join(out))


@given(
    width=st.integers(1, 6),
    height=st.integers(1, 6),
    grid=st.tuples(st.integers(1, 30), st.integers(1, 30)),
    data=st.data(),
)
def test_what_is_written_is_read_back_whatever_the_records(
    width: int, height: int, grid: tuple[int, int], data: st.DataObject
) -> None:
    pixels = data.draw(st.binary(min_size=2 * grid[0] * grid[1], max_size=2 * grid[0] * grid[1]))
    stairs = data.draw(st.binary(min_size=stairways(width, height, False), max_size=200))
    stairs = stairs[: stairways(width, height, False)]
    los = LosData(width, height, *grid, payload_of(width, height, grid, pixels, stairs))
    assert _read(encode(los)) == los
    # Any record sizes: ints straddle records, long and short tags mixed.
    sizes = data.draw(st.lists(st.integers(1, 300), min_size=1, max_size=5))
    assert _read(_framed(los.payload, sizes)) == los
    # Each pixel is (signed elevation, unsigned code), x outer.
    x, y = data.draw(st.integers(0, grid[0] - 1)), data.draw(st.integers(0, grid[1] - 1))
    at = 2 * (x * grid[1] + y)
    assert los.pixel(x, y) == (struct.unpack("b", pixels[at : at + 1])[0], pixels[at + 1])
    hexes = stairways(width, height, False)
    n = data.draw(st.integers(0, hexes - 1))
    assert los.stairway(n) is (stairs[n] == 1)


def test_java_records_are_1024_bytes_and_a_short_last_one() -> None:
    los = _los(grid=(40, 20))  # 16 + 1,600 + 7 bytes: one full block, one short
    stream = zlib.decompress(encode(los), wbits=16 + zlib.MAX_WBITS)
    assert stream[:4] == STREAM_MAGIC
    assert stream[4:9] == struct.pack(">Bi", TC_BLOCKDATALONG, BLOCK)
    rest = len(los.payload) - BLOCK
    assert stream[9 + BLOCK :][:5] == struct.pack(">Bi", TC_BLOCKDATALONG, rest)
    small = _los(grid=(3, 3))
    stream = zlib.decompress(encode(small), wbits=16 + zlib.MAX_WBITS)
    assert stream[4:6] == bytes((TC_BLOCKDATA, len(small.payload)))


def test_equal_rows_have_height_hexes_in_every_column() -> None:
    assert stairways(33, 10, False) == 17 * 10 + 16 * 11
    assert stairways(36, 49, True) == 36 * 49
    los = _los(width=4, height=3)
    assert _read(encode(los)).width == 4
    with pytest.raises(InvalidInput, match="more than the 98 bytes"):
        _read(encode(los), stairway_bytes=_stairs(True))  # 4 x 3: 12 hexes, not 14


def _payload_changed(change: Callable[[bytes], bytes]) -> bytes:
    return _framed(change(_los().payload), [BLOCK])


def _stream_changed(change: Callable[[bytes], bytes]) -> bytes:
    stream = zlib.decompress(encode(_los()), wbits=16 + zlib.MAX_WBITS)
    return gzip.compress(change(stream))


NEEDED = len(_los().payload)
CASES = [
    ("not gzip", b"PK\x03\x04 not gzip", "not gzip data"),
    ("empty", b"", "LOSData ends after 0 bytes"),
    ("gzip of nothing", gzip.compress(b""), "LOSData ends after 0 bytes"),
    ("not a Java stream", gzip.compress(b"\x00\x01\x02\x03" + bytes(40)), "0xaced0005"),
    (
        "an object, not block data",
        _stream_changed(lambda s: s[:4] + b"\x73\x72" + s[6:]),
        "type 0x73, not block data",
    ),
    (
        "a negative record length",
        gzip.compress(STREAM_MAGIC + struct.pack(">Bi", TC_BLOCKDATALONG, -5) + bytes(20)),
        "negative length",
    ),
    (
        "shorter than the header says",
        _payload_changed(lambda p: p[:-3]),
        f"holds {NEEDED - 3} bytes, not the {NEEDED} bytes its header needs",
    ),
    (
        "one stairway byte too many",
        _payload_changed(lambda p: p + b"\x00"),
        f"holds more than the {NEEDED} bytes its header needs",
    ),
    (
        "much longer than the header says",
        _payload_changed(lambda p: p + bytes(5000)),
        "holds more than",
    ),
    (
        "cut short",
        encode(_los())[:-20],
        "cut short",
    ),
    (
        "a record cut in the middle",
        _stream_changed(lambda s: s[:-2]),
        "ends inside a record",
    ),
    (
        "bytes after the gzip stream",
        encode(_los()) + b"more",
        "bytes follow the end",
    ),
    (
        "a zero size",
        _payload_changed(lambda p: payload_of(3, 0, (7, 5), p[16:86], b"")),
        "every size must be positive",
    ),
    (
        "a header of more pixels than read",
        _framed(payload_of(3, 2, (200, 200), b"", b""), [BLOCK]),
        "over the 10,000 pixels",
    ),
]


@pytest.mark.parametrize(("data", "why"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_bad_losdata_is_refused_saying_why(data: bytes, why: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        _read(data)
    assert refused.value.field == WHERE
    assert refused.value.detail.startswith(f"{WHERE}: ")
    assert why in refused.value.detail, refused.value.detail


def test_the_length_refusal_counts_each_part() -> None:
    with pytest.raises(InvalidInput) as refused:
        _read(_payload_changed(lambda p: p[:-1]))
    assert refused.value.detail.endswith(
        f"({'3 x 2 hexes, a terrain grid of 7 x 5 pixels'}: {HEADER} for the header, 70 for each "
        "pixel's elevation and terrain, 7 for each hex's stairway)"
    )


def test_the_board_size_is_checked_against_the_metadata() -> None:
    los = encode(_los())
    assert _read(los, expect=(3, 2)).height == 2
    with pytest.raises(InvalidInput, match=r"3 x 2 hexes; BoardMetadata.xml says 3 x 3"):
        _read(los, expect=(3, 3))


def test_a_small_file_never_expands_past_its_header() -> None:
    """A gzip of 10 MB of zeros after a header of a few pixels is refused
    having inflated one chunk past the header's count, not 10 MB."""
    bomb = _payload_changed(lambda p: p + bytes(10_000_000))
    assert len(bomb) < 40_000
    seen: list[int] = []
    real = zlib.decompressobj

    class Counting:
        def __init__(self, *a: object, **k: object) -> None:
            self.inner = real(*a, **k)  # type: ignore[arg-type]

        def decompress(self, data: bytes, max_length: int = 0) -> bytes:
            out = self.inner.decompress(data, max_length)
            seen.append(len(out))
            return out

        def __getattr__(self, name: str) -> object:
            return getattr(self.inner, name)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(zlib, "decompressobj", Counting)
        with pytest.raises(InvalidInput, match="holds more than"):
            _read(bomb)
    assert sum(seen) <= CHUNK + NEEDED
