"""docs/dice-protocol.md is executed, not just read: its reference checker
(standard library only) must agree with ``cgledger verify`` on the published
test vectors and on real exports, and must fail where ours fails."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import Game, created, ok
from fastapi.testclient import TestClient

from cgledger.verify import VerificationError, verify_bytes

pytestmark = pytest.mark.shared_app

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "dice-protocol.md"
VECTORS = json.loads((ROOT / "tests" / "dice-vectors.json").read_text(encoding="utf-8"))
#: Version 1's vectors carry no ``protocol``; version 2's name theirs.
VECTORS_V1 = [v for v in VECTORS if "protocol" not in v]
VECTORS_V2 = [v for v in VECTORS if v.get("protocol") == "cgledger-dice/2"]


def _checker() -> dict[str, Any]:
    text = DOC.read_text()
    section = text.split("## 7. A reference checker", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block, "docs/dice-protocol.md lost its reference checker"
    namespace: dict[str, Any] = {}
    exec(compile(block.group(1), str(DOC), "exec"), namespace)
    return namespace


def test_the_reference_checker_reproduces_the_vectors() -> None:
    ref = _checker()
    for v in VECTORS_V1:
        seed = bytes.fromhex(v["seed_hex"])
        assert ref["commitment"](v["campaign"], v["index"], seed) == v["commitment"]
        got = ref["dice"](
            seed, v["campaign"], v["index"], v["client_nonce"], v["dice"], v["purpose"], v["side"]
        )
        assert got == v["result"]


def test_the_worked_example_is_the_first_vector() -> None:
    first = VECTORS_V1[0]
    text = DOC.read_text()
    for value in (first["seed_hex"], first["commitment"], first["roll_seed_hex"]):
        assert value in text
    assert "**" + ", ".join(map(str, first["result"])) + "**" in text


@pytest.fixture(scope="module")
def exports(module_client: TestClient) -> dict[str, bytes]:
    """Made once per module (and backend): the tests only read them."""
    client = module_client
    game = Game(client, {"ruleset": "sg", "campaign": "SG"})
    for i in range(5):
        created(game.post("American", "/rolls", {"dice": 2, "purpose": f"p{i}"}))
    secret = [
        created(game.post("American", "/rolls", {"dice": 2, "purpose": "s", "secret": True}))
        for _ in range(3)
    ]
    created(game.post("German", "/rolls", {"dice": 1, "purpose": "g", "secret": True}))
    ok(game.post("American", f"/rolls/{secret[0]['index']}/reveal"))
    return {
        role: client.get(game.url + "/export", headers=game.h(role)).content
        for role in ("American", "German", "referee")
    }


def test_the_reference_checker_agrees_with_cgledger_verify(exports: dict[str, bytes]) -> None:
    check = _checker()["check_export"]
    for role, data in exports.items():
        ours = verify_bytes(data)
        theirs = check(data)
        assert theirs["events"] == ours.events, role
        assert theirs["rolls"] == ours.rolls, role
        assert theirs["recomputed"] == ours.rolls_recomputed, role
        assert theirs["hidden"] == ours.rolls_hidden, role
        assert theirs["head"] == ours.head, role
    # The German sees the revealed American roll recomputed, not the unrevealed ones.
    german = check(exports["German"])
    assert german["hidden"] >= 2
    assert german["recomputed"] >= 6


def _edit(data: bytes, change: Any) -> bytes:
    lines = data.split(b"\n")
    for n, line in enumerate(lines[1:-1], start=1):
        obj = json.loads(line)
        if change(obj):
            lines[n] = json.dumps(
                obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False
            ).encode()
            return b"\n".join(lines)
    raise AssertionError("nothing to edit")


def _flip_die(obj: dict[str, Any]) -> bool:
    roll = obj["payload"].get("roll")
    if isinstance(roll, dict) and roll.get("dice"):
        roll["dice"][0] = roll["dice"][0] % 6 + 1
        return True
    return False


def _edit_payload(obj: dict[str, Any]) -> bool:
    roll = obj["payload"].get("roll")
    if isinstance(roll, dict):
        roll["purpose"] += "!"
        return True
    return False


@pytest.mark.parametrize("change", [_flip_die, _edit_payload], ids=["die", "payload"])
def test_both_checkers_fail_on_an_edited_export(exports: dict[str, bytes], change: Any) -> None:
    check = _checker()["check_export"]
    edited = _edit(exports["German"], change)
    with pytest.raises(VerificationError):
        verify_bytes(edited)
    with pytest.raises(ValueError, match="hash"):
        check(edited)


def _rechained(data: bytes, change: Any) -> bytes:
    """A forger's edit: change one event, then re-hash and re-chain every event
    and the header, so only the dice themselves can give it away."""
    ref = _checker()
    canon, sha = ref["canon"], ref["sha"]
    lines = data.split(b"\n")[:-1]
    header, events = json.loads(lines[0]), [json.loads(x) for x in lines[1:]]
    assert any(change(ev) for ev in events)
    head = "0" * 64
    for ev in events:
        ev["prev_hash"] = head
        body = {k: ev[k] for k in ref["HASHED"]}
        if "meta" in ev:
            body["meta"] = ev["meta"]
        ev["hash"] = head = sha(b"cgledger/v1/event\n", canon(body))
    out = b"".join(canon(ev) + b"\n" for ev in events)
    header.update(head=head, body_sha256=hashlib.sha256(out).hexdigest())
    return canon(header) + b"\n" + out


def test_both_checkers_catch_dice_that_do_not_follow_from_the_seed(
    exports: dict[str, bytes],
) -> None:
    forged = _rechained(exports["German"], _flip_die)
    with pytest.raises(VerificationError, match="recomputes"):
        verify_bytes(forged)
    with pytest.raises(ValueError, match="do not follow"):
        _checker()["check_export"](forged)


# ------------------------------------------------------------------ cgledger-dice/2


def test_the_reference_checker_reproduces_the_v2_vectors() -> None:
    ref = _checker()
    assert len(VECTORS_V2) >= 3
    for v in VECTORS_V2:
        seed = bytes.fromhex(v["seed_hex"])
        assert ref["commitment"](v["campaign"], v["index"], seed) == v["commitment"]
        got = ref["stream"](
            seed, v["campaign"], v["index"], v["client_nonce"], v["side"], len(v["stream"])
        )
        assert got == v["stream"]


def test_the_v2_worked_example_is_the_first_v2_vector() -> None:
    first = VECTORS_V2[0]
    text = DOC.read_text()
    section = text.split("## 2a. Version 2", 1)[1].split("## 3.", 1)[0]
    for value in (first["seed_hex"], first["commitment"], first["roll_seed_hex"]):
        assert value in section
    assert "**" + ", ".join(map(str, first["stream"][:6])) + "**" in section
    assert f"`{first['campaign']}`, index {first['index']}, the {first['side']}" in section
    # Every key of the public part is in its table, and the secret part's.
    for key in ("protocol", "owner", "side", "cg_date", "step", "roll"):
        assert f"| `{key}` |" in section
    for key in ("index", "commitment", "side", "secret", "protocol", "after_undo"):
        assert f'"{key}"' in section


def test_the_reference_checker_agrees_with_cgledger_verify_on_sealed_records() -> None:
    """Hand-built exports (tests/test_verify_sealed.py's Log: the server does
    not write sealed records on this branch yet) of v1 and v2 rolls."""
    from test_verify_sealed import ROLES, story

    check = _checker()["check_export"]
    log, _ = story()
    for role in ROLES:
        data = log.export(role)
        ours = verify_bytes(data)
        theirs = check(data)
        assert theirs["events"] == ours.events, role
        assert theirs["rolls"] == ours.rolls, role
        assert theirs["recomputed"] == ours.rolls_recomputed == 3, role
        assert theirs["hidden"] == ours.rolls_hidden == 1, role
        assert theirs["head"] == ours.head, role
        assert (theirs["sealed"], theirs["revealed"]) == (ours.sealed_records, 2), role


def _sealed_forgeries() -> dict[str, tuple[bytes, str]]:
    """Each forgery, and what the reference checker says of it."""
    from forge import parse, reseal
    from test_verify_sealed import BATCH, SEEDS, Log, story

    out: dict[str, tuple[bytes, str]] = {}
    log = Log()
    seq = log.sealed(rolls=BATCH, forge_dice=lambda d: [7 - x for x in d])
    log.reveal(seq)
    out["dice off the stream"] = (log.export(), "do not follow")
    log = Log()
    seq = log.sealed(rolls=BATCH)
    log.reveal(seq, seed=SEEDS[9].hex())
    out["another seed"] = (log.export(), "seed does not match")
    log = Log()
    seq = log.sealed(rolls=BATCH)
    part = json.loads(json.dumps(log.records[seq - 1]["secret"]))
    part["rgs"] = ["G9"]
    log.reveal(seq, sealed=part)
    out["another sealed part"] = (log.export(), "does not match its digest")
    log, at = story()
    header, events = parse(log.export())
    events[at["reveal_batch"] - 1]["payload"]["of_seq"] = at["public"]
    out["a reveal of the wrong event"] = (reseal(header, events), "wrong record")
    header, events = parse(log.export())
    for k in (at["batch"], at["reveal_batch"]):
        part = events[k - 1]["secret"] if k == at["batch"] else events[k - 1]["payload"]["sealed"]
        assert len(set(part["rolls"][0]["dice"])) == 2  # so that reversing changes them
        part["rolls"][0]["dice"].reverse()
    out["dice swapped, digest and chain recomputed"] = (reseal(header, events), "do not follow")
    log = Log()
    seq = log.sealed(rolls=BATCH)
    v1 = {"of_seq": seq, "of_owner": "German", "index": 0, "seed": SEEDS[0].hex()}
    log.append("SecretRevealed", "German", v1)
    out["a version 1 reveal"] = (log.export(), "version 1 reveal")
    return out


@pytest.mark.parametrize("name", sorted(_sealed_forgeries()))
def test_both_checkers_refuse_a_forged_sealed_record(name: str) -> None:
    data, says = _sealed_forgeries()[name]
    with pytest.raises(VerificationError):
        verify_bytes(data)
    with pytest.raises(ValueError, match=says):
        _checker()["check_export"](data)
