"""``cgledger verify FILE`` against tampered exports (DESIGN §2, §3 export).

Issue requirement: the verifier checks the hash chain and recomputes every
revealed roll; it exits non-zero if ANY byte of any event has been edited, and
its message names the first bad ``seq``.

One realistic KGP CG I export is built over REST (the Initial Scenario of 19 AM
played to its end, then on 19 PM: the German's 8.616 CPP Replenishment, a
public and a Secret free DR of the U.S., an 8.619 RG purchase (a chart line
that grants FPP, so no 8.620 determination roll stands before 8.622), an 8.622
Recon dr, then the German reveals the Replenishment DR) and exported as the U.S.,
the German and the referee. Every secret act is a sealed record
(``cgledger-dice/2``): the Replenishment, the U.S. Secret DR, the purchase,
the Recon dr, and the empty records of the secret steps each side completed.
The tests then edit it byte by byte, line by line, and as a forger who
recomputes hashes would (a revealed sealed part in its reveal's copy too),
and call both
:func:`cgledger.verify.verify_bytes` and the ``cgledger`` console script.

Every test runs on SQLite and on PostgreSQL (the ``client`` fixture).
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hypothesis
import pytest
from conftest import HYPOTHESIS_BUDGET, Game
from fastapi.testclient import TestClient
from forge import join, parse, reseal, split

from cgledger.domain import tables
from cgledger.domain.chain import event_hash, secret_digest
from cgledger.domain.dice import canon
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.sealed import kind_of
from cgledger.verify import Report, VerificationError, verify_bytes

KGP = REGISTRY["kgp"]
CLI = Path(sys.executable).with_name("cgledger")
ROLES = ("US", "German", "referee")
#: Replacement bytes for the thorough pass: digits, hex, letters, JSON syntax,
#: whitespace, a line break, a NUL and a byte that is not UTF-8.
NASTY = b'05afxZ "\\{}[],:\n\x00\xff'


# --------------------------------------------------------------------- the story


@dataclass
class Story:
    game: Game
    exports: dict[str, bytes]
    seq: dict[str, int]
    repl_index: int


def _small_kgp(client: TestClient) -> Game:
    """A KGP CG I campaign on the sample definition without its map group at
    the size of a real one: the byte-by-byte tests edit every byte of every
    line, so the creation event's size counts twice over."""
    sample = copy.deepcopy(dict(REGISTRY["kgp"].sample_definition))
    sample["map_groups"] = sample["map_groups"][:1]
    body = {"ruleset": "kgp", "campaign": "CG I", "title": "test", "initial_cpp": {"German": 2},
            "definition": sample}  # fmt: skip
    return Game(client, body)


@pytest.fixture(scope="module")
def story(module_client: TestClient) -> Story:
    """Built once per module (and backend): the tests only read it."""
    kgp = _small_kgp(module_client)

    def post(role: str, path: str, body: Any) -> dict[str, Any]:
        r = kgp.post(role, path, body)
        assert r.status_code in (200, 201), r.text
        out: dict[str, Any] = r.json()
        return out

    seq: dict[str, int] = {}
    # The Initial Scenario (19 AM) ends, then the referee begins 19 PM (8.612).
    seq["cg_date"] = kgp.next_date()["seq"]
    repl = post("German", "/cpp-replenishments", {})
    seq["repl"] = repl["seq"]
    seq["public"] = post("US", "/rolls", {"dice": 2, "purpose": "free", "secret": False})["seq"]
    seq["secret"] = post("US", "/rolls", {"dice": 2, "purpose": "free", "secret": True})["seq"]
    seq["rg"] = post("German", "/rg-purchases", {"rg": "F1", "cpp": 2, "map_group": "Sx"})["seq"]
    seq["recon"] = post("German", "/recon", {"cpp": 2})["seq"]
    repl_index = repl["roll"]["index"]
    revealed = post("German", f"/rolls/{repl_index}/reveal", None)
    seq["reveal"] = revealed["revealed_seq"]
    exports = {}
    for role in ROLES:
        r = kgp.get(role, "/export")
        assert r.status_code == 200, r.text
        exports[role] = r.content
    return Story(kgp, exports, seq, repl_index)


# --------------------------------------------------------------------- helpers


def line_start(lines: list[bytes], k: int) -> int:
    """Byte offset of line ``k`` (0 = the header, k = event k)."""
    return sum(len(line) + 1 for line in lines[:k])


def replace_byte(data: bytes, pos: int, new: int) -> bytes:
    assert data[pos] != new
    return data[:pos] + bytes([new]) + data[pos + 1 :]


def other_byte(b: int) -> int:
    """A different byte of the same kind where there is one (digit for digit,
    hex letter for hex letter), so edits stay plausible."""
    c = chr(b)
    if c.isdigit():
        return ord(str((int(c) + 1) % 10))
    if c in "abcdef":
        return ord("abcdef"[("abcdef".index(c) + 1) % 6])
    if c.isascii() and c.isalpha():
        return b ^ 0x20  # swap case
    return ord("x") if c != "x" else ord("y")


def fails(data: bytes) -> VerificationError:
    with pytest.raises(VerificationError) as info:
        verify_bytes(data)
    return info.value


def outcome(data: bytes) -> VerificationError | Report:
    try:
        return verify_bytes(data)
    except VerificationError as exc:
        return exc


def fails_at(data: bytes, seq: int | None, where: str) -> VerificationError:
    err = outcome(data)
    if not isinstance(err, VerificationError):
        pytest.fail(f"{where}: the edited export verified")
    assert err.seq == seq, f"{where}: expected seq {seq}, got {err.seq}: {err}"
    if seq is not None:
        assert f"seq {seq}" in str(err), f"{where}: message does not name the seq: {err}"
    return err


def run_cli(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CLI), "verify", str(path)], capture_output=True, text=True, timeout=120, check=False
    )


def value_span(line: bytes, key: str) -> range:
    """Byte positions of the value of ``"key":`` in ``line``: the first one, or for
    ``secret`` the last one (the top-level field, after ``payload.roll.secret``)."""
    needle = b'"' + key.encode() + b'":'
    found = line.rindex(needle) if key == "secret" else line.index(needle)
    start = found + len(needle)
    end = start
    depth = 0
    in_str = False
    while end < len(line):
        ch = line[end : end + 1]
        if in_str:
            if ch == b"\\":
                end += 1
            elif ch == b'"':
                in_str = False
        elif ch == b'"':
            in_str = True
        elif ch in b"[{":
            depth += 1
        elif ch in b"]}":
            if depth == 0:
                break
            depth -= 1
        elif ch == b"," and depth == 0:
            break
        end += 1
    return range(start, end)


@pytest.fixture
def tmp_export(tmp_path: Path) -> Callable[[bytes, str], Path]:
    def write(data: bytes, name: str) -> Path:
        path = tmp_path / name
        path.write_bytes(data)
        return path

    return write


# --------------------------------------------------------------------- genuine exports


@pytest.mark.store
def test_story_has_the_expected_shape(story: Story) -> None:
    assert list(story.seq.values()) == sorted(story.seq.values())
    header, events = parse(story.exports["US"])
    assert header["events"] == len(events) == story.game.version()
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[story.seq["public"] - 1]["payload"]["roll"]["secret"] is False
    assert events[story.seq["reveal"] - 1]["payload"]["of_seq"] == story.seq["repl"]


@pytest.mark.store
@pytest.mark.parametrize("role", ROLES)
def test_every_viewers_export_verifies_with_the_cli(
    story: Story, role: str, tmp_export: Callable[[bytes, str], Path]
) -> None:
    data = story.exports[role]
    path = tmp_export(data, f"{role}.jsonl")
    done = run_cli(path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("OK"), done.stdout
    assert done.stderr == ""

    report: Report = verify_bytes(data)
    version = story.game.version()
    assert report.events == version
    header, events = parse(data)
    assert header["viewer"] == role
    assert report.head == header["head"] == events[-1]["hash"]
    campaign = story.game.get(role).json()
    assert report.head == campaign["head"]
    # 7 roll indices: the Replenishment DR (revealed), the public DR, the U.S.
    # Secret DR and the German Recon dr (both still secret), and the three
    # empty 8.620 determination records (both sides on 19 AM, the German on
    # 19 PM on its way to 8.622): an empty record of a step whose act draws
    # dice takes an index too, so it looks like one that rolled (DESIGN §4).
    rolled = [e for e in events if "roll" in e["payload"]]
    assert report.rolls == len(rolled) == 7
    empty_determinations = [e for e in rolled if e["payload"].get("step") == "8.620"]
    assert [e["type"] for e in empty_determinations] == ["RecordSealed"] * 3
    assert report.rolls_recomputed == 2
    assert report.rolls_hidden == 5
    # 12 sealed records (the 6 empty ones of 19 AM's secret steps, then on
    # 19 PM the Replenishment, the Secret DR, the German's purchase, its empty
    # 8.620 and 8.621 records and the Recon dr); only the Replenishment is revealed.
    sealed = [e for e in events if e["type"] == "RecordSealed"]
    assert report.sealed_records == len(sealed) == 12
    assert report.sealed_revealed == 1
    assert report.sealed_hidden == 11
    # The revealed 8.616 Replenishment for everyone; the German's and the
    # referee's exports also show the Recon dice, so 8.622 is checked there too.
    assert report.rule_results_checked == (1 if role == "US" else 2)
    assert f"{version} events" in done.stdout


# --------------------------------------------------------------------- single-byte edits


def test_every_single_byte_edit_of_every_event_line_names_its_seq(story: Story) -> None:
    """Every byte of every event line of the U.S. export, replaced by another
    byte of the same kind (a digit of a die, a hex char of a hash, a char of
    ``recorded_at``, a key, a bracket, a comma...): every other byte, the odd
    ones on odd lines, and every byte under the ``thorough`` profile."""
    data = story.exports["US"]
    lines = split(data)
    every = 1 if hypothesis.settings.default.max_examples > HYPOTHESIS_BUDGET else 2
    checked = 0
    for k in range(1, len(lines)):
        start = line_start(lines, k)
        for offset in range(k % every, len(lines[k]), every):
            pos = start + offset
            edited = replace_byte(data, pos, other_byte(data[pos]))
            fails_at(edited, k, f"line {k} byte {offset} ({chr(data[pos])!r})")
            checked += 1
    # Every byte of the event lines (less their newlines), or every other one.
    assert checked >= (len(data) - len(lines[0]) - len(lines)) // every


@pytest.mark.parametrize("role", ROLES)
def test_start_middle_and_end_of_every_event_line(story: Story, role: str) -> None:
    data = story.exports[role]
    lines = split(data)
    for k in range(1, len(lines)):
        start = line_start(lines, k)
        n = len(lines[k])
        for offset in sorted({0, 1, n // 3, n // 2, 2 * n // 3, n - 2, n - 1}):
            pos = start + offset
            for new in (other_byte(data[pos]), *NASTY):
                if new == data[pos]:
                    continue
                fails_at(replace_byte(data, pos, new), k, f"{role} line {k} byte {offset}")


@pytest.mark.parametrize("which", ["public", "repl", "reveal"])
def test_every_byte_of_the_roll_lines_with_many_replacements(story: Story, which: str) -> None:
    """The thorough pass: every position of the public roll, of the revealed
    Replenishment and of its SecretRevealed line, each with another byte of its
    kind, and with many bytes at every sixth position (at every position under
    the ``thorough`` profile: a sealed record's lines are long, and each edit
    verifies the whole export)."""
    data = story.exports["US"]
    lines = split(data)
    k = story.seq[which]
    start = line_start(lines, k)
    every = 1 if hypothesis.settings.default.max_examples > HYPOTHESIS_BUDGET else 6
    for offset in range(len(lines[k])):
        pos = start + offset
        nasty = NASTY if offset % every == 0 else b""
        for new in {other_byte(data[pos]), *nasty}:
            if new != data[pos]:
                fails_at(replace_byte(data, pos, new), k, f"line {k} byte {offset} -> {new!r}")


@pytest.mark.parametrize("role", ROLES)
def test_every_field_value_of_every_event_line(story: Story, role: str) -> None:
    """At least one edit inside every field value (hash, prev_hash, secret_digest,
    recorded_at, actor, type, seq, payload, secret) of every event line."""
    data = story.exports[role]
    lines = split(data)
    for k in range(1, len(lines)):
        start = line_start(lines, k)
        for key in ("seq", "type", "recorded_at", "actor", "payload", "secret_digest",
                    "secret", "prev_hash", "hash"):  # fmt: skip
            span = value_span(lines[k], key)
            for offset in sorted({span[0], span[len(span) // 2], span[-1]}):
                pos = start + offset
                fails_at(replace_byte(data, pos, other_byte(data[pos])), k, f"{role} {k}.{key}")


def test_every_die_of_the_public_roll_to_every_other_value(story: Story) -> None:
    data = story.exports["US"]
    lines = split(data)
    k = story.seq["public"]
    roll = json.loads(lines[k])["payload"]["roll"]
    span = value_span(lines[k], "dice")
    assert lines[k][span[0] : span[-1] + 1] == canon(roll["dice"])
    digits = [span[0] + i for i in range(len(span)) if chr(lines[k][span[0] + i]).isdigit()]
    assert len(digits) == 2
    start = line_start(lines, k)
    for offset in digits:
        for value in "123456":
            if ord(value) != lines[k][offset]:
                err = fails_at(replace_byte(data, start + offset, ord(value)), k, "public die")
                assert "hash" in str(err)


def test_a_die_of_the_revealed_replenishment_to_every_other_value(story: Story) -> None:
    data = story.exports["German"]
    lines = split(data)
    k = story.seq["repl"]
    span = value_span(lines[k], "dice")
    start = line_start(lines, k)
    first = span[1]  # after "["
    for value in "123456":
        if ord(value) != lines[k][first]:
            err = fails_at(replace_byte(data, start + first, ord(value)), k, "secret die")
            assert "secret" in str(err)


@pytest.mark.parametrize("role", ROLES)
def test_every_newline_byte(story: Story, role: str) -> None:
    """Merging event line k into the next line is reported at seq k; the last
    newline replaced leaves a file that does not end with one."""
    data = story.exports[role]
    lines = split(data)
    for k in range(len(lines)):
        pos = line_start(lines, k) + len(lines[k])
        assert data[pos : pos + 1] == b"\n"
        for new in b"x ,}\r":
            edited = replace_byte(data, pos, new)
            if k == 0:
                fails(edited)
            elif k < len(lines) - 1:
                fails_at(edited, k, f"newline after line {k}")
            else:
                assert "newline" in str(fails(edited))


@pytest.mark.parametrize("key", ["format", "campaign", "events", "head", "body_sha256"])
def test_every_byte_of_the_load_bearing_header_fields(story: Story, key: str) -> None:
    data = story.exports["US"]
    header = split(data)[0]
    for pos in value_span(header, key):
        err = fails(replace_byte(data, pos, other_byte(data[pos])))
        assert err.seq is None or key == "campaign", (key, pos, err)


def test_json_syntax_of_the_header(story: Story) -> None:
    data = story.exports["US"]
    header = split(data)[0]
    in_str = False
    syntax = []
    for pos, b in enumerate(header):
        if b == ord('"'):
            in_str = not in_str
            syntax.append(pos)
        elif not in_str and chr(b) in "{}:,":
            syntax.append(pos)
    assert len(syntax) > 40
    for pos in syntax:
        fails(replace_byte(data, pos, ord("x")))


def test_header_ruleset_must_agree_with_the_hashed_campaign(story: Story) -> None:
    """The header is not hashed, but the verifier takes the ruleset from it to
    decide which rule results (8.616, 8.622) to recompute. A header that names
    another ruleset than the hashed CampaignCreated event is a mismatch and must
    not verify (else it silently switches off the rule-result checks)."""
    data = story.exports["US"]
    header, events = parse(data)
    assert events[0]["payload"]["ruleset"] == header["ruleset"] == "kgp"
    for forged in ("kgq", "abtf", None):
        edited = {**header, "ruleset": forged}
        fails(canon(edited) + b"\n" + join(split(data)[1:]))


# --------------------------------------------------------------------- the CLI on edits


@pytest.mark.parametrize(
    ("which", "key", "nth"),
    [
        ("public", "dice", 1),  # a die of a public roll
        ("repl", "hash", 10),  # a hex char of a hash
        ("rg", "recorded_at", 3),  # a digit of the time
        ("secret", "prev_hash", 0),
        ("recon", "payload", 5),
    ],
)
def test_cli_reports_exit_1_and_the_seq(
    story: Story, which: str, key: str, nth: int, tmp_export: Callable[[bytes, str], Path]
) -> None:
    data = story.exports["US"]
    lines = split(data)
    k = story.seq[which]
    pos = line_start(lines, k) + value_span(lines[k], key)[nth]
    path = tmp_export(replace_byte(data, pos, other_byte(data[pos])), "edited.jsonl")
    done = run_cli(path)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert done.stdout == ""
    assert f"seq {k}" in done.stderr
    assert "FAILED" in done.stderr


def test_cli_on_a_missing_file_exits_2(tmp_path: Path) -> None:
    done = run_cli(tmp_path / "no-such-export.jsonl")
    assert done.returncode == 2
    assert "cannot read" in done.stderr
    assert done.stdout == ""


def test_cli_on_a_truncated_file_exits_1(
    story: Story, tmp_export: Callable[[bytes, str], Path]
) -> None:
    data = story.exports["US"]
    done = run_cli(tmp_export(data[: len(data) // 2], "truncated.jsonl"))
    assert done.returncode == 1
    assert "FAILED" in done.stderr


# --------------------------------------------------------------------- whole lines


@pytest.mark.parametrize("role", ROLES)
def test_deleting_any_line_fails(story: Story, role: str) -> None:
    lines = split(story.exports[role])
    fails(join(lines[1:]))  # the header
    last = len(lines) - 1
    for k in range(1, len(lines)):
        edited = join(lines[:k] + lines[k + 1 :])
        if k < last:
            fails_at(edited, k, f"deleted line {k}")
        else:
            assert "header" in str(fails_at(edited, None, "deleted last line"))


@pytest.mark.parametrize("role", ROLES)
def test_swapping_any_two_lines_fails(story: Story, role: str) -> None:
    lines = split(story.exports[role])
    for i in range(len(lines)):
        for j in range(i + 1, len(lines)):
            swapped = list(lines)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            if i == 0:
                fails(join(swapped))
            else:
                fails_at(join(swapped), i, f"swapped {i} and {j}")


def test_duplicating_a_line_fails(story: Story) -> None:
    lines = split(story.exports["US"])
    for k in range(1, len(lines)):
        fails_at(join([*lines[: k + 1], lines[k], *lines[k + 1 :]]), k + 1, f"dup {k}")


def test_truncating_the_file_anywhere_fails(story: Story) -> None:
    data = story.exports["US"]
    for n in range(len(data)):
        fails(data[:n])


def test_appending_lines_fails(story: Story) -> None:
    data = story.exports["US"]
    lines = split(data)
    n = len(lines) - 1
    header, events = parse(data)
    fails_at(data + lines[-1] + b"\n", n + 1, "copy of the last line")
    fails_at(data + b"{}\n", n + 1, "an empty object")
    fails_at(data + b"garbage\n", n + 1, "garbage")
    fails_at(data + b"\n", n + 1, "an empty line")

    # A forged event that chains correctly onto the head.
    forged = {
        "seq": n + 1,
        "type": "DiceRolled",
        "recorded_at": events[-1]["recorded_at"],
        "actor": "US",
        "payload": {"note": "forged"},
        "secret_digest": "",
        "secret": None,
        "prev_hash": events[-1]["hash"],
    }
    forged["hash"] = event_hash(forged)
    err = fails_at(data + canon(forged) + b"\n", None, "chained forgery")
    assert "header" in str(err)

    # ...and with the header's count and head fixed too: only the body digest is left.
    header_fixed = {**header, "events": n + 1, "head": forged["hash"]}
    edited = canon(header_fixed) + b"\n" + join([*lines[1:], canon(forged)])
    assert "body digest" in str(fails_at(edited, None, "chained forgery, header fixed"))


def test_dropping_the_last_event_and_fixing_count_and_head_fails(story: Story) -> None:
    """Only the header's body digest still notices."""
    data = story.exports["US"]
    header, events = parse(data)
    fixed = {**header, "events": len(events) - 1, "head": events[-2]["hash"]}
    edited = canon(fixed) + b"\n" + join(split(data)[1:-1])
    assert "body digest" in str(fails_at(edited, None, "dropped last event"))


def test_empty_and_header_only_files_fail(story: Story) -> None:
    data = story.exports["US"]
    for bad in (b"", b"\n", split(data)[0] + b"\n", split(data)[0]):
        fails(bad)


# --------------------------------------------------------------------- forgers who rehash


def _replenishment(part: dict[str, Any], base: int, dice: list[int]) -> None:
    """Every field of an 8.616 sealed part that its Base # and DR decide, made
    consistent with ``base`` and ``dice``: the act's own and its one roll's."""
    result = tables.resolve(KGP.tables["kgp:8.616"], dice, [], {"base": base})
    read = {"inputs": {"base": base}, **result}
    part.update(base=base, dr=result["final"], repl=result["outcome"]["amount"], **read)
    part["rolls"][0].update(dice=dice, **read)


def _reveal_of(events: list[dict[str, Any]], k: int) -> dict[str, Any] | None:
    """The cgledger-dice/2 SecretRevealed that publishes sealed record ``k``."""
    return next(
        (
            e
            for e in events
            if e["type"] == "SecretRevealed"
            and e["payload"].get("of_seq") == k
            and "sealed" in e["payload"]
        ),
        None,
    )


def _edit_sealed(
    events: list[dict[str, Any]], k: int, edit: Callable[[dict[str, Any]], None]
) -> None:
    """What a forger edits in sealed record ``k``'s secret part, edited alike in
    the copy its reveal published (DESIGN §2a: the reveal carries the part)."""
    edit(events[k - 1]["secret"])
    reveal = _reveal_of(events, k)
    if reveal is not None:
        edit(reveal["payload"]["sealed"])


@pytest.mark.parametrize("role", ROLES)
def test_revealed_secret_roll_with_changed_dice(story: Story, role: str) -> None:
    """The German's revealed 8.616 Replenishment DR (a sealed record), its dice
    changed (and the DR and CPP result made consistent with them), at each
    level of effort."""
    data = story.exports[role]
    k = story.seq["repl"]
    header, events = parse(data)
    assert _reveal_of(events, k) is not None
    original = events[k - 1]["secret"]["rolls"][0]["dice"]
    new_dice = [7 - original[0], original[1]]

    def change(part: dict[str, Any]) -> None:
        _replenishment(part, part["base"], new_dice)

    def forged_events(*, reveal_too: bool) -> list[dict[str, Any]]:
        _, evs = parse(data)
        if reveal_too:
            _edit_sealed(evs, k, change)
        else:
            change(evs[k - 1]["secret"])
        return evs

    lines = split(data)

    def with_line(evs: list[dict[str, Any]]) -> bytes:
        return join([lines[0], *lines[1:k], canon(evs[k - 1]), *lines[k + 1 :]])

    # 1. dice edited only: the secret digest no longer matches.
    evs = forged_events(reveal_too=False)
    assert "digest" in str(fails_at(with_line(evs), k, "dice only"))

    # 2. ...and the digest recomputed: the event hash no longer matches.
    evs[k - 1]["secret_digest"] = secret_digest(evs[k - 1]["secret"])
    assert "hash" in str(fails_at(with_line(evs), k, "dice + digest"))

    # 3. ...and that line's hash recomputed: the chain breaks on the next line.
    evs[k - 1]["hash"] = event_hash(evs[k - 1])
    err = fails(with_line(evs))
    assert err.seq in (k, k + 1), err
    assert "prev_hash" in str(err) or "digest" in str(err)

    # 4. ...and the whole chain and header recomputed: the reveal still
    #    publishes the part that was recorded, which no longer hashes to the
    #    record's digest, reported at the reveal.
    err = fails_at(
        reseal(header, forged_events(reveal_too=False)), story.seq["reveal"], "full reseal"
    )
    assert f"digest recorded with event {k}" in str(err)

    # 5. ...and the reveal's copy of the part edited too: the dice no longer
    #    follow the stream of the revealed seed, reported at the record's seq.
    err = fails_at(reseal(header, forged_events(reveal_too=True)), k, "reveal reseal")
    assert f"sealed roll {story.repl_index} do not follow its stream" in str(err)


def test_public_roll_with_changed_dice_and_full_reseal(story: Story) -> None:
    data = story.exports["US"]
    k = story.seq["public"]
    header, events = parse(data)
    roll = events[k - 1]["payload"]["roll"]
    roll["dice"] = [7 - d for d in roll["dice"]]
    err = fails_at(reseal(header, events), k, "public reseal")
    assert "recomputes" in str(err)


def test_public_roll_with_another_seed_and_full_reseal(story: Story) -> None:
    data = story.exports["US"]
    k = story.seq["public"]
    header, events = parse(data)
    events[k - 1]["payload"]["roll"]["seed"] = "00" * 32
    err = fails_at(reseal(header, events), k, "seed reseal")
    assert "commitment" in str(err)


def _more_cpp(part: dict[str, Any]) -> None:
    part["repl"] += 5


def test_replenishment_result_changed_and_full_reseal(story: Story) -> None:
    data = story.exports["US"]
    k = story.seq["repl"]
    header, events = parse(data)
    _edit_sealed(events, k, _more_cpp)
    err = fails_at(reseal(header, events), k, "repl reseal")
    assert "8.616" in str(err)


def test_header_ruleset_cannot_switch_off_the_rule_checks(story: Story) -> None:
    """A forged 8.616 result, fully resealed (its reveal's copy too), with the
    header's ruleset renamed: the hashed CampaignCreated event still says kgp,
    so it must not verify."""
    data = story.exports["US"]
    k = story.seq["repl"]
    header, events = parse(data)
    _edit_sealed(events, k, _more_cpp)
    assert "8.616" in str(fails(reseal(header, copy.deepcopy(events))))
    header["ruleset"] = "kgq"
    fails(reseal(header, events))


def test_an_untouched_reseal_still_verifies(story: Story) -> None:
    """The forging helper itself is faithful: resealing without edits verifies."""
    for role in ROLES:
        header, events = parse(story.exports[role])
        assert reseal(header, events) == story.exports[role]


def _set(path: tuple[Any, ...], value: Any) -> Callable[[list[dict[str, Any]]], None]:
    def edit(events: list[dict[str, Any]]) -> None:
        target: Any = events
        for step in path[:-1]:
            target = target[step]
        if value is _DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value

    return edit


_DELETE = object()


MALFORMED = [
    pytest.param("public", ("payload", "roll", "seed"), "zz" * 32, id="seed-not-hex"),
    pytest.param("public", ("payload", "roll", "count"), 0, id="dice-count-0"),
    pytest.param("public", ("payload", "roll", "secret"), _DELETE, id="roll-without-secret-flag"),
    pytest.param("repl", ("secret", "rolls", 0, "dice"), _DELETE, id="revealed-dice-missing"),
    pytest.param("secret", ("secret",), ["x"], id="secret-not-an-object"),
    pytest.param("reveal", ("payload", "index"), _DELETE, id="reveal-without-index"),
    pytest.param("cg_date", ("payload",), [], id="payload-not-an-object"),
    pytest.param(None, ("seq",), True, id="seq-true"),
]


@pytest.mark.parametrize(("seq_key", "path", "value"), MALFORMED)
def test_malformed_but_resealed_events_are_reported_not_crashed(
    story: Story, seq_key: str | None, path: tuple[Any, ...], value: Any
) -> None:
    """A hash-consistent export whose event is malformed must be reported as a
    VerificationError naming its seq, not crash the verifier with a traceback.
    (A revealed sealed part is edited alike in the copy its reveal published;
    the U.S. export shows its own Secret DR's part, not revealed.)"""
    header, events = parse(story.exports["US"])
    k = 1 if seq_key is None else story.seq[seq_key]
    _set((k - 1, *path), value)(events)
    reveal = _reveal_of(events, k)
    if path[0] == "secret" and reveal is not None:
        _set((reveal["seq"] - 1, "payload", "sealed", *path[1:]), value)(events)
    data = reseal(header, events)
    name = "/".join(map(str, path))
    try:
        result = outcome(data)
    except Exception as exc:
        pytest.fail(f"{name}: the verifier crashed with {exc!r}")
    if not isinstance(result, VerificationError):
        pytest.fail(f"{name}: the malformed export verified")
    assert result.seq == k, f"{name}: {result}"


def test_cli_on_a_malformed_resealed_export_names_the_seq(
    story: Story, tmp_export: Callable[[bytes, str], Path]
) -> None:
    """The console script must report a bad seed as FAILED with the seq, not
    with a Python traceback."""
    header, events = parse(story.exports["US"])
    k = story.seq["public"]
    events[k - 1]["payload"]["roll"]["seed"] = "zz" * 32
    done = run_cli(tmp_export(reseal(header, events), "bad-seed.jsonl"))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr, done.stderr
    assert f"seq {k}" in done.stderr


# ------------------------------------------------ checks added after review


def test_a_forged_cpp_base_is_caught_even_when_consistent(story: Story) -> None:
    """8.6161: the Base # must be the chart's; a forger who raises it and keeps
    Base - DR consistent, then reseals everything, still fails at that seq."""
    header, events = parse(story.exports["US"])
    k = story.seq["repl"]

    def raise_base(part: dict[str, Any]) -> None:
        _replenishment(part, part["base"] + 10, part["rolls"][0]["dice"])

    _edit_sealed(events, k, raise_base)
    err = fails_at(reseal(header, events), k, "base reseal")
    assert "CPP Base #" in str(err)


@pytest.mark.parametrize("role", ["German", "referee"])
def test_recon_result_is_checked_from_the_dice_the_viewer_sees(story: Story, role: str) -> None:
    """In the owner's and the referee's exports the Recon dice are visible while
    the seed is still secret: the 8.622 Final dr is recomputed from them, the
    one its roll records and the one the Recon act records (what is shown)."""
    for where in ("act", "roll"):
        header, events = parse(story.exports[role])
        k = story.seq["recon"]
        part = events[k - 1]["secret"]
        assert part["kind"] == "ReconPurchased"
        assert _reveal_of(events, k) is None
        edited = part if where == "act" else part["rolls"][0]
        edited["final"] += 1
        err = fails_at(reseal(header, events), k, f"recon reseal ({where})")
        assert "8.622" in str(err)


def test_header_fields_are_exactly_the_formats(story: Story) -> None:
    header, events = parse(story.exports["US"])
    fails(reseal({**header, "note": "x"}, events))
    fails(reseal({**header, "campaign_name": "CG II"}, events))
    fails(reseal({**header, "protocol": "cgledger-dice/2"}, events))


def test_a_reveal_must_name_the_roll_it_reveals(story: Story) -> None:
    header, events = parse(story.exports["US"])
    reveal = next(e for e in events if e["type"] == "SecretRevealed")
    reveal["payload"]["of_seq"] = reveal["seq"] + 1
    err = fails_at(reseal(header, events), reveal["seq"], "reveal order")
    assert "follow" in str(err)


def test_missing_final_newline_names_the_last_seq(story: Story) -> None:
    data = story.exports["US"]
    err = fails(data[:-1])
    assert err.seq == len(split(data)) - 1


def test_a_lone_surrogate_is_a_verification_error_not_a_crash() -> None:
    """JSON may spell a lone surrogate (``"\\ud800"``) that has no UTF-8 form:
    the verifier refuses the line instead of raising UnicodeEncodeError."""
    line = b'{"note":"\\ud800"}'
    with pytest.raises(VerificationError, match="not valid Unicode"):
        verify_bytes(line + b"\n" + line + b"\n")


def test_a_determination_writing_what_its_band_does_not_fails(client: TestClient) -> None:
    """8.6201: band 0 of the RG Strength Table writes F, band 1 D (the
    ruleset's ``PurchaseRules.written``); a forger who flips what the row
    says, and re-hashes everything, is caught by re-reading the band."""
    game = Game(client, {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 8}})
    german = game.h("German")
    bought = client.post(
        f"{game.url}/rg-purchases", json={"rg": "I1", "map_group": "Sx"}, headers=german
    )
    assert bought.status_code == 201, bought.text
    rolled = client.post(f"{game.url}/rg-determinations", json={}, headers=german)
    assert rolled.status_code == 201, rolled.text
    data = client.get(f"{game.url}/export", headers=game.h("referee")).content
    assert verify_bytes(data).rule_results_checked >= 1
    header, events = parse(data)
    # The I1 was bought in secret: its rolls are one sealed record (DESIGN §2a),
    # the Strength DR first; the referee's export shows its part.
    (event,) = [
        e
        for e in events
        if e["type"] == "RecordSealed" and kind_of(e) == "RGDetermined" and e["secret"]["rolls"]
    ]
    part = event["secret"]["rolls"][0]
    assert part["need"] == "strength"
    assert part["value"] in ("F", "D")
    part["value"] = "D" if part["value"] == "F" else "F"
    with pytest.raises(VerificationError, match=r"8\.620: band \d of kgp:8\.6201 writes"):
        verify_bytes(reseal(header, events))
