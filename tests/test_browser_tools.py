"""The campaign page's actions besides the RePh's steps, in headless Debian
chromium (DESIGN §5, §7, §12, §13, §14): undo back to a point proposed on one
page and approved on the other; a reading changed by an amendment proposed
and approved; the signed checkpoint and the export saved as files that are
what the API gives; a batch of RG bought in the open with an 8.6194
modifier and an Objective Hex, in one request; a Massacre (KGP CG4) and a
dispute answered by the opponent; a Secret roll revealed by its index; and
each refusal shown where the player acted, with nothing appended.

Where chromium is missing these tests skip (under ``CI=true`` they fail), as
tests/test_browser.py's do.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest
from test_browser import KGP, Remote, browser, browser_context, open_page, remote, server, settle

from cgledger.domain.rulesets import REGISTRY

__all__ = ["browser", "browser_context", "remote", "server"]  # the fixtures, used by name


def posts(page: Any) -> list[str]:
    """The paths of every POST the page sends from now on (under the campaign)."""
    sent: list[str] = []
    page.on(
        "request",
        lambda r: (
            sent.append(r.url.split("/v1/campaigns/", 1)[1].split("/", 1)[1])
            if r.method == "POST" and "/v1/campaigns/" in r.url
            else None
        ),
    )
    return sent


def said(page: Any, status_id: str) -> tuple[str, str]:
    """The answer shown in ``#status_id`` once there is one: ("ok"|"error", text)."""
    page.wait_for_selector(f"#{status_id}.ok, #{status_id}.error", timeout=20_000)
    kind = "ok" if "ok" in (page.get_attribute(f"#{status_id}", "class") or "").split() else "error"
    return kind, page.inner_text(f"#{status_id}")


def pending(game: Remote, kind: str) -> dict[str, Any]:
    items = game.get("referee", "/proposals?status=pending")["items"]
    (found,) = [p for p in items if p["kind"] == kind]
    out: dict[str, Any] = found
    return out


def test_the_pages_tables_are_the_rulesets(browser_context: Any, server: str) -> None:
    """The Massacre rule the page names (tools.js: no route lists it) is each
    ruleset's own; the purchase rules and the 8.6194 modifiers are read from
    GET /v1/rulesets (its ``purchases``, checked against each ruleset in
    tests/test_rulesets.py), and buy.js keeps no copy of them."""
    page = open_page(browser_context, server + "/")
    got = page.evaluate(
        """async () => {
            const buy = await import("/ui/buy.js");
            const tools = await import("/ui/tools.js");
            return { buy: Object.keys(buy).sort(), massacre: tools.MASSACRE };
        }"""
    )
    want_massacre = {}
    for rid, ruleset in REGISTRY.items():
        if ruleset.rules.massacre_rule is not None:
            want_massacre[rid] = ruleset.rules.massacre_rule
    assert got == {"buy": ["buyForms"], "massacre": want_massacre}
    page.close()


def _offered(page: Any) -> list[dict[str, str]]:
    """The 8.6194 modifiers the buy form offers: value, label and tooltip."""
    page.wait_for_selector("#buy-form", state="attached")
    found: list[dict[str, str]] = page.locator("#buy-form input[name=modifier]").evaluate_all(
        """els => els.map((e) => ({
            id: e.value, label: e.parentElement.textContent.trim(), text: e.parentElement.title,
        }))"""
    )
    return found


@pytest.mark.parametrize(
    ("body", "side"),
    [
        (KGP, "US"),
        (KGP, "German"),
        ({"ruleset": "abtf", "campaign": "CG I", "start_date": "17 N"}, "German"),
    ],
)
def test_the_buy_form_offers_the_rulesets_modifiers_and_rules(
    browser_context: Any, server: str, body: dict[str, Any], side: str
) -> None:
    """The buy form, drawn from GET /v1/rulesets' ``purchases``: the 8.6194
    modifiers of the page's side (8.6194b is the U.S.'s; ABtF has none), each
    with its rule, title and what it does, and the ruleset's rule numbers."""
    game = Remote(server, {**body, "title": "buy", "initial_cpp": {side: 20}})
    try:
        page = open_page(browser_context, game.link(side))
        rules: Any = cast(Any, REGISTRY[body["ruleset"]].rules).purchases
        every = game.http.get("/v1/rulesets").json()
        (listed,) = [r for r in every if r["id"] == body["ruleset"]]
        texts = {m["id"]: m["text"] for m in listed["purchases"]["modifiers"]}
        assert _offered(page) == [
            {"id": m.id, "label": f"{m.rule} {m.title}", "text": texts[m.id]}
            for m in rules.modifiers
            if side in m.sides
        ]
        form = page.inner_text("#buy-form")
        assert f"{rules.buy} Purchasing RG" in form, form
        assert f"{rules.record} Objective Hex" in form, form
        assert f"({rules.price})" in form, form
        assert f"its rolls {rules.determine}" in page.inner_text("#secret-acts")
        assert page.errors == []
    finally:
        game.close()


@pytest.mark.store
def test_undo_back_to_a_point_is_proposed_on_one_page_and_approved_on_the_other(
    browser_context: Any, remote: Remote
) -> None:
    """DESIGN §5: the U.S. asks to undo everything after a point (two of its
    rolls, which the German saw: a request); the German approves it on his
    page, on the undo request's own route; both rolls are reverted."""
    before = remote.get("referee")["version"]
    rolls = [remote.post("US", "/rolls", {"dice": 2, "purpose": f"wrong {k}"}) for k in (1, 2)]
    us = open_page(browser_context, remote.link("US"))
    german = open_page(browser_context, remote.link("German"))
    us.fill("#undo-to input[name=to_seq]", str(before))
    us.fill("#undo-to input[name=reason]", "both rolled for the wrong unit")
    us.click("#undo-to button[type=submit]")
    kind, text = said(us, "undo-to-status")
    assert kind == "ok", text
    assert "asked" in text, text
    assert all(str(r["seq"]) in text for r in rolls), text
    asked = pending(remote, "undo-request")
    assert (asked["proposed"]["to_seq"], asked["by"]) == (before, "US")
    row = f"#requests li[data-proposal='{asked['seq']}'][data-status=pending]"
    german.wait_for_selector(row, timeout=20_000)
    assert f"back to #{before}" in german.inner_text(row)
    sent = posts(german)
    german.click(f"{row} button.approve")
    german.wait_for_selector(f"#requests li[data-proposal='{asked['seq']}'][data-status=applied]")
    assert sent == [f"undo-requests/{asked['seq']}/approve"]
    events = {e["seq"]: e for e in remote.get("US", "/events?limit=500")["items"]}
    assert all(events[r["seq"]]["reverted_by"] for r in rolls)
    for r in rolls:
        us.wait_for_selector(f"#log li[data-seq='{r['seq']}'].reverted", timeout=20_000)
    assert us.errors == german.errors == []


@pytest.mark.store
def test_a_reading_changed_by_amendment_is_proposed_and_approved(
    browser_context: Any, remote: Remote
) -> None:
    """DESIGN §14: the U.S. picks another choice of 8.6194a's amount from the
    ruleset's readings; it is pending (the definition unchanged) until the
    German approves it on his page; then it is in force, and the form says so."""
    reading, choice = "standard-on-map-cost", "plus-100"
    us = open_page(browser_context, remote.link("US"))
    german = open_page(browser_context, remote.link("German"))
    us.click("#reading-tool summary")
    us.wait_for_selector(
        f"#reading-form select[name=reading] option[value={reading}]", state="attached"
    )
    us.select_option("#reading-form select[name=reading]", reading)
    assert "In force: plus-50-frd (the default)" in us.inner_text("#reading-text")
    us.select_option("#reading-form select[name=choice]", choice)
    us.fill("#reading-form input[name=reason]", "we read the cut rule as doubling")
    sent = posts(us)
    us.click("#reading-form button[type=submit]")
    kind, text = said(us, "amend-status")
    assert kind == "ok", text
    assert "proposed" in text, text
    assert sent == ["definition-amendments"]
    asked = pending(remote, "definition-amendment")
    assert asked["proposed"]["patch"] == {"readings": {reading: choice}}
    readings = remote.get("US", "/definition")["definition"].get("readings") or {}
    assert readings.get(reading) != choice
    row = f"#requests li[data-proposal='{asked['seq']}']"
    german.wait_for_selector(f"{row}[data-status=pending] button.approve", timeout=20_000)
    german.click(f"{row} button.approve")
    german.wait_for_selector(f"{row}[data-status=applied]")
    assert remote.get("US", "/definition")["definition"]["readings"][reading] == choice
    settle(us, remote.get("referee")["version"])
    us.click("#reading-tool summary")  # closed, and open again: read from the definition in force
    us.click("#reading-tool summary")
    us.select_option("#reading-form select[name=reading]", reading)
    us.wait_for_function(
        "() => document.querySelector('#reading-text').textContent.includes('In force: plus-100.')",
        timeout=20_000,
    )
    assert us.errors == german.errors == []


def test_the_checkpoint_and_the_export_are_saved_as_the_api_gives_them(
    browser_context: Any, remote: Remote
) -> None:
    """DESIGN §5, §12: the files saved are the API's answers; the token goes
    in the Authorization header only, never in a URL."""
    remote.post("US", "/rolls", {"dice": 2, "purpose": "something to sign"})
    us = open_page(browser_context, remote.link("US"))
    token = remote.created["tokens"]["US"]
    urls: list[str] = []
    us.on("request", lambda r: urls.append(r.url))
    with us.expect_download() as got:
        us.click("#download-checkpoint")
    saved = json.loads(Path(got.value.path()).read_text("utf-8"))
    assert saved == remote.get("US", "/checkpoint")
    assert got.value.suggested_filename == f"cgledger-{remote.id}-checkpoint-{saved['seq']}.json"
    with us.expect_download() as got:
        us.click("#download-export")
    exported = remote.http.get(remote.url + "/export", headers=remote.h("US")).content
    mine = Path(got.value.path()).read_bytes()
    # The same export but for the time it was made (its header's ``exported_at``).
    head, body = mine.split(b"\n", 1)
    want_head, want_body = exported.split(b"\n", 1)
    assert body == want_body
    assert {**json.loads(head), "exported_at": None} == {
        **json.loads(want_head),
        "exported_at": None,
    }
    kind, text = said(us, "download-status")
    assert kind == "ok"
    assert "cgledger verify" in text
    assert not [u for u in urls if token in u]
    assert us.errors == []


def test_a_batch_bought_in_the_open_with_a_modifier_is_one_request(
    browser_context: Any, server: str
) -> None:
    """8.619, 8.6194a, 8.6198: two RG for two map groups, one with Standard
    On-Map Setup (+50% FRD under the default reading) and an Objective Hex,
    bought in the open with one request; the record says what was bought."""
    game = Remote(server, {**KGP, "initial_cpp": {"German": 20}})
    try:
        german = open_page(browser_context, game.link("German"))
        assert german.locator("#buy-form input[name=modifier]").evaluate_all(
            "els => els.map((e) => e.value)"
        ) == ["standard-on-map"]  # 8.6194b is the U.S.'s
        sent = posts(german)
        german.uncheck("#buy-form input[name=secret]")
        german.select_option("#buy-form select[name=rg]", "I1")
        german.select_option("#buy-form select[name=map_group]", "Sx")
        german.check("#buy-form input[name=modifier][value=standard-on-map]")
        german.fill("#buy-form input[name=objective_hex]", "C1")
        german.click("#add-open")
        german.select_option("#buy-form select[name=rg]", "HW1")
        german.select_option("#buy-form select[name=map_group]", "Sy")
        german.uncheck("#buy-form input[name=modifier][value=standard-on-map]")
        german.fill("#buy-form input[name=objective_hex]", "")
        german.click("#add-open")
        assert german.locator("#rg-open-batch li").count() == 2
        assert "8.6194a Standard On-Map Setup" in german.inner_text("#rg-open-batch")
        assert sent == [], "adding to the batch sends nothing"
        with german.expect_response(lambda r: r.url.endswith("/rg-purchases")) as answer:
            german.click("#buy-open-batch")
        assert answer.value.status == 201, answer.value.text()
        settle(german, answer.value.json()["seq"])
        assert sent == ["rg-purchases"]
        rows = game.get("US", "/rg-record?side=German")["rows"]
        bought = [
            (r["rg"], r["map_group"], r["cpp"], r["modifiers"], r.get("objective_hex"))
            for r in rows
        ]
        assert bought == [
            ("I1", "Sx", 6, ["standard-on-map"], "C1"),
            ("HW1", "Sy", 3, [], None),
        ]
        said_ = german.inner_text("#purchases-status")
        assert "2 RG" in said_, said_
        assert german.locator("#rg-open-batch li").count() == 0
        assert german.errors == []
    finally:
        game.close()


def test_refusals_show_where_the_player_acted_and_append_nothing(
    browser_context: Any, remote: Remote
) -> None:
    """Each form's refusal (the ledger's detail, naming its rule or field)
    shows under that form; the campaign's version does not move."""
    german = open_page(browser_context, remote.link("German"))
    german.on("dialog", lambda dialog: dialog.accept())
    version = remote.get("referee")["version"]
    # 8.6198: an Objective Hex not of the map group.
    german.uncheck("#buy-form input[name=secret]")
    german.select_option("#buy-form select[name=rg]", "I1")
    german.select_option("#buy-form select[name=map_group]", "Sx")
    german.fill("#buy-form input[name=objective_hex]", "ZZ99")
    german.click("#buy-form button[type=submit]")
    kind, text = said(german, "purchases-status")
    assert kind == "error", text
    assert "8.6198" in text, text
    assert "ZZ99" in text, text
    # DESIGN §5: no event after the head to undo back to.
    german.fill("#undo-to input[name=to_seq]", "999")
    german.fill("#undo-to input[name=reason]", "too far")
    german.click("#undo-to button[type=submit]")
    kind, text = said(german, "undo-to-status")
    assert kind == "error", text
    assert "to_seq" in text, text
    # DESIGN §14: a reading the ruleset does not have, as a JSON patch; then no JSON at all.
    german.click("#patch-tool summary")
    german.fill("#patch-form textarea[name=patch]", '{"readings": {"no-such-reading": "x"}}')
    german.fill("#patch-form input[name=reason]", "typo")
    german.click("#patch-form button[type=submit]")
    kind, text = said(german, "amend-status")
    assert kind == "error", text
    assert "patch.readings.no-such-reading" in text, text
    german.fill("#patch-form textarea[name=patch]", "{readings:")
    german.click("#patch-form button[type=submit]")
    german.wait_for_function(
        "() => document.querySelector('#amend-status').textContent.startsWith('not JSON')"
    )
    # DESIGN §3: no roll 999 to reveal.
    german.fill("#reveal-roll input[name=index]", "999")
    german.click("#reveal-roll button[type=submit]")
    kind, text = said(german, "reveal-roll-status")
    assert kind == "error", text
    assert "999" in text, text
    assert remote.get("referee")["version"] == version
    assert german.errors == []


@pytest.mark.store
def test_a_massacre_and_a_dispute_are_answered_by_the_opponent(
    browser_context: Any, remote: Remote
) -> None:
    """KGP CG4: the U.S. records a German Massacre (a proposal); the German
    approves it on his page (POST /proposals/{seq}/approve). DESIGN §5: the
    German disputes a U.S. roll and the U.S., his opponent, resolves it."""
    us = open_page(browser_context, remote.link("US"))
    german = open_page(browser_context, remote.link("German"))
    us.select_option("#massacre-form select[name=by]", "German")
    us.fill("#massacre-form input[name=note]", "prisoners shot in B3")
    us.click("#massacre-form button[type=submit]")
    kind, text = said(us, "massacre-status")
    assert kind == "ok", text
    assert "proposed" in text, text
    asked = pending(remote, "massacre")
    row = f"#requests li[data-proposal='{asked['seq']}']"
    german.wait_for_selector(f"{row}[data-status=pending] button.approve", timeout=20_000)
    assert "prisoners shot in B3" in german.inner_text(row)
    sent = posts(german)
    german.click(f"{row} button.approve")
    german.wait_for_selector(f"{row}[data-status=applied]")
    assert sent == [f"proposals/{asked['seq']}/approve"]
    assert "massacre" in remote.get("US")["conditions"]
    roll = remote.post("US", "/rolls", {"dice": 2, "purpose": "a fine DR"})
    filed = remote.post("German", "/disputes", {"seq": roll["seq"], "claim": "he rolled twice"})
    item = f"#requests li[data-dispute='{filed['id']}']"
    us.wait_for_selector(f"{item}[data-status=open] form", timeout=20_000)
    german.wait_for_selector(f"{item}[data-status=open]", timeout=20_000)
    assert german.locator(f"{item} form").count() == 0  # the side that filed it may not
    us.fill(f"{item} input[name=note]", "one roll only: see the log")
    us.click(f"{item} button[type=submit]")
    us.wait_for_selector(f"{item}[data-status=upheld]")
    assert remote.get("German", f"/disputes/{filed['id']}")["status"] == "upheld"
    assert us.errors == german.errors == []


def test_a_secret_roll_is_revealed_by_its_index(browser_context: Any, remote: Remote) -> None:
    """DESIGN §3: POST /rolls/{index}/reveal from the owner's page publishes
    the seed; the opponent then reads the dice."""
    roll = remote.post("US", "/rolls", {"dice": 2, "purpose": "hidden sniper", "secret": True})
    assert remote.get("German", f"/rolls/{roll['index']}")["dice"] is None
    us = open_page(browser_context, remote.link("US"))
    us.on("dialog", lambda dialog: dialog.accept())
    us.fill("#reveal-roll input[name=index]", str(roll["index"]))
    us.click("#reveal-roll button[type=submit]")
    kind, text = said(us, "reveal-roll-status")
    assert kind == "ok", text
    assert f"revealed roll {roll['index']}" in text, text
    assert remote.get("German", f"/rolls/{roll['index']}")["dice"] == roll["dice"]
    assert us.errors == []


def test_the_referees_page_buys_for_the_side_it_names(browser_context: Any, remote: Remote) -> None:
    """The referee acts for any side (DESIGN §3): its page names the side,
    offers that side's chart and 8.6194 modifiers, and the purchase is that side's."""
    referee = open_page(browser_context, remote.link("referee"))
    assert referee.locator("#buy-form input[name=modifier]").count() == 2  # the U.S.'s: a and b
    referee.select_option("#buy-side", "German")
    referee.wait_for_selector("#buy-form select[name=rg] option[value=HW1]", state="attached")
    assert referee.locator("#buy-form input[name=modifier]").count() == 1
    referee.uncheck("#buy-form input[name=secret]")
    referee.select_option("#buy-form select[name=rg]", "HW1")
    with referee.expect_response(lambda r: r.url.endswith("/rg-purchases")) as answer:
        referee.click("#buy-form button[type=submit]")
    assert answer.value.status == 201, answer.value.text()
    assert json.loads(answer.value.request.post_data or "{}")["side"] == "German"
    (row,) = remote.get("US", "/rg-record?side=German")["rows"]
    assert row["rg"] == "HW1"
    assert referee.errors == []


def test_an_abtf_german_buys_a_chart_line_of_a_kg(browser_context: Any, server: str) -> None:
    """9.6173: a German line is bought by its ID with its KG, "I1(X)"; the
    form offers the chart's lines so, and the ledger takes it."""
    game = Remote(server, {"ruleset": "abtf", "campaign": "CG I", "title": "kg",
                           "start_date": "17 N", "initial_cpp": {"German": 20}})  # fmt: skip
    try:
        german = open_page(browser_context, game.link("German"))
        option = "#buy-form select[name=rg] option[value='I1(X)']"
        german.wait_for_selector(option, state="attached")
        german.uncheck("#buy-form input[name=secret]")
        german.select_option("#buy-form select[name=rg]", "I1(X)")
        with german.expect_response(lambda r: r.url.endswith("/rg-purchases")) as answer:
            german.click("#buy-form button[type=submit]")
        assert answer.value.status == 201, answer.value.text()
        rows = game.get("German", "/rg-record?side=German")["rows"]
        assert [r["rg"] for r in rows if not r.get("ob")][-1].startswith("I1")
        assert german.errors == []
    finally:
        game.close()
