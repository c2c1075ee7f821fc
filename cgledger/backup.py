"""Backup and restore of a cgledger database, SQLite or PostgreSQL, with the
keys of its data directory (``ops/backup``, ``ops/restore``; docs/operations.md).

A backup is a directory:

- ``cgledger.sqlite3`` (SQLite: a consistent online copy made with SQLite's
  backup API while the server runs) or ``cgledger.pgdump`` (PostgreSQL:
  ``pg_dump --format=custom``, whose client must be of the server's major
  version);
- ``seed.key`` and ``checkpoint.key``, the sealing and signing keys, where
  they are files of the data directory (keys given as ``CGLEDGER_SEED_KEY`` /
  ``CGLEDGER_SIGNING_KEY`` are not copied: keep them with the backup yourself);
- ``MANIFEST.json``: what it holds, with the SHA-256 of every file, checked
  before a restore.

**The keys unseal every unrevealed Secret roll.** Whoever holds the backup
can read both sides' secrets: keep it like the server itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

from cgledger.sealing import KEY_FILE as SEED_KEY_FILE
from cgledger.settings import SQLITE_FILE, Settings
from cgledger.signing import KEY_FILE as SIGNING_KEY_FILE
from cgledger.version import VERSION

MANIFEST = "MANIFEST.json"
PG_DUMP = "cgledger.pgdump"
WARNING = (
    "this backup holds the sealing and signing keys: whoever has it can read every "
    "unrevealed Secret roll of both sides; keep it as safe as the server"
)


class BackupError(Exception):
    """A backup or restore that cannot be made, with the reason."""


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _key_files(settings: Settings) -> list[str]:
    found = []
    for name, given in (
        (SEED_KEY_FILE, settings.seed_key),
        (SIGNING_KEY_FILE, settings.signing_key),
    ):
        if not given and (settings.data_dir / name).exists():
            found.append(name)
    return found


def backup(settings: Settings, dest: Path) -> dict[str, Any]:
    """Write a backup of ``settings``' database and key files into ``dest``
    (a new or empty directory); return its manifest."""
    if dest.exists() and any(dest.iterdir()):
        raise BackupError(f"{dest} is not empty; a backup goes into a new directory")
    dest.mkdir(parents=True, exist_ok=True)
    os.chmod(dest, 0o700)
    if settings.database_url:
        kind = "postgresql"
        done = subprocess.run(  # noqa: S603 - the PostgreSQL client, no shell
            [
                _tool("pg_dump"),
                "--format=custom",
                "--no-owner",
                "--file",
                str(dest / PG_DUMP),
                "--dbname",
                settings.database_url,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise BackupError(f"pg_dump failed: {done.stderr.strip()}")
    else:
        kind = "sqlite"
        source = settings.data_dir / SQLITE_FILE
        if not source.exists():
            raise BackupError(f"no database at {source}")
        _sqlite_copy(source, dest / SQLITE_FILE)  # consistent, while the server writes
    for name in _key_files(settings):
        shutil.copy2(settings.data_dir / name, dest / name)
        os.chmod(dest / name, 0o600)
    files = {p.name: _sha256(p) for p in sorted(dest.iterdir())}
    manifest = {
        "cgledger": VERSION,
        "database": kind,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "files": files,
        "keys_in_environment": [
            n
            for n, v in (
                ("CGLEDGER_SEED_KEY", settings.seed_key),
                ("CGLEDGER_SIGNING_KEY", settings.signing_key),
            )
            if v
        ],
        "warning": WARNING,
    }
    (dest / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def _checked_manifest(src: Path) -> dict[str, Any]:
    try:
        manifest: dict[str, Any] = json.loads((src / MANIFEST).read_text())
    except (OSError, ValueError) as exc:
        raise BackupError(f"{src} is not a cgledger backup ({MANIFEST}: {exc})") from None
    for name, digest in manifest["files"].items():
        path = src / name
        if not path.exists() or _sha256(path) != digest:
            raise BackupError(f"{path} is missing or altered (its SHA-256 is not the manifest's)")
    return manifest


def _pg_is_empty(url: str) -> bool:
    with psycopg.connect(url, connect_timeout=10) as conn:
        row = conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchone()
    return row is None or row[0] == 0


def restore(settings: Settings, src: Path, *, force: bool = False) -> dict[str, Any]:
    """Restore the backup ``src`` into ``settings``' database and data dir.
    Refuses a target that already holds data unless ``force``."""
    manifest = _checked_manifest(src)
    kind = "postgresql" if settings.database_url else "sqlite"
    if manifest["database"] != kind:
        raise BackupError(
            f"the backup is of a {manifest['database']} database; the target is {kind}"
        )
    # Everything that can refuse is checked before anything is written.
    keys = [n for n in (SEED_KEY_FILE, SIGNING_KEY_FILE) if (src / n).exists()]
    for name in keys:
        target_key = settings.data_dir / name
        if (
            not force
            and target_key.exists()
            and target_key.read_bytes() != (src / name).read_bytes()
        ):
            raise BackupError(f"{target_key} holds another key than the backup's (use --force)")
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    if settings.database_url:
        if not force and not _pg_is_empty(settings.database_url):
            raise BackupError("the target database is not empty (use --force to replace it)")
        args = [
            _tool("pg_restore"),
            "--no-owner",
            "--exit-on-error",
            "--dbname",
            settings.database_url,
        ]
        if force:
            args += ["--clean", "--if-exists"]
        done = subprocess.run(  # noqa: S603 - the PostgreSQL client, no shell
            [*args, str(src / PG_DUMP)], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise BackupError(f"pg_restore failed: {done.stderr.strip()}")
    else:
        target = settings.data_dir / SQLITE_FILE
        if target.exists() and not force:
            raise BackupError(f"{target} exists (use --force to replace it)")
        _sqlite_copy(src / SQLITE_FILE, target)
    for name in keys:
        shutil.copy2(src / name, settings.data_dir / name)
        os.chmod(settings.data_dir / name, 0o600)
    return manifest


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} is not installed: install the PostgreSQL client of the server's "
            "major version (Debian: postgresql-client)"
        )
    return found


def _sqlite_copy(source: Path, target: Path) -> None:
    with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target)) as out:
        src.backup(out)
