"""Everything one role can read of a campaign, with the values that are random
in any case masked, and a readable diff of two such readings (DESIGN §4, "the
opponent cannot tell two secrets apart"; issue 25 item 2).

A :class:`Reading` maps a label (the read: ``GET /events (all pages)``,
``GET /export line 41``, ``POST /events/41/reveal``, ...) to what the role got,
as JSON after :class:`Masker` has masked it. Two readings of two histories
that made the same requests compare with :func:`diff`, which names the read
and the JSON path of every difference.

What is masked, and why it is random whatever a side chose (``Masker``):

- the campaign id and the tokens (the strings themselves, wherever they occur,
  URL-quoted too);
- every run of 16 or more hex digits (hashes, ``prev_hash``, ``head``,
  commitments, seeds, server nonces, salts, request ids, the secret digest,
  checkpoint keys and signatures): ``<hex:N>``, N its length, which the
  format fixes and which is still compared; other UUIDs: ``<uuid>``;
- the view tag of an ETag (a hash of the caller's token): the version before
  it is compared;
- times (ISO 8601 anywhere in a string; keys such as ``recorded_at``,
  ``exported_at`` or a checkpoint's ``time``): ``<time>``, without their
  length (Python drops a zero microsecond);
- the faces of dice: every ``dice`` list keeps its length, each die is
  ``"d"``; where the viewer may see a roll's faces (a public roll; the
  viewer's own sealed records, rolls and CG Roster) what they decided is
  masked to ``<from dice>`` (``DICE_KEYS``: ``original``, ``final``, ``dr``,
  the CPP ``repl``, ``total`` and ``left``; every number of a table's
  ``outcome``, whose texts keep their words). Both histories make the same
  such rolls with other seeds, so these differ by chance (the opponent's
  own 8.616 Secret DR is one in every CPP history);
- the dice statistics' counts by face or total (``faces``, ``totals``: kept
  as their sum, the number of dice counted) and what is computed from them
  (means, chi-square, p-values).

Nothing else is masked: event counts, types, seqs, roll indices, every other
field, the length of every string and list, status codes and problem texts
are compared as they are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

HEX = re.compile(r"[0-9a-f]{16,}")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
ETAG_VIEW = re.compile(r"-([0-9a-f]+)(?=\"?$)")
TIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?")
#: Keys whose values are times whatever they look like.
TIME_KEYS = frozenset({"recorded_at", "exported_at", "created_at", "signed_at", "time", "at_time"})
#: Keys whose values are read from the faces of a roll the viewer may see
#: (in its own records and rolls, its own CG Roster, a public roll).
DICE_KEYS = frozenset({"original", "final", "dr", "repl", "total", "left"})


def _sub_all(text: str, subs: Iterable[tuple[str, str]]) -> str:
    for old, new in subs:
        if old:
            text = text.replace(old, new)
    return text


@dataclass
class Masker:
    """Masks what is random in one campaign as ``viewer`` reads it: its id,
    tokens, hashes, times, and the faces of the dice ``viewer`` may see."""

    campaign_id: str
    tokens: dict[str, str]
    viewer: str

    def text(self, s: str) -> str:
        """A string with the random values in it masked (lengths kept where
        the format fixes them)."""
        subs = [(self.campaign_id, "<campaign>")]
        subs += [(quote(self.campaign_id), "<campaign>")]
        subs += [(tok, f"<token:{role}>") for role, tok in self.tokens.items()]
        s = _sub_all(s, subs)
        s = UUID.sub("<uuid>", s)
        s = TIME.sub("<time>", s)
        return HEX.sub(lambda m: f"<hex:{len(m.group(0))}>", s)

    def _own_dice(self, value: dict[str, Any]) -> bool:
        """Whether ``value`` holds what the faces of a roll the viewer may see
        decided: the viewer's own event or roll, its own CG Roster, or a roll
        whose ``dice`` are shown (then the whole object: its outcome too)."""
        payload = value.get("payload")
        if isinstance(payload, dict) and payload.get("owner") == self.viewer:
            return True  # the viewer's own sealed record (its secret part shown)
        if value.get("side") == self.viewer and ("outcome" in value or "lines" in value):
            return True  # the viewer's own roll, or its CG Roster
        return isinstance(value.get("dice"), list) and bool(value["dice"])

    def mask(self, value: Any, path: tuple[Any, ...] = (), own: bool = False) -> Any:
        """``value`` (a JSON body) masked; ``own``: inside something whose
        dice the viewer may see (``_own_dice``)."""
        key = path[-1] if path else None
        if isinstance(value, dict):
            if key in STAT_COUNTS and all(isinstance(v, int) for v in value.values()):
                return {"<sum>": sum(value.values())}  # how many dice, not their faces
            own = (
                own or self._own_dice(value) or (key == self.viewer and path[-2:-1] == ("rosters",))
            )
            if own and key == "outcome":
                return _faces_masked(value)
            return {k: self.mask(v, (*path, k), own) for k, v in value.items()}
        if isinstance(value, list):
            if key == "dice" and all(isinstance(d, int) for d in value):
                return ["d"] * len(value)
            return [self.mask(v, (*path, i), own) for i, v in enumerate(value)]
        if isinstance(value, str):
            if key == "digest" and path[-2:-1] == ("map",):
                # Computed from what the map is drawn from for the viewer
                # (``projections.map_digest``), not random: compared as it is.
                return value
            if key in TIME_KEYS:
                return "<time>"
            if own and key == "outcome":
                return re.sub(r"\d+", "#", self.text(value))
            return self.text(value)
        if isinstance(value, int | float) and not isinstance(value, bool):
            if isinstance(key, str) and STAT_VALUE.search(key):
                return "<from dice>"
            if own and key in DICE_KEYS:
                return "<from dice>"
        return value


#: Dice statistics: counts by face or total (masked to their sum).
STAT_COUNTS = frozenset({"faces", "totals"})
#: Dice statistics computed from the faces.
STAT_VALUE = re.compile(r"(^|_)(mean|chi_square|p_value|sd|stdev|variance)$")


def _faces_masked(value: Any) -> Any:
    """A roll's outcome read from its faces: its shape, numbers masked."""
    if isinstance(value, dict):
        return {k: _faces_masked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_faces_masked(v) for v in value]
    if isinstance(value, str):
        return re.sub(r"\d+", "#", value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "<from dice>"
    return value


# ------------------------------------------------------------------ the diff


def _show(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False, sort_keys=True)
    if len(text) > 160:
        text = text[:157] + "..."
    if isinstance(v, str | list):
        return f"{text} (len {len(v)})"
    if isinstance(v, dict):
        return f"{text} ({len(v)} keys)"
    return text


def json_diff(a: Any, b: Any, path: str = "$") -> list[str]:
    """Where ``a`` and ``b`` differ, by JSON path (lists element by element,
    objects key by key, a missing key said as such)."""
    if type(a) is not type(b):
        return [f"{path}: {_show(a)} != {_show(b)}"]
    if isinstance(a, dict):
        out: list[str] = []
        for k in sorted(a.keys() | b.keys(), key=str):
            if k not in b:
                out.append(f"{path}.{k}: only in A: {_show(a[k])}")
            elif k not in a:
                out.append(f"{path}.{k}: only in B: {_show(b[k])}")
            else:
                out += json_diff(a[k], b[k], f"{path}.{k}")
        return out
    if isinstance(a, list):
        out = []
        if len(a) != len(b):
            out.append(f"{path}: list of {len(a)} != list of {len(b)}")
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            out += json_diff(x, y, f"{path}[{i}]")
        return out
    if a != b:
        return [f"{path}: {_show(a)} != {_show(b)}"]
    return []


@dataclass
class Reading:
    """What one role read, by label, masked."""

    role: str
    reads: dict[str, Any] = field(default_factory=dict)

    def add(self, label: str, value: Any) -> None:
        assert label not in self.reads, f"read twice: {label}"
        self.reads[label] = value


def diff(a: Reading, b: Reading, limit: int = 12) -> list[str]:
    """Every difference between two readings: each line is a JSON path and
    what differs there, with the reads it differs in (the first of them
    named, and how many more), at most ``limit`` paths per read."""
    found: dict[str, list[str]] = {}
    for label in list(a.reads) + [k for k in b.reads if k not in a.reads]:
        if label not in b.reads:
            found.setdefault("read in A only", []).append(label)
            continue
        if label not in a.reads:
            found.setdefault("read in B only", []).append(label)
            continue
        lines = json_diff(a.reads[label], b.reads[label])
        if len(lines) > limit:
            lines = [*lines[:limit], f"... and {len(lines) - limit} more paths"]
        for line in lines:
            found.setdefault(line, []).append(label)
    out = []
    for line, labels in found.items():
        more = f" (and {len(labels) - 1} more reads)" if len(labels) > 1 else ""
        out.append(f"[{labels[0]}]{more} {line}")
    return out


def report(name_a: str, name_b: str, lines: list[str], limit: int = 80) -> str:
    head = f"the {len(lines)} differences between what the opponent reads after {name_a} (A) "
    head += f"and after {name_b} (B):"
    body = lines[:limit] + ([f"... and {len(lines) - limit} more"] if len(lines) > limit else [])
    return "\n".join([head, *("  " + line for line in body)])


# ------------------------------------------------------------------ reading


@dataclass
class Setting:
    """What a ruleset's reads range over."""

    #: The side whose secrets differ between the two histories.
    secret_side: str
    sides: tuple[str, ...]
    map_groups: tuple[str, ...]
    tables: tuple[str, ...]
    #: CG Dates to filter by (``?date=``).
    dates: tuple[str, ...]


def _length(masked: Any) -> int:
    """The length of a line of JSON once masked (the server's separators)."""
    return len(json.dumps(masked, separators=(",", ":"), ensure_ascii=False))


def _q(value: str) -> str:
    return quote(value, safe="")


class Reader:
    """Reads everything ``role`` may read of ``game`` into a :class:`Reading`."""

    #: Headers that say nothing a body does not (or are lengths of raw bodies,
    #: whose random values are masked in the bodies instead).
    SKIP_HEADERS = frozenset({"content-length", "date"})

    def __init__(self, game: Any, role: str, masker: Masker) -> None:
        self.game = game
        self.role = role
        self.masker = masker
        self.reading = Reading(role)

    def _headers(self, r: Any) -> dict[str, str]:
        out = {}
        for name, value in r.headers.items():
            key = name.lower()
            if key in self.SKIP_HEADERS:
                continue
            text = value
            if key == "etag":
                # "<version>-<view>": the version is compared, the view is a hash.
                text = ETAG_VIEW.sub(lambda m: f"-<hex:{len(m.group(1))}>", value)
            out[key] = self.masker.text(text)
        return out

    def get(self, path: str, *, label: str | None = None) -> Any:
        """GET ``path``: its status, headers and body (JSON, or masked text)."""
        r = self.game.get(self.role, path)
        label = label or f"GET {path}"
        ctype = r.headers.get("content-type", "")
        body: Any
        if ctype.startswith(("application/json", "application/problem+json")):
            body = r.json()
            masked: Any = self.masker.mask(body)
        else:
            body = r.text
            masked = self.masker.text(body).splitlines()
        self.reading.add(
            label, {"status": r.status_code, "headers": self._headers(r), "body": masked}
        )
        return body if r.status_code == 200 else None

    def post(self, path: str, body: Any) -> int:
        """A request the role makes: its status, headers and answer."""
        r = self.game.post(self.role, path, body)
        ctype = r.headers.get("content-type", "")
        answer = r.json() if "json" in ctype else r.text
        label = f"POST {path} {json.dumps(body, sort_keys=True)}"
        self.reading.add(
            label,
            {
                "status": r.status_code,
                "headers": self._headers(r),
                "body": self.masker.mask(answer),
            },
        )
        return int(r.status_code)

    # -------------------------------------------------------------- the log

    def events(self, query: str = "", page: int = 25) -> list[dict[str, Any]]:
        """Every page of ``/events`` (with ``query``'s filters), as one read."""
        items: list[dict[str, Any]] = []
        pages: list[Any] = []
        after = 0
        for _ in range(10_000):
            r = self.game.get(self.role, f"/events?after={after}&limit={page}{query}")
            assert r.status_code == 200, r.text
            body = r.json()
            items += body["items"]
            pages.append(
                {
                    "count": len(body["items"]),
                    "next_after": body["next_after"],
                    "version": body["version"],
                    "headers": self._headers(r),
                }
            )
            if body["next_after"] is None:
                break
            after = body["next_after"]
        self.reading.add(f"GET /events{query or ''} (all pages: paging)", pages)
        self.reading.add(f"GET /events{query or ''} (all pages: types)", [e["type"] for e in items])
        self.reading.add(f"GET /events{query or ''} (all pages)", self.masker.mask(items))
        return items

    def export(self) -> None:
        r = self.game.get(self.role, "/export")
        assert r.status_code == 200, r.text
        self.reading.add("GET /export headers", self._headers(r))
        lines = [self.masker.mask(json.loads(line)) for line in r.text.splitlines()]
        self.reading.add("GET /export line lengths (masked)", [_length(line) for line in lines])
        for i, line in enumerate(lines):
            self.reading.add(f"GET /export line {i}", line)

    def feed(self) -> None:
        """The live feed, up to now (``follow=false``)."""
        r = self.game.get(self.role, "/stream?after=0&follow=false")
        assert r.status_code == 200, r.text
        self.reading.add("GET /stream headers", self._headers(r))
        frames: list[Any] = []
        lengths: list[int] = []
        for frame in r.text.split("\n\n"):
            fields: list[Any] = []
            for line in frame.splitlines():
                name, _, value = line.partition(": ")
                if name == "data":
                    data = self.masker.mask(json.loads(value))
                    fields.append(["data", data])
                    lengths.append(_length(data))
                else:
                    fields.append([name, self.masker.text(value)])
                    lengths.append(len(fields[-1][1]))
            frames.append(fields)
        self.reading.add("GET /stream (frames)", frames)
        self.reading.add("GET /stream line lengths (masked)", lengths)


def read_everything(
    game: Any,
    role: str,
    masker: Masker,
    setting: Setting,
    *,
    versions: Iterable[int] = (),
) -> Reading:
    """Everything ``role`` can read of ``game``, then the answers to a fixed set
    of requests it may not make (DESIGN §4)."""
    rd = Reader(game, role, masker)
    other = setting.secret_side
    campaign = rd.get("")
    assert campaign is not None
    items = rd.events()
    rd.events(query="&type=RecordSealed")
    rd.events(query=f"&actor={_q(other)}")
    rd.events(query="&reverted=false")
    for date in setting.dates:
        rd.events(query=f"&date={_q(date)}")
    for table in setting.tables:
        rd.events(query=f"&table={_q(table)}")
    rd.export()
    rd.feed()
    rd.get("/state")
    rd.get("/reph")
    rd.get("/checkpoint")
    rd.get("/definition")
    rd.get("/definition-amendments")
    rd.get("/undo-requests")
    rd.get("/proposals")
    rd.get("/disputes")
    for date in setting.dates:
        rd.get(f"/initiative?cg_date={_q(date)}")
    for side in setting.sides:
        rd.get(f"/roster?side={_q(side)}")
        rd.get(f"/rg-record?side={_q(side)}")
    # As answered live at each version the history marked (the other side's
    # secret acts): its roster and RG Purchase Record, the state, the dice.
    for v in sorted(set(versions)):
        rd.get(f"/roster?side={_q(other)}&at={v}")
        rd.get(f"/rg-record?side={_q(other)}&at={v}")
        rd.get(f"/state?at={v}")
        rd.get(f"/dice-stats?at={v}")
    for group in setting.map_groups:
        rd.get(f"/setup-areas?map_group={_q(group)}")
        rd.get(f"/setup-areas.svg?map_group={_q(group)}")
        rd.get(f"/control?map_group={_q(group)}")
    rd.get("/lvp")
    # The page's one read (DESIGN §12 "Cost"): all of it, its whole log, each map.
    rd.get("/page")
    rd.get("/page?log_after=0")
    for group in setting.map_groups:
        rd.get(f"/page?map_group={_q(group)}")
    rd.get("/dice-stats")
    for side in setting.sides:
        rd.get(f"/dice-stats?side={_q(side)}")
    for table in (*setting.tables, "free"):
        rd.get(f"/dice-stats?table={_q(table)}")
    for date in setting.dates:
        rd.get(f"/dice-stats?date={_q(date)}")
    rd.get("/dice-stats?reverted=false")
    rolls = int(campaign["rolls"])
    others = []
    for index in range(rolls + 1):  # one past the last: its 404
        roll = rd.get(f"/rolls/{index}")
        if roll is not None and roll["side"] != role:
            others.append(index)
    rd.get(f"/c/{game.id}", label="GET the campaign's page")

    # What the role may try: refused, and telling nothing (status, problem text).
    sealed = [
        e["seq"] for e in items if e["type"] == "RecordSealed" and e["payload"]["owner"] != role
    ]
    for seq in sealed:
        rd.post(f"/events/{seq}/reveal", None)
        rd.post("/rg-determinations", {"for_purchase": seq, "item": 0})
    for index in others:
        rd.post(f"/rolls/{index}/reveal", None)
    rd.post("/rg-determinations", {"side": other})
    rd.post("/rg-determinations", {"side": other, "secret": True})
    rd.post("/rg-purchases", {"side": other, "rgs": [], "secret": True})
    rd.post("/fortification-purchases", {"side": other, "items": []})
    rd.post("/fortification-setups", {"side": other, "items": [{"type": "dummy", "hex": "A1"}]})
    rd.post("/cpp-replenishments", {"side": other})
    rd.post("/initiative", {"side": other, "chit": "idle"})
    for group in setting.map_groups:
        rd.post("/hidden-fortifications", {"map_group": group})
    # An undo request of every event from the other side's first sealed one:
    # what the role is told of the events it would revert.
    if sealed:
        version = int(campaign["version"])
        rd.post("/undo-requests", {"to_seq": sealed[0] - 1, "reason": "indistinguishable?"})
        rd.get("/undo-requests", label="GET /undo-requests (after one)")
        rd.get("/proposals", label="GET /proposals (after one)")
        rd.get(f"/events?after={version}", label="GET /events after the attempts")
    return rd.reading
