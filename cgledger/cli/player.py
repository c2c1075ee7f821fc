"""The player's commands ``roll``, ``roster`` and ``log`` (``docs/client.md``),
which talk to a server through ``cgledger.client``."""

# The client is imported when a command runs (see ``cgledger.cli.remote``).
# ruff: noqa: PLC0415

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from cgledger.cli.remote import Usage, on_server, server_options
from cgledger.cli.render import log_line, roll_lines, roster_lines

if TYPE_CHECKING:
    from cgledger.client import Client


def _pairs(items: list[str], option: str) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for item in items:
        key, eq, value = item.partition("=")
        if not key.strip() or (eq and not value.strip()):
            raise Usage(f"{option} takes NAME or NAME=VALUE, not {item!r}")
        out.append((key.strip(), value.strip() if eq else None))
    return out


def _number(text: str, option: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise Usage(f"{option}: {text!r} is not a whole number") from None


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
            raise Usage(f"--input {key} needs a value (NAME=VALUE)")
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

    out = on_server(args, roll)
    if isinstance(out, int):
        return out
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    campaign = args.campaign or os.environ.get("CGLEDGER_CAMPAIGN")
    print("\n".join(roll_lines(out, campaign or "")))
    return 0


def _roster(args: argparse.Namespace) -> int:
    out = on_server(args, lambda api: api.roster(args.side, at=args.at).model_dump(mode="json"))
    if isinstance(out, int):
        return out
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print("\n".join(roster_lines(out)))
    return 0


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

    return on_server(args, show)


def _least(*limits: int | None) -> int | None:
    given = [n for n in limits if n is not None]
    return min(given) if given else None


def _emit(args: argparse.Namespace, event: dict[str, Any]) -> None:
    text = json.dumps(event, ensure_ascii=False) if args.json else log_line(event)
    print(text, flush=True)


def add_commands(sub: Any) -> None:
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
    server_options(roll, campaign_help="the campaign")
    roll.set_defaults(func=_roll)
    roster = sub.add_parser("roster", help="a side's CG Roster, one line per CG Date")
    roster.add_argument("--side", default=None, help="default: the token's side")
    roster.add_argument("--at", type=int, default=None, metavar="SEQ", help="as of event SEQ")
    roster.add_argument("--json", action="store_true", help="the server's answer as JSON")
    server_options(roster, campaign_help="the campaign")
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
    server_options(log, campaign_help="the campaign")
    log.set_defaults(func=_log)
