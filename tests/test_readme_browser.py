"""The README's browser walk-through ("In the browser"), played as written:
two players, each in a browser profile of their own, create KGP CG I on the
landing page and play from the Initial Scenario through 19 PM's CG-Scenario
End from their pages alone (issue 27). Every button the README names in
*italics* must be pressed here or be on the page, so the text and the page
cannot drift apart. On the way: each page's RePh card is GET /reph for its
role, and the German's secret RG never shows on the U.S. page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import Remote, browser, open_page, server, settle
from test_browser_reph import assert_card, complete_all, complete_to, end_scenario

__all__ = ["browser", "server"]  # the fixtures, used by name

README = Path(__file__).parent.parent / "README.md"
#: The German's secret RG: its chart line's name must never reach the U.S. page.
SECRET_NAME = "Sample Grenadier Pltn"


def readme_labels() -> list[str]:
    """The *italic* labels of the README's "In the browser" section."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## In the browser", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"(?<![*\w])\*([^*\n]+)\*(?![*\w])", section)


@pytest.fixture
def contexts(browser: Any) -> Iterator[Any]:
    made = [browser.new_context() for _ in range(2)]
    try:
        yield made
    finally:
        for context in made:
            context.close()


class Walk:
    """The two pages, and every label pressed on them."""

    def __init__(self, pages: dict[str, Any]) -> None:
        self.pages = pages
        self.pressed: set[str] = set()

    def press(self, side: str, label: str, within: str = "body") -> None:
        page = self.pages[side]
        button = page.locator(f"{within} button", has_text=label).first
        button.wait_for(timeout=20_000)
        assert button.inner_text().strip() == label, button.inner_text()
        button.click()
        self.pressed.add(label)


def test_the_readme_walk_through_plays_a_whole_cg_date(contexts: list[Any], server: str) -> None:
    labels = readme_labels()
    assert len(labels) >= 15, labels
    # 1. The landing page.
    landing = contexts[0].new_page()
    landing.goto(server + "/")
    landing.wait_for_selector("body[data-ready=true]")
    landing.select_option("#ruleset", "kgp")
    landing.select_option("#campaign", "CG I")
    landing.fill("#title", "README walk-through")
    landing.click("#create-button")
    landing.wait_for_selector("#token-list li")
    pressed = {"Create campaign"}
    links = {
        li.get_attribute("data-role"): li.query_selector("a").get_attribute("href")
        for li in landing.query_selector_all("#token-list li")
    }
    landing.close()
    # 2. Each player's link in a browser of their own.
    us, german = (
        open_page(ctx, links[r]) for ctx, r in zip(contexts, ("US", "German"), strict=True)
    )
    cid = links["US"].split("/c/", 1)[1].split("#", 1)[0]
    remote = Remote.__new__(Remote)  # reads only, with the tokens the landing page showed
    import httpx2 as httpx

    remote.http = httpx.Client(base_url=server, timeout=15)
    remote.id, remote.url, remote.base = cid, f"/v1/campaigns/{cid}", server
    remote.created = {"tokens": {r: links[r].split("#token=", 1)[1] for r in ("US", "German")}}
    walk = Walk({"US": us, "German": german})
    try:
        # 3. The Initial Scenario.
        # Where a side has CPP to buy with, it stops first before 8.619.
        passed = {side: complete_to(p, side, "all steps done") for side, p in walk.pages.items()}
        assert all(at == ["8.619"] for at in passed.values() if at), passed
        walk.pressed.add("complete all steps")
        end_scenario(walk.pages, remote, "US", "German", **{"cvp-US": 1, "cvp-German": 0})
        walk.pressed |= {"send the scenario end", "approve: send the same"}
        # 4. New CG Date.
        walk.press("US", "ready for the next CG Date", "#reph")
        walk.press("German", "agree: begin 19 PM", "#reph")
        for page in (us, german):
            page.wait_for_function(
                "() => document.getElementById('cg-date').textContent === '19 PM'"
            )
        # 5. The German's Refit Phase: the CPP DR on the way, a secret RG, its rolls.
        walk.press("German", "make the CPP Replenishment DR", "#reph")
        german.wait_for_selector("#reph [data-action=cpp-replenishments] .status.ok")
        german.select_option("#buy-form select[name=rg]", "I1")
        walk.press("German", "add to the batch", "#buy-form")
        walk.press("German", "seal the batch", "#purchases")
        german.wait_for_function(
            "() => document.querySelector('#purchases-status')?.textContent.startsWith('sealed')"
        )
        walk.press("German", "roll the secret rolls", "#purchases")
        german.wait_for_function(
            "() => document.querySelector('#purchases-status')?.classList.contains('ok')"
        )
        assert SECRET_NAME in german.inner_text("#purchases")
        # 6. Control proposed by the U.S., approved on the German page.
        us.fill("#control-form input[name=hexes]", "C1")
        us.select_option("#control-form select[name=side]", "US")
        walk.press("US", "propose Control", "#control-form")
        us.wait_for_selector("#control-status.ok")
        walk.press("German", "approve", "#requests li[data-kind=control]")
        us.wait_for_selector("#map svg.setup-map g[data-hex=C1][data-control=US]", timeout=20_000)
        # 7. Initiative: "complete all steps" stops before each purchase step
        # where nothing was bought (the German bought his RG: he has no FPP),
        # pressed again it passes it, and it stops at the chits.
        passed = {side: complete_to(p, side, "stopped at 8.623") for side, p in walk.pages.items()}
        assert passed["German"] == ["8.622"], passed  # he bought his RG, and has no FPP
        assert passed["US"] == ["8.619", "8.622"], passed
        walk.press("US", "Attack", "#reph .initiative")
        walk.press("German", "Idle", "#reph .initiative")
        for side, page in walk.pages.items():
            page.wait_for_function(
                "() => document.querySelector('#reph .initiative p')?.textContent.includes('→')",
                timeout=20_000,
            )
            assert complete_all(page, side) == "all steps done"
        # 8. CG-Scenario End.
        end_scenario(walk.pages, remote, "German", "US", **{"cvp-US": 0, "cvp-German": 2})
        us.wait_for_function(
            "() => [...document.querySelectorAll('#lvp td')]"
            ".some((td) => td.textContent === '19 PM')",
            timeout=20_000,
        )
        for side, page in walk.pages.items():
            assert_card(page, remote, side)
        # 9. Verify a roll in the log.
        settle(us, remote.get("US")["version"])
        first = us.locator("#log li button.verify").first
        first.click()
        walk.pressed.add("verify")
        us.wait_for_selector("#log .verdict.ok, #log .verdict.info", timeout=20_000)
        # The German's secret RG never reached the U.S. page.
        assert SECRET_NAME not in us.inner_text("body")
        assert us.errors == []
        assert german.errors == []
        # Every label the README names was pressed, or is on the page to press.
        on_page = set(
            us.evaluate(
                "() => [...document.querySelectorAll('button, h2')]"
                ".map((el) => el.textContent.trim())"
            )
        )
        missing = [lb for lb in labels if lb not in walk.pressed | pressed | on_page]
        assert not missing, f"the README names what the page does not have: {missing}"
    finally:
        remote.http.close()
