"""Two players play every RePh step from their pages (DESIGN §8, §12, §13;
issue 27): no API call acts for them. The API only creates the campaign and
reads back what each role may see, to compare with the RePh card, the CG
Rosters and the RG Purchase Records.

KGP CG I: the Initial Scenario completed ("complete all steps"), its
CG-Scenario End sent by one side and approved by the other, 19 PM begun by
both sides' New CG Date, CPP Replenishment, RG bought and their secret rolls
(offered once, on the RG Purchase Record), Fortifications bought and set up in
two map groups in one record (8.6242), Recon, "complete all steps" stopping
before each purchase step with nothing bought, the Initiative chits, Control
proposed by one side and approved on the other's Proposals, and the next
scenario end. Each answer, or refusal, shows next to the control used.
ABtF and SG: one CG Date each, begun from the players' pages (SG: the browser
refuses an empty VP field).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_browser import KGP, Remote, _c1, browser, open_page, server, settle
from test_paper_forms import check_sheets

__all__ = ["browser", "server"]  # the fixtures, used by name


@pytest.fixture
def contexts(browser: Any) -> Iterator[Any]:
    """A browser profile per role: each player in a browser of their own."""
    made = [browser.new_context() for _ in range(3)]
    try:
        yield made
    finally:
        for context in made:
            context.close()


def card_statuses(page: Any) -> dict[str, dict[str, str]]:
    """Each step's status per side, as the RePh card shows it (text)."""
    found: dict[str, dict[str, str]] = page.evaluate(
        """() => {
            const out = {};
            for (const tr of document.querySelectorAll('#reph table.steps tr[data-rule]')) {
                out[tr.dataset.rule] = {};
                for (const td of tr.querySelectorAll('td[data-side]')) {
                    out[tr.dataset.rule][td.dataset.side] = td.textContent;
                }
            }
            return out;
        }"""
    )
    return found


def assert_card(page: Any, remote: Remote, role: str) -> None:
    """The card shows every step with the statuses GET /reph gives ``role``,
    and each side's current step."""
    reph = remote.get(role, "/reph")
    settle(page, reph["version"])
    expected = {st["rule"]: st["status"] for st in reph["steps"]}
    assert card_statuses(page) == expected
    for side, at in reph["current"].items():
        shown = page.inner_text(f"#reph tr[data-side={side}] td.step")
        assert shown == "all steps done" if at == "scenario" else shown.startswith(at), shown
    current = page.locator("#reph table.steps tr[aria-current=step]")
    mine = [st["rule"] for st in reph["steps"] if "current" in st["status"].values()]
    if role != "referee":
        mine = [st["rule"] for st in reph["steps"] if st["status"].get(role) == "current"]
    assert [current.nth(i).get_attribute("data-rule") for i in range(current.count())] == mine


def click(page: Any, selector: str) -> None:
    """Click, and wait until the card has painted the action's answer."""
    page.click(selector)
    page.wait_for_function("() => !document.querySelector('#reph .status.info')", timeout=20_000)


def complete_all(page: Any, side: str) -> str:
    """``side`` clicks "complete all steps"; what the card says next to it."""
    click(page, f"#reph tr[data-side={side}] button[data-to=scenario]")
    slot = f"#reph-stop-{side}"
    page.wait_for_function("s => document.querySelector(s)?.textContent", arg=slot, timeout=20_000)
    text: str = page.inner_text(slot)
    return text


def complete_to(page: Any, side: str, end: str) -> list[str]:
    """``side`` clicks "complete all steps" until what it says starts with
    ``end``; every stop on the way is before a purchase step with nothing
    bought, which the next click passes. The steps it stopped before."""
    passed = []
    for _ in range(6):
        said = complete_all(page, side)
        if said.startswith(end):
            return passed
        at = page.get_attribute(f"#reph-stop-{side}", "data-rule")
        assert said.startswith(f"stopped at {at} "), said
        assert f": {at}: nothing bought" in said, said
        passed.append(at)
    raise AssertionError(f"{side} never reached {end!r}: {passed}")


def in_row(rule: str, action: str) -> str:
    return f"#reph tr.acts[data-for='{rule}'] [data-action={action}]"


def said_in(page: Any, selector: str) -> str:
    """What the status slot at ``selector`` says once it has an answer."""
    page.wait_for_function(
        "s => document.querySelector(s)?.matches('.ok, .error')", arg=selector, timeout=20_000
    )
    text: str = page.inner_text(selector)
    return text


def end_scenario(pages: dict[str, Any], remote: Remote, by: str, other: str, **vp: int) -> None:
    """``by`` sends CG-Scenario End from its page; ``other`` approves it on its own."""
    sender = pages[by]
    sender.wait_for_selector("#scenario-end", timeout=20_000)
    for name, value in vp.items():
        sender.fill(f"#scenario-end input[name={name}]", str(value))
    click(sender, "#scenario-end button[type=submit]")
    # The answer shows where the form was: in the scenario end it sent.
    sent = said_in(sender, "#reph .agreement[data-kind=scenario-end] #scenario-end-status")
    assert sent.startswith("sent"), sent
    approver = pages[other]
    approve = "#reph .agreement[data-kind=scenario-end] button.approve"
    approver.wait_for_selector(approve, timeout=20_000)
    assert f"sent by {by}" in approver.inner_text("#reph .agreement")
    click(approver, approve)
    assert remote.get(by, "/reph")["new_date_due"] is True
    # The approval took its control away: its answer shows by the CG Date.
    assert said_in(approver, "#reph-date-status") == "CG-Scenario End recorded"


def new_date(pages: dict[str, Any], remote: Remote, first: str, second: str, name: str = "") -> str:
    """Both players begin the New CG Date from their pages: the first says it
    is ready (naming the date where the players name it), the second agrees."""
    before = remote.get("referee")["cg_date"]
    page = pages[first]
    page.wait_for_selector("#new-date", timeout=20_000)
    if name:
        page.fill("#new-date-name", name)
    click(page, "#new-date")
    assert "ready" in said_in(page, "#reph .new-date #new-date-status")
    assert remote.get("referee")["cg_date"] == before
    page = pages[second]
    page.wait_for_selector("#new-date:text('agree')", timeout=20_000)
    click(page, "#new-date")
    after: str = remote.get("referee")["cg_date"]
    assert after != before
    for p in pages.values():
        p.wait_for_function(
            "d => document.getElementById('cg-date').textContent === d", arg=after, timeout=20_000
        )
    return after


def test_two_players_play_every_kgp_reph_step_from_their_pages(
    contexts: list[Any], server: str
) -> None:
    remote = Remote(server, KGP)
    try:
        us, german, referee = (
            open_page(ctx, remote.link(role))
            for ctx, role in zip(contexts, ("US", "German", "referee"), strict=True)
        )
        pages = {"US": us, "German": german}
        version = remote.get("referee")["version"]
        assert_card(us, remote, "US")
        assert_card(german, remote, "German")
        # The Initial Scenario: '†' steps only; "complete all steps" passes
        # them, stopping first before 8.619 where the side has CPP to buy with.
        passed = {side: complete_to(page, side, "all steps done") for side, page in pages.items()}
        assert passed == {"US": [], "German": ["8.619"]}, passed
        end_scenario(pages, remote, "US", "German", **{"cvp-US": 2, "cvp-German": 1})
        assert remote.get("referee", "/lvp")["rows"][-1]["cg_date"] == "19 AM"
        for side, page in pages.items():
            assert_card(page, remote, side)

        # New CG Date from the players' pages (no referee).
        assert new_date(pages, remote, "US", "German") == "19 PM"
        assert_card(us, remote, "US")

        # U.S.: each step's action in place. 8.616 CPP Replenishment.
        us.wait_for_selector(in_row("8.616", "cpp-replenishments"), timeout=20_000)
        assert us.inner_text(in_row("8.616", "cpp-replenishments")).startswith("8.616")
        click(us, in_row("8.616", "cpp-replenishments") + " button")
        assert remote.get("US", "/roster?side=US")["lines"][-1]["repl"] is not None
        # 8.619: the card sends the player to the RG Purchase Record's form.
        click_to_buy = in_row("8.619", "rg-purchases") + " button.to-buy"
        us.click(click_to_buy)
        assert us.evaluate("() => document.activeElement.closest('#buy-form') !== null")
        for rg in ("F1", "I1"):
            us.select_option("#buy-form select[name=rg]", rg)
            us.click("#buy-form button[type=submit]")
        us.click("#seal-batch")
        us.wait_for_function(
            "() => document.querySelector('#purchases-status')?.textContent.startsWith('sealed')",
            timeout=20_000,
        )
        # 8.620: the secret rolls are offered once, on the RG Purchase Record
        # with the batch they roll for; the step's row leads there.
        assert us.locator("button", has_text="roll the secret rolls").count() == 1
        us.click(in_row("8.620", "rg-determinations") + " button.to-secret-rolls")
        assert us.evaluate("() => document.activeElement.id") == "secret-rolls"
        us.click("#secret-rolls")
        # The answer, once the rolls are made (a redraw may clear the slot
        # on the way): "done", or the refusal, which fails here.
        us.wait_for_function(
            "() => ['done'].includes(document.querySelector('#purchases-status').textContent)"
            " || document.querySelector('#purchases-status').classList.contains('error')",
            timeout=20_000,
        )
        assert us.inner_text("#purchases-status") == "done"
        record = remote.get("US", "/rg-record?side=US")["rows"]
        assert [row["rg"] for row in record[-2:]] == ["F1", "I1"]
        assert all(not row["needs"] for row in record[-2:]), record
        # 8.621: Fortifications off the table, with their FPP cost shown.
        fort = in_row("8.621", "fortification-purchases")
        us.click(fort + " summary")
        label = us.inner_text(fort + " label:has(input[name=fort-foxhole-3s])")
        assert "3 FPP" in label, label
        us.fill(fort + " input[name=fort-foxhole-3s]", "1")
        us.fill(fort + " input[name=fort-dummy]", "1")
        click(us, fort + " button[type=submit]")
        assert said_in(us, fort + " > .status") == "done"
        line = remote.get("US", "/roster?side=US")["lines"][-1]
        assert line["fortifications"] == {"foxhole-3s": 1, "dummy": 1}
        # 8.622: Recon for 1 CPP.
        click(us, in_row("8.622", "recon") + " button[type=submit]")
        assert remote.get("US", "/roster?side=US")["lines"][-1]["recon_cpp"] == 1
        assert_card(us, remote, "US")
        # "complete all steps" stops at the chits, saying where and why
        # (it bought in every purchase step: none stops it).
        said = complete_all(us, "US")
        assert said.startswith("stopped at 8.623 Initiative Determination: 8.623:"), said
        assert us.get_attribute("#reph-stop-US", "data-rule") == "8.623"

        # German: "complete all steps" makes the 8.616 roll on the way (no
        # choice in it) and stops before each purchase step it could buy in,
        # nothing bought (8.621: no FPP, nothing to buy with); clicked again,
        # it passes that step, up to the chits.
        said = complete_all(german, "German")
        assert said.startswith("stopped at 8.619 Purchasing Reinforcement Groups: 8.619: "), said
        assert german.get_attribute("#reph-stop-German", "data-rule") == "8.619"
        assert remote.get("German", "/reph")["current"]["German"] == "8.619"
        assert remote.get("German", "/roster?side=German")["lines"][-1]["repl"] is not None
        assert complete_to(german, "German", "stopped at 8.623") == ["8.622"]
        assert_card(german, remote, "German")

        # 8.623: the chits, each from its own page.
        click(us, "#reph .initiative button:text('Attack')")
        click(german, "#reph .initiative button:text('Idle')")
        (chits,) = remote.get("US", "/initiative?cg_date=19%20PM")["items"]
        assert chits["scenario"] == "us-assault"
        us.wait_for_function(
            "() => document.querySelector('#reph .initiative p')"
            "?.textContent.includes('us-assault')",
            timeout=20_000,
        )
        _set_up(us, remote)
        _control_agreed(us, german, remote)
        for side, page in pages.items():
            assert complete_all(page, side) == "all steps done"
            assert_card(page, remote, side)
        # The next CG-Scenario End, sent by the German this time.
        end_scenario(pages, remote, "German", "US", **{"cvp-US": 1, "cvp-German": 0})
        for role, page in (*pages.items(), ("referee", referee)):
            assert_card(page, remote, role)
        # Each role's CG Rosters and RG Purchase Records are the API's answers
        # to it: the U.S.'s sealed batch is a stub on the German's page.
        for role, page in (*pages.items(), ("referee", referee)):
            check_sheets(page, remote, role)
        assert any(r.get("redacted") for r in remote.get("German", "/rg-record?side=US")["rows"])
        assert remote.get("referee")["version"] > version
        for page in (us, german, referee):
            assert page.errors == []
    finally:
        remote.close()


def _set_up(us: Any, remote: Remote) -> None:
    """8.6242 from the U.S. page: a Location outside its Setup Areas is
    refused next to the form; then the "?" in Sx and the Foxhole in Sy (with
    the squad-equivalents Retained there, footnote S) go in one record."""
    setup = in_row("8.624", "fortification-setups")
    us.click(setup + " summary")
    first = setup + " .fort-group:nth-child(1)"
    us.select_option(first + " select[name=map_group]", "Sx")
    us.select_option(first + " select[name=type]", "dummy")
    us.fill(first + " input[name=hex]", "C1")  # a German Setup Area
    click(us, setup + " button[type=submit]")
    slot = setup + " > .status"
    refused = said_in(us, slot)
    assert re.match(r"8\.62\d*: a Fortification must be added to a Setup Area of US", refused)
    assert us.get_attribute(slot, "data-rule") == refused.split(":", 1)[0]
    assert us.get_attribute(slot, "aria-live") == "polite"
    assert us.locator("#reph-status").count() == 0  # no status far from the form
    us.fill(first + " input[name=hex]", "B2")
    us.click(setup + " button.add-group")
    second = setup + " .fort-group:nth-child(2)"
    assert us.input_value(second + " select[name=map_group]") == "Sy"  # the group not named yet
    us.select_option(second + " select[name=type]", "foxhole-3s")
    us.fill(second + " input[name=hex]", "A24")
    us.fill(second + " input[name=retained]", "A:3")
    version = remote.get("referee")["version"]
    click(us, setup + " button[type=submit]")
    assert said_in(us, slot) == "done"
    placed = remote.get("US", "/rg-record?side=US")["fortifications"]["placed"]
    assert [(p["map_group"], [i["hex"] for i in p["items"]]) for p in placed] == [
        ("Sx", ["B2"]), ("Sy", ["A24"]),
    ]  # fmt: skip
    assert {p["seq"] for p in placed} == {version + 1}  # one sealed record for both


def _control_agreed(us: Any, german: Any, remote: Remote) -> None:
    """DESIGN §13: Control proposed from the U.S. page, approved on the
    German's Proposals card."""
    assert _c1(remote) == "German"
    us.fill("#control-form input[name=hexes]", "C1")
    us.select_option("#control-form select[name=side]", "US")
    us.click("#control-form button[type=submit]")
    assert "proposed" in said_in(us, "#control-status")
    approve = "#requests li[data-kind=control][data-status=pending] button.approve"
    german.wait_for_selector(approve, timeout=20_000)
    german.click(approve)
    german.wait_for_selector("#requests li[data-kind=control][data-status=applied]")
    assert _c1(remote) == "US"


def test_abtf_and_sg_begin_a_cg_date_from_the_players_pages(
    contexts: list[Any], server: str
) -> None:
    """ABtF (British, German) and SG (American, German, SG 1.2: the sides take
    each step in turn, and the players name each CG Date after the seed's)."""
    games: tuple[tuple[dict[str, Any], dict[str, int], str], ...] = (
        ({"ruleset": "abtf", "campaign": "CG I", "title": "abtf", "start_date": "17 N"}, {}, ""),
        (
            {"ruleset": "sg", "campaign": "SG", "title": "sg"},
            {"vp-American": 3, "vp_required": 5},
            "6 Afternoon",
        ),
    )
    for body, vp, name in games:
        remote = Remote(server, body)
        try:
            first, second = remote.get("referee")["sides"]
            pages = {
                side: open_page(ctx, remote.link(side))
                for ctx, side in zip(contexts, (first, second), strict=False)
            }
            at = remote.get("referee", "/reph")["current"]
            for side, page in pages.items():
                if at[side] == "scenario":  # SG: its Initial Scenario has no RePh step
                    done = f"#reph tr[data-side={side}] td.step:text('all steps done')"
                    page.wait_for_selector(done)
                else:
                    assert complete_all(page, side) == "all steps done"
            if vp:
                _vp_required(pages[second], remote)
            end_scenario(pages, remote, second, first, **vp)
            for side, page in pages.items():
                assert_card(page, remote, side)
            # The next RePh's steps up to the New CG Date, then the date itself.
            # "complete all steps" walks each side up to the New CG Date (in SG
            # a step or two at a time: each waits for the other's turn).
            for _ in range(40):
                if _at_new_date(remote.get("referee", "/reph"), pages):
                    break
                for side, page in pages.items():
                    said = complete_all(page, side)
                    assert said.startswith("stopped at"), said
            else:
                pytest.fail("the players did not reach the New CG Date")
            new_date(pages, remote, first, second, name)
            for side, page in pages.items():
                assert_card(page, remote, side)
                assert page.errors == []
                page.close()
        finally:
            remote.close()


def _vp_required(page: Any, remote: Remote) -> None:
    """SG 2.91: the browser refuses the scenario end with an empty VP field,
    saying what is required; nothing is sent (none is taken as 0)."""
    page.wait_for_selector("#scenario-end", timeout=20_000)
    page.click("#scenario-end button[type=submit]")
    said = page.eval_on_selector_all(
        "#scenario-end input:invalid", "els => els.map((el) => [el.name, el.validationMessage])"
    )
    assert dict(said).keys() >= {"vp_required", "vp-American"}, said
    assert dict(said)["vp_required"] == "2.91: state the VP required to win the scenario", said
    assert page.inner_text("#scenario-end-status") == ""
    assert remote.get("referee", "/reph").get("scenario_end_proposal") is None


def _at_new_date(reph: dict[str, Any], pages: dict[str, Any]) -> bool:
    joint = next(st for st in reph["steps"] if st["joint"])
    return all(joint["status"][side] == "current" for side in pages)
