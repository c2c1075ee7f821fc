"""The CG definition editor (DESIGN §15, docs/authoring.md "The editor") in
headless Debian chromium, as tests/test_browser.py, whose fixtures this
module shares: a map made from a grid is marked with clicks (a Strategic
Location and its LVP, a building and its levels, an Entry Area, initial
Control), a chart pasted as CSV shows its bad cell in the table until it is
fixed, the definition passes validation with the Setup Areas of its initial
Control drawn as the API computes them, the file downloaded is the one the
API validates, and a campaign created with it opens. Then: a definition
proposed to a running campaign as an amendment; the sample's 1,200-hex map
group, whose Setup Areas on the page are the API's; a definition file
opened, and a broken one named by the check."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx2 as httpx
import pytest
import test_browser
from test_browser import open_page, shot

from cgledger.api.app import create_app
from cgledger.domain.vasl_board import map_group_of

# tests/test_browser.py's fixtures, shared: chromium, a live server on the
# module's settings, a fresh browser profile per test.
browser = test_browser.browser
server = test_browser.server
browser_context = test_browser.browser_context

GRID = {"id": "T", "title": "Test crossroads", "columns": "A-F", "rows": [1, 5]}
MAP = "#editor-map"
#: A chart pasted with one bad cell: row 2's cpp (spreadsheet cell C3).
BAD_CSV = "id,name,cpp,cg_max\nI1,Inf Pltn,4,6\nI2,MMG Pltn,four,2\n"


def _hex(page: Any, hx: str) -> str:
    return f'{MAP} g[data-hex="{hx}"]'


def _checked(page: Any, before: int) -> str:
    """Wait for a validation answer after ``before`` answers; its state."""
    page.wait_for_function(
        "n => { const v = document.getElementById('validation');"
        " return Number(v.dataset.checks || 0) > n && v.dataset.state !== 'pending'; }",
        arg=before,
        timeout=20_000,
    )
    return str(page.get_attribute("#validation", "data-state"))


def _checks(page: Any) -> int:
    return int(page.get_attribute("#validation", "data-checks") or 0)


def _brush(page: Any, kind: str) -> None:
    page.check(f"input[name=brush][value={kind}]")


def _click(page: Any, hx: str) -> str:
    """Click hex ``hx`` on the map; its marks as the page says them."""
    clicks = int(page.get_attribute("body", "data-clicks") or 0)
    page.click(_hex(page, hx))
    page.wait_for_function("n => Number(document.body.dataset.clicks) > n", arg=clicks)
    return str(page.get_attribute(_hex(page, hx), "data-marks") or "")


def _validated(server: str, doc: Any, map_group: str | None = None) -> dict[str, Any]:
    r = httpx.post(
        f"{server}/v1/definition-tools/validate?ruleset=kgp",
        json={"definition": doc, "map_group": map_group},
        timeout=15,
    )
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


def test_a_definition_from_a_grid_to_a_campaign(
    browser_context: Any, server: str, tmp_path: Path
) -> None:
    page = open_page(browser_context, server + "/editor")
    # The grid: every hex of it, as the map-group tool makes it.
    page.fill("#grid-id", GRID["id"])
    page.fill("#grid-title", GRID["title"])
    page.fill("#grid-columns", GRID["columns"])
    page.fill("#grid-row-first", "1")
    page.fill("#grid-row-last", "5")
    before = _checks(page)
    page.click("#grid-make")
    assert _checked(page, before) == "valid"
    made = httpx.post(f"{server}/v1/definition-tools/map-group", json=GRID).json()
    drawn = page.eval_on_selector_all(f"{MAP} g[data-hex]", "gs => gs.map(g => g.dataset.hex)")
    assert sorted(drawn) == sorted(h["hex"] for h in made["hexes"])

    # Each mark with the rule its ruleset names beside it.
    assert "8.6033" in page.text_content("[data-brush=strategic]")
    assert "8.6057" in page.text_content("[data-brush=building]")
    assert "SSR CG6" in page.text_content("[data-brush=entry]")
    _brush(page, "strategic")
    page.fill("#brush-lvp", "3")
    assert _click(page, "C3") == "Strategic; LVP 3"
    assert _click(page, "E2") == "Strategic; LVP 3"
    _brush(page, "building")
    page.fill("#brush-building", "b7")
    page.fill("#brush-levels", "0 1 2")
    assert _click(page, "D3") == "levels 0 1 2; building b7"
    page.fill("#entry-new-id", "US-W")
    page.select_option("#entry-new-side", "US")
    page.click("#entry-add")
    _brush(page, "entry")
    page.select_option("#brush-entry", "US-W")
    assert _click(page, "A1") == "Entry Area US-W (US)"
    assert _click(page, "A2") == "Entry Area US-W (US)"
    _brush(page, "control")
    page.select_option("#brush-control", "US")
    assert _click(page, "C3") == "Strategic; LVP 3; Control US"
    page.select_option("#brush-control", "German")
    assert _click(page, "E2") == "Strategic; LVP 3; Control German"
    # The hex's own fields follow the last click; a field typed there is a mark too.
    assert page.get_attribute("#hex-fields", "data-hex") == "E2"
    assert page.input_value("#hex-lvp") == "3"
    assert page.input_value("#hex-control") == "German"
    assert "8.6033" in page.text_content("#hex-fields [data-field=lvp] label")
    before = _checks(page)
    page.fill("#hex-lvp", "2")
    assert _checked(page, before) == "valid"
    assert page.get_attribute(_hex(page, "E2"), "data-marks") == "Strategic; LVP 2; Control German"

    # A chart pasted with a bad cell: that cell is flagged in the table, and
    # the definition is not valid until it is fixed.
    page.fill("#chart-paste-US", BAD_CSV)
    before = _checks(page)
    page.click("#chart-read-US")
    assert _checked(page, before) == "invalid"
    bad = "#chart-US input[aria-invalid=true]"
    page.wait_for_selector(bad)
    flagged = page.eval_on_selector_all(bad, "xs => xs.map(x => [x.dataset.row, x.dataset.col])")
    assert flagged == [["2", "2"]]
    assert "C3" in page.text_content("#chart-errors-US")
    assert "rg_chart.US" in page.text_content("#check-errors")
    shot(page, tmp_path, "editor-bad-cell")
    before = _checks(page)
    page.fill(f"{bad}", "5")
    assert _checked(page, before) == "valid"
    assert page.query_selector(bad) is None
    shown = page.get_attribute("#validation", "data-hash")

    # The download is the definition the API validates, with what was marked.
    with page.expect_download() as dl:
        page.click("#download-button")
    doc = json.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
    checked = _validated(server, doc, "T")
    assert checked["hash"] == shown
    read = httpx.post(
        f"{server}/v1/definition-tools/rg-chart?ruleset=kgp&side=US",
        content=BAD_CSV.replace("four", "5"),
        headers={"content-type": "text/csv"},
    ).json()
    assert doc["rg_chart"]["US"] == read["lines"]
    group = doc["map_groups"][0]
    hexes = {h["hex"]: h for h in group["hexes"]}
    assert hexes["C3"] == {"hex": "C3", "q": 2, "r": 2, "strategic": True, "lvp": 3}
    assert hexes["D3"]["levels"] == [0, 1, 2]
    assert hexes["D3"]["building"] == "b7"
    assert group["entry_areas"] == [{"id": "US-W", "side": "US", "hexes": ["A1", "A2"]}]
    assert group["initial_control"] == {"C3": "US", "E2": "German"}
    # The Setup Areas drawn are the API's, hex by hex (8.605-8.6057).
    statuses = page.eval_on_selector_all(
        f"{MAP} g[data-hex]",
        "gs => Object.fromEntries(gs.map(g => [g.dataset.hex, g.dataset.status]))",
    )
    assert statuses == {h["hex"]: h["status"] for h in checked["setup_areas"]["hexes"]}
    assert statuses["C4"] == "US"
    assert statuses["F2"] == "German"
    shot(page, tmp_path, "editor-grid")

    # A campaign created with it: the tokens, once; the U.S. link opens it.
    page.select_option("#use-campaign", "CG I")
    page.fill("#use-title", "from the editor")
    page.click("#create-button")
    page.wait_for_selector("#token-list li")
    links = {
        li.get_attribute("data-role"): li.query_selector("a").get_attribute("href")
        for li in page.query_selector_all("#token-list li")
    }
    assert set(links) == {"US", "German", "referee"}
    found = re.search(r"/c/([^#]+)#token=(.+)$", links["US"])
    assert found is not None
    cid, token = found[1], unquote(found[2])
    auth = {"Authorization": f"Bearer {token}"}
    held = httpx.get(f"{server}/v1/campaigns/{cid}/definition", headers=auth).json()
    assert held["hash"] == shown
    campaign = open_page(browser_context, links["US"])
    campaign.wait_for_selector('#map-group option[value="T"]', state="attached")
    assert campaign.errors == []
    assert page.errors == []


def test_a_definition_is_proposed_to_a_running_campaign(browser_context: Any, server: str) -> None:
    http = httpx.Client(base_url=server, timeout=15)
    made = http.post("/v1/campaigns", json=test_browser.KGP).json()
    link = f"{server}/c/{made['id']}#token={made['tokens']['US']}"
    page = open_page(browser_context, server + "/editor")
    page.click("#sample-load")
    assert _checked(page, 0) == "valid"
    page.fill("#doc-chits-German", "2")
    before = _checks(page)
    assert _checked(page, before) == "valid"
    page.fill("#amend-link", link)
    page.fill("#amend-reason", "fewer German chits")
    page.click("#amend-button")
    page.wait_for_selector("#amend-status[data-amendment]")
    aid = page.get_attribute("#amend-status", "data-amendment")
    auth = {"Authorization": f"Bearer {made['tokens']['German']}"}
    got = http.get(f"/v1/campaigns/{made['id']}/definition-amendments/{aid}", headers=auth).json()
    # Only what differs from the definition in force: a JSON Merge Patch.
    assert got["patch"] == {"attack_chits": {"German": 2}}
    assert got["status"] == "pending"
    http.close()
    assert page.errors == []


def test_the_1200_hex_sample_map_shows_the_api_setup_areas(
    browser_context: Any, server: str
) -> None:
    page = open_page(browser_context, server + "/editor")
    page.click("#sample-load")
    assert _checked(page, 0) == "valid"
    before = _checks(page)
    page.select_option("#group-select", "Sy")
    assert _checked(page, before) == "valid"
    sample = httpx.get(f"{server}/v1/rulesets/kgp/sample-definition").json()
    answer = _validated(server, sample, "Sy")["setup_areas"]
    statuses = page.eval_on_selector_all(
        f"{MAP} g[data-hex]",
        "gs => Object.fromEntries(gs.map(g => [g.dataset.hex, g.dataset.status]))",
    )
    assert len(statuses) == 1200
    assert statuses == {h["hex"]: h["status"] for h in answer["hexes"]}
    # Off the map: a Strategic Location removed takes its LVP and its Control
    # with it, and KGP's map group total no longer adds up (8.6033); undo.
    group = sample["map_groups"][1]
    lvp = {h["hex"]: h.get("lvp", 0) for h in group["hexes"]}
    gone = next(hx for hx in group["initial_control"] if lvp[hx])
    _brush(page, "offmap")
    before = _checks(page)
    page.fill("#hex-pick", gone)
    page.click("#hex-paint")
    assert _checked(page, before) == "invalid"
    assert page.query_selector(_hex(page, gone)) is None
    assert "8.6033" in page.text_content("#check-errors")
    before = _checks(page)
    page.click("#undo-button")
    assert _checked(page, before) == "valid"
    marks = page.get_attribute(_hex(page, gone), "data-marks")
    assert marks.endswith(f"Control {group['initial_control'][gone]}")


def _vasl_route() -> bool:
    return any(
        getattr(r, "path", "") == "/v1/definition-tools/vasl-board" for r in create_app().routes
    )


NO_VASL = pytest.mark.skipif(
    not _vasl_route(), reason="POST /v1/definition-tools/vasl-board is not built here"
)


@NO_VASL
def test_a_vasl_archive_the_tool_cannot_read_shows_its_422(
    browser_context: Any, server: str, tmp_path: Path
) -> None:
    bad = tmp_path / "board.zip"
    bad.write_bytes(b"not a zip archive")
    page = open_page(browser_context, server + "/editor")
    page.set_input_files("#vasl-file", str(bad))
    page.wait_for_selector("#vasl-status.error")
    assert page.text_content("#vasl-status").startswith("422")
    assert page.get_attribute("#validation", "data-state") == "empty"  # nothing loaded


@NO_VASL
def test_a_vasl_archive_starts_a_definition(
    browser_context: Any, server: str, tmp_path: Path
) -> None:
    """The board's hexes as the importer answers them (its tests' archives,
    tests/vasl_boards.py), a building's levels and a hex no unit may enter
    drawn, and the importer's notes listed."""
    import vasl_boards as vb  # the importer's own test archives (its branch)

    made = tmp_path / "board.zip"
    made.write_bytes(
        vb.board(cells={"A1": (1, vb.CODE["Stone Building, 2 Level"]), "B1": (0, vb.CODE["Water"])})
    )
    answer = httpx.post(
        f"{server}/v1/definition-tools/vasl-board",
        content=made.read_bytes(),
        headers={"content-type": "application/zip"},
    ).json()
    page = open_page(browser_context, server + "/editor")
    page.set_input_files("#vasl-file", str(made))
    assert _checked(page, 0) == "valid"
    drawn = page.eval_on_selector_all(f"{MAP} g[data-hex]", "gs => gs.map(g => g.dataset.hex)")
    assert sorted(drawn) == sorted(h["hex"] for h in map_group_of(answer)["hexes"])
    marks = "levels 0 1 2; Stone Building, 2 Level; ground level 1"  # what the map holds, shown
    assert page.get_attribute(_hex(page, "A1"), "data-marks") == marks
    assert page.get_attribute(_hex(page, "B1"), "data-marks") == "not Enterable; Water"
    assert page.locator("#vasl-notes li").count() == len(answer["notes"])
    assert page.errors == []


def test_a_definition_file_is_opened_and_a_broken_one_named(
    browser_context: Any, server: str, tmp_path: Path
) -> None:
    """A file saved before opens as it was (the same hash); a file the page
    cannot draw opens too, and the check names what is wrong with it."""
    sample = httpx.get(f"{server}/v1/rulesets/kgp/sample-definition").json()
    sample["title"] = "our copy"
    good = tmp_path / "ours.json"
    good.write_text(json.dumps({"definition": sample, "hash": "x"}), encoding="utf-8")
    page = open_page(browser_context, server + "/editor")
    page.set_input_files("#definition-file", str(good))
    assert _checked(page, 0) == "valid"
    assert page.get_attribute("#validation", "data-hash") == _validated(server, sample)["hash"]
    assert page.input_value("#doc-title") == "our copy"
    broken = copy.deepcopy(sample)
    broken["map_groups"][0]["hexes"] = "all of them"
    bad = tmp_path / "broken.json"
    bad.write_text(json.dumps(broken), encoding="utf-8")
    before = _checks(page)
    page.set_input_files("#definition-file", str(bad))
    assert _checked(page, before) == "invalid"
    assert "definition.map_groups.0.hexes" in page.text_content("#check-errors")
    assert page.input_value("#group-select") == "Sy"  # the one it can draw
    assert page.errors == []
