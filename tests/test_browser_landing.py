"""The landing page creates a campaign with everything POST /v1/campaigns
takes (DESIGN §12 "A CG is played from the page alone"): the start CG Date,
each side's initial CPP, the definition and its readings (DESIGN §14), each
with the rule that fixes it; the API's refusal shows beside the form and
nothing is created. Headless Debian chromium, as in tests/test_browser.py,
whose fixtures this module shares."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx2 as httpx
import pytest
import test_browser
from test_browser import open_page, shot

# tests/test_browser.py's fixtures, shared: chromium, a live server on the
# module's settings, a fresh browser profile per test.
browser = test_browser.browser
server = test_browser.server
browser_context = test_browser.browser_context

READY = "#create-form[data-loaded={}]"


def _choose(page: Any, ruleset: str, campaign: str) -> None:
    page.select_option("#ruleset", ruleset)
    page.wait_for_selector(READY.format(ruleset), state="attached")
    page.select_option("#campaign", campaign)


def _created(page: Any) -> tuple[str, dict[str, str]]:
    """The campaign id and each role's token, read off the page's links."""
    page.wait_for_selector("#token-list li")
    tokens = {}
    cid = ""
    for li in page.query_selector_all("#token-list li"):
        href = li.query_selector("a").get_attribute("href")
        found = re.search(r"/c/([0-9a-f-]+)#token=(.+)$", href)
        assert found is not None, href
        cid, tokens[li.get_attribute("data-role")] = found[1], unquote(found[2])
    assert len(tokens) == 3, tokens  # each side and the referee
    assert "referee" in tokens
    return cid, tokens


def _creation(request: Any) -> bool:
    return bool(request.method == "POST" and request.url.endswith("/v1/campaigns"))


def _upload(page: Any, path: Path) -> None:
    """Choose a definition file and wait until the page has read it."""
    before = int(page.get_attribute("#create-form", "data-file-loads") or 0)
    page.set_input_files("#definition-file", str(path))
    page.wait_for_function(
        "n => Number(document.getElementById('create-form').dataset.fileLoads || 0) > n",
        arg=before,
    )


def _api(server: str, token: str) -> httpx.Client:
    return httpx.Client(base_url=server, timeout=15, headers={"Authorization": f"Bearer {token}"})


def _posts(page: Any) -> list[Any]:
    """Every answer to the page's POST /v1/campaigns, as it comes."""
    seen: list[Any] = []
    page.on(
        "response",
        lambda r: (
            seen.append(r)
            if r.request.method == "POST" and r.url.endswith("/v1/campaigns")
            else None
        ),
    )
    return seen


def _rg(line: dict[str, Any]) -> str:
    """How a purchase names a chart line: ABtF's German lines carry their KG (9.6178)."""
    return f"{line['id']}({line['kg']})" if line.get("kg") else str(line["id"])


# ------------------------------------------------------------ KGP CG I, every field


def test_kgp_cg_i_is_created_with_its_start_date_cpp_and_a_reading(
    browser_context: Any, server: str, tmp_path: Path
) -> None:
    readings = httpx.get(f"{server}/v1/rulesets/kgp/readings").json()
    sample = httpx.get(f"{server}/v1/rulesets/kgp/sample-definition").json()
    pick = readings[1]  # a reading, and a choice that is not its default
    other = next(c for c in pick["choices"] if c != pick["default"])

    page = open_page(browser_context, server + "/")
    _choose(page, "kgp", "CG I")
    # The start CG Date is the Initial Scenario's, fixed by 8.51.
    assert page.input_value("#start-date") == "19 AM"
    assert page.is_disabled("#start-date")
    assert "8.51" in page.text_content("#start-date-rule")
    # Initial CPP: the rules that fix them beside the fields, each side prefilled
    # with the price of its chart's first RG (what the purchase form offers first).
    legend = page.text_content("#initial-cpp legend")
    assert "8.51" in legend
    assert "8.616" in legend
    assert "8.619" in page.text_content("#initial-cpp-rule")
    for side in ("US", "German"):
        assert page.input_value(f"#initial-cpp-{side}") == str(sample["rg_chart"][side][0]["cpp"])
    # Every reading: a labelled select with its rule, the seed's words, the
    # default preselected with its why.
    for r in readings:
        sel = f"#reading-{r['id']}"
        assert page.input_value(sel) == r["default"]
        label = page.text_content(f"label[for=reading-{r['id']}]")
        assert r["rule"] in label
        assert r["id"] in label
        assert r["text"] in page.text_content(f"{sel}-text")
        assert r["why"] in page.text_content(f"{sel}-why")
        assert r["choices"][r["default"]] in page.text_content(f"{sel}-meaning")
        assert (
            page.get_attribute(sel, "aria-describedby")
            == f"{sel[1:]}-meaning {sel[1:]}-text {sel[1:]}-why"
        )

    page.fill("#title", "Stoumont")
    page.fill("#initial-cpp-German", "7")
    page.fill("#initial-cpp-US", "3")
    page.select_option(f"#reading-{pick['id']}", other)
    assert pick["choices"][other] in page.text_content(f"#reading-{pick['id']}-meaning")
    with page.expect_request(_creation) as req:
        page.click("#create-button")
    sent = json.loads(req.value.post_data)
    cid, tokens = _created(page)
    shot(page, tmp_path, "landing-kgp")
    # Only the choice that differs from its default, merged into the sample.
    assert sent["definition"]["readings"] == {pick["id"]: other}
    assert sent["initial_cpp"] == {"US": 3, "German": 7}
    assert "start_date" not in sent  # fixed by 8.51: the API takes the CG's own

    with _api(server, tokens["referee"]) as ref:
        view = ref.get(f"/v1/campaigns/{cid}").json()
        assert (view["campaign"], view["cg_date"], view["title"]) == ("CG I", "19 AM", "Stoumont")
        definition = ref.get(f"/v1/campaigns/{cid}/definition").json()["definition"]
        assert definition["readings"] == {pick["id"]: other}
        assert {s: [(x["id"], x["cpp"]) for x in c] for s, c in definition["rg_chart"].items()} == {
            s: [(x["id"], x["cpp"]) for x in c] for s, c in sample["rg_chart"].items()
        }  # the sample's
        for side, cpp in (("German", 7), ("US", 3)):
            line = ref.get(f"/v1/campaigns/{cid}/roster?side={side}").json()["lines"][0]
            assert (line["cg_date"], line["start"], line["total"]) == ("19 AM", cpp, cpp)
    page.close()


def test_defaults_alone_send_no_definition_and_the_servers_sample_is_used(
    browser_context: Any, server: str
) -> None:
    page = open_page(browser_context, server + "/")
    _choose(page, "kgp", "CG II")
    with page.expect_request(_creation) as req:
        page.click("#create-button")
    sent = json.loads(req.value.post_data)
    cid, tokens = _created(page)
    assert "definition" not in sent  # every reading on its default
    with _api(server, tokens["US"]) as us:
        assert us.get(f"/v1/campaigns/{cid}").json()["cg_date"] == "20 PM"
        assert us.get(f"/v1/campaigns/{cid}/definition").json()["definition"]["readings"] == {}
    page.close()


def test_abtf_starts_on_the_cg_date_chosen(browser_context: Any, server: str) -> None:
    """9.52 (CG II) is not in the seed: the player picks the start CG Date off the
    9.6161 chart; a CPP typed stays when the date changes."""
    page = open_page(browser_context, server + "/")
    _choose(page, "abtf", "CG II")
    assert not page.is_disabled("#start-date")
    assert "9.52" in page.text_content("#start-date-rule")
    assert "9.6161" in page.text_content("#start-date-rule")
    page.fill("#initial-cpp-British", "11")
    page.select_option("#start-date", "18 AM")
    page.wait_for_function(
        "() => document.getElementById('initial-cpp-rule').textContent.includes('18 AM')"
    )
    assert page.input_value("#initial-cpp-British") == "11"
    with page.expect_request(_creation) as req:
        page.click("#create-button")
    sent = json.loads(req.value.post_data)
    cid, tokens = _created(page)
    assert sent["start_date"] == "18 AM"
    with _api(server, tokens["British"]) as british:
        assert british.get(f"/v1/campaigns/{cid}").json()["cg_date"] == "18 AM"
        line = british.get(f"/v1/campaigns/{cid}/roster?side=British").json()["lines"][0]
        assert (line["cg_date"], line["start"]) == ("18 AM", 11)
    page.close()


# ------------------------------------------------------------ refusals


def test_a_negative_cpp_shows_the_apis_refusal_and_creates_nothing(
    browser_context: Any, server: str
) -> None:
    page = open_page(browser_context, server + "/")
    answers = _posts(page)
    _choose(page, "kgp", "CG I")
    page.fill("#initial-cpp-German", "-3")
    page.click("#create-button")
    page.wait_for_selector("#create-status.error")
    status = page.text_content("#create-status")
    assert "422" in status
    assert "initial_cpp.German" in status
    assert page.text_content("#create-errors li[data-field='initial_cpp.German']")
    assert page.get_attribute("#initial-cpp-German", "aria-invalid") == "true"
    assert page.query_selector_all("#token-list li") == []
    assert [a.status for a in answers] == [422]
    # Corrected, the same form creates the campaign and the mark goes.
    page.fill("#initial-cpp-German", "3")
    page.click("#create-button")
    _created(page)
    assert [a.status for a in answers] == [422, 201]
    assert page.query_selector_all("#create-form [aria-invalid]") == []
    page.close()


def test_a_definition_files_readings_show_and_a_bad_one_is_refused(
    browser_context: Any, server: str, tmp_path: Path
) -> None:
    """The file's readings preselect the selects; one the ruleset lacks is sent
    as it is, and the API's 422 names it; nothing is created."""
    readings = httpx.get(f"{server}/v1/rulesets/kgp/readings").json()
    sample = httpx.get(f"{server}/v1/rulesets/kgp/sample-definition").json()
    pick = readings[0]
    other = next(c for c in pick["choices"] if c != pick["default"])
    doc = tmp_path / "def.json"
    doc.write_text(
        json.dumps({**sample, "readings": {pick["id"]: other, "no-such-reading": "x"}}),
        encoding="utf-8",
    )
    page = open_page(browser_context, server + "/")
    answers = _posts(page)
    _choose(page, "kgp", "CG I")
    _upload(page, doc)
    assert page.input_value(f"#reading-{pick['id']}") == other
    assert page.is_checked("input[name=definition][value=file]")
    page.click("#create-button")
    page.wait_for_selector("#create-status.error")
    assert "definition.readings.no-such-reading" in page.text_content("#create-status")
    assert page.get_attribute("#definition-file", "aria-invalid") == "true"
    assert page.query_selector_all("#token-list li") == []
    assert [a.status for a in answers] == [422]

    # Without the bad id, and the reading put back on its default: the file
    # goes with no readings, as the form shows.
    good = tmp_path / "def2.json"
    good.write_text(json.dumps({**sample, "readings": {pick["id"]: other}}), encoding="utf-8")
    _upload(page, good)
    assert page.input_value(f"#reading-{pick['id']}") == other
    page.select_option(f"#reading-{pick['id']}", pick["default"])
    with page.expect_request(_creation) as req:
        page.click("#create-button")
    assert "readings" not in json.loads(req.value.post_data)["definition"]
    _created(page)
    assert [a.status for a in answers] == [422, 201]
    page.close()


# ------------------------------------------------------------ defaults that play


@pytest.mark.parametrize(("ruleset", "campaign"), [("kgp", "CG I"), ("abtf", "CG I"), ("sg", "SG")])
def test_with_the_defaults_the_sample_charts_first_purchase_succeeds(
    browser_context: Any, server: str, ruleset: str, campaign: str
) -> None:
    """Nothing changed on the form: the campaign starts on its first CG Date
    and each side can buy the first RG of its sample chart (the campaign
    page's purchase form offers it first). SG keeps no CPP: the American buys
    with the Purchase Points of 2.92 at the first CG-Scenario End."""
    info = next(r for r in httpx.get(f"{server}/v1/rulesets").json() if r["id"] == ruleset)
    cg = next(c for c in info["campaigns"] if c["name"] == campaign)
    sample = httpx.get(f"{server}/v1/rulesets/{ruleset}/sample-definition").json()
    page = open_page(browser_context, server + "/")
    _choose(page, ruleset, campaign)
    start = cg["initial_date"] or cg["cg_dates"][0]
    assert page.input_value("#start-date") == start
    with page.expect_request(_creation) as req:
        page.click("#create-button")
    sent = json.loads(req.value.post_data)
    cid, tokens = _created(page)
    page.close()
    assert (sent.get("start_date") is None) == (cg["initial_date"] is not None)
    group = sample["map_groups"][0]["id"] if len(sample["map_groups"]) > 1 else None
    url = f"/v1/campaigns/{cid}"
    with _api(server, tokens["referee"]) as ref:
        assert ref.get(url).json()["cg_date"] == start
        if ruleset == "sg":
            assert "initial_cpp" not in sent
            # 2.92 EX: 63 VP scored, 55 needed, 41 CVP suffered: 33 Purchase Points.
            end = {"cvp": {"American": 10, "German": 41}, "vp": {"American": 63}, "vp_required": 55}
            assert ref.post(f"{url}/scenario-end", json=end).status_code == 201
    if ruleset == "sg":
        players = {side: _api(server, tokens[side]) for side in info["sides"]}
        _walk(players, url, [st["rule"] for st in info["reph_steps"]], "3.4")
        for player in players.values():
            player.close()
    for side, chart in sample["rg_chart"].items():
        first = chart[0]
        with _api(server, tokens[side]) as player:
            body = {"rg": _rg(first), **({"map_group": group} if group else {})}
            bought = player.post(f"{url}/rg-purchases", json=body)
            assert bought.status_code == 201, bought.text
            if ruleset != "sg":
                assert sent["initial_cpp"][side] == first["cpp"]
                line = player.get(f"{url}/roster?side={side}").json()["lines"][0]
                assert (line["cg_date"], line["spent"], line["left"]) == (start, first["cpp"], 0)


def _walk(players: dict[str, httpx.Client], url: str, order: list[str], to: str) -> None:
    """SG 1.2: both sides, American first, complete each step in turn up to
    ``to`` (a step that does not apply to a side is passed by the next one),
    as tests/test_purchases_sg.py walks."""
    ref = next(iter(players.values()))
    for _ in range(80):
        current = ref.get(f"{url}/reph").json()["current"]
        german = current["German"]
        if current["American"] == to and german in order and order.index(german) >= order.index(to):
            return
        for side, player in players.items():
            at = current[side]
            for step in order[order.index(at) + 1 : order.index(to) + 2] if at in order else ():
                r = player.post(f"{url}/reph/advance", json={"to": step})
                if r.status_code == 201 or "does not apply" not in r.text:
                    break
    raise AssertionError(f"could not reach {to}")
