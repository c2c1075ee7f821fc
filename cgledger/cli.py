"""The ``cgledger`` console script: ``serve`` and
``verify FILE [--checkpoint CP ...] [--server-key HEX]``."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from cgledger.settings import Settings
from cgledger.version import VERSION


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from cgledger.api.app import create_app
    from cgledger.ledger import KeyMismatch, Ledger

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
    print(f"cgledger: serving on http://{host}:{port}/docs ({backend}{workers})", file=sys.stderr)
    if args.workers == 1:
        uvicorn.run(create_app(settings), host=host, port=port, proxy_headers=args.proxy_headers)
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

    try:
        data = Path(args.file).read_bytes()
    except OSError as exc:
        print(f"cgledger verify: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
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
        print(f"FAILED {args.file}: {exc}", file=sys.stderr)
        return 1
    print(
        f"OK {args.file}: {report.events} events, hash chain intact (head {report.head[:16]}…); "
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
    verify.add_argument("file", help="a .jsonl file from GET /v1/campaigns/{id}/export")
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
