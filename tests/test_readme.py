"""The README is executed, not just read: the ```sh block of each session
("## From the shell and from Python", "## A session, by hand", "## A CG Date,
step by step") runs as written, top to bottom, in ``bash -euo pipefail``
against a real server (``cgledger serve`` in a subprocess, on a free 127.0.0.1
port, SQLite in a temporary data dir), with nothing filled in by hand."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
HEADING = "## A session, by hand"
#: Each session's heading, and what its run must print (its last steps ran).
SESSIONS = {
    HEADING: ["OK us.jsonl"],
    "## From the shell and from Python": [
        "roll #1 (seq 4) by German: dr",
        # The German (the owner) reads its own secret roll's purpose ...
        "  purpose:    sniper check\n  secret:     yes",
        # ... the US log the sealed record (cgledger-dice/2): that it was made, no more.
        "RecordSealed             roll #1 [secret] cg_date=19 AM",
        "CG Roster: US",
        "2 rolls, 1 recomputed from their seeds, 1 with the seed still secret",
        "1 sealed records (cgledger-dice/2): 0 revealed",
    ],
    "## A CG Date, step by step": [
        '{"US": "8.619", "German": "8.619"}',
        "us-assault",
        "recorded",
        '{"US": "8.601", "German": "8.601"}',
        "pending",
        "applied",
    ],
    "## Authoring a CG definition": [
        "id,name,cpp,per_date_max,cg_max,fpp,notes,footnotes,unit_type,units,sw,entry_code,elite",
        "Sample Rifle Pltn",
        "row 1, column cpp: '5x' is not a whole number (and 1 more bad cell, listed in cells)",
        '{"hex": "B0", "q": 1, "r": 0}',
        '{"St": 346}',
    ],
}
#: Each session's heading, and (a mark of an output line, a text that line must
#: not hold): what the opponent reads does not show a secret.
UNSEEN = {"## From the shell and from Python": [("RecordSealed", "sniper")]}
BASE_LINE = "B=${CGLEDGER_URL:-http://localhost:8000}"
SESSION_TIMEOUT = 120  # seconds for the whole block
START_TIMEOUT = 30  # seconds for the server to answer

#: A placeholder to fill in by hand, e.g. ``<German token>`` or ``<id>``.
PLACEHOLDER = re.compile(r"<[A-Za-z][^<>\n]*>")
#: A seq, roll index or request id typed into the block instead of read from an answer.
HARD_CODED = [
    re.compile(r"/(rolls|events|undo-requests|disputes|definition-amendments|proposals)/[0-9]"),
    re.compile(r"[?&](at|after)=[1-9]"),
    re.compile(r'\\?"(seq|seqs|to_seq|index)\\?"\s*:\s*\[?\s*[0-9]'),
]


def session_block(heading: str = HEADING) -> str:
    """The first ```sh block of the README's section under ``heading``."""
    text = README.read_text(encoding="utf-8")
    section = re.search(rf"^{re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert section, f"README.md has no {heading!r} section"
    block = re.search(r"^```sh\n(.*?)^```", section.group(1), re.M | re.S)
    assert block, f"README.md's {heading!r} section has no ```sh block"
    return block.group(1)


def test_every_sh_block_of_the_readme_is_a_session() -> None:
    """Every command sequence in the README is run by a test (the lesson of the
    last review), apart from the two quick-start commands."""
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)
    sessions = [session_block(h) for h in SESSIONS]
    others = [b for b in blocks if b not in sessions]
    assert all(len(b.strip().splitlines()) <= 2 for b in others), others


@pytest.mark.parametrize("heading", list(SESSIONS))
def test_the_session_needs_nothing_filled_in(heading: str) -> None:
    block = session_block(heading)
    assert not PLACEHOLDER.findall(block), "a placeholder to fill in by hand"
    for pattern in HARD_CODED:
        found = [m.group(0) for m in pattern.finditer(block)]
        assert not found, f"hard-coded seq numbers {found}: read them from earlier answers"
    # One base URL, which the test (or a reader) can point elsewhere.
    assert block.count(BASE_LINE) == 1
    assert block.count("localhost:8000") == 1
    # Every call fails on an HTTP error, so a refused step stops the session;
    # a call that shows a refusal on purpose prints its detail, which only an
    # error has (``field detail`` then fails the session if it is accepted).
    # (The cgledger commands exit 1 on an error answer by themselves.)
    calls = re.findall(r"\bcurl\s+(\S+)(.*)", block)
    assert calls or ".venv/bin/cgledger" in block
    for flags, rest in calls:
        assert flags in ("-sf", "-sfN") or (flags == "-s" and rest.endswith("| field detail"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def clean_env() -> dict[str, str]:
    """This environment without CGLEDGER_* settings (no PostgreSQL, no keys)
    and without proxies: the session talks to 127.0.0.1 only."""
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("CGLEDGER_") and not k.lower().endswith("_proxy")
    }


def answers(base: str) -> bool:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"{base}/v1/server-key", timeout=2) as r:
            return bool(r.status == 200)
    except OSError:
        return False


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """``cgledger serve`` (what ``ops/serve`` runs) in a subprocess; stopped at the end."""
    log_path = tmp_path / "server.log"
    env = {**clean_env(), "CGLEDGER_DATA_DIR": str(tmp_path / "data")}
    for _attempt in range(3):  # another process may take the free port first
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        command = [sys.executable, "-m", "cgledger.cli", "serve"]
        command += ["--host", "127.0.0.1", "--port", str(port)]
        with log_path.open("wb") as log:
            proc = subprocess.Popen(
                command, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log
            )
        try:
            deadline = time.monotonic() + START_TIMEOUT
            while proc.poll() is None and not answers(base):
                assert time.monotonic() < deadline, "the server did not start in time:\n" + (
                    log_path.read_text(errors="replace")
                )
                time.sleep(0.1)
            if proc.poll() is None:
                yield base
                return
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
    pytest.fail("the server did not start:\n" + log_path.read_text(errors="replace"))


@pytest.fixture
def curl() -> str:
    found = shutil.which("curl")
    if found is None:
        reason = "the README's session needs the curl binary, and it is not on PATH"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the README's session: {reason}")
        pytest.skip(reason)
    return found


@pytest.mark.usefixtures("curl")
@pytest.mark.parametrize("heading", list(SESSIONS))
def test_the_session_runs_as_written(server: str, tmp_path: Path, heading: str) -> None:
    block = session_block(heading)
    # Run where cp.json and us.jsonl may be written, with the ``.venv/bin/cgledger``
    # the block names being this interpreter's, and its ``python3`` first on PATH.
    work = tmp_path / "session"
    (work / ".venv" / "bin").mkdir(parents=True)
    bindir = Path(sys.executable).parent
    cli = bindir / "cgledger"
    if not cli.exists():
        cli = ROOT / ".venv" / "bin" / "cgledger"
    (work / ".venv" / "bin" / "cgledger").symlink_to(cli)
    # A wrapper, not a symlink: a venv's python finds its packages from its own path.
    wrapper = work / ".venv" / "bin" / "python"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    script = work / "session.sh"
    script.write_text(block, encoding="utf-8")
    env = {
        **clean_env(),
        "CGLEDGER_URL": server,
        "PATH": os.pathsep.join([str(bindir), os.environ.get("PATH", "")]),
    }
    try:
        done = subprocess.run(
            # -x: the trace (on stderr) shows which step failed.
            ["bash", "-euxo", "pipefail", str(script)],
            cwd=work,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=SESSION_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(
            f"the session did not end within {SESSION_TIMEOUT} s\n"
            f"--- stdout\n{exc.stdout!r}\n--- stderr\n{exc.stderr!r}"
        )
    assert done.returncode == 0, (
        f"the README's session failed (exit {done.returncode})\n"
        f"--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
    )
    # Its last steps ran (the first session: the export verified against the
    # checkpoint saved before the undo).
    for expected in SESSIONS[heading]:
        assert expected in done.stdout, (expected, done.stdout)
    for mark, hidden in UNSEEN.get(heading, []):
        lines = [line for line in done.stdout.splitlines() if mark in line]
        assert lines, (mark, done.stdout)
        assert not [line for line in lines if hidden in line], (hidden, lines)
