"""The dashboard's check of ``cgledger-dice/2`` (cgledger/web/static/proto.js)
in headless Debian chromium, with WebCrypto and with the bundled SHA-256/HMAC:
the v2 test vectors, a sealed record built from each vector (and the same
record with one die changed), whole exports of sealed records next to
``cgledger verify``, and the campaign page's *verify* button on a sealed
record, whose log is served from a hand-built one (the server does not write
sealed records on this branch yet).

Where chromium is missing these tests skip (under ``CI=true`` they fail), as
tests/test_browser.py's do.
"""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from forge import parse, reseal
from live import serving
from test_browser import CHROMIUM, Remote, _missing, open_page
from test_verify_sealed import BATCH, SEEDS, Log, story

from cgledger.domain.chain import secret_digest
from cgledger.domain.dice import SEALED
from cgledger.projections.eventlog import event_items
from cgledger.settings import Settings
from cgledger.verify import VerificationError, verify_bytes

VECTORS = [
    v
    for v in json.loads((Path(__file__).parent / "dice-vectors.json").read_text(encoding="utf-8"))
    if v.get("protocol") == SEALED
]
ENGINES = ["webcrypto", "plain"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        _missing("Debian's chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def server(module_settings: Settings) -> Iterator[str]:
    with serving(module_settings) as base:
        yield base


@pytest.fixture(scope="module")
def page(browser: Any, server: str) -> Iterator[Any]:
    """One page for the tests that only evaluate proto.js."""
    context = browser.new_context()
    try:
        yield open_page(context, server + "/")
    finally:
        context.close()


def _sealed_pair(v: dict[str, Any], tamper: int | None = None) -> tuple[Any, ...]:
    """A sealed record at the vector's index whose rolls (twenty DRs, a dr,
    the rest DRs) take the vector's stream, and its reveal; ``tamper`` changes
    that die and recomputes the digest, so only the stream can tell."""
    stream = list(v["stream"])
    if tamper is not None:
        stream[tamper] = stream[tamper] % 6 + 1  # one die off
    rolls, at = [], 0
    for count in [2] * 20 + [1] + [2] * ((len(stream) - 41) // 2) + [1] * ((len(stream) - 41) % 2):
        rolls.append({"purpose": f"roll {len(rolls)}", "table": None, "count": count,
                      "dice": stream[at : at + count]})  # fmt: skip
        at += count
    assert at == len(stream)
    part = {"kind": "DiceRolled", "rolls": rolls, "client_nonce": v["client_nonce"],
            "nonce_source": "client", "salt": "5a" * 16}  # fmt: skip
    roll = {"index": v["index"], "commitment": v["commitment"], "side": v["side"],
            "secret": True, "protocol": SEALED, "after_undo": None}  # fmt: skip
    record = {"seq": 7, "type": "RecordSealed", "secret_digest": secret_digest(part),
              "payload": {"protocol": SEALED, "owner": v["side"], "side": v["side"],
                          "cg_date": "19 PM", "step": None, "roll": roll}}  # fmt: skip
    reveal = {"seq": 9, "type": "SecretRevealed",
              "payload": {"of_seq": 7, "of_owner": v["side"], "protocol": SEALED,
                          "index": v["index"], "commitment": v["commitment"],
                          "seed": v["seed_hex"], "client_nonce": v["client_nonce"],
                          "sealed": part}}  # fmt: skip
    return v["campaign"], record, reveal


VERIFY = """async ([engine, cases]) => {
    const p = await import("/ui/proto.js");
    p.useEngine(engine);
    const out = [];
    for (const [campaign, record, reveal, published] of cases) {
        out.push(await p.verifySealed(campaign, record, reveal, published));
    }
    return out;
}"""


@pytest.mark.parametrize("engine", ENGINES)
def test_the_page_gives_the_v2_vectors(page: Any, engine: str) -> None:
    got = page.evaluate(
        """async ([vectors, engine]) => {
            const p = await import("/ui/proto.js");
            p.useEngine(engine);
            const out = [];
            for (const v of vectors) {
                const rs = await p.sealedRollSeed(v.seed_hex, v);
                out.push({commitment: await p.commitment(v.campaign, v.index, v.seed_hex),
                          roll_seed_hex: p.bytesToHex(rs),
                          stream: await p.sealedDice(v.seed_hex, v, v.stream.length)});
            }
            return out;
        }""",
        [VECTORS, engine],
    )
    assert len(got) == len(VECTORS) >= 3
    for vector, mine in zip(VECTORS, got, strict=True):
        assert mine == {k: vector[k] for k in ("commitment", "roll_seed_hex", "stream")}


@pytest.mark.parametrize("engine", ENGINES)
def test_the_page_verifies_a_sealed_record_from_each_vector_and_refuses_one_die_off(
    page: Any, engine: str
) -> None:
    tampered = (0, 1, 40, -1)
    cases = []
    for v in VECTORS:
        cases += [[*_sealed_pair(v), None], *([*_sealed_pair(v, k), None] for k in tampered)]
    got = iter(page.evaluate(VERIFY, [engine, cases]))
    for v in VECTORS:
        assert next(got) == {"ok": True, "problems": [], "recomputed": v["stream"]}
        for k in tampered:
            off = list(v["stream"])
            off[k] = off[k] % 6 + 1
            verdict = next(got)
            assert not verdict["ok"]
            assert verdict["problems"] == [
                f"the dice do not follow the stream: it gives [{', '.join(map(str, v['stream']))}]"
                f", the record says [{', '.join(map(str, off))}]"
            ]


def test_the_page_refuses_a_wrong_seed_part_or_record(page: Any) -> None:
    v = VECTORS[1]
    campaign, record, reveal = _sealed_pair(v)
    other_seed = copy.deepcopy(reveal)
    other_seed["payload"]["seed"] = VECTORS[0]["seed_hex"]
    other_part = copy.deepcopy(reveal)
    other_part["payload"]["sealed"]["salt"] = "00" * 16
    other_record = copy.deepcopy(reveal)
    other_record["payload"]["of_seq"] = 8
    other_index = copy.deepcopy(reveal)
    other_index["payload"]["index"] += 1
    owner = copy.deepcopy(reveal)
    owner["payload"]["of_owner"] = "US"
    late = {"c": v["commitment"], "seq": 8}
    cases = [
        [campaign, record, reveal, {"c": v["commitment"], "seq": 2}],
        [campaign, record, other_seed, None],
        [campaign, record, other_part, None],
        [campaign, record, other_record, None],
        [campaign, record, other_index, None],
        [campaign, record, owner, None],
        [campaign, record, reveal, late],
        [campaign, record, None, None],
    ]
    got = page.evaluate(VERIFY, ["webcrypto", cases])
    assert got[0]["ok"], got[0]
    expect = [
        "the seed does not open the commitment",
        "the revealed sealed part does not match the record's digest",
        "does not name event 7",
        "the reveal names another roll than the record's",
        "the owner",
        "published (event 8) after the roll (event 7)",
        "still sealed",
    ]
    for verdict, words in zip(got[1:], expect, strict=True):
        assert not verdict["ok"]
        assert words in "; ".join(verdict["problems"]), verdict


def _exports() -> dict[str, bytes]:
    log, at = story()
    cases = {f"genuine, as {role}": log.export(role) for role in ("US", "German", "referee")}
    forged = Log()
    seq = forged.sealed(rolls=BATCH, forge_dice=lambda d: [7 - x for x in d])
    forged.reveal(seq)
    cases["dice off the stream"] = forged.export()
    forged = Log()
    seq = forged.sealed(rolls=BATCH)
    forged.reveal(seq, seed=SEEDS[3].hex())
    cases["another seed"] = forged.export()

    def edit(change: Any) -> bytes:
        header, events = parse(log.export())
        change(header, events)
        return reseal(header, events)

    batch, reveal = at["batch"] - 1, at["reveal_batch"] - 1
    cases["a reveal of the wrong record"] = edit(
        lambda h, e: e[reveal]["payload"].update(of_seq=at["public"])
    )
    cases["a reveal of another sealed record"] = edit(
        lambda h, e: e[reveal]["payload"].update(of_seq=at["hidden"], of_owner="US")
    )
    cases["another sealed part"] = edit(
        lambda h, e: e[reveal]["payload"]["sealed"].update(rgs=["G7"])
    )
    cases["dice reversed, digest recomputed"] = edit(
        lambda h, e: [
            e[batch]["secret"]["rolls"][0]["dice"].reverse(),
            e[reveal]["payload"]["sealed"]["rolls"][0]["dice"].reverse(),
        ]
    )
    cases["no protocols in the header"] = edit(lambda h, e: h.pop("protocols"))
    cases["a count in public"] = edit(lambda h, e: e[batch]["payload"]["roll"].update(count=3))
    cases["a version 1 reveal"] = edit(lambda h, e: e[reveal]["payload"].pop("protocol"))
    return cases


def test_the_page_and_cgledger_verify_agree_on_sealed_exports(page: Any) -> None:
    cases = _exports()
    verdicts = page.evaluate(
        """async (cases) => {
            const p = await import("/ui/proto.js");
            const out = {};
            for (const [name, b64] of Object.entries(cases)) {
                const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
                out[name] = await p.verifyExport(bytes);
            }
            return out;
        }""",
        {name: base64.b64encode(data).decode() for name, data in cases.items()},
    )
    for name, data in cases.items():
        try:
            ours = verify_bytes(data)
        except VerificationError:
            ours = None
        page_says = verdicts[name]
        if name.startswith("genuine"):
            assert ours is not None, name
            assert page_says["ok"], (name, page_says)
            assert (page_says["sealed"], page_says["revealed"]) == (3, 2)
            assert (page_says["recomputed"], page_says["hidden"]) == (
                ours.rolls_recomputed,
                ours.rolls_hidden,
            )
        else:
            assert ours is None, f"cgledger verify accepts {name}"
            assert not page_says["ok"], f"the page accepts {name}"


# ------------------------------------------------------------------ the verify button


def _serve_log(page: Any, remote: Remote, log: Log, viewer: str) -> None:
    """Answer the page's GET .../events from ``log`` (as ``viewer`` may see
    it), with the API's filters: after, before, limit, type, actor, reverted."""
    items = event_items(log.records, viewer, lambda seq: seq in log.revealed)

    def answer(route: Any) -> None:
        q = {k: v[0] for k, v in parse_qs(urlsplit(route.request.url).query).items()}
        after, before = int(q.get("after", 0)), int(q.get("before", 10**9))
        found = [
            {**e, "reverted_by": None}
            for e in items
            if after < e["seq"] < before
            and (not q.get("type") or e["type"] in q["type"].split(","))
            and (not q.get("actor") or e["actor"] == q["actor"])
        ][: int(q.get("limit", 100))]
        route.fulfill(json={"items": found, "version": len(items), "next_after": None})

    def whole_page(route: Any) -> None:
        # GET /page carries the log's window too (DESIGN §12 Cost): the same log.
        q = {k: v[0] for k, v in parse_qs(urlsplit(route.request.url).query).items()}
        real = route.fetch().json()
        after = int(q.get("log_after", max(0, real["version"] - 50)))
        found = [{**e, "reverted_by": None} for e in items if e["seq"] > after]
        events = {"items": found, "version": real["version"], "next_after": None}
        route.fulfill(json={**real, "events": events})

    page.route(f"**/v1/campaigns/{remote.id}/events?*", answer)
    page.route(f"**/v1/campaigns/{remote.id}/page*", whole_page)


def _button(browser: Any, server: str, log_of: Any) -> tuple[Any, Remote, Log, dict[str, int]]:
    remote = Remote(server)
    log, at = log_of(remote.id)
    for k in range(len(log.records)):  # the page shows the log up to the campaign's version
        remote.post("US", "/rolls", {"dice": 1, "purpose": f"r{k}"})
    context = browser.new_context()
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    _serve_log(page, remote, log, "US")
    page.goto(remote.link("US"))
    page.wait_for_selector("body[data-ready=true]", timeout=20_000)
    page.wait_for_selector(f"#log li[data-seq='{at['batch']}'] button.verify")
    return page, remote, log, at


def _click(page: Any, seq: int, kind: str) -> str:
    row = f"#log li[data-seq='{seq}']"
    page.locator(f"{row} button.verify").click()
    # "checking…" is an info verdict too: wait for the verdict the check ends on.
    page.wait_for_function(
        """([sel, kind]) => { const e = document.querySelector(sel);
          return Boolean(e) && e.classList.contains(kind)
            && !e.textContent.startsWith("checking"); }""",
        arg=[f"{row} .verdict", kind],
    )
    text: str = page.inner_text(f"{row} .verdict")
    return text


def test_the_verify_button_checks_a_sealed_record_from_its_stream(
    browser: Any, server: str, tmp_path: Path
) -> None:
    def genuine(cid: str) -> tuple[Log, dict[str, int]]:
        log = Log(cid)
        at = {"public": log.public_roll()}
        at["batch"] = log.sealed(rolls=BATCH)
        at["purchase"] = log.sealed(with_roll=False, fields={"kind": "RGPurchased"})
        at["hidden"] = log.sealed(rolls=(("free DR", None, 2),), nonce="x")
        at["reveal"] = log.reveal(at["batch"])
        log.reveal(at["purchase"])
        return log, at

    page, remote, log, at = _button(browser, server, genuine)
    try:
        text = _click(page, at["batch"], "ok")
        dice = [d for r in log.records[at["batch"] - 1]["secret"]["rolls"] for d in r["dice"]]
        assert text.startswith("✓ verified (revealed at event")
        assert f"gives [{', '.join(map(str, dice))}]" in text
        assert "drew no dice" in _click(page, at["purchase"], "ok")
        assert "sealed: it can be checked once revealed" in _click(page, at["hidden"], "info")
        assert page.errors == []
        page.screenshot(path=str(tmp_path / "sealed-verify.png"), full_page=True)
    finally:
        page.context.close()
        remote.close()


def test_the_verify_button_refuses_dice_that_do_not_follow_the_stream(
    browser: Any, server: str
) -> None:
    def forged(cid: str) -> tuple[Log, dict[str, int]]:
        log = Log(cid)
        at = {"batch": log.sealed(rolls=BATCH, forge_dice=lambda d: [7 - x for x in d])}
        log.reveal(at["batch"])
        return log, at

    page, remote, _, at = _button(browser, server, forged)
    try:
        text = _click(page, at["batch"], "error")
        assert text.startswith("✗ the dice do not follow the stream")
        # An answer edited in flight (the sealed part's salt): the digest tells.
        page.unroute(f"**/v1/campaigns/{remote.id}/events?*")
        page.unroute(f"**/v1/campaigns/{remote.id}/page*")
        log, at = forged(remote.id)
        log.records[at["batch"] - 1 + 1]["payload"]["sealed"]["salt"] = "0" * 32
        _serve_log(page, remote, log, "US")
        text = _click(page, at["batch"], "error")
        assert "does not match the record's digest" in text
    finally:
        page.context.close()
        remote.close()
