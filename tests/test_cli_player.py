"""The player's commands (``cgledger roll``, ``roster``, ``log`` and
``verify --campaign``) against a live server, run in-process with ``main``
(one smoke test runs the console script)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from conftest import Game
from live import free_port, serving

from cgledger.api.models import RosterView
from cgledger.cli import main
from cgledger.client import Client
from cgledger.settings import Settings

KGP = {"ruleset": "kgp", "campaign": "CG I", "title": "cli", "initial_cpp": {"German": 2}}


class Table:
    """A campaign on a live server, the CLI's environment set for a role."""

    def __init__(self, base: str, monkeypatch: pytest.MonkeyPatch) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=30)
        self.game = Game(self.http, KGP)  # type: ignore[arg-type]
        self.id = self.game.id
        self.monkeypatch = monkeypatch
        monkeypatch.setenv("CGLEDGER_SERVER", base)
        monkeypatch.setenv("CGLEDGER_CAMPAIGN", self.id)
        self.role("German")

    def role(self, role: str) -> None:
        self.monkeypatch.setenv("CGLEDGER_TOKEN", self.game.tokens[role])

    def client(self, role: str) -> Client:
        return Client(self.base, self.game.tokens[role], campaign=self.id)


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    lite = Settings(data_dir=tmp_path / "data", database_url=None, create_per_minute=1_000_000)
    with serving(lite) as base:
        found = Table(base, monkeypatch)
        yield found
        found.http.close()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


# ---------------------------------------------------------------- roll


def test_roll_prints_the_dice_index_and_commitment(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "roll", "2", "8.606 Escape of a squad")
    assert code == 0
    with table.client("referee") as ref:
        roll = ref.get_roll(0)
    assert roll.dice is not None
    assert out.splitlines()[0] == (
        f"roll #0 (seq {roll.seq}) by German: DR {roll.dice[0]} {roll.dice[1]} = {sum(roll.dice)}"
    )
    assert f"commitment: {roll.commitment}" in out
    assert f"seed:       {roll.seed}" in out
    assert f"cgledger verify --campaign {table.id}" in out


def test_roll_json_and_secret(table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roll", "1", "hidden", "--secret", "--json", "--nonce", "n-1")
    assert code == 0
    mine = json.loads(out)
    assert mine["secret"] is True
    assert mine["client_nonce"] == "n-1"
    assert len(mine["dice"]) == 1
    with table.client("US") as us:
        seen = us.get_roll(mine["index"])
    assert seen.dice is None, "the opponent sees a stub"
    assert seen.commitment == mine["commitment"]


def test_table_roll_with_named_drms(table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    table.role("referee")
    with table.client("referee") as ref:
        info = ref.table("kgp", "kgp:8.6113")
    per = next(d for d in info.drms if d.id == "casualty-vp")
    assert per.kind == "per"
    code, out, _ = run(
        capsys, "roll", "--table", "kgp:8.6113", "--drm", "won", "--drm", "casualty-vp=60", "--json"
    )
    assert code == 0
    done = json.loads(out)
    assert done["table"]["id"] == "kgp:8.6113"
    applied = {d["id"]: d for d in done["drm"]}
    assert set(applied) == {"won", "casualty-vp"}
    # 60 is sent as the per-count DRM's count (Casualty VP), not as its value.
    extra = per.model_extra or {}
    assert applied["casualty-vp"]["value"] == extra["per"] * (60 // extra.get("divisor", 1))
    assert done["final"] == done["original"] + sum(d["value"] for d in done["drm"])
    # 8.606's Night is the ledger's (issue 26 item 3): the ruling names another.
    code, out, _ = run(capsys, "roll", "--table", "kgp:8.606-infantry", "--drm", "isolated")
    assert code == 0
    assert "table:      kgp:8.606-infantry" in out
    assert "DRM: isolated " in out


def test_roll_errors_print_the_problem_and_exit_1(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "roll", "--table", "kgp:8.616")
    assert code == 1
    assert err.startswith("cgledger roll: 409 Conflict: 8.616: ")
    code, _, err = run(capsys, "roll", "--table", "kgp:no-such-table")
    assert code == 1
    assert err.startswith("cgledger roll: 404 Not Found: ")
    with table.client("referee") as ref:
        assert ref.get_campaign().rolls == 0, "nothing was rolled"
    code, _, err = run(capsys, "roll", "2", "x", "--token", "wrong")
    assert code == 1
    assert "401 Unauthorized" in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["roll"], "give DICE"),
        (["roll", "3", "x"], "DICE is 1 (dr) or 2 (DR)"),
        (["roll", "2", "x", "--drm", "night"], "--drm and --input go with --table"),
        (["roll", "2", "--table", "kgp:8.610"], "give no DICE"),
        (["roll", "--table", "kgp:8.610", "--drm", "=3"], "--drm takes NAME"),
        (["log", "--limit", "0"], "--limit must be"),
        (["log", "--count", "1"], "--count goes with --follow"),
    ],
)
def test_usage_errors_exit_2(
    table: Table, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert says in err


def test_missing_token_and_no_server(
    table: Table, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CGLEDGER_TOKEN")
    code, _, err = run(capsys, "roster")
    assert code == 2
    assert "no token" in err
    closed = f"http://127.0.0.1:{free_port()}"
    code, _, err = run(capsys, "roster", "--token", "t", "--server", closed, "--retries", "0")
    assert code == 1
    assert f"no answer from {closed}" in err


# ---------------------------------------------------------------- roster


def test_roster_one_line_per_cg_date(table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    table.game.next_date()  # 19 AM's Initial Scenario played, 19 PM begun
    code, out, _ = run(capsys, "roster")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("CG Roster: German")
    header = lines[1].split()
    assert header[:2] == ["CG", "Date"]
    assert "CPP" in header
    rows = [line for line in lines[3:] if line[:2].isdigit()]
    assert [" ".join(r.split()[:2]) for r in rows] == ["19 AM", "19 PM"]
    code, out, _ = run(capsys, "roster", "--json")
    view = RosterView.model_validate(json.loads(out))
    assert view.lines is not None
    start = view.columns.index("start")
    assert [r.split()[2 + start - 1] for r in rows] == [str(line["start"]) for line in view.lines]
    first_date = table.game.get("referee", "/events?type=CGDateBegan").json()["items"][0]["seq"]
    code, out, _ = run(capsys, "roster", "--at", str(first_date - 1), "--json")
    earlier = json.loads(out)
    assert [line["cg_date"] for line in earlier["lines"]] == ["19 AM"]
    table.role("US")
    code, out, _ = run(capsys, "roster", "--side", "German")
    assert code == 0
    assert out.startswith("CG Roster: German")


# ---------------------------------------------------------------- log


def test_log_lists_every_event_oldest_first(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    with table.client("German") as german:
        rolled = german.roll(2, "logged roll")
        version = german.get_campaign().version
    code, out, _ = run(capsys, "log")
    assert code == 0
    lines = out.splitlines()
    assert [int(line.split()[0]) for line in lines] == list(range(1, version + 1))
    mine = lines[rolled.seq - 1]
    assert "DiceRolled" in mine
    assert "'logged roll'" in mine
    assert mine.split()[1:4][2] == "German"
    code, out, _ = run(capsys, "log", "--limit", "2")
    assert [int(line.split()[0]) for line in out.splitlines()] == [version - 1, version]
    code, out, _ = run(capsys, "log", "--after", "1", "--limit", "1", "--json")
    (event,) = [json.loads(line) for line in out.splitlines()]
    assert event["seq"] == 2


def test_log_shows_a_sealed_rolls_purpose_to_its_owner_only(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    with table.client("German") as german:
        sealed = german.roll(1, "sniper check", secret=True)
    code, out, _ = run(capsys, "log")
    assert code == 0
    (mine,) = [line for line in out.splitlines() if int(line.split()[0]) == sealed.seq]
    assert "RecordSealed" in mine
    assert "sealed DiceRolled 'sniper check'" in mine
    table.role("US")
    code, out, _ = run(capsys, "log")
    (theirs,) = [line for line in out.splitlines() if int(line.split()[0]) == sealed.seq]
    assert "RecordSealed" in theirs
    assert "sniper" not in theirs
    assert "DiceRolled" not in theirs


def test_log_follow_prints_new_events(
    table: Table, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    following = threading.Event()
    feed = Client.stream

    def stream(self: Client, *args: Any, **kwargs: Any) -> Any:
        following.set()  # the listing is printed: what comes now comes by the feed
        return feed(self, *args, **kwargs)

    monkeypatch.setattr(Client, "stream", stream)
    with table.client("US") as us:
        version = us.get_campaign().version
        result: list[int] = []
        follower = threading.Thread(
            target=lambda: result.append(
                main(["log", "--after", str(version), "--follow", "--count", "2"])
            )
        )
        follower.start()
        assert following.wait(60)
        first = us.roll(1, "followed one")
        second = us.roll(2, "followed two")
        follower.join(60)
    assert result == [0]
    out, _ = capsys.readouterr()
    assert [int(line.split()[0]) for line in out.splitlines()] == [first.seq, second.seq]


# ---------------------------------------------------------------- verify


def test_verify_a_campaign_from_the_server(
    settings: Settings,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    with serving(settings) as base:
        found = Table(base, monkeypatch)
        with found.client("German") as german:
            german.roll(2, "to verify")
            german.roll(1, "secret", secret=True)
            export = german.export()
        found.http.close()
        code, out, _ = run(capsys, "verify", "--campaign", found.id)
        assert code == 0
        assert out.startswith(f"OK campaign {found.id}: ")
        code, _, err = run(capsys, "verify", "--campaign", "no-such-campaign")
        assert code == 1
        assert "404 Not Found" in err
    good = tmp_path / "export.jsonl"
    good.write_bytes(export)
    code, out, _ = run(capsys, "verify", str(good))
    assert code == 0
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_bytes(_edit_a_die(export))
    code, _, err = run(capsys, "verify", str(tampered))
    assert code == 1
    assert err.startswith(f"FAILED {tampered}: seq ")
    code, _, err = run(capsys, "verify", str(good), "--campaign", found.id)
    assert code == 2


def _edit_a_die(export: bytes) -> bytes:
    """The export with the first public roll's first die changed."""
    lines = export.split(b"\n")
    for n, line in enumerate(lines):
        if not line.startswith(b"{") or b'"dice":[' not in line:
            continue
        record: dict[str, Any] = json.loads(line)
        roll = record.get("payload", {}).get("roll", {})
        if isinstance(roll.get("dice"), list):
            roll["dice"][0] = roll["dice"][0] % 6 + 1
            lines[n] = json.dumps(record, sort_keys=True, separators=(",", ":")).encode()
            return b"\n".join(lines)
    raise AssertionError("no public roll in the export")


def test_the_console_script_rolls(table: Table) -> None:
    script = Path(sys.executable).parent / "cgledger"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "cgledger.cli"]
    done = subprocess.run(
        [*command, "roll", "2", "smoke", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rolled = json.loads(done.stdout)
    with table.client("referee") as ref:
        assert ref.get_roll(rolled["index"]).dice == rolled["dice"]
