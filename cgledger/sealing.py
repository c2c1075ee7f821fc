"""AES-GCM sealing of unrevealed dice seeds (DESIGN §2: seeds never appear in
plaintext in the event store, in logs or in responses).

The key is 32 random bytes kept in ``CGLEDGER_DATA_DIR/seed.key`` (mode 0600),
created on first start, or given as 64 hex digits in ``CGLEDGER_SEED_KEY``
(useful when several servers share one PostgreSQL database). Losing the key
makes unrevealed Secret rolls unrevealable, so back it up with the database.
"""

from __future__ import annotations

import base64
import os
import secrets
from pathlib import Path

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

KEY_FILE = "seed.key"


class AesGcmSealer:
    def __init__(self, key: bytes) -> None:
        if len(key) != 32:
            raise ValueError("the seed key must be 32 bytes")
        self._aead = AESGCM(key)

    def seal(self, plaintext: bytes, aad: bytes) -> str:
        nonce = secrets.token_bytes(12)
        return base64.b64encode(nonce + self._aead.encrypt(nonce, plaintext, aad)).decode()

    def unseal(self, blob: str, aad: bytes) -> bytes:
        raw = base64.b64decode(blob)
        return self._aead.decrypt(raw[:12], raw[12:], aad)


def load_or_create_secret(path: Path, nbytes: int = 32) -> bytes:
    """Read the secret of ``nbytes`` random bytes at ``path``, creating it first
    (mode 0600) if there is none.

    The new secret is written whole to a private temporary file next to
    ``path`` and then hard-linked into place, so two servers starting at once
    never see a partial secret, and the loser of the race simply reads the
    winner's. A file of any other length is an error, never overwritten.
    """
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_bytes(nbytes))
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    secret = path.read_bytes()
    if len(secret) != nbytes:
        raise ValueError(f"{path} must hold exactly {nbytes} bytes")
    return secret


def load_or_create_key(data_dir: Path, hex_key: str | None) -> bytes:
    """The AES-GCM seed key: ``hex_key`` (``CGLEDGER_SEED_KEY``) if given, else
    the 32 bytes of ``data_dir/seed.key``, created on first start."""
    if hex_key:
        return bytes.fromhex(hex_key)
    return load_or_create_secret(data_dir / KEY_FILE, 32)
