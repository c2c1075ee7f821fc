"""Keyboard and screen-reader basics of the pages (issue 27 item 7): every
control has an accessible name, the focused control is visibly outlined, and a
status is never told by colour alone (its text says it).

Checked in headless Debian chromium on the landing page and on the campaign
page of each role, at the start of a campaign and in its Refit Phase, where
the most controls are shown. Skips where chromium is missing (CI fails)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_browser import Remote, browser, browser_context, open_page, server

__all__ = ["browser", "browser_context", "server"]  # the fixtures, used by name

pytestmark = [pytest.mark.shared_app]

#: Every control visible on the page without an accessible name: its tag,
#: id, name and text, so a failure names it.
UNNAMED = """() => {
  const named = (el) => {
    if (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')) return true;
    if (el.title) return true;
    if (el.labels && el.labels.length) return [...el.labels].some((l) => l.textContent.trim());
    if (['BUTTON', 'A', 'SUMMARY'].includes(el.tagName)) return el.textContent.trim() !== '';
    return false;
  };
  const shown = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== 'hidden';
  return [...document.querySelectorAll('button, input, select, textarea, summary, a[href]')]
    .filter((el) => shown(el) && el.type !== 'hidden' && !named(el))
    .map((el) => `${el.tagName.toLowerCase()}#${el.id}[name=${el.name || ''}]`
      + ` ${el.outerHTML.slice(0, 120)}`);
}"""

#: Status messages whose class says ok/error but whose text is empty.
SILENT_STATUS = """() => [...document.querySelectorAll(
    '.status.ok, .status.error, .verdict.ok, .verdict.error')]
  .filter((el) => el.textContent.trim() === '').map((el) => el.id || el.className)"""


@pytest.fixture
def refit(server: str) -> Iterator[Remote]:
    """A KGP CG I campaign in the 19 PM Refit Phase: the sides at 8.616."""
    game = Remote(server)
    try:
        game.next_date()
        yield game
    finally:
        game.close()


def _check(page: Any) -> None:
    unnamed = page.evaluate(UNNAMED)
    assert not unnamed, "controls without a name:\n" + "\n".join(unnamed)
    silent = page.evaluate(SILENT_STATUS)
    assert not silent, f"statuses told by colour alone: {silent}"


def test_the_landing_page_controls_are_named(browser_context: Any, server: str) -> None:
    page = browser_context.new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready=true]")
    _check(page)


@pytest.mark.parametrize("role", ["US", "German", "referee"])
def test_every_control_of_the_campaign_page_is_named(
    browser_context: Any,
    refit: Remote,
    role: str,
) -> None:
    page = open_page(browser_context, refit.link(role))
    _check(page)
    for details in page.query_selector_all("details"):
        details.evaluate("d => { d.open = true; }")
    _check(page)


def test_the_focused_control_is_outlined(browser_context: Any, refit: Remote) -> None:
    page = open_page(browser_context, refit.link("US"))
    seen = 0
    for _ in range(12):
        page.keyboard.press("Tab")
        style = page.evaluate(
            """() => { const el = document.activeElement;
                 if (!el || el === document.body) return null;
                 const s = getComputedStyle(el);
                 return [el.tagName, s.outlineStyle, s.outlineWidth]; }"""
        )
        if style is None:
            continue
        tag, outline, width = style
        assert outline != "none", (tag, outline, width)
        assert width != "0px", (tag, outline, width)
        seen += 1
    assert seen >= 10


def test_every_control_of_the_definition_editor_is_named(browser_context: Any, server: str) -> None:
    """The editor with the sample loaded, a hex chosen and a chart refused:
    the brushes, the hex's fields, the Entry Areas, the chart tables (each
    cell named by its side, row and column) and the forms."""
    page = open_page(browser_context, server + "/editor")
    page.click("#sample-load")
    page.wait_for_selector("#validation[data-state=valid]")
    page.fill("#hex-pick", "B2")
    page.click("#hex-show")
    page.wait_for_selector("#hex-fields[data-hex=B2]")
    page.fill("#chart-paste-US", "id,name,cpp\nI1,Rifle,x\n")
    page.click("#chart-read-US")
    page.wait_for_selector("#chart-US input[aria-invalid=true]")
    for details in page.query_selector_all("details"):
        details.evaluate("d => { d.open = true; }")
    _check(page)
