"""Configuration (DESIGN §3): CGLEDGER_DATABASE_URL, CGLEDGER_DATA_DIR,
CGLEDGER_HOST, CGLEDGER_PORT, CGLEDGER_SEED_KEY (the key that seals unrevealed
dice seeds, see cgledger.sealing) and CGLEDGER_SIGNING_KEY (the Ed25519 key that
signs checkpoints, see cgledger.signing). Both keys default to files in the
data directory, created on first start."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from pydantic_settings import BaseSettings, SettingsConfigDict

SQLITE_FILE = "cgledger.sqlite3"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CGLEDGER_")

    database_url: str | None = None
    data_dir: Path = Path("var")
    host: str = "127.0.0.1"
    port: int = 8000
    #: 64 hex digits: the AES-GCM key sealing unrevealed seeds (else ``data_dir/seed.key``).
    seed_key: str | None = None
    #: 64 hex digits: the Ed25519 seed that signs checkpoints (else
    #: ``data_dir/checkpoint.key``). Set it when several servers share one database.
    signing_key: str | None = None
    #: Snapshot interval of the campaign aggregate, in events: a load replays
    #: at most this many events after the latest snapshot (bench/cost.py).
    snapshot_interval: int = 50
    #: DESIGN §11: a request body over this many bytes is refused with 413.
    max_body_bytes: int = 1024 * 1024
    #: DESIGN §15: a VASL board archive (its images included) may be this large.
    max_archive_bytes: int = 16 * 1024 * 1024
    #: DESIGN §11: campaign creations per client address per minute (429 beyond).
    create_per_minute: int = 10

    def eventsourcing_env(self) -> dict[str, str]:
        """The environment the ``eventsourcing`` Application is built from."""
        url = self.database_url
        if not url:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            return {
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                "SQLITE_DBNAME": str(self.data_dir / SQLITE_FILE),
                "SQLITE_LOCK_TIMEOUT": "10",
            }
        parts = urlsplit(url)
        if parts.scheme not in ("postgresql", "postgres"):
            raise ValueError(
                f"CGLEDGER_DATABASE_URL must be a postgresql:// URL, not {parts.scheme}://"
            )
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": unquote(parts.path.lstrip("/")) or "postgres",
            "POSTGRES_HOST": parts.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parts.port or 5432),
            "POSTGRES_USER": unquote(parts.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parts.password or ""),
            "POSTGRES_POOL_SIZE": "5",
            "POSTGRES_MAX_OVERFLOW": "10",
        }
