"""A VASL board's ``LOSData``, read without Java (DESIGN §15).

VASL writes it (``BoardArchive.writeLOSData``) as a gzip'd Java object
stream that holds primitives only:

* four ints: the board's width and height in hexes, and the width and height
  of its terrain grid in pixels (one pixel of the board's image each);
* for every pixel, column by column (x outer, y inner), its elevation (a
  signed byte: the level of the ground there) and its terrain code (an
  unsigned byte, an index into VASL's terrain types);
* for every hex, column by column and top to bottom, a byte: 1 if it has a
  stairway, 0 if not. A column holds ``height`` hexes, and one more when its
  index is odd, except on a board whose columns all hold as many
  (:data:`EQUAL_ROWS`).

A Java object stream starts with ``AC ED 00 05``; the primitives follow in
"block data" records, each a tag and a length then that many bytes: tag
``0x77`` with a one-byte length, or ``0x7A`` with a four-byte big-endian one
(Java fills blocks of 1,024 bytes, so an int may straddle two records). This
module reads exactly that and nothing else: any other record (an object, a
string) is refused, as is a stream whose length does not match its header.
It stops inflating as soon as the stream holds more than its header says, so
a small file cannot expand into a large one.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from cgledger.domain.errors import InvalidInput

__all__ = ["HEADER", "LosData", "decode", "encode", "stairways"]

STREAM_MAGIC = b"\xac\xed\x00\x05"
TC_BLOCKDATA = 0x77
TC_BLOCKDATALONG = 0x7A
#: Java's block size: ObjectOutputStream fills records of this many bytes.
BLOCK = 1024
#: The four ints at the start.
HEADER = 16
#: How many bytes are inflated at a time.
CHUNK = 1 << 20


@dataclass(frozen=True)
class LosData:
    """What ``LOSData`` holds: its header and its primitives (``payload``,
    the framing removed, the four ints first)."""

    width: int
    height: int
    grid_width: int
    grid_height: int
    payload: bytes

    def pixel(self, x: int, y: int) -> tuple[int, int]:
        """The elevation and terrain code of the pixel at ``x``, ``y``."""
        at = HEADER + 2 * (x * self.grid_height + y)
        elevation = self.payload[at]
        return (elevation - 256 if elevation > 127 else elevation), self.payload[at + 1]

    def stairway(self, index: int) -> bool:
        """Whether hex number ``index`` (column by column) has a stairway."""
        return self.payload[HEADER + 2 * self.grid_width * self.grid_height + index] == 1


def stairways(width: int, height: int, equal_rows: bool) -> int:
    """How many stairway bytes a board of ``width`` x ``height`` hexes has:
    a column of odd index holds one hex more, unless all hold as many."""
    return width * height + (0 if equal_rows else width // 2)


def _bad(where: str, why: str) -> InvalidInput:
    return InvalidInput(f"{where}: {why}", field=where)


class _Unframer:
    """The bytes of Java's block-data records, as the stream comes in: a
    record may be split across pieces, and records may be of any size."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.head = bytearray()  # a record's tag and length, until whole
        self.left = 0  # bytes of the current record still to come
        self.at = len(STREAM_MAGIC)  # where the next piece starts in the stream

    def feed(self, piece: bytes) -> list[bytes]:
        out: list[bytes] = []
        i, end = 0, len(piece)
        while i < end:
            if self.left:
                take = min(self.left, end - i)
                out.append(piece[i : i + take])
                self.left -= take
                i += take
                continue
            if not self.head and piece[i] not in (TC_BLOCKDATA, TC_BLOCKDATALONG):
                raise _bad(
                    self.where,
                    f"byte {self.at + i} of the object stream starts a record of type "
                    f"0x{piece[i]:02x}, not block data: VASL writes LOSData as ints and bytes only",
                )
            want = 2 if (self.head or piece[i : i + 1])[0] == TC_BLOCKDATA else 5
            take = min(want - len(self.head), end - i)
            self.head += piece[i : i + take]
            i += take
            if len(self.head) == want:
                if want == 2:
                    self.left = self.head[1]
                else:
                    (self.left,) = struct.unpack_from(">i", self.head, 1)
                    if self.left < 0:
                        raise _bad(self.where, "a block-data record has a negative length")
                self.head.clear()
        self.at += end
        return out

    def finish(self) -> None:
        if self.left or self.head:
            raise _bad(self.where, f"the object stream ends inside a record (at byte {self.at})")


def _check(
    header: bytes, where: str, max_pixels: int, expect: tuple[int, int] | None
) -> tuple[tuple[int, int, int, int], str]:
    """The four ints of the header, checked, and how a refusal shows them."""
    width, height, grid_width, grid_height = struct.unpack_from(">4i", header)
    sizes = f"{width} x {height} hexes, a terrain grid of {grid_width} x {grid_height} pixels"
    if min(width, height, grid_width, grid_height) <= 0:
        raise _bad(where, f"LOSData's header says {sizes}; every size must be positive")
    if expect is not None and (width, height) != expect:
        raise _bad(
            where,
            f"LOSData's header says the board is {width} x {height} hexes; BoardMetadata.xml "
            f"says {expect[0]} x {expect[1]}",
        )
    if grid_width * grid_height > max_pixels:
        raise _bad(
            where, f"LOSData's header says {sizes}: over the {max_pixels:,} pixels this tool reads"
        )
    return (width, height, grid_width, grid_height), sizes


def decode(
    data: bytes,
    *,
    where: str,
    stairway_bytes: Callable[[int, int], int],
    max_pixels: int,
    expect: tuple[int, int] | None = None,
) -> LosData:
    """``LOSData`` of ``data`` (the gzip file), checked: a gzip stream that
    ends where it should, a Java stream of block data only, a header of
    positive sizes within ``max_pixels`` (of ``expect`` (width, height)
    hexes if given), and exactly as many bytes as it needs
    (``stairway_bytes(width, height)``: the board's layout decides how many
    hexes it has). Anything else is an ``InvalidInput`` naming ``where`` and
    saying why. It inflates :data:`CHUNK` bytes at a time and stops as soon
    as the stream holds more than its header says."""
    inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    unframer = _Unframer(where)
    magic, pieces, total = b"", [], 0
    needed, sizes, header = 0, "", None
    tail = data
    while True:
        try:
            chunk = inflater.decompress(tail, CHUNK)
        except zlib.error as exc:
            what = "its gzip data is damaged" if magic else "not gzip data, as VASL writes LOSData"
            raise _bad(where, f"{what} ({exc})") from None
        tail, grew = inflater.unconsumed_tail, bool(chunk)
        if len(magic) < len(STREAM_MAGIC):
            cut = len(STREAM_MAGIC) - len(magic)
            magic, chunk = magic + chunk[:cut], chunk[cut:]
            if not STREAM_MAGIC.startswith(magic):
                raise _bad(
                    where, f"not a Java object stream (it starts 0x{magic.hex()}, not 0xaced0005)"
                )
        for piece in unframer.feed(chunk):
            pieces.append(piece)
            total += len(piece)
        if header is None and total >= HEADER:
            header, sizes = _check(b"".join(pieces)[:HEADER], where, max_pixels, expect)
            needed = HEADER + 2 * header[2] * header[3] + stairway_bytes(*header[:2])
        if header is not None and total > needed:
            raise _bad(where, f"LOSData holds more than {_needs(header, sizes, stairway_bytes)}")
        if inflater.eof or not (grew or tail):
            break
    if header is None:
        raise _bad(
            where,
            f"LOSData ends after {total} bytes, before the four ints of its header (the width "
            "and height of the board and of its terrain grid)",
        )
    needs = _needs(header, sizes, stairway_bytes)
    if not inflater.eof:
        raise _bad(where, f"LOSData's gzip stream is cut short after {total:,} of {needs}")
    unframer.finish()
    if total < needed:
        raise _bad(where, f"LOSData holds {total:,} bytes, not {needs}")
    if inflater.unused_data:
        raise _bad(where, "bytes follow the end of LOSData's gzip stream")
    return LosData(*header, b"".join(pieces))


def _needs(
    header: tuple[int, int, int, int], sizes: str, stairway_bytes: Callable[[int, int], int]
) -> str:
    pixels = 2 * header[2] * header[3]
    stairs = stairway_bytes(*header[:2])
    return (
        f"the {HEADER + pixels + stairs:,} bytes its header needs ({sizes}: {HEADER} for the "
        f"header, {pixels:,} for each pixel's elevation and terrain, {stairs:,} for each "
        "hex's stairway)"
    )


def encode(los: LosData, *, level: int = 6) -> bytes:
    """``LOSData`` as VASL writes it: the stream header, the primitives in
    records of :data:`BLOCK` bytes (a shorter last one, with a one-byte
    length when it fits), gzip'd. The inverse of :func:`decode`, for the
    tests and the benchmark, which build board archives of their own."""
    payload = los.payload
    parts = [STREAM_MAGIC]
    for at in range(0, len(payload), BLOCK):
        block = payload[at : at + BLOCK]
        if len(block) <= 0xFF:
            parts.append(bytes((TC_BLOCKDATA, len(block))))
        else:
            parts.append(struct.pack(">Bi", TC_BLOCKDATALONG, len(block)))
        parts.append(block)
    packer = zlib.compressobj(level, wbits=16 + zlib.MAX_WBITS)
    return packer.compress(b"".join(parts)) + packer.flush()


def payload_of(
    width: int,
    height: int,
    grid: tuple[int, int],
    pixels: bytes,
    stairs: bytes,
) -> bytes:
    """The primitives of an ``LOSData``: the header, then ``pixels`` (two
    bytes each: elevation, terrain code; x outer) and ``stairs``."""
    return struct.pack(">4i", width, height, *grid) + pixels + stairs
