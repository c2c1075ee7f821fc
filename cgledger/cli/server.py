"""The commands that run or keep the server: ``serve``, ``backup`` and
``restore``. Their imports of the server stay inside them."""

# Each command imports what it needs when it runs, so that `cgledger verify`
# and the player's commands load nothing of the server.
# ruff: noqa: PLC0415

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from cgledger.settings import Settings

#: On SIGTERM, how long open requests may finish: a dashboard's live feed never
#: ends by itself, so without a limit an open page would hold the server up.
SHUTDOWN_SECONDS = 5


def add_serve(sub: Any) -> None:
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
    serve.set_defaults(func=serve_command)


def add_backup(sub: Any) -> None:
    """``backup`` and ``restore``."""
    save = sub.add_parser("backup", help="copy the database and the key files into a new directory")
    save.add_argument("dest", help="a new or empty directory")
    save.set_defaults(func=backup_command)
    load = sub.add_parser("restore", help="restore a backup into an empty database")
    load.add_argument("src", help="a directory made by `cgledger backup`")
    load.add_argument(
        "--force", action="store_true", help="replace a database and keys that hold data"
    )
    load.set_defaults(func=restore_command)


def serve_command(args: argparse.Namespace) -> int:
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


def backup_command(args: argparse.Namespace) -> int:
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


def restore_command(args: argparse.Namespace) -> int:
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
