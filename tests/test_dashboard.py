"""The dashboard's pages over plain HTTP (DESIGN §12; the browser tests are
tests/test_browser.py): ``GET /`` is the landing page to a browser and the
JSON index to anything else; a campaign page holds no campaign data and loads
nothing from another origin, which its Content-Security-Policy enforces."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.web import CSP, STATIC

pytestmark = pytest.mark.shared_app

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_the_root_is_a_page_to_a_browser_and_json_to_a_client(client: TestClient) -> None:
    page = client.get("/", headers={"Accept": BROWSER})
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert page.headers["content-security-policy"] == CSP
    assert '<script type="module" src="/ui/landing.js">' in page.text
    assert ok(client.get("/"))["health"] == "/v1/health"
    assert ok(client.get("/", headers={"Accept": "application/json"}))["docs"] == "/docs"


def test_a_campaign_page_is_the_same_file_for_everyone(kgp: Game) -> None:
    """The page renders nothing server-side: what it shows it reads with its token."""
    mine = kgp.client.get(f"/c/{kgp.id}", headers={"Accept": BROWSER})
    other = kgp.client.get("/c/no-such-campaign")
    assert mine.status_code == other.status_code == 200
    assert mine.text == other.text == (STATIC / "campaign.html").read_text(encoding="utf-8")
    assert kgp.id not in mine.text
    for header in ("content-security-policy", "referrer-policy", "x-content-type-options"):
        assert header in mine.headers
    assert mine.headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize(
    "name", sorted(p.name for p in STATIC.iterdir() if p.suffix in (".js", ".css", ".html"))
)
def test_every_asset_is_served_and_names_no_other_origin(client: TestClient, name: str) -> None:
    r = client.get(f"/ui/{name}")
    assert r.status_code == 200
    kind = {".js": "javascript", ".css": "text/css", ".html": "text/html"}[Path(name).suffix]
    assert kind in r.headers["content-type"]
    assert r.headers["x-content-type-options"] == "nosniff"
    # The one absolute URL allowed is the SVG namespace, which is a name, not a fetch.
    urls = set(re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"'`)]*", r.text))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls


def test_an_unknown_asset_is_404(client: TestClient) -> None:
    assert client.get("/ui/nope.js").status_code == 404
    assert client.get("/ui/../pyproject.toml").status_code == 404


def test_the_page_writes_no_markup_from_data() -> None:
    """Data goes in as text (``h()`` / textContent); never through innerHTML,
    outerHTML, insertAdjacentHTML or document.write, so an RG name, a purpose
    or a claim can never run as markup on the opponent's page."""
    for path in STATIC.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in text, f"{path.name} uses {sink}"


def test_events_before_pages_back_from_the_newest_end(kgp: Game) -> None:
    """``before`` closes the window the dashboard's log pages back through, with
    or without filters; ``next_after`` stops at the window's end."""
    rolls = [created(kgp.post("US", "/rolls", {"dice": 2, "purpose": f"r{k}"})) for k in range(6)]
    version = kgp.version()
    seqs = [r["seq"] for r in rolls]

    def page(**params: Any) -> dict[str, Any]:
        return ok(kgp.client.get(f"{kgp.url}/events", params=params, headers=kgp.h("German")))

    window = page(after=seqs[1], before=seqs[4], type="DiceRolled")
    assert [e["seq"] for e in window["items"]] == seqs[2:4]
    assert window["next_after"] is None
    partial = page(after=0, before=seqs[4], limit=2)
    assert [e["seq"] for e in partial["items"]] == [1, 2]
    assert partial["next_after"] == 2
    assert page(after=0, before=version + 100)["next_after"] is None
    assert [e["seq"] for e in page(after=version - 2, before=version + 1)["items"]] == [
        version - 1,
        version,
    ]
    assert_problem(kgp.client.get(f"{kgp.url}/events?before=0", headers=kgp.h("US")), 422)


def test_the_style_sheet_closes_every_block() -> None:
    """A block left open (a merge once dropped the ``}`` of an ``@media print``)
    swallows every rule after it: the browser reads them as print rules only."""
    css = re.sub(r"/\*.*?\*/", "", (STATIC / "style.css").read_text(encoding="utf-8"), flags=re.S)
    depth = 0
    for n, char in enumerate(css):
        depth += {"{": 1, "}": -1}.get(char, 0)
        assert depth >= 0, f"a '}}' closes nothing at offset {n}"
    assert depth == 0, f"{depth} block(s) left open"
