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


def load_or_create_key(data_dir: Path, hex_key: str | None) -> bytes:
    if hex_key:
        return bytes.fromhex(hex_key)
    path = data_dir / KEY_FILE
    if path.exists():
        return path.read_bytes()
    data_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, key)
    finally:
        os.close(fd)
    return key
