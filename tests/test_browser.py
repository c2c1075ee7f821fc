"""The dashboard in a real browser (DESIGN §12): headless Debian chromium,
driven by Playwright, against a live server on SQLite and on PostgreSQL.

What a player would check: the page's dice protocol gives the published test
vectors; the landing page creates a campaign and shows its tokens; the roster
on the page is the API's; the opponent's page never receives a secret; verify
shows ✓ for a real roll and ✗ for an edited one (a roll or a whole export);
the page follows the live feed; the actions work; it fits a phone.

Where chromium is missing these tests skip and say why (``ops/test`` installs
it where it may); under ``CI=true`` they fail instead, because CI must run them.
Screenshots land in ``pytest``'s temporary directory for a human to look at.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from live import serving

from cgledger.settings import Settings

CHROMIUM = shutil.which("chromium")
#: cgledger-dice/1's vectors: an entry of another version names it in ``protocol``
#: (cgledger-dice/2's are tested in test_verify_browser.py).
VECTORS = [
    v
    for v in json.loads((Path(__file__).parent / "dice-vectors.json").read_text(encoding="utf-8"))
    if "protocol" not in v
]
ROLES = ("US", "German", "referee")
KGP = {"ruleset": "kgp", "campaign": "CG I", "title": "browser", "initial_cpp": {"German": 8}}


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests: {reason}")
    pytest.skip(f"{reason}; `ops/test` installs it as root (apt-get install -y chromium)")


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
    """A live server on the module's settings: SQLite, and PostgreSQL too for
    the tests marked ``store`` (conftest.py)."""
    with serving(module_settings) as base:
        yield base


class Remote:
    """A campaign made over HTTP, to set the scene the pages then show."""

    def __init__(self, base: str, body: dict[str, Any] = KGP) -> None:
        self.http = httpx.Client(base_url=base, timeout=15)
        made = self.http.post("/v1/campaigns", json=body)
        assert made.status_code == 201, made.text
        self.created = made.json()
        self.id: str = self.created["id"]
        self.url = f"/v1/campaigns/{self.id}"
        self.base = base

    def h(self, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.created['tokens'][role]}"}

    def get(self, role: str, path: str = "") -> Any:
        r = self.http.get(self.url + path, headers=self.h(role))
        assert r.status_code == 200, r.text
        return r.json()

    def post(self, role: str, path: str, body: Any = None) -> Any:
        r = self.http.post(
            self.url + path, json=body if body is not None else {}, headers=self.h(role)
        )
        assert r.status_code in (200, 201), r.text
        return r.json()

    def advance(self, side: str, to: str) -> None:
        """``side`` completes its steps up to ``to``, making on the way each
        action a step requires (the 409 names its path), as conftest's Game does."""
        for _ in range(30):
            r = self.http.post(self.url + "/reph/advance", json={"to": to}, headers=self.h(side))
            if r.status_code == 201:
                return
            assert r.status_code == 409, r.text
            needed = re.search(r"\(POST /v1/campaigns/[^/]+/([^)]+)\)", r.json()["detail"])
            assert needed is not None, r.text
            self.post(side, "/" + needed.group(1))
        raise AssertionError(f"{side} could not reach {to}")

    def next_date(self) -> None:
        """The Initial Scenario played to its end (no CVP), then New CG Date."""
        for side in ("US", "German"):
            self.advance(side, "scenario")
        self.post("referee", "/scenario-end", {"cvp": {"US": 0, "German": 0}})
        self.post("referee", "/cg-dates")

    def link(self, role: str) -> str:
        return f"{self.base}/c/{self.id}#token={self.created['tokens'][role]}"

    def close(self) -> None:
        self.http.close()


@pytest.fixture
def browser_context(browser: Any) -> Iterator[Any]:
    """A fresh browser profile per test; closing it closes every page (and
    its live feed) even when the test fails."""
    context = browser.new_context()
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def remote(server: str) -> Iterator[Remote]:
    game = Remote(server)
    try:
        yield game
    finally:
        game.close()


def open_page(context: Any, url: str, *, phone: bool = False) -> Any:
    page = context.new_page()
    if phone:
        page.set_viewport_size({"width": 390, "height": 844})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]", timeout=20_000)
    return page


def settle(page: Any, version: int) -> None:
    """Wait until the page shows the campaign at ``version`` (it refreshes on the feed)."""
    page.wait_for_function(
        "v => Number(document.body.dataset.version) >= v", arg=version, timeout=20_000
    )


def verdict(page: Any, seq: int) -> str:
    """The verify verdict of log row ``seq`` once the check is done ("checking…"
    is an ``info`` status too)."""
    sel = f"li[data-seq='{seq}'] .verdict"
    page.wait_for_function(
        "s => { const t = document.querySelector(s)?.textContent; return t && t !== 'checking…'; }",
        arg=sel,
        timeout=20_000,
    )
    text: str = page.inner_text(sel)
    return text


def shot(page: Any, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 1000


# ------------------------------------------------------------------ the protocol


@pytest.mark.parametrize("engine", ["webcrypto", "plain"])
def test_the_page_dice_protocol_gives_the_published_vectors(
    browser_context: Any, server: str, engine: str
) -> None:
    """Both ways the page hashes: WebCrypto (https, localhost) and the bundled
    SHA-256/HMAC it falls back to where the browser offers no WebCrypto."""
    page = open_page(browser_context, server + "/")
    got = page.evaluate(
        """async ([vectors, engine]) => {
            const p = await import("/ui/proto.js");
            p.useEngine(engine);
            const out = [];
            for (const v of vectors) {
                const rs = await p.rollSeed(v.seed_hex, {campaign: v.campaign,
                    client_nonce: v.client_nonce, dice: v.dice, index: v.index,
                    purpose: v.purpose, side: v.side});
                out.push({commitment: await p.commitment(v.campaign, v.index, v.seed_hex),
                          roll_seed_hex: p.bytesToHex(rs), result: await p.diceFrom(rs, v.dice)});
            }
            return out;
        }""",
        [VECTORS, engine],
    )
    assert len(got) == len(VECTORS) > 0
    for vector, mine in zip(VECTORS, got, strict=True):
        assert mine == {k: vector[k] for k in ("commitment", "roll_seed_hex", "result")}, vector
    page.close()


def test_the_page_canon_is_the_servers(browser_context: Any, server: str) -> None:
    from cgledger.domain.dice import canon

    samples = [
        {"b": [1, 'ü\n\t"\\'], "a": None, "c": {"z": True, "y": False}},
        {"purpose": "Escape\u0001 \u2028 ☃ 𝄞", "index": 12},
        ["", 0, -7, {"Z": 1, "a": 2, "é": 3}],
    ]
    page = open_page(browser_context, server + "/")
    got = page.evaluate(
        """async (xs) => { const p = await import("/ui/proto.js");
             return xs.map((x) => Array.from(p.canon(x))); }""",
        samples,
    )
    assert [bytes(g) for g in got] == [canon(x) for x in samples]
    page.close()


# ------------------------------------------------------------------ the landing page


def test_the_landing_page_creates_a_campaign_and_shows_its_tokens_once(
    browser_context: Any, server: str, tmp_path: Path
) -> None:
    page = open_page(browser_context, server + "/")
    page.select_option("#ruleset", "kgp")
    page.select_option("#campaign", "CG II")
    page.fill("#title", "Anna vs. Tom")
    page.click("#create-button")
    page.wait_for_selector("#token-list li")
    assert "shown this once" in page.text_content("#token-warning")
    links = {
        li.get_attribute("data-role"): li.query_selector("a").get_attribute("href")
        for li in page.query_selector_all("#token-list li")
    }
    assert set(links) == set(ROLES)
    shot(page, tmp_path, "landing")
    found = re.fullmatch(re.escape(server) + r"/c/([0-9a-f-]+)#token=(cgl_[\w-]+)", links["US"])
    assert found is not None, links["US"]
    cid, token = found.groups()
    r = httpx.get(f"{server}/v1/campaigns/{cid}", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    assert (r.json()["you"], r.json()["campaign"], r.json()["title"]) == (
        "US",
        "CG II",
        "Anna vs. Tom",
    )
    # Reloading the landing page shows no token again: the server keeps only hashes.
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.query_selector_all("#token-list li") == []
    assert token not in page.content()
    page.close()


def test_a_bad_definition_file_is_refused_with_the_reason(
    browser_context: Any, server: str, tmp_path: Path
) -> None:
    bad = tmp_path / "def.json"
    bad.write_text('{"rg_chart": "not a chart"}', encoding="utf-8")
    page = open_page(browser_context, server + "/")
    page.check("input[name=definition][value=file]")
    page.set_input_files("#definition-file", str(bad))
    page.click("#create-button")
    page.wait_for_selector("#create-status.error")
    assert "rg_chart" in page.text_content("#create-status")
    assert page.query_selector_all("#token-list li") == []
    page.close()


# ------------------------------------------------------------------ what the pages show


def cell_text(value: Any) -> str:
    """How the page prints a roster value (campaign.js ``fmt``)."""
    if value is None or value == [] or value == {}:
        return "–"
    if isinstance(value, list):
        return ", ".join(cell_text(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {cell_text(v)}" for k, v in value.items())
    return str(value).lower() if isinstance(value, bool) else str(value)


def paper_text(col: dict[str, Any], item: dict[str, Any]) -> str:
    """How the page writes a field on its paper form (forms.js ``cell``): by
    the column's ``kind`` ("I1 (4), HW1 (3)" for the RG Purchased), or
    "hidden" where the API names the column in the item's ``hidden``."""
    key, kind = col["key"], col["kind"]
    value = item.get(key)
    if value is None:
        text = "–"
    elif kind == "rg_list":
        text = ", ".join(f"{p['rg']} ({p['cpp']})" for p in value) or "–"
    elif kind == "pieces":
        text = ", ".join(p["name"] + ("" if p["received"] else " (forfeit)") for p in value) or "–"
    elif kind == "fortifications":
        text = ", ".join(f"{t} ×{n}" for t, n in value.items()) or "–"
    elif kind == "list":
        text = "; ".join(value) or "–"
    else:
        text = cell_text(value)
    if key in (item.get("hidden") or []) or (key == "needs" and value is None):
        return f"{text} + hidden" if kind == "rg_list" and value else "hidden"
    return text


def paper_lines(view: dict[str, Any], items: str) -> list[dict[str, str]]:
    """The cells the page shows for each of ``view[items]`` (a roster's lines,
    a record's rows other than stubs), by column."""
    cols = view["paper"]["columns"]
    return [
        {c["key"]: paper_text(c, item) for c in cols}
        for item in view[items]
        if not item.get("redacted")
    ]


def page_roster(page: Any, side: str) -> list[dict[str, str]]:
    return page.evaluate(
        """(side) => [...document.querySelectorAll(`.roster[data-side="${side}"] tbody tr`)].map(
             (tr) => Object.fromEntries([...tr.querySelectorAll("td")].map(
               (td) => [td.dataset.col, td.textContent])))""",
        side,
    )


def test_the_rosters_on_the_page_are_the_apis(
    browser_context: Any, remote: Remote, tmp_path: Path
) -> None:
    remote.post("German", "/rg-purchases", {"rg": "I1", "map_group": "Sx"})
    remote.post("US", "/rolls", {"dice": 2, "purpose": "public roll"})
    for role in ("German", "US"):
        page = open_page(browser_context, remote.link(role))
        settle(page, remote.get("referee")["version"])
        for side in ("US", "German"):
            # The page draws the paper CG Roster's columns (8.6162, 8.619,
            # 8.622, 8.621, 8.6032): the API names them in ``paper``.
            view = remote.get(role, f"/roster?side={side}")
            want = paper_lines(view, "lines")
            assert page_roster(page, side) == want, (role, side)
        shot(page, tmp_path, f"roster-{role}")
        page.close()
    # The U.S. page shows the German's secret purchase as hidden, never as I1.
    page = open_page(browser_context, remote.link("US"))
    german = page_roster(page, "German")
    assert german[0]["rg_purchased"] == "hidden"
    assert "I1" not in page.inner_text(".roster[data-side=German]")
    page.close()


@pytest.mark.store
def test_the_opponents_page_never_receives_a_secret(
    browser_context: Any, remote: Remote, tmp_path: Path
) -> None:
    remote.post("German", "/rg-purchases", {"rg": "I1", "map_group": "Sx"})
    secret_roll = remote.post("German", "/rolls", {"dice": 2, "purpose": "sneaky", "secret": True})
    # Every secret part holds a random salt: a canary that shows wherever it leaks.
    records = remote.get("referee", "/events?limit=500")["items"]
    canaries = [r["secret"]["salt"] for r in records if r["secret"]]
    assert len(canaries) >= 2
    seen: list[str] = []

    def keep(response: Any) -> None:
        try:
            seen.append(response.text())
        except Exception:  # a redirect or an aborted stream has no body
            seen.append("")

    page = browser_context.new_page()
    page.on("response", keep)
    page.goto(remote.link("US"))
    page.wait_for_selector("body[data-ready=true]", timeout=20_000)
    settle(page, secret_roll["seq"])
    page.locator(f"li[data-seq='{secret_roll['seq']}'] button.verify").click()
    assert verdict(page, secret_roll["seq"]).startswith("⧗ sealed: it can be checked once revealed")
    page.click("#export-this")
    page.wait_for_selector("#export-result.ok")
    shot(page, tmp_path, "us-page")
    text = page.content() + "\n".join(seen)
    assert seen, "the page made no requests?"
    for canary in canaries:
        assert canary not in text
    # A sealed record (cgledger-dice/2): not even what the roll was for.
    assert "sneaky" not in text
    stub = page.inner_text(f"li[data-seq='{secret_roll['seq']}']")
    assert "RecordSealed" in stub
    assert "[sealed]" in stub
    page.close()
    # The German's own page does get them: the canary test can fail.
    page = open_page(browser_context, remote.link("German"))
    page.locator(f"li[data-seq='{secret_roll['seq']}'] button.verify").click()
    assert verdict(page, secret_roll["seq"]).startswith("⧗ sealed: it can be checked once revealed")
    own = page.inner_text(f"li[data-seq='{secret_roll['seq']}']")
    assert "[sealed]" not in own
    assert f"[{', '.join(map(str, secret_roll['dice']))}]" in own
    assert "sneaky" in own
    page.close()


# ------------------------------------------------------------------ verify


def test_verify_shows_a_tick_for_a_real_roll_and_a_cross_for_an_edited_one(
    browser_context: Any, remote: Remote
) -> None:
    roll = remote.post("US", "/rolls", {"dice": 2, "purpose": "to verify"})
    page = open_page(browser_context, remote.link("German"))
    row = f"li[data-seq='{roll['seq']}']"
    page.locator(f"{row} button.verify").click()
    page.wait_for_selector(f"{row} .verdict.ok")
    assert page.inner_text(f"{row} .verdict").startswith("✓")
    assert str(roll["dice"]).replace(" ", "") in page.inner_text(f"{row} .verdict").replace(" ", "")

    # The server (or a man in the middle) says other dice: the page recomputes and refuses.
    def edited(route: Any) -> None:
        body = route.fetch().json()
        body["dice"] = [7 - d for d in body["dice"]]
        route.fulfill(json=body)

    page.route(f"**/v1/campaigns/{remote.id}/rolls/{roll['index']}", edited)
    page.locator(f"{row} button.verify").click()
    page.wait_for_selector(f"{row} .verdict.error")
    assert page.inner_text(f"{row} .verdict").startswith("✗")
    page.unroute(f"**/v1/campaigns/{remote.id}/rolls/{roll['index']}")

    # A seed that opens a different commitment than the one published.
    def reseeded(route: Any) -> None:
        body = route.fetch().json()
        body["seed"] = "00" * 32
        route.fulfill(json=body)

    page.route(f"**/v1/campaigns/{remote.id}/rolls/{roll['index']}", reseeded)
    page.locator(f"{row} button.verify").click()
    page.wait_for_selector(f"{row} .verdict.error")
    assert "does not open the commitment" in page.inner_text(f"{row} .verdict")
    page.close()


def test_an_export_dropped_on_the_page_is_checked(
    browser_context: Any, remote: Remote, tmp_path: Path
) -> None:
    roll = remote.post("US", "/rolls", {"dice": 2, "purpose": "exported"})
    remote.post("German", "/rolls", {"dice": 1, "purpose": "hidden", "secret": True})
    data = remote.http.get(remote.url + "/export", headers=remote.h("US")).content
    good = tmp_path / "good.jsonl"
    good.write_bytes(data)
    page = open_page(browser_context, remote.link("US"))
    page.set_input_files("#export-file", str(good))
    page.wait_for_selector("#export-result.ok")
    verdict = page.inner_text("#export-result")
    assert verdict.startswith("✓")
    assert "2 rolls, 1 recomputed from their seeds, 1 with the seed still secret" in verdict

    # Edit the public roll's dice: the hash chain breaks at that event.
    lines = data.split(b"\n")
    line = json.loads(lines[roll["seq"]])
    line["payload"]["roll"]["dice"] = [7 - d for d in line["payload"]["roll"]["dice"]]
    from cgledger.domain.dice import canon

    lines[roll["seq"]] = canon(line)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(lines))
    page.set_input_files("#export-file", str(bad))
    page.wait_for_selector("#export-result.error")
    verdict = page.inner_text("#export-result")
    assert verdict.startswith("✗ bad.jsonl of campaign")
    assert f"(this one) as US sees it: event {roll['seq']}: hash does not match" in verdict
    page.close()


# ------------------------------------------------------------------ live, actions, phone


@pytest.mark.store
def test_two_windows_follow_each_other_live(
    browser_context: Any, remote: Remote, tmp_path: Path
) -> None:
    us = open_page(browser_context, remote.link("US"))
    german = open_page(browser_context, remote.link("German"))
    assert us.inner_text("#live") == "live"
    german.fill("#free-purpose", "Escape of 4-6-7 in B3")
    german.click("#free-form button")
    german.wait_for_selector("#roll-result.ok")
    seq = remote.get("referee")["version"]
    # The U.S. window shows the German's roll without a reload.
    us.wait_for_selector(f"li[data-seq='{seq}']", timeout=20_000)
    assert "Escape of 4-6-7 in B3" in us.inner_text(f"li[data-seq='{seq}']")
    # The German completes a step; the U.S. window's RePh card follows.
    german.locator("#reph tr[data-side=German] button.advance").click()
    settle(us, seq + 1)
    us.wait_for_function(
        "() => document.querySelector('#reph tr[data-side=German] td.step')"
        ".textContent.startsWith('8.620')"
    )
    shot(us, tmp_path, "live-us")
    assert us.errors == []
    assert german.errors == []
    us.close()
    german.close()


#: The forms under an event's "dispute / undo" (campaign.js ``eventRow``).
DISPUTE, UNDO = 1, 2


def on_event(page: Any, seq: int, form: int, text: str) -> None:
    """Open event ``seq``'s "dispute / undo" and send its ``form`` with ``text``."""
    row = f"li[data-seq='{seq}']"
    page.click(f"{row} details summary")
    page.fill(f"{row} form:nth-of-type({form}) input", text)
    page.click(f"{row} form:nth-of-type({form}) button")


@pytest.mark.store
def test_undo_and_dispute_from_the_pages(browser_context: Any, remote: Remote) -> None:
    roll = remote.post("US", "/rolls", {"dice": 2, "purpose": "mistaken roll"})
    us = open_page(browser_context, remote.link("US"))
    row = f"li[data-seq='{roll['seq']}']"
    on_event(us, roll["seq"], UNDO, "rolled for the wrong unit")
    us.wait_for_selector("#requests li[data-undo]")
    german = open_page(browser_context, remote.link("German"))
    german.click("#requests li[data-undo][data-status=pending] button:text('approve')")
    german.wait_for_selector("#requests li[data-undo]:not([data-status=pending])")
    us.wait_for_selector(f"{row}.reverted", timeout=20_000)
    # A dispute, resolved by the referee.
    other = remote.post("US", "/rolls", {"dice": 2, "purpose": "disputed roll"})
    german.wait_for_selector(f"li[data-seq='{other['seq']}']", timeout=20_000)
    on_event(german, other["seq"], DISPUTE, "that was my DR, not his")
    german.wait_for_selector("#requests li[data-dispute][data-status=open]")
    referee = open_page(browser_context, remote.link("referee"))
    referee.fill("#requests li[data-dispute] input[name=note]", "the roll stands")
    referee.click("#requests li[data-dispute] button")
    referee.wait_for_selector("#requests li[data-dispute][data-status=upheld]")
    (dispute,) = remote.get("US", "/disputes")["items"]
    assert (dispute["status"], dispute["resolution"]["decision"]) == ("upheld", "uphold")
    for page in (us, german, referee):
        page.close()


def _c1(remote: Remote) -> str | None:
    """Who Controls C1 of Sx, as the API says (the sample's C1 starts German)."""
    (group,) = remote.get("referee", "/control?map_group=Sx")["map_groups"]
    side: str | None = {x["hex"]: x["side"] for x in group["locations"]}.get("C1")
    return side


@pytest.mark.store
def test_control_proposed_on_one_page_is_approved_on_the_other(
    browser_context: Any, remote: Remote, tmp_path: Path
) -> None:
    """DESIGN §12, §13: the U.S. proposes Control of C1 from its page; it
    changes nothing (the API, both maps) until the German approves it from
    his page's Proposals; then both pages' maps show it."""
    us = open_page(browser_context, remote.link("US"))
    german = open_page(browser_context, remote.link("German"))
    hexes = "#map svg.setup-map g[data-hex=C1]"
    for page in (us, german):
        page.wait_for_selector(hexes)
    before = us.get_attribute(hexes, "data-status")
    assert _c1(remote) == "German"
    us.fill("#control-form input[name=hexes]", "C1")
    us.select_option("#control-form select[name=side]", "US")
    us.click("#control-form button[type=submit]")
    us.wait_for_selector("#control-status.ok, #control-status.error")
    assert "proposed" in us.inner_text("#control-status"), us.inner_text("#control-status")
    (proposal,) = remote.get("German", "/proposals?status=pending")["items"]
    assert (proposal["kind"], proposal["by"]) == ("control", "US")
    pending = f"#requests li[data-proposal='{proposal['seq']}'][data-status=pending]"
    # The proposer may withdraw it; the opponent approves or rejects it.
    us.wait_for_selector(pending)
    assert us.locator(f"{pending} button").all_inner_texts() == ["withdraw"]
    german.wait_for_selector(pending, timeout=20_000)
    assert german.locator(f"{pending} button").all_inner_texts() == ["approve", "reject"]
    assert "C1 → US" in german.inner_text(pending)
    # Pending, it changed nothing: not the Control, not either map.
    assert _c1(remote) == "German"
    settle(german, proposal["seq"])
    for page in (us, german):
        assert page.get_attribute(hexes, "data-status") == before
    german.click(f"{pending} button.approve")
    german.wait_for_selector(
        f"#requests li[data-proposal='{proposal['seq']}'][data-status=applied]"
    )
    assert _c1(remote) == "US"
    version = remote.get("referee")["version"]
    for page in (us, german):
        settle(page, version)
        page.wait_for_function(
            "([sel, was]) => document.querySelector(sel).getAttribute('data-status') !== was",
            arg=[hexes, before],
            timeout=20_000,
        )
    shot(us, tmp_path, "control-approved")
    assert us.errors == []
    assert german.errors == []
    us.close()
    german.close()


def test_a_table_roll_with_its_own_drms(browser_context: Any, remote: Remote) -> None:
    remote.next_date()
    remote.advance("US", "8.613")
    page = open_page(browser_context, remote.link("US"))
    page.select_option("#roll-table", "kgp:8.613")
    page.check("[data-drm='road']")
    page.fill("[data-drm='uncontrolled-hexes']", "2")
    page.click("#roll-form button[type=submit]")
    page.wait_for_selector("#roll-result.ok, #roll-result.error")
    result = page.inner_text("#roll-result")
    assert "error" not in page.get_attribute("#roll-result", "class"), result
    found = re.search(r"event (\d+)", result)
    assert found is not None, result
    seq = int(found.group(1))
    (item,) = remote.get("US", f"/events?after={seq - 1}&limit=1")["items"]
    seen = {**item["payload"], **(item["secret"] or {})}  # 8.613 is a Secret DR: the owner's
    applied = {d["id"]: d for d in seen["drm"]}
    assert set(applied) == {"road", "uncontrolled-hexes"}
    assert applied["uncontrolled-hexes"]["count"] == 2
    assert f"Final {seen['final']}" in result
    page.close()


def test_the_setup_area_map_and_its_time_slider(browser_context: Any, remote: Remote) -> None:
    page = open_page(browser_context, remote.link("German"))
    page.wait_for_selector("#map svg.setup-map")
    assert page.get_attribute("#map svg.setup-map", "data-map-group") == "Sx"
    assert page.locator("#map svg.setup-map").get_attribute("aria-label").endswith("live")
    page.select_option("#map-group", "Sy")
    page.wait_for_selector("#map svg.setup-map[data-map-group=Sy]")
    page.fill("#map-at", "1")
    page.dispatch_event("#map-at", "input")
    page.wait_for_function(
        "() => !document.querySelector('#map svg.setup-map')"
        ".getAttribute('aria-label').endsWith('live')"
    )
    assert page.inner_text("#map-at-label") == "seq 1"
    page.close()


def test_it_fits_a_phone(browser_context: Any, remote: Remote, tmp_path: Path) -> None:
    page = open_page(browser_context, remote.link("US"), phone=True)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than a phone"
    for card in ("#reph", "#rosters", "#map", "#log"):
        box = page.locator(card).bounding_box()
        assert box is not None
        assert box["width"] <= 390
    shot(page, tmp_path, "phone")
    page.close()


def test_the_pages_load_nothing_from_elsewhere(browser_context: Any, remote: Remote) -> None:
    urls: list[str] = []
    page = browser_context.new_page()
    page.on("request", lambda r: urls.append(r.url))
    page.goto(remote.link("US"))
    page.wait_for_selector("body[data-ready=true]", timeout=20_000)
    page.goto(remote.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    assert urls
    assert all(u.startswith((remote.base + "/", "data:")) for u in urls), urls
    # The token never travels in a URL: only in the fragment and the Authorization header.
    token = remote.created["tokens"]["US"]
    assert not any(token in u for u in urls)
    page.close()


def test_a_cg_date_played_in_two_windows_updates_both_live(
    browser_context: Any, remote: Remote, tmp_path: Path
) -> None:
    """The issue's walk: each side completes its RePh on its own page, the
    scenario is ended with its CVP, the referee begins the next CG Date; the
    other window's LVP chart, CG Date and map follow without a reload."""
    us = open_page(browser_context, remote.link("US"))
    german = open_page(browser_context, remote.link("German"))
    for page, side in ((us, "US"), (german, "German")):
        # Pressed again where it stopped before a purchase step with nothing
        # bought (the German's 8.619: he has CPP), it passes that step.
        done = f"#reph tr[data-side={side}] td.step:text('all steps done')"
        for _ in range(3):
            page.click(f"#reph tr[data-side={side}] button[data-to=scenario]")
            page.wait_for_function(
                "s => document.querySelector(s).matches('.ok, .error')", arg=f"#reph-stop-{side}"
            )
            if page.locator(done).count():
                break
        page.wait_for_selector(done)
    us.wait_for_selector("#scenario-end", timeout=20_000)
    referee = open_page(browser_context, remote.link("referee"))
    referee.fill("#scenario-end input[name=cvp-US]", "3")
    referee.fill("#scenario-end input[name=cvp-German]", "1")
    referee.click("#scenario-end button")
    referee.wait_for_selector("#new-date", timeout=20_000)
    # The U.S. window draws the LVP of the scenario end it did not make.
    rows = remote.get("US", "/lvp")["rows"]
    assert rows
    us.wait_for_selector("#lvp svg.chart circle[data-side=US]", timeout=20_000)
    drawn = us.get_attribute("#lvp svg.chart circle[data-side=US]", "data-value")
    assert drawn == str(rows[-1]["cg_lvp"]["US"])
    referee.click("#new-date")
    for page in (us, german):
        page.wait_for_function(
            "() => document.getElementById('cg-date').textContent === '19 PM'", timeout=20_000
        )
        page.wait_for_function(
            "() => (document.querySelector('#map svg.setup-map')?.getAttribute('aria-label')"
            " || '').includes('CG Date 19 PM')",
            timeout=20_000,
        )
    assert remote.get("US")["cg_date"] == "19 PM"
    shot(us, tmp_path, "after-date-us")
    assert us.errors == []
    assert german.errors == []


# ------------------------------------------------------------------ review fixes


@pytest.mark.store
def test_a_lost_answer_clicked_again_rolls_once_with_the_pages_own_nonce(
    browser_context: Any, remote: Remote
) -> None:
    """The server rolled, the answer was lost, the player clicks again: the
    second click repeats the request (same Idempotency-Key, same client nonce),
    so the log holds one roll, made with the page's nonce (DESIGN §2)."""
    page = open_page(browser_context, remote.link("US"))
    sent: list[dict[str, Any]] = []

    def lose_first(route: Any) -> None:
        request = route.request
        sent.append({"key": request.headers["idempotency-key"], "body": request.post_data_json})
        if len(sent) == 1:
            route.fetch()  # the server makes the roll ...
            route.abort("connectionreset")  # ... and the answer never arrives
        else:
            route.continue_()

    page.route(f"**/v1/campaigns/{remote.id}/rolls", lose_first)
    page.fill("#free-purpose", "Escape of 4-6-7 in B3")
    page.click("#free-form button")
    page.wait_for_selector("#roll-result.error")
    assert "cannot roll twice" in page.inner_text("#roll-result")
    page.click("#free-form button")
    page.wait_for_selector("#roll-result.ok")
    assert len(sent) == 2
    assert sent[0] == sent[1]
    nonce = sent[0]["body"]["client_nonce"]
    assert re.fullmatch(r"[0-9a-f]{32}", nonce)
    rolled = remote.get("referee", "/events?type=DiceRolled")["items"]
    assert len(rolled) == 1
    roll = rolled[0]["payload"]["roll"]
    assert (roll["client_nonce"], roll["nonce_source"]) == (nonce, "client")
    # A new click with a new purpose is a new roll.
    page.fill("#free-purpose", "another")
    page.click("#free-form button")
    page.wait_for_function(
        "() => document.getElementById('roll-result').textContent.includes('roll 1')"
    )
    assert len(remote.get("referee", "/events?type=DiceRolled")["items"]) == 2
    page.close()


def test_verify_refuses_a_commitment_published_after_the_roll(
    browser_context: Any, remote: Remote
) -> None:
    roll = remote.post("US", "/rolls", {"dice": 2, "purpose": "late commitment"})
    page = open_page(browser_context, remote.link("German"))

    def later(route: Any) -> None:
        body = route.fetch().json()
        for item in body["items"]:
            item["seq"] = 10_000
        route.fulfill(json=body)

    page.route("**/events?*type=CommitmentsPublished*", later)
    row = f"li[data-seq='{roll['seq']}']"
    page.locator(f"{row} button.verify").click()
    page.wait_for_selector(f"{row} .verdict.error")
    assert "after the roll" in page.inner_text(f"{row} .verdict")
    page.close()


def test_the_token_leaves_the_address_bar_and_a_new_link_takes_over(
    browser_context: Any, remote: Remote
) -> None:
    page = open_page(browser_context, remote.link("US"))
    assert "#" not in page.url
    assert remote.created["tokens"]["US"] not in page.url
    page.reload()  # the tab keeps its token
    page.wait_for_selector("body[data-ready=true]")
    assert page.inner_text("#role") == "you: US"
    page.goto(remote.link("German"))  # another link pasted into the same tab
    page.wait_for_function("() => document.getElementById('role').textContent === 'you: German'")
    page.close()


def test_the_page_works_over_plain_http_on_a_lan_name(browser: Any, remote: Remote) -> None:
    """Over http on a LAN address the browser gives no WebCrypto and no
    randomUUID: the page rolls and verifies all the same."""
    assert remote.base.startswith("http://127.0.0.1:")
    port = remote.base.rsplit(":", 1)[1]
    lan = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=["--no-sandbox", "--host-resolver-rules=MAP gameroom.lan 127.0.0.1"],
    )
    if True:
        try:
            page = lan.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(
                f"http://gameroom.lan:{port}/c/{remote.id}#token={remote.created['tokens']['US']}"
            )
            page.wait_for_selector("body[data-ready=true]", timeout=20_000)
            assert page.evaluate("() => window.isSecureContext") is False
            assert page.evaluate("async () => (await import('/ui/proto.js')).engine") == "plain"
            page.fill("#free-purpose", "on the LAN")
            page.click("#free-form button")
            page.wait_for_selector("#roll-result.ok")
            (item,) = remote.get("US", "/events?type=DiceRolled")["items"]
            row = f"li[data-seq='{item['seq']}']"
            page.wait_for_selector(row)
            page.locator(f"{row} button.verify").click()
            page.wait_for_selector(f"{row} .verdict.ok")
            page.click("#export-this")
            page.wait_for_selector("#export-result.ok")
            assert errors == []
        finally:
            lan.close()


def test_older_pages_of_the_log_stay_when_the_feed_brings_more(
    browser_context: Any, remote: Remote
) -> None:
    for k in range(60):
        remote.post("US", "/rolls", {"dice": 1, "purpose": f"r{k}"})
    page = open_page(browser_context, remote.link("US"))
    assert page.locator("#log li").count() == 50
    version = remote.get("referee")["version"]
    assert version > 50
    page.click("#log-older")
    page.wait_for_function("(n) => document.querySelectorAll('#log li').length === n", arg=version)
    assert page.is_disabled("#log-older")
    last = remote.post("German", "/rolls", {"dice": 1, "purpose": "new"})
    page.wait_for_selector(f"li[data-seq='{last['seq']}']", timeout=20_000)
    assert page.locator("#log li").count() == version + 1
    page.close()


def test_a_filtered_log_starts_at_the_newest_match(browser_context: Any, remote: Remote) -> None:
    for k in range(70):
        remote.post("US" if k % 2 else "German", "/rolls", {"dice": 1, "purpose": f"r{k}"})
    german = [e["seq"] for e in remote.get("US", "/events?actor=German&limit=500")["items"]]
    page = open_page(browser_context, remote.link("US"))
    page.select_option("#log-actor", "German")
    page.wait_for_function(
        "(n) => document.querySelector('#log li')?.dataset.seq === String(n)", arg=german[-1]
    )
    shown = [
        int(x) for x in page.eval_on_selector_all("#log li", "els => els.map(e => e.dataset.seq)")
    ]
    assert shown == sorted(german, reverse=True)[: len(shown)]
    assert len(shown) == min(50, len(german))
    assert page.is_disabled("#log-older")
    page.close()


def _forgeries(exports: dict[str, bytes], rolls: dict[str, int]) -> dict[str, bytes]:
    """Exports edited as an opponent (no re-hashing) or forged as only the
    server could (every hash, link and the header recomputed; tests/forge.py)."""
    from forge import parse, reseal

    from cgledger.domain.dice import canon

    def forged(role: str, edit: Any) -> bytes:
        header, events = parse(exports[role])
        edit(header, events)
        return reseal(header, events)

    def edited(role: str, edit: Any) -> bytes:
        header, events = parse(exports[role])
        edit(header, events)
        return b"".join(canon(x) + b"\n" for x in [header, *events])

    public, revealed = rolls["public"] - 1, rolls["revealed"] - 1
    reveal, undo = rolls["reveal"] - 1, rolls["undo"] - 1

    def roll_of(events: list[dict[str, Any]], at: int) -> dict[str, Any]:
        found: dict[str, Any] = events[at]["payload"]["roll"]
        return found

    def sealed_parts(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The revealed sealed record's secret part, as the record and as its
        reveal carry it (cgledger-dice/2): a forger edits both alike."""
        return [events[revealed]["secret"], events[reveal]["payload"]["sealed"]]

    def first_roll(part: dict[str, Any]) -> dict[str, Any]:
        found: dict[str, Any] = part["rolls"][0]
        return found

    return {
        "a BOM before the header": b"\xef\xbb\xbf" + exports["US"],
        "a header field added": edited("US", lambda h, e: h.update(note="x")),
        "the header's campaign name": edited("US", lambda h, e: h.update(campaign_name="CG II")),
        "the header's format": edited("US", lambda h, e: h.update(format="cgledger-export/9")),
        "a revealed roll's dice dropped": forged(
            "US", lambda h, e: first_roll(e[reveal]["payload"]["sealed"]).pop("dice")
        ),
        "a sealed roll's dice off its stream": forged(
            "US",
            lambda h, e: [
                first_roll(x).update(dice=[7 - d for d in first_roll(x)["dice"]])
                for x in sealed_parts(e)
            ],
        ),
        "a sealed roll's dice as strings": forged(
            "US",
            lambda h, e: [
                first_roll(x).update(dice=[str(d) for d in first_roll(x)["dice"]])
                for x in sealed_parts(e)
            ],
        ),
        "a sealed record's public part naming its purpose": forged(
            "US", lambda h, e: e[revealed]["payload"].update(purpose="secretly")
        ),
        "a reveal with another client nonce": forged(
            "US", lambda h, e: e[reveal]["payload"].update(client_nonce="00" * 16)
        ),
        "a reveal with another seed": forged(
            "US", lambda h, e: e[reveal]["payload"].update(seed="00" * 32)
        ),
        "a public roll's dice edited": edited(
            "US",
            lambda h, e: roll_of(e, public).update(
                dice=[7 - d for d in roll_of(e, public)["dice"]]
            ),
        ),
        "dice as strings": forged(
            "US",
            lambda h, e: roll_of(e, public).update(
                dice=[str(d) for d in roll_of(e, public)["dice"]]
            ),
        ),
        "three dice": forged("US", lambda h, e: roll_of(e, public).update(count=3, dice=[1, 2, 3])),
        "a secret flag that is no boolean": forged(
            "US", lambda h, e: roll_of(e, public).update(secret=0)
        ),
        "an empty seed": forged("US", lambda h, e: roll_of(e, public).update(seed="")),
        "a seed that is not hex": forged(
            "US", lambda h, e: roll_of(e, public).update(seed="zz" * 32)
        ),
        "a batch of commitments twice": forged(
            "US",
            lambda h, e: [
                e.insert(2, json.loads(json.dumps(e[1]))),
                [x.update(seq=i) for i, x in enumerate(e, 1)],
            ],
        ),
        "commitments not a list": forged(
            "US", lambda h, e: e[1]["payload"].update(commitments="abc")
        ),
        "a reveal naming the wrong event": forged(
            "US", lambda h, e: e[reveal]["payload"].update(of_seq=rolls["public"])
        ),
        "a reveal twice": forged(
            "US",
            lambda h, e: [
                e.insert(reveal + 1, json.loads(json.dumps(e[reveal]))),
                [x.update(seq=i) for i, x in enumerate(e, 1)],
            ],
        ),
        "an undo naming a later event": forged(
            "US", lambda h, e: e[undo]["payload"].update(reverts=[len(e) + 5])
        ),
        "a first event that creates nothing": forged(
            "US", lambda h, e: e[0].update(type="Nothing")
        ),
        "a CG definition off its hash": forged(
            "US", lambda h, e: e[0]["payload"]["definition"].update(title="edited")
        ),
        "a reveal naming its roll by a string": forged(
            "US",
            lambda h, e: e[reveal]["payload"].update(
                index=str(e[reveal]["payload"]["index"]), seed="00" * 32
            ),
        ),
        "a secret part without its dice": forged(
            "referee", lambda h, e: [first_roll(x).pop("dice") for x in sealed_parts(e)]
        ),
        "a public roll without its seed": forged("US", lambda h, e: roll_of(e, public).pop("seed")),
        "a table definition off its hash": forged(
            "US",
            lambda h, e: next(x for x in e if x["type"] == "TableDefined")["payload"][
                "definition"
            ].update(title="edited"),
        ),
        "a lone surrogate": exports["US"].replace(b'"publicly"', b'"\\ud800"', 1),
        "a null header": b"null\n" + exports["US"].split(b"\n", 1)[1],
        "truncated": exports["US"][:-1],
    }


@pytest.mark.store
def test_the_page_and_cgledger_verify_agree_on_every_export(
    browser_context: Any, remote: Remote, tmp_path: Path
) -> None:
    """A campaign with public, secret, revealed, undone and table rolls: each
    role's export passes both checkers, and every forgery that `cgledger
    verify` refuses, the page refuses too."""
    from cgledger.verify import VerificationError, verify_bytes

    public = remote.post("US", "/rolls", {"dice": 2, "purpose": "publicly"})
    secret = remote.post("German", "/rolls", {"dice": 2, "purpose": "secretly", "secret": True})
    remote.post("German", "/rolls", {"dice": 1, "purpose": "never shown", "secret": True})
    revealed = remote.http.post(
        f"{remote.url}/rolls/{secret['index']}/reveal", headers=remote.h("German")
    )
    assert revealed.status_code == 200, revealed.text
    reveal = remote.get("referee", "/events?type=SecretRevealed")["items"][0]
    mistaken = remote.post("US", "/rolls", {"dice": 1, "purpose": "mistaken ü\u2028"})
    asked = remote.post("US", "/undo-requests", {"seqs": [mistaken["seq"]], "reason": "wrong"})
    remote.post("German", f"/undo-requests/{asked['id']}/approve")
    remote.post("German", "/rg-purchases", {"rg": "I1", "map_group": "Sx"})
    # A secret RG's determination: one sealed record, its table's definition in
    # its secret part; a public table roll records its table (TableDefined).
    determined = remote.post("German", "/rg-determinations")
    assert determined["event"]["type"] == "RecordSealed"
    assert determined["event"]["secret"]["tables"]
    remote.post("referee", "/tables/kgp:8.606-infantry/rolls")
    undo = remote.get("referee", "/events?type=UndoApplied")["items"][0]["seq"]
    exports = {
        role: remote.http.get(remote.url + "/export", headers=remote.h(role)).content
        for role in ROLES
    }
    rolls = {
        "public": public["seq"],
        "revealed": secret["seq"],
        "reveal": reveal["seq"],
        "undo": undo,
    }
    cases = {f"genuine, as {role}": data for role, data in exports.items()}
    cases.update(_forgeries(exports, rolls))
    page = open_page(browser_context, remote.link("US"))
    import base64

    verdicts = page.evaluate(
        """async (cases) => {
            const p = await import("/ui/proto.js");
            const out = {};
            for (const [name, b64] of Object.entries(cases)) {
                const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
                const r = await p.verifyExport(bytes);
                out[name] = {ok: r.ok, error: r.error || null};
            }
            return out;
        }""",
        {name: base64.b64encode(data).decode() for name, data in cases.items()},
    )
    for name, data in cases.items():
        try:
            verify_bytes(data)
            python_ok = True
        except VerificationError:
            python_ok = False
        if name.startswith("genuine"):
            assert python_ok, name
            assert verdicts[name]["ok"], (name, verdicts[name])
        else:
            assert not python_ok, f"cgledger verify accepts {name}"
            assert not verdicts[name]["ok"], f"the page accepts {name}"
    page.close()


def test_initiative_chits_from_the_pages_stay_secret_until_both_are_chosen(
    browser_context: Any, remote: Remote
) -> None:
    """8.6232: each side chooses its chit on its own page; the opponent's page
    says that it was chosen, never which, until both are."""
    remote.next_date()
    for side in ("US", "German"):
        remote.advance(side, "8.623")
    us = open_page(browser_context, remote.link("US"))
    german = open_page(browser_context, remote.link("German"))
    us.click("#reph .initiative button:text('Attack')")
    german.wait_for_function(
        "() => document.querySelector('#reph .initiative p')?.textContent.includes('US: chosen')",
        timeout=20_000,
    )
    status = german.inner_text("#reph .initiative p")
    assert status == "US: chosen · German: not chosen", status
    assert german.locator("#reph .initiative button:text('Attack')").count() == 1
    german.click("#reph .initiative button:text('Idle')")
    german.wait_for_function(
        "() => document.querySelector('#reph .initiative p')?.textContent.includes('German: idle')",
        timeout=20_000,
    )
    (view,) = remote.get("US", "/initiative")["items"]
    assert view["chits"] == {"US": "attack", "German": "idle"}
    us.wait_for_function(
        "(s) => document.querySelector('#reph .initiative p')?.textContent.includes(s)",
        arg=f"→ {view['scenario']}",
        timeout=20_000,
    )
    assert "US: attack · German: idle" in us.inner_text("#reph .initiative")


@pytest.mark.store
def test_a_secret_roll_revealed_from_its_owners_page_verifies_on_the_opponents(
    browser_context: Any, remote: Remote
) -> None:
    roll = remote.post("German", "/rolls", {"dice": 2, "purpose": "sniper", "secret": True})
    row = f"li[data-seq='{roll['seq']}']"
    us = open_page(browser_context, remote.link("US"))
    assert us.locator(f"{row} button.reveal").count() == 0  # not the U.S. secret
    us.locator(f"{row} button.verify").click()
    us.wait_for_selector(f"{row} .verdict.info")
    german = open_page(browser_context, remote.link("German"))
    german.on("dialog", lambda dialog: dialog.accept())  # "A reveal cannot be taken back"
    german.click(f"{row} button.reveal")
    german.wait_for_selector(f"#row-status-{roll['seq']}.ok")
    us.wait_for_function(
        "() => document.querySelector('#log li')?.dataset.type === 'SecretRevealed'",
        timeout=20_000,
    )
    us.locator(f"{row} button.verify").click()
    us.wait_for_selector(f"{row} .verdict.ok")
    assert str(roll["dice"]).replace(" ", "") in us.inner_text(f"{row} .verdict").replace(" ", "")
    # Revealed once: its button is gone.
    german.wait_for_function(
        "(sel) => document.querySelector(sel + ' button.reveal') === null", arg=row
    )


def test_an_answer_cut_off_then_a_reload_still_rolls_once(
    browser_context: Any, remote: Remote
) -> None:
    """The server rolled and answered 201, but the body was cut off on the way;
    the player reloads the page and rolls again: the same key and nonce go
    out (they are kept in the tab until an answer is read whole)."""
    page = open_page(browser_context, remote.link("US"))
    keys: list[str] = []

    def cut_first(route: Any) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            answer = route.fetch()
            route.fulfill(status=answer.status, headers=answer.headers, body=answer.body()[:20])
        else:
            route.continue_()

    page.route(f"**/v1/campaigns/{remote.id}/rolls", cut_first)
    page.fill("#free-purpose", "Escape of 4-6-7 in B3")
    page.click("#free-form button")
    page.wait_for_selector("#roll-result.error")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#free-purpose", "Escape of 4-6-7 in B3")
    page.click("#free-form button")
    page.wait_for_selector("#roll-result.ok")
    assert len(keys) == 2
    assert keys[0] == keys[1]
    assert len(remote.get("referee", "/events?type=DiceRolled")["items"]) == 1
    page.close()


def test_my_link_gives_the_token_back(browser_context: Any, remote: Remote) -> None:
    page = open_page(browser_context, remote.link("German"))
    page.click("#my-link")
    assert page.input_value("#my-link-text") == remote.link("German")
    page.close()


def test_an_rg_bought_and_determined_on_the_page_stays_a_stub_to_the_opponent(
    browser_context: Any, remote: Remote
) -> None:
    """8.619: the German buys I1 off its chart, secretly, for map group Sx; the
    RG Purchase Record (8.6198) lists the rolls it needs (8.620), made with a
    click, its hidden rolls in one sealed record; the U.S. page shows a stub
    and never the RG."""
    german = open_page(browser_context, remote.link("German"))
    us = open_page(browser_context, remote.link("US"))
    _buy_secretly(german, [("I1", "Sx")])
    row = "#purchases .record[data-side=German] tr[data-rg=I1]"
    german.wait_for_selector(row)
    # A secret RG has no "roll it" of its own: its rolls go with the others.
    assert german.locator(f"{row} button.determine").count() == 0
    _click_and_settle(german, "#secret-rolls", "/rg-determinations")
    (mine,) = remote.get("German", "/rg-record?side=German")["rows"]
    assert mine["needs"] == []
    assert german.inner_text(f"{row} td[data-col=strength]") == cell_text(mine["strength"])
    (stub,) = remote.get("US", "/rg-record?side=German")["rows"]
    assert stub["redacted"] is True
    us.wait_for_selector(
        f"#purchases .record[data-side=German] tr.redacted[data-seq='{stub['seq']}']",
        timeout=20_000,
    )
    shown = us.inner_text("#purchases .record[data-side=German]")
    assert "I1" not in shown
    assert "Grenadier" not in shown
    # The determination rolls are one sealed record (cgledger-dice/2), made
    # with the page's own nonce; the U.S. page names none of them.
    rolls = [
        e
        for e in remote.get("referee", "/events?actor=German&limit=500")["items"]
        if "roll" in e["payload"]
    ]
    assert [e["type"] for e in rolls] == ["RecordSealed"]
    assert {e["secret"]["nonce_source"] for e in rolls} == {"client"}
    us.wait_for_selector(f"#log li[data-seq='{rolls[-1]['seq']}']", timeout=20_000)
    # The paper forms' headers name every column's rule (8.6201 for Strength)
    # to everyone; the rows and the log must name no table the German rolled on.
    seen = us.inner_text("#log") + us.inner_text("#purchases .record[data-side=German] tbody")
    assert "[sealed]" in us.inner_text(f"#log li[data-seq='{rolls[-1]['seq']}']")
    assert "8.6201" not in seen
    assert "Grenadier" not in seen


def _click_and_settle(page: Any, selector: str, path: str) -> Any:
    """Click, wait for that click's answer (201) and the page's redraw of it
    (the status may still say "done" from the click before)."""
    with page.expect_response(
        lambda r: r.url.endswith(path) and r.request.method == "POST"
    ) as answer:
        page.click(selector)
    assert answer.value.status == 201, answer.value.text()
    settle(page, answer.value.json()["seq"])
    return answer.value.json()


def _buy_secretly(page: Any, rgs: list[tuple[str, str]]) -> None:
    """8.619 on the page: each RG added to the batch (nothing sent), then the
    batch sealed with one request."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    for i, (rg, group) in enumerate(rgs, 1):
        page.select_option("#buy-form select[name=rg]", rg)
        page.select_option("#buy-form select[name=map_group]", group)
        page.click("#buy-form button[type=submit]")
        page.wait_for_function("n => document.querySelectorAll('#rg-batch li').length === n", arg=i)
    assert sent == [], "adding to the batch sends nothing"
    _click_and_settle(page, "#seal-batch", "/rg-purchases")
    assert page.locator("#rg-batch li").count() == 0


def _what_the_us_counts(browser_context: Any, server: str, rgs: list[tuple[str, str]]) -> Any:
    """A campaign where the German buys ``rgs`` secretly on its page and rolls
    the secret rolls; what the U.S. reads of it over the API."""
    game = Remote(server, {**KGP, "initial_cpp": {"German": 20}})
    try:
        german = open_page(browser_context, game.link("German"))
        _buy_secretly(german, rgs)
        _click_and_settle(german, "#secret-rolls", "/rg-determinations")
        mine = game.get("German", "/rg-record?side=German")["rows"]
        assert len(mine) == len(rgs)
        assert all(r["needs"] == [] for r in mine), mine
        german.close()
        sealed = [
            e["type"]
            for e in game.get("US", "/events?actor=German&limit=500")["items"]
            if e["type"] == "RecordSealed"
        ]
        stubs = [r for r in game.get("US", "/rg-record?side=German")["rows"] if r.get("redacted")]
        return len(sealed), len(stubs), len(game.get("US", "/rg-record?side=German")["rows"])
    finally:
        game.close()


def test_the_page_buys_and_rolls_three_secret_rg_as_it_does_one(
    browser_context: Any, server: str
) -> None:
    """DESIGN §4, §2a: every secret request is a sealed record the U.S. sees,
    so the German's page makes one batch of purchases and one of rolls,
    whatever it buys: three RG and one look the same to the U.S."""
    three = _what_the_us_counts(
        browser_context, server, [("I1", "Sx"), ("I1", "Sy"), ("HW1", "Sx")]
    )
    one = _what_the_us_counts(browser_context, server, [("I1", "Sx")])
    assert three == one == (2, 1, 1), (three, one)


def test_an_empty_batch_sealed_on_the_page_is_one_sealed_record(
    browser_context: Any, remote: Remote
) -> None:
    """A side that buys nothing secretly still seals its batch: one sealed
    record, one stub, as for a batch of RG."""
    german = open_page(browser_context, remote.link("German"))
    assert german.locator("#rg-batch li").count() == 0
    made = _click_and_settle(german, "#seal-batch", "/rg-purchases")
    events = remote.get("US", "/events?actor=German&limit=500")["items"]
    assert [e["type"] for e in events if e["type"] == "RecordSealed"] == ["RecordSealed"]
    (stub,) = remote.get("US", "/rg-record?side=German")["rows"]
    assert stub["redacted"] is True
    assert stub["seq"] == made["seq"]


def test_a_public_rg_is_bought_and_rolled_one_by_one(browser_context: Any, remote: Remote) -> None:
    """Secret unchecked, the page buys one RG per request as before, and the
    RG's own roll has its "roll it" (nothing of it is hidden to count)."""
    german = open_page(browser_context, remote.link("German"))
    german.select_option("#buy-form select[name=rg]", "HW1")
    german.select_option("#buy-form select[name=map_group]", "Sx")
    german.uncheck("#buy-form input[name=secret]")
    assert german.inner_text("#buy-form button[type=submit]") == "buy"
    _click_and_settle(german, "#buy-form button[type=submit]", "/rg-purchases")
    row = "#purchases .record[data-side=German] tr[data-rg=HW1]"
    german.wait_for_selector(f"{row} button.determine")
    assert german.locator("#rg-batch li").count() == 0
    _click_and_settle(german, f"{row} button.determine", "/rg-determinations")
    rows = remote.get("US", "/rg-record?side=German")["rows"]
    # The purchase is in the open (the server adds the step's empty sealed
    # batch after it, as for any side that sealed none).
    assert rows[0]["rg"] == "HW1"
