"""``cgledger verify FILE | --campaign ID [--checkpoint CP ...] [--server-key
HEX]``: check an export (a file, or fetched from the server) with
``cgledger.verify``."""

# The checks are imported when the command runs; nothing of the server is.
# ruff: noqa: PLC0415

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from cgledger.cli.remote import on_server, server_options


class _BadArgument(Exception):
    """A --checkpoint or --server-key argument that cannot be used (exit 2)."""


def add_command(sub: Any) -> None:
    verify = sub.add_parser(
        "verify",
        help="check an export's hash chain, revealed rolls and sealed records "
        "(cgledger-dice/1 and /2)",
    )
    verify.add_argument("file", nargs="?", help="a .jsonl file from GET /v1/campaigns/{id}/export")
    server_options(
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
    verify.set_defaults(func=verify_command)


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


def verify_command(args: argparse.Namespace) -> int:
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
        fetched = on_server(args, lambda api: api.export())
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
    if report.counted_checked:
        print(
            f"{report.counted_checked} table rolls' counted DRMs held against their DRMs "
            "(those of the CG Date, the side and the readings recomputed)"
        )
    if report.sealed_records:
        print(
            f"{report.sealed_records} sealed records (cgledger-dice/2): "
            f"{report.sealed_revealed} revealed and checked against their digests and dice "
            f"streams, {report.sealed_hidden} still sealed"
        )
    if checkpoints:
        keys = ", ".join(report.checkpoint_keys)
        pinned = "" if args.server_key else "; not pinned: pass --server-key to check whose key"
        print(
            f"{report.checkpoints_checked} checkpoints checked "
            f"(key{'s' if len(report.checkpoint_keys) > 1 else ''} {keys}){pinned}"
        )
    return 0
