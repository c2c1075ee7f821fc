"""The ``cgledger`` console script: ``serve``, ``backup``, ``restore``,
``verify FILE | --campaign ID [--checkpoint CP ...] [--server-key HEX]``, and
the player's commands ``roll``, ``roster`` and ``log`` (``docs/client.md``),
which talk to a server through ``cgledger.client``."""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from cgledger.settings import Settings
from cgledger.version import VERSION

if TYPE_CHECKING:
    from cgledger.client import Client

T = TypeVar("T")


#: On SIGTERM, how long open requests may finish: a dashboard's live feed never
#: ends by itself, so without a limit an open page would hold the server up.
SHUTDOWN_SECONDS = 5


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from cgledger.api.app import create_app
    from cgledger.service import KeyMismatch, Ledger

    settings = Settings()
    host = args.host or settings.host
    port = args.port or settings.port
    try:
        Ledger(settings).close()  # refuse to start with keys the database does not know
    except KeyMismatch as exc:
        print(f"cgledger: refusing to start: {exc}", file=sys.stderr)
        return 2
    if args.workers < 1:
        print("cgledger: --workers must be at least 1", file=sys.stderr)
        return 2
    if args.workers > 1 and not settings.database_url:
        print(
            "cgledger: refusing --workers > 1 on SQLite: an embedded SQLite file has one "
            "writer at a time, so more workers add contention, not throughput; set "
            "CGLEDGER_DATABASE_URL to a postgresql:// URL to run several workers",
            file=sys.stderr,
        )
        return 2
    backend = "PostgreSQL" if settings.database_url else f"SQLite in {settings.data_dir}/"
    workers = f", {args.workers} workers" if args.workers > 1 else ""
    print(
        f"cgledger: serving the dashboard on http://{host}:{port}/ and the API "
        f"(docs at /docs) ({backend}{workers})",
        file=sys.stderr,
    )
    if args.workers == 1:
        uvicorn.run(
            create_app(settings),
            host=host,
            port=port,
            proxy_headers=args.proxy_headers,
            timeout_graceful_shutdown=SHUTDOWN_SECONDS,
        )
    else:
        # Each worker process builds its own app (and Ledger) from the same
        # CGLEDGER_* environment: one database, one key set. Their metrics add
        # up in one directory (prometheus_client's multiprocess mode).
        if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="cgledger-metrics-")
        uvicorn.run(
            "cgledger.api.app:create_app",
            factory=True,
            host=host,
            port=port,
            workers=args.workers,
            proxy_headers=args.proxy_headers,
            timeout_graceful_shutdown=SHUTDOWN_SECONDS,
        )
    return 0


def _backup(args: argparse.Namespace) -> int:
    from cgledger.backup import WARNING, BackupError, backup

    try:
        manifest = backup(Settings(), Path(args.dest))
    except BackupError as exc:
        print(f"cgledger backup: {exc}", file=sys.stderr)
        return 2
    print(
        f"cgledger backup: {manifest['database']} database and "
        f"{len(manifest['files'])} files in {args.dest}",
        file=sys.stderr,
    )
    print(f"cgledger backup: WARNING: {WARNING}", file=sys.stderr)
    return 0


def _restore(args: argparse.Namespace) -> int:
    from cgledger.backup import BackupError, restore

    settings = Settings()
    try:
        manifest = restore(settings, Path(args.src), force=args.force)
    except BackupError as exc:
        print(f"cgledger restore: {exc}", file=sys.stderr)
        return 2
    where = "PostgreSQL" if settings.database_url else f"SQLite in {settings.data_dir}/"
    print(f"cgledger restore: the backup of {manifest['created']} is in {where}", file=sys.stderr)
    return 0


class _BadArgument(Exception):
    """A --checkpoint or --server-key argument that cannot be used (exit 2)."""


def _checkpoints_from(arg: str) -> list[Any]:
    """The checkpoints of one ``--checkpoint`` argument: a file holding one JSON
    object, a JSON list of them or JSON Lines of them; or a literal JSON object."""
    path = Path(arg)
    try:
        is_file = path.is_file()
    except OSError:  # e.g. a literal JSON object longer than a file name may be
        is_file = False
    if is_file:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise _BadArgument(f"cannot read checkpoint file {arg}: {exc}") from None
        where = f"checkpoint file {arg}"
    elif arg.lstrip().startswith("{"):
        text, where = arg, "the --checkpoint argument"
    else:
        raise _BadArgument(f"cannot read checkpoint file {arg}: no such file")
    try:
        found: Any = json.loads(text)
    except json.JSONDecodeError:
        found = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                found.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise _BadArgument(
                    f"{where} is neither JSON nor JSON Lines (line {number}: {exc.msg})"
                ) from None
    items = found if isinstance(found, list) else [found]
    if not items or not all(isinstance(item, dict) for item in items):
        raise _BadArgument(f"{where} must hold checkpoint objects (one, a list or JSON Lines)")
    return items


def _verify(args: argparse.Namespace) -> int:
    from cgledger.verify import VerificationError, verify_bytes

    if args.file is not None and args.campaign is not None:
        print("cgledger verify: give a FILE or --campaign, not both", file=sys.stderr)
        return 2
    if args.file is not None:
        label = args.file
        try:
            data = Path(args.file).read_bytes()
        except OSError as exc:
            print(f"cgledger verify: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
            return 2
    else:
        args.campaign = args.campaign or os.environ.get("CGLEDGER_CAMPAIGN")
        if not args.campaign:
            print(
                "cgledger verify: give a FILE, or --campaign ID (or CGLEDGER_CAMPAIGN) "
                "to fetch the export from the server",
                file=sys.stderr,
            )
            return 2
        label = f"campaign {args.campaign}"
        fetched = _player(args, lambda api: api.export())
        if isinstance(fetched, int):
            return fetched
        data = fetched
    checkpoints: list[Any] = []
    try:
        for arg in args.checkpoint:
            checkpoints += _checkpoints_from(arg)
        if args.server_key is not None:
            if not re.fullmatch(r"[0-9a-fA-F]{64}", args.server_key):
                raise _BadArgument("--server-key must be 64 hex digits (a raw Ed25519 key)")
            if not checkpoints:
                raise _BadArgument("--server-key needs at least one --checkpoint")
    except _BadArgument as exc:
        print(f"cgledger verify: {exc}", file=sys.stderr)
        return 2
    try:
        report = verify_bytes(data, checkpoints=checkpoints, server_key=args.server_key)
    except VerificationError as exc:
        print(f"FAILED {label}: {exc}", file=sys.stderr)
        return 1
    print(
        f"OK {label}: {report.events} events, hash chain intact (head {report.head[:16]}…); "
        f"{report.rolls} rolls, {report.rolls_recomputed} recomputed from their seeds, "
        f"{report.rolls_hidden} with the seed still secret; "
        f"{report.rule_results_checked} rule results checked; "
        f"{report.lvp_rows_checked} scenario ends' LVP re-counted"
    )
    if checkpoints:
        keys = ", ".join(report.checkpoint_keys)
        pinned = "" if args.server_key else "; not pinned: pass --server-key to check whose key"
        print(
            f"{report.checkpoints_checked} checkpoints checked "
            f"(key{'s' if len(report.checkpoint_keys) > 1 else ''} {keys}){pinned}"
        )
    return 0


# ---------------------------------------------------------------- the player's commands

DEFAULT_SERVER = "http://127.0.0.1:8000"


class _Usage(Exception):
    """A usage error of a player's command (exit 2)."""


def _server_options(parser: argparse.ArgumentParser, *, campaign_help: str) -> None:
    group = parser.add_argument_group("server")
    group.add_argument(
        "--server",
        default=None,
        metavar="URL",
        help=f"default: CGLEDGER_SERVER or {DEFAULT_SERVER}",
    )
    group.add_argument(
        "--token", default=None, help="a Bearer token of the campaign; default: CGLEDGER_TOKEN"
    )
    group.add_argument(
        "--campaign",
        default=None,
        metavar="ID",
        help=f"{campaign_help}; default: CGLEDGER_CAMPAIGN",
    )
    group.add_argument(
        "--retries",
        type=int,
        default=3,
        metavar="N",
        help="tries again after a dropped connection or a busy server (default 3)",
    )


@contextmanager
def _client(args: argparse.Namespace) -> Iterator[Client]:
    from cgledger.client import Client

    server = args.server or os.environ.get("CGLEDGER_SERVER") or DEFAULT_SERVER
    token = args.token or os.environ.get("CGLEDGER_TOKEN")
    campaign = args.campaign or os.environ.get("CGLEDGER_CAMPAIGN")
    if not token:
        raise _Usage("no token: pass --token or set CGLEDGER_TOKEN")
    if not campaign:
        raise _Usage("no campaign: pass --campaign or set CGLEDGER_CAMPAIGN")
    if args.retries < 0:
        raise _Usage("--retries must be 0 or more")
    with Client(server, token, campaign=campaign, retries=args.retries) as api:
        yield api


def _player(args: argparse.Namespace, action: Callable[[Client], T]) -> T | int:
    """``action`` on a client of the server, or the exit code of its failure:
    the problem's detail and 1 for an error answer or no server, 2 for a
    usage error."""
    import httpx2 as httpx

    from cgledger.client import ApiError, FeedDropped

    name = f"cgledger {args.command}"
    try:
        with _client(args) as api:
            return action(api)
    except _Usage as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    except ApiError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 1
    except (httpx.HTTPError, FeedDropped) as exc:
        server = args.server or os.environ.get("CGLEDGER_SERVER") or DEFAULT_SERVER
        print(f"{name}: no answer from {server}: {exc or type(exc).__name__}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _pairs(items: list[str], option: str) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for item in items:
        key, eq, value = item.partition("=")
        if not key.strip() or (eq and not value.strip()):
            raise _Usage(f"{option} takes NAME or NAME=VALUE, not {item!r}")
        out.append((key.strip(), value.strip() if eq else None))
    return out


def _number(text: str, option: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise _Usage(f"{option}: {text!r} is not a whole number") from None


def _table_roll(api: Client, args: argparse.Namespace) -> dict[str, Any]:
    """A table roll; ``--drm NAME=N`` is a count or a value, as the table's DRM takes it."""
    from cgledger.client import Drm

    table = api.table(api.get_campaign().ruleset, args.table)
    kinds = {d.id: d.kind for d in table.drms}
    drms: list[Drm] = []
    for key, value in _pairs(args.drm, "--drm"):
        if value is None:
            drms.append({"id": key})
        elif kinds.get(key) == "per":
            drms.append({"id": key, "count": _number(value, "--drm")})
        else:
            drms.append({"id": key, "value": _number(value, "--drm")})
    inputs: dict[str, int | str] = {}
    for key, value in _pairs(args.input, "--input"):
        if value is None:
            raise _Usage(f"--input {key} needs a value (NAME=VALUE)")
        inputs[key] = int(value) if value.lstrip("-").isdigit() else value
    done = api.roll_table(
        table.id,
        drm=drms,
        inputs=inputs,
        secret=True if args.secret else None,
        client_nonce=args.nonce,
    )
    return done.model_dump(mode="json", exclude_none=False)


def _roll(args: argparse.Namespace) -> int:
    if args.table is None:
        if args.dice is None or args.purpose is None:
            print("cgledger roll: give DICE (1 or 2) and a PURPOSE, or --table ID", file=sys.stderr)
            return 2
        if args.dice not in ("1", "2"):
            print(f"cgledger roll: DICE is 1 (dr) or 2 (DR), not {args.dice!r}", file=sys.stderr)
            return 2
        if args.drm or args.input:
            print("cgledger roll: --drm and --input go with --table", file=sys.stderr)
            return 2
    elif args.dice is not None:
        print("cgledger roll: with --table the table says the dice; give no DICE", file=sys.stderr)
        return 2

    def roll(api: Client) -> dict[str, Any]:
        if args.table is not None:
            return _table_roll(api, args)
        done = api.roll(int(args.dice), args.purpose, secret=args.secret, client_nonce=args.nonce)
        return done.model_dump(mode="json")

    out = _player(args, roll)
    if isinstance(out, int):
        return out
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    campaign = args.campaign or os.environ.get("CGLEDGER_CAMPAIGN")
    print("\n".join(_roll_lines(out, campaign or "")))
    return 0


def _dice_text(roll: dict[str, Any]) -> str:
    kind = "DR" if roll.get("count") == 2 else "dr"
    dice = roll.get("dice")
    if dice is None:
        return f"{kind} hidden"
    total = f" = {sum(dice)}" if len(dice) > 1 else ""
    return f"{kind} {' '.join(str(d) for d in dice)}{total}"


def _roll_lines(out: dict[str, Any], campaign: str) -> list[str]:
    roll = out.get("roll") if "table" in out else out
    assert isinstance(roll, dict)
    lines = [f"roll #{roll['index']} (seq {roll['seq']}) by {roll['side']}: {_dice_text(roll)}"]
    if "table" in out:
        drms = ", ".join(f"{d['id']} {d['value']:+d}" for d in out.get("drm") or []) or "none"
        lines.append(f"  table:      {out['table']['id']}")
        lines.append(
            f"  Original:   {out.get('original')}   DRM: {drms}   Final: {out.get('final')}"
        )
        outcome = out.get("outcome") or {}
        if outcome:
            lines.append(f"  result:     {outcome.get('text', json.dumps(outcome))}")
    lines.append(f"  purpose:    {roll['purpose']}")
    if roll.get("secret"):
        lines.append("  secret:     yes (the opponent sees a stub until it is revealed)")
    lines.append(f"  commitment: {roll['commitment']}")
    lines.append(f"  seed:       {roll.get('seed') or '(not revealed yet)'}")
    lines.append(f"  nonce:      {roll['client_nonce']}")
    lines.append(
        f"verify: cgledger verify --campaign {campaign} (recomputes every revealed roll "
        "from its seed and checks it against its commitment)"
    )
    return lines


_WORDS = {
    "cg": "CG",
    "rg": "RG",
    "cpp": "CPP",
    "fpp": "FPP",
    "vp": "VP",
    "cvp": "CVP",
    "lvp": "LVP",
}


def _heading(column: str) -> str:
    return " ".join(_WORDS.get(w, w.capitalize()) for w in column.split("_"))


def _cell(line: dict[str, Any], column: str) -> str:
    if column in (line.get("hidden") or ()):
        return "?"
    value = line.get(column)
    if value is None:
        return "-"
    if isinstance(value, list):
        return ", ".join(_cell({"v": v}, "v") for v in value) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _roster_lines(view: dict[str, Any]) -> list[str]:
    lines = [f"CG Roster: {view['side']} (campaign {view['campaign']}, CG Date {view['cg_date']})"]
    rows = view.get("lines")
    if rows is None:
        return [*lines, "(this ruleset keeps no CG Roster)"]
    columns: list[str] = view["columns"]
    table = [[_heading(c) for c in columns]] + [[_cell(row, c) for c in columns] for row in rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(columns))]
    for number, row in enumerate(table):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        if number == 0:
            lines.append("  ".join("-" * w for w in widths))
    if any(row.get("hidden") for row in rows):
        lines.append("? : not yet public (the rules keep it secret for now)")
    for name, value in (view.get("conditions") or {}).items():
        lines.append(f"{_heading(name)}: {_condition(value)}")
    return lines


def _condition(value: Any) -> str:
    """A lasting result, e.g. ``{"campaign": {"value": "Mist", "rule": "8.617"}}``."""
    if isinstance(value, dict) and all(isinstance(v, dict) for v in value.values()):
        return "; ".join(
            f"{v.get('value')} ({k}, {v.get('rule')})" if "value" in v else f"{k}: {v}"
            for k, v in value.items()
        )
    return json.dumps(value, ensure_ascii=False)


def _roster(args: argparse.Namespace) -> int:
    out = _player(args, lambda api: api.roster(args.side, at=args.at).model_dump(mode="json"))
    if isinstance(out, int):
        return out
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print("\n".join(_roster_lines(out)))
    return 0


def _summary(event: dict[str, Any]) -> str:
    payload = event.get("payload") or {}
    parts: list[str] = []
    roll = payload.get("roll")
    seen = event.get("secret")
    if isinstance(roll, dict):
        dice = roll.get("dice")
        if dice is None and isinstance(seen, dict):
            dice = seen.get("dice")  # one's own Secret roll
        shown = "secret" if dice is None else " ".join(str(d) for d in dice)
        parts.append(f"roll #{roll.get('index')} [{shown}]")
        if roll.get("purpose"):
            parts.append(repr(roll["purpose"]))
    for key in ("table", "to", "chit", "rg", "cg_date", "scenario"):
        value = payload.get(key)
        if isinstance(value, dict):
            value = value.get("id")
        if value is not None and not isinstance(value, list | dict):
            parts.append(f"{key}={value}")
    if event.get("reverted_by") is not None:
        parts.append(f"[reverted by {event['reverted_by']}]")
    return " ".join(parts)


def _log_line(event: dict[str, Any]) -> str:
    when = str(event.get("recorded_at", ""))[:19].replace("T", " ")
    return f"{event['seq']:>5}  {when}  {event['actor']:<8} {event['type']:<24} {_summary(event)}"


def _log(args: argparse.Namespace) -> int:
    if args.limit is not None and args.limit < 1:
        print("cgledger log: --limit must be at least 1", file=sys.stderr)
        return 2
    if args.count is not None and not args.follow:
        print("cgledger log: --count goes with --follow", file=sys.stderr)
        return 2
    if args.count is not None and args.count < 1:
        print("cgledger log: --count must be at least 1", file=sys.stderr)
        return 2

    def show(api: Client) -> int:
        after = args.after
        if after is None:
            after = 0 if args.limit is None else max(0, api.get_campaign().version - args.limit)
        events = api.iter_events(after=after, page_size=min(args.limit or 500, 500))
        last, shown = after, 0
        for item in itertools.islice(events, _least(args.limit, args.count)):
            _emit(args, item.model_dump(mode="json"))
            last, shown = item.seq, shown + 1
        if args.follow:
            more = None if args.count is None else max(0, args.count - shown)
            for live in itertools.islice(api.stream(after=last), more):
                _emit(args, live.event.model_dump(mode="json"))
        return 0

    return _player(args, show)


def _least(*limits: int | None) -> int | None:
    given = [n for n in limits if n is not None]
    return min(given) if given else None


def _emit(args: argparse.Namespace, event: dict[str, Any]) -> None:
    text = json.dumps(event, ensure_ascii=False) if args.json else _log_line(event)
    print(text, flush=True)


def _player_commands(sub: Any) -> None:
    roll = sub.add_parser(
        "roll",
        help="roll dice on the server: DICE PURPOSE, or --table ID",
        description="Roll 1 (dr) or 2 (DR) dice with a purpose, or on a rule table with "
        "named DRMs; prints the dice, the roll's index and commitment.",
    )
    roll.add_argument("dice", nargs="?", help="1 (dr) or 2 (DR)")
    roll.add_argument("purpose", nargs="?", help="what the roll is for, recorded with it")
    roll.add_argument("--secret", action="store_true", help="hide it from the opponent")
    roll.add_argument(
        "--table", default=None, metavar="ID", help="a table id (GET /v1/rulesets/{r}/tables)"
    )
    roll.add_argument(
        "--drm",
        action="append",
        default=[],
        metavar="NAME[=N]",
        help="a DRM of the table: NAME, or NAME=N (a count or a value); may be repeated",
    )
    roll.add_argument(
        "--input", action="append", default=[], metavar="NAME=VALUE", help="a table input"
    )
    roll.add_argument("--nonce", default=None, help="your client nonce (default: the server's)")
    roll.add_argument("--json", action="store_true", help="the server's answer as JSON")
    _server_options(roll, campaign_help="the campaign")
    roll.set_defaults(func=_roll)
    roster = sub.add_parser("roster", help="a side's CG Roster, one line per CG Date")
    roster.add_argument("--side", default=None, help="default: the token's side")
    roster.add_argument("--at", type=int, default=None, metavar="SEQ", help="as of event SEQ")
    roster.add_argument("--json", action="store_true", help="the server's answer as JSON")
    _server_options(roster, campaign_help="the campaign")
    roster.set_defaults(func=_roster)
    log = sub.add_parser("log", help="the event log, one line per event, newest last")
    log.add_argument("--after", type=int, default=None, metavar="N", help="events after seq N")
    log.add_argument(
        "--limit",
        type=int,
        default=None,
        metavar="N",
        help="at most N events (the latest N without --after)",
    )
    log.add_argument("--follow", "-f", action="store_true", help="then print new events live")
    log.add_argument(
        "--count",
        type=int,
        default=None,
        metavar="N",
        help="with --follow: stop once N events are printed (e.g. --after SEQ --follow --count 1 "
        "waits for the next event after SEQ)",
    )
    log.add_argument("--json", action="store_true", help="one JSON object per line")
    _server_options(log, campaign_help="the campaign")
    log.set_defaults(func=_log)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="cgledger",
        description="cgledger: an event-sourced ledger for ASL campaign games, with "
        "verifiable dice.",
        epilog="Settings come from CGLEDGER_* environment variables (DATABASE_URL, "
        "DATA_DIR, HOST, PORT, MAX_BODY_BYTES, CREATE_PER_MINUTE, ...); see docs/.",
    )
    parser.add_argument("--version", action="version", version=f"cgledger {VERSION}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve = sub.add_parser("serve", help="serve the REST API (see CGLEDGER_* variables)")
    serve.add_argument("--host", default=None, help="default: CGLEDGER_HOST or 127.0.0.1")
    serve.add_argument("--port", type=int, default=None, help="default: CGLEDGER_PORT or 8000")
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="worker processes sharing one PostgreSQL database and one key set (default 1)",
    )
    serve.add_argument(
        "--proxy-headers",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="take the client address from X-Forwarded-For, only when the request "
        "comes from an address in FORWARDED_ALLOW_IPS (default 127.0.0.1: a proxy on "
        "this host); the creation rate limit counts that address (default: on)",
    )
    serve.set_defaults(func=_serve)
    verify = sub.add_parser("verify", help="check an export's hash chain and revealed rolls")
    verify.add_argument("file", nargs="?", help="a .jsonl file from GET /v1/campaigns/{id}/export")
    _server_options(
        verify,
        campaign_help="fetch this campaign's export from the server "
        "(as the token's role sees it) instead of reading a FILE",
    )
    verify.add_argument(
        "--checkpoint",
        action="append",
        default=[],
        metavar="CP",
        help="a signed checkpoint the export must agree with: a file (one JSON object, "
        "a JSON list or JSON Lines) or a literal JSON object; may be repeated",
    )
    verify.add_argument(
        "--server-key",
        default=None,
        metavar="HEX",
        help="the server's Ed25519 public key (64 hex digits) every checkpoint must be signed by",
    )
    verify.set_defaults(func=_verify)
    _player_commands(sub)
    save = sub.add_parser("backup", help="copy the database and the key files into a new directory")
    save.add_argument("dest", help="a new or empty directory")
    save.set_defaults(func=_backup)
    load = sub.add_parser("restore", help="restore a backup into an empty database")
    load.add_argument("src", help="a directory made by `cgledger backup`")
    load.add_argument(
        "--force", action="store_true", help="replace a database and keys that hold data"
    )
    load.set_defaults(func=_restore)
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
