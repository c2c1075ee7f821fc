"""Review 28: the definition editor (DESIGN §15) in headless chromium, as
tests/test_browser.py (its fixtures shared): a definition whose every free
text is markup is shown as text, never run; the token pasted for an
amendment goes only in the Authorization header, never in a URL."""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
import test_browser
from test_browser import open_page

browser = test_browser.browser
server = test_browser.server
browser_context = test_browser.browser_context

#: Each free text carries one; ``window.__xss`` set means one ran.
PAYLOAD = '<img src=x onerror="window.__xss=(window.__xss||0)+1">'


def _checked(page: Any, before: int) -> str:
    page.wait_for_function(
        "n => { const v = document.getElementById('validation');"
        " return Number(v.dataset.checks || 0) > n && v.dataset.state !== 'pending'; }",
        arg=before,
        timeout=20_000,
    )
    return str(page.get_attribute("#validation", "data-state"))


def test_markup_in_a_definition_is_shown_as_text(
    browser_context: Any, server: str, tmp_path: Path
) -> None:
    sample = httpx.get(f"{server}/v1/rulesets/kgp/sample-definition").json()
    doc = copy.deepcopy(sample)
    doc["title"] = PAYLOAD
    group = doc["map_groups"][0]
    group["title"] = PAYLOAD
    first = group["hexes"][0]
    first["terrain"] = PAYLOAD[:60]
    first["ground_level"] = 2
    for lines in doc["rg_chart"].values():
        if lines:
            lines[0]["name"] = PAYLOAD
            lines[0]["notes"] = PAYLOAD
            lines[0]["unit_type"] = PAYLOAD[:60]
    good = tmp_path / "ours.json"
    good.write_text(json.dumps(doc), encoding="utf-8")
    page = open_page(browser_context, server + "/editor")
    page.set_input_files("#definition-file", str(good))
    assert _checked(page, 0) == "valid"
    page.fill("#hex-pick", first["hex"])
    page.click("#hex-show")
    page.wait_for_timeout(300)
    # A broken one: its problems name a key that is markup.
    broken = copy.deepcopy(doc)
    broken[PAYLOAD] = 1
    bad = tmp_path / "broken.json"
    bad.write_text(json.dumps(broken), encoding="utf-8")
    before = int(page.get_attribute("#validation", "data-checks") or 0)
    page.set_input_files("#definition-file", str(bad))
    assert _checked(page, before) == "invalid"
    page.wait_for_timeout(300)
    assert page.evaluate("window.__xss") is None
    assert page.locator("img[src=x]").count() == 0
    assert PAYLOAD in page.text_content("body")  # shown, as text


def test_the_amendment_token_goes_in_no_url(browser_context: Any, server: str) -> None:
    made = httpx.post(f"{server}/v1/campaigns", json=test_browser.KGP).json()
    token = made["tokens"]["US"]
    page = open_page(browser_context, server + "/editor")
    seen: list[str] = []
    page.on("request", lambda req: seen.append(req.url))
    page.click("#sample-load")
    assert _checked(page, 0) == "valid"
    before = int(page.get_attribute("#validation", "data-checks") or 0)
    page.fill("#doc-chits-German", "2")
    assert _checked(page, before) == "valid"
    page.fill("#amend-campaign", made["id"])
    page.fill("#amend-token", token)
    page.click("#amend-button")
    page.wait_for_selector("#amend-status[data-amendment]")
    assert token not in page.url
    assert all(token not in url for url in seen), seen


def test_a_map_group_with_a_20_character_id_is_added_twice(
    browser_context: Any, server: str
) -> None:
    """editor_source.useGroup makes an added map group's id unique with
    `${id}${n}`.slice(0, 20): an id of 20 characters stays itself, so the
    loop never ends and the page hangs (a grid's id, or a VASL board's name,
    of 20 characters added to a definition that has it)."""
    long_id = "ABCDEFGHIJKLMNOPQRST"
    page = open_page(browser_context, server + "/editor")
    page.fill("#grid-id", long_id)
    page.fill("#grid-columns", "A-C")
    page.fill("#grid-row-first", "1")
    page.fill("#grid-row-last", "2")
    page.click("#grid-make")
    assert _checked(page, 0) == "valid"
    page.check("input[name=group-into][value=add]")
    # Clicked from a timer, and the page's JS ended from the outside after
    # a while: a page stuck in a loop answers nothing, not even a wait.
    cdp = browser_context.new_cdp_session(page)
    page.evaluate("setTimeout(() => document.getElementById('grid-make').click(), 0)")
    time.sleep(5)
    cdp.send("Runtime.terminateExecution")
    status = page.text_content("#grid-status", timeout=5_000)
    assert "added" in str(status), status
    ids = page.eval_on_selector_all("#group-select option", "os => os.map(o => o.value)")
    assert len(set(ids)) == 2, ids
    assert all(len(i) <= 20 for i in ids), ids
