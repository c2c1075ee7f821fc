"""CG-Scenario End and New CG Date answered on the pages (DESIGN §12, §13):
a side's wrong scenario end is rejected by the opponent on his page and sent
again; the corrected one approved there; a side's New CG Date withdrawn by
its proposer on the RePh card, then approved by the opponent. Each answer is one request, on
``/proposals``.

Where chromium is missing these tests skip (under ``CI=true`` they fail), as
tests/test_browser.py's do.
"""

from __future__ import annotations

from typing import Any

from test_browser import KGP, Remote, browser, browser_context, open_page, server
from test_browser_tools import pending, posts

__all__ = ["browser", "browser_context", "server"]  # the fixtures, used by name


def answer(page: Any, seq: int, verb: str, then: str) -> list[str]:
    """Click ``verb`` on proposal ``seq``'s row; wait until it reads ``then``;
    the POSTs the page sent."""
    row = f"#requests li[data-proposal='{seq}']"
    page.wait_for_selector(f"{row}[data-status=pending] button.{verb}", timeout=20_000)
    sent = posts(page)
    page.click(f"{row} button.{verb}")
    page.wait_for_selector(f"{row}[data-status={then}]", timeout=20_000)
    return sent


def test_scenario_end_and_new_cg_date_are_answered_on_the_pages(
    browser_context: Any, server: str
) -> None:
    game = Remote(server, {**KGP, "title": "proposals"})
    try:
        for side in ("US", "German"):
            game.advance(side, "scenario")
        us = open_page(browser_context, game.link("US"))
        german = open_page(browser_context, game.link("German"))
        typo = game.post("US", "/scenario-end", {"cvp": {"US": 3, "German": 50}})
        assert typo["proposal"]["status"] == "pending"
        row = f"#requests li[data-proposal='{typo['seq']}']"
        german.wait_for_selector(f"{row}[data-kind=scenario-end]", timeout=20_000)
        text = german.inner_text(row)
        assert "CG-Scenario End (8.603)" in text, text
        assert "CVP earned US 3, German 50" in text, text
        # The proposer may only withdraw its own; the opponent approves or rejects.
        us.wait_for_selector(f"{row} button.withdraw", timeout=20_000)
        assert us.locator(f"{row} button.approve").count() == 0
        assert answer(german, typo["seq"], "reject", "rejected") == [
            f"proposals/{typo['seq']}/reject"
        ]
        assert game.get("referee", "/reph")["scenario_end_proposal"] is None
        # The U.S. page offers the scenario end form again; the corrected body
        # is approved on the German page.
        us.wait_for_selector("#scenario-end", timeout=20_000)
        right = game.post("US", "/scenario-end", {"cvp": {"US": 3, "German": 5}})
        assert answer(german, right["seq"], "approve", "applied") == [
            f"proposals/{right['seq']}/approve"
        ]
        assert game.get("referee", "/reph")["new_date_due"] is True
        # New CG Date: the German withdraws his readiness, says it again, and
        # the U.S. approves it: 19 PM begins.
        ready = game.post("German", "/cg-dates", {})
        assert pending(game, "cg-date")["seq"] == ready["seq"]
        text = us.inner_text(f"#requests li[data-proposal='{ready['seq']}']")
        assert "German is ready for 19 PM" in text, text
        # The German withdraws it from the RePh card, where he said it.
        button = f"#reph button.withdraw[data-proposal='{ready['seq']}']"
        german.wait_for_selector(button, timeout=20_000)
        sent = posts(german)
        german.click(button)
        german.wait_for_selector(
            f"#requests li[data-proposal='{ready['seq']}'][data-status=withdrawn]"
        )
        assert sent == [f"proposals/{ready['seq']}/withdraw"]
        assert game.get("referee")["ready_for_next_cg_date"] == []
        again = game.post("German", "/cg-dates", {})
        answer(us, again["seq"], "approve", "applied")
        assert game.get("US")["cg_date"] == "19 PM"
        assert us.errors == german.errors == []
    finally:
        game.close()
