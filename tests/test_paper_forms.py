"""The paper forms (DESIGN §12; issue 27 item 4): the CG Roster and the RG
Purchase Record on the campaign page with the columns of the paper forms, as
a player files them, and printable.

Over the API: every answer names its paper columns (``paper``) with the rule
that defines each, in the ruleset's own numbering, the same for every role;
a roster line carries the LVP and Win of its CG scenario (8.6032-8.6033), as
``GET /lvp`` gives them. In headless chromium (fixtures as in
tests/test_browser.py): the page's headings are the paper's, each with a
tooltip and an accessible description naming its rule; each cell is the API's
value for the viewing role (US, German, referee); the opponent sees a secret
purchase as a stub and no hidden value; FPP, Fortifications (bought and set
up) and Recon show once bought; and printing shows the forms alone, ruled
in black, one form a page.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import Game, created, ok
from fastapi.testclient import TestClient
from test_browser import (
    KGP,
    Remote,
    browser,
    browser_context,
    open_page,
    paper_lines,
    server,
    settle,
)

__all__ = ["browser", "browser_context", "server"]  # the fixtures, used by name

ROLES = ("US", "German", "referee")
#: KGP with CPP enough for a Fortifications RG (F1), an MG Section (HW1) and Recon.
RICH = {**KGP, "initial_cpp": {"German": 40, "US": 10}}


# ------------------------------------------------------------------ the API


@pytest.mark.parametrize(
    ("body", "side", "buy", "numbering"),
    [
        (RICH, "German", {"rg": "HW1", "map_group": "Sx"}, r"8\.6\d*"),
        (
            {"ruleset": "abtf", "campaign": "CG I", "start_date": "18 PM",
             "initial_cpp": {"British": 10, "German": 6}},
            "British", {"rg": "I1", "cpp": 6}, r"9\.6\d*",
        ),
    ],
    ids=["kgp", "abtf"],
)  # fmt: skip
def test_every_paper_column_is_a_field_of_the_answer_and_names_its_rule(
    client: TestClient, body: dict[str, Any], side: str, buy: dict[str, Any], numbering: str
) -> None:
    game = Game(client, body)
    created(game.post(side, "/rg-purchases", buy))
    for path, items in (("/roster", "lines"), ("/rg-record", "rows")):
        views = [ok(game.get(role, f"{path}?side={side}")) for role in game.created["tokens"]]
        # The layout is the ruleset's, never the viewer's: it tells nothing of a secret.
        assert all(v["paper"] == views[0]["paper"] for v in views), path
        mine = views[list(game.created["tokens"]).index(side)]
        cols = mine["paper"]["columns"]
        assert next(c["key"] for c in cols) == "cg_date"
        assert any(c["paper"] for c in cols)
        assert mine[items]
        for col in cols:
            assert re.fullmatch(numbering, col["rule"] or ""), (path, col)
            assert col["label"], col
            assert col["text"], col
            assert all(col["key"] in item for item in mine[items]), (path, col["key"])


def test_the_sg_forms_name_their_columns_by_its_rules(client: TestClient) -> None:
    game = Game(client, {"ruleset": "sg", "campaign": "SG"})
    body = {"cvp": {"American": 10, "German": 41}, "vp": {"American": 63}, "vp_required": 55}
    created(game.post("referee", "/scenario-end", body))
    roster = ok(game.get("American", "/roster"))
    (line,) = roster["lines"]
    assert [c["key"] for c in roster["paper"]["columns"]] == roster["columns"]
    assert all(re.fullmatch(r"[23]\.\d+", c["rule"]) for c in roster["paper"]["columns"])
    assert all(c["key"] in line for c in roster["paper"]["columns"])
    record = ok(game.get("American", "/rg-record"))
    assert {c["rule"] for c in record["paper"]["columns"]} <= {"3.4", "3.6", "3.7"}


def test_a_roster_line_carries_the_lvp_and_the_winner_of_its_cg_scenario(
    client: TestClient,
) -> None:
    """8.6032: "each side records its Current-LVP Total in the upper half of
    the 'LVP' column, and the winning side in the 'Win' column"; 8.6033: the
    CG-LVP Total below it. Public (GET /lvp), so every role reads the same."""
    game = Game(client, RICH)
    before = game.version()
    game.end_scenario()
    game.next_date()
    (row,) = ok(game.get("US", "/lvp"))["rows"]
    for role in ROLES:
        for side in ("US", "German"):
            first, new = ok(game.get(role, f"/roster?side={side}"))["lines"]
            assert first["cg_date"] == row["cg_date"]
            assert (first["current_lvp"], first["cg_lvp"], first["win"]) == (
                row["current_lvp"][side], row["cg_lvp"][side], row["winner"],
            )  # fmt: skip
            assert first["current_lvp"] > 0  # the sample map's Locations are worth LVP
            assert (new["current_lvp"], new["cg_lvp"], new["win"]) == (None, None, None)
    # As of an event before the CG-Scenario End, the line has no LVP yet.
    (then,) = ok(game.get("US", f"/roster?side=US&at={before}"))["lines"]
    assert then["current_lvp"] is None


# ------------------------------------------------------------------ the page


# The browser and the live server: test_browser.py's fixtures (imported above).


@pytest.fixture
def remote(server: str) -> Iterator[Remote]:
    game = Remote(server, RICH)
    try:
        yield game
    finally:
        game.close()


#: What a sheet of the page shows: its headings (column, tooltip, the text of
#: the element that describes it), the cells of each row (text only: a "roll
#: it" button is not the value) and its stubs.
READ = """(sel) => {
  const root = document.querySelector(sel);
  const table = root.querySelector("table.paper:not(.forts)");
  if (!table) return { headers: [], rows: [], stubs: [] };
  const own = (td) => [...td.childNodes].filter((n) => n.nodeType === 3)
    .map((n) => n.textContent).join("").trim();
  return {
    // In the order they stand, left to right (a heading without a group spans both rows).
    headers: [...table.querySelectorAll("thead th[data-col]")].map((th) => ({
      col: th.dataset.col, label: th.firstChild.textContent, title: th.title,
      described: document.getElementById(th.getAttribute("aria-describedby"))?.textContent || "",
      left: th.getBoundingClientRect().left,
    })).sort((a, b) => a.left - b.left),
    rows: [...table.querySelectorAll("tbody tr:not(.redacted)")].map((tr) =>
      Object.fromEntries([...tr.querySelectorAll("td")].map((td) => [td.dataset.col, own(td)]))),
    stubs: [...table.querySelectorAll("tbody tr.redacted")]
      .map((tr) => [Number(tr.dataset.seq), tr.textContent]),
  };
}"""


def sheet(page: Any, card: str, side: str) -> dict[str, Any]:
    kind = "roster" if card == "rosters" else "record"
    found: dict[str, Any] = page.evaluate(READ, f"#{card} .{kind}[data-side='{side}']")
    return found


def _scene(remote: Remote) -> dict[str, int]:
    """19 AM: the German buys F1 (5 FPP) in secret and HW1 in the open, then
    two "?" in 8.621; the U.S. buys I1 in the open."""
    seqs = {
        "F1": remote.post("German", "/rg-purchases", {"rg": "F1", "map_group": "Sx"})["seq"],
        "HW1": remote.post(
            "German", "/rg-purchases", {"rg": "HW1", "map_group": "Sx", "secret": False}
        )["seq"],
    }
    remote.post("US", "/rg-purchases", {"rg": "I1", "map_group": "Sx", "secret": False})
    remote.advance("German", "8.621")
    items = [{"type": "dummy", "count": 2}]
    seqs["forts"] = remote.post("German", "/fortification-purchases", {"items": items})["seq"]
    return seqs


def check_sheets(
    page: Any, remote: Remote, role: str, sides: tuple[str, ...] = ("US", "German")
) -> None:
    """Each side's roster and record on ``role``'s page are the API's answers
    to ``role``: the paper's columns, each heading naming its rule, each cell
    the API's value (or "hidden"), each secret purchase a stub."""
    for side in sides:
        roster = remote.get(role, f"/roster?side={side}")
        record = remote.get(role, f"/rg-record?side={side}")
        for card, view, items in (("rosters", roster, "lines"), ("purchases", record, "rows")):
            shown = sheet(page, card, side)
            cols = view["paper"]["columns"]
            if not view[items]:
                assert shown["headers"] == [], (card, side)  # "no line yet", "nothing bought yet"
                continue
            assert [hd["col"] for hd in shown["headers"]] == [c["key"] for c in cols], card
            for hd, col in zip(shown["headers"], cols, strict=True):
                assert hd["label"] == col["label"]
                assert hd["title"].startswith(f"{col['rule']} {col['label']}: "), hd
                assert col["rule"] in hd["described"], hd
                assert col["text"] in hd["described"], hd
            assert shown["rows"] == paper_lines(view, items), (role, side, card)
        stubs = [r["seq"] for r in record["rows"] if r.get("redacted")]
        assert [seq for seq, _ in sheet(page, "purchases", side)["stubs"]] == stubs
        assert all(
            text.endswith("a secret purchase")
            for _, text in sheet(page, "purchases", side)["stubs"]
        )


def test_the_forms_show_the_paper_columns_and_the_apis_values_to_each_role(
    browser_context: Any, remote: Remote
) -> None:
    _scene(remote)
    for role in ROLES:
        page = open_page(browser_context, remote.link(role))
        settle(page, remote.get("referee")["version"])
        check_sheets(page, remote, role)
        assert page.errors == []
        page.close()
    # The RG Purchased as the paper has it: each RG's ID and its CPP, not a dump.
    page = open_page(browser_context, remote.link("German"))
    cell = "#rosters .roster[data-side='German'] td[data-col=rg_purchased]"
    assert page.inner_text(cell) == "F1 (2), HW1 (3)"
    assert not re.search(r"\b(rg|cpp|seq):", page.inner_text("#rosters"))
    page.close()


@pytest.mark.parametrize(
    ("body", "buy"),
    [
        ({"ruleset": "abtf", "campaign": "CG I", "start_date": "18 PM",
          "initial_cpp": {"British": 10, "German": 6}}, ("British", {"rg": "I1", "cpp": 6})),
        ({"ruleset": "sg", "campaign": "SG"}, None),
    ],
    ids=["abtf", "sg"],
)  # fmt: skip
def test_each_ruleset_draws_its_own_forms(
    browser_context: Any, server: str, body: dict[str, Any], buy: tuple[str, Any] | None
) -> None:
    """ABtF's 9.6xx forms and SG's VP and Purchase Points (2.9-2.92, 3.4) are
    drawn from their own ``paper`` columns, as every role sees them."""
    game = Remote(server, body)
    try:
        if buy is not None:
            game.post(buy[0], "/rg-purchases", buy[1])
        else:  # SG: a CG-Scenario End gives the American his first line (2.91-2.92)
            end = {"cvp": {"American": 10, "German": 41}, "vp": {"American": 63}, "vp_required": 55}
            game.post("referee", "/scenario-end", end)
        sides = tuple(game.created["tokens"].keys() - {"referee"})
        for role in (*sides, "referee"):
            page = open_page(browser_context, game.link(role))
            settle(page, game.get("referee")["version"])
            check_sheets(page, game, role, sides)
            assert page.errors == []
            page.close()
    finally:
        game.close()


def test_the_opponent_sees_a_secret_purchase_as_a_stub_and_no_hidden_value(
    browser_context: Any, remote: Remote
) -> None:
    seqs = _scene(remote)
    german = open_page(browser_context, remote.link("German"))
    us = open_page(browser_context, remote.link("US"))
    for page in (german, us):
        settle(page, remote.get("referee")["version"])
    # The owner's page has what the U.S. page must not.
    mine = german.inner_text("#rosters .roster[data-side=German]")
    assert "F1 (2)" in mine
    assert "dummy ×2" in mine
    assert german.locator(
        f"#purchases .record[data-side=German] tr[data-seq='{seqs['F1']}']"
    ).count()
    # The U.S. page: the secret purchase is one stub, and every value the API
    # hides says "hidden" and nothing else.
    theirs = "#purchases .record[data-side=German]"
    stub = us.locator(f"{theirs} tr.redacted[data-seq='{seqs['F1']}']")
    assert stub.count() == 1
    assert stub.locator("td").all_inner_texts() == ["19 AM", "a secret purchase"]
    # (The U.S. chart in the U.S. buy form has an F1 of its own: the German sheets only.)
    seen = us.inner_text("#rosters .roster[data-side=German]") + us.inner_text(theirs)
    for secret in ("F1", "Sample Fortifications", "Dummy", "dummy"):
        assert secret not in seen, secret
    hidden = us.locator("#rosters .roster[data-side=German] td.hidden-value")
    assert hidden.count() >= 5
    assert set(hidden.all_inner_texts()) == {"hidden", "HW1 (3) + hidden"}
    line = remote.get("US", "/roster?side=German")["lines"][0]
    for col in ("fpp", "fortifications", "fpp_spent", "spent", "left"):
        assert col in line["hidden"]
        assert line[col] is None
        td = f"#rosters .roster[data-side=German] tr[data-date='19 AM'] td[data-col={col}]"
        assert us.inner_text(td) == "hidden", col
    assert us.errors == []
    assert german.errors == []


def _set_up_a_dummy(remote: Remote) -> tuple[str, str]:
    """19 PM: the German replenishes and buys Recon with 1 CPP (8.622); both
    choose Attack (a Dual Attack), then the German sets up one "?" (8.6242)."""
    remote.next_date()
    remote.advance("German", "8.622")
    remote.post("German", "/recon", {"cpp": 1})
    for side in ("US", "German"):
        remote.advance(side, "8.623")
    for side in ("US", "German"):
        remote.post(side, "/initiative", {"chit": "attack"})
    for side in ("US", "German"):
        remote.advance(side, "8.624")
    areas = remote.get("German", "/setup-areas?map_group=Sx")["areas"]
    hexes = [hx for a in areas if a["side"] == "German" for hx in a["hexes"]]
    body = {"map_group": "Sx", "items": [{"type": "dummy", "hex": hexes[1]}]}
    return str(remote.post("German", "/fortification-setups", body)["seq"]), hexes[1]


def test_fpp_fortifications_and_recon_show_once_bought_and_set_up(
    browser_context: Any, remote: Remote
) -> None:
    _scene(remote)
    setup, hex_id = _set_up_a_dummy(remote)
    german = open_page(browser_context, remote.link("German"))
    us = open_page(browser_context, remote.link("US"))
    for page in (german, us):
        settle(page, remote.get("referee")["version"])
    for role, page in (("German", german), ("US", us)):
        check_sheets(page, remote, role)
    roster = remote.get("German", "/roster?side=German")
    first, new = roster["lines"]
    assert (first["fpp"], first["fpp_spent"], first["fpp_forfeit"]) == (5, 2, 3)
    assert new["recon_cpp"] == 1
    assert new["recon"] is not None

    def cell(page: Any, date: str, col: str) -> str:
        text: str = page.inner_text(
            f"#rosters .roster[data-side=German] tr[data-date='{date}'] td[data-col={col}]"
        )
        return text

    assert cell(german, "19 AM", "fortifications") == "dummy ×2"
    assert [cell(german, "19 AM", c) for c in ("fpp", "fpp_spent", "fpp_forfeit")] == [
        "5", "2", "3",
    ]  # fmt: skip
    assert cell(german, "19 PM", "recon") == str(new["recon"])
    assert cell(german, "19 PM", "recon_cpp") == "1"
    heads = german.locator("#rosters .roster[data-side=German] th[data-col]")
    titles = dict(heads.evaluate_all("(t) => t.map((th) => [th.dataset.col, th.title])"))
    assert titles["fortifications"].startswith("8.621 Fortifications:")
    assert titles["recon"].startswith("8.622 Recon:")
    assert titles["current_lvp"].startswith("8.6032 LVP:")
    # What was set up (8.6242): the owner reads the Location, the opponent a stub.
    forts = "#purchases .record[data-side=German] .forts-set-up"
    assert f"dummy {hex_id}" in german.inner_text(f"{forts} tr[data-seq='{setup}']")
    assert "8.6242" in german.inner_text(f"{forts} h4")
    theirs = us.inner_text(f"{forts} tr.redacted[data-seq='{setup}']")
    assert "a secret setup record" in theirs
    assert hex_id not in us.inner_text(forts)
    assert "dummy" not in us.inner_text(forts)
    assert german.errors == []
    assert us.errors == []


#: The computed style of each selector's first match (``None``: no match).
STYLES = """(pairs) => pairs.map(([sel, prop]) => {
  const el = document.querySelector(sel);
  return el ? getComputedStyle(el).getPropertyValue(prop) : null;
})"""


def _styles(page: Any, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], str | None]:
    got = page.evaluate(STYLES, [list(p) for p in pairs])
    return dict(zip(pairs, got, strict=True))


def test_printing_gives_the_paper_forms_alone(browser_context: Any, remote: Remote) -> None:
    _scene(remote)
    page = open_page(browser_context, remote.link("US"))
    settle(page, remote.get("referee")["version"])
    # The button is labelled and prints (window.print, stubbed here).
    button = page.get_by_role("button", name=re.compile("^print the forms"))
    assert button.is_visible()
    page.evaluate("() => { window.printed = 0; window.print = () => { window.printed += 1; }; }")
    button.click()
    assert page.evaluate("() => window.printed") == 1
    controls = [
        "#print-forms", "#buy-form", "#seal-batch", "#map", "#log", "#log-older",
        "#dice", "#reph", "#requests", "#export", "header.bar", "#control-form",
    ]  # fmt: skip
    shown = _styles(page, [(sel, "display") for sel in controls])
    assert all(v not in (None, "none") for v in shown.values()), shown

    page.emulate_media(media="print")
    styles = _styles(
        page,
        [(sel, "display") for sel in controls]
        + [
            ("#rosters .roster[data-side=US]", "display"),
            ("#purchases .record[data-side=German]", "display"),
            ("#rosters table.paper thead", "display"),
            ("#rosters .roster[data-side=US]", "break-before"),
            ("#rosters .roster[data-side=German]", "break-before"),
            ("#purchases .record[data-side=US]", "break-before"),
            ("#rosters table.paper td", "border-top-color"),
            ("#rosters table.paper td", "border-top-style"),
            ("#rosters td.hidden-value", "background-image"),
            ("#rosters td.hidden-value", "color"),
            ("#rosters .form-key", "position"),
            ("#rosters .sheet-meta", "display"),
        ],
    )
    assert {sel: styles[(sel, "display")] for sel in controls} == dict.fromkeys(controls, "none")
    assert styles[("#rosters .roster[data-side=US]", "display")] == "block"
    assert styles[("#purchases .record[data-side=German]", "display")] == "block"
    # Headings repeated on every printed page; one form a page.
    assert styles[("#rosters table.paper thead", "display")] == "table-header-group"
    assert styles[("#rosters .roster[data-side=US]", "break-before")] == "auto"
    assert styles[("#rosters .roster[data-side=German]", "break-before")] == "page"
    assert styles[("#purchases .record[data-side=US]", "break-before")] == "page"
    # Ruled in black; "hidden" says itself, with no grey pattern behind it.
    assert styles[("#rosters table.paper td", "border-top-color")] == "rgb(0, 0, 0)"
    assert styles[("#rosters table.paper td", "border-top-style")] == "solid"
    assert styles[("#rosters td.hidden-value", "background-image")] == "none"
    assert styles[("#rosters td.hidden-value", "color")] == "rgb(0, 0, 0)"
    # What each column holds prints under the form (a tooltip does not print).
    assert styles[("#rosters .form-key", "position")] == "static"
    assert styles[("#rosters .sheet-meta", "display")] == "block"
    pdf = page.pdf(format="A4", landscape=True)
    assert pdf.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page\b", pdf))
    assert pages >= 4, pages  # two CG Rosters and two RG Purchase Records
    page.emulate_media(media="screen")
    key = ("#rosters .form-key", "position")
    assert _styles(page, [key])[key] == "absolute"
    assert page.errors == []
    page.close()
