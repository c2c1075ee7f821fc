"""The ``cgledger`` console script: ``serve``, ``backup``, ``restore``
(``cgledger.cli.server``), ``verify FILE | --campaign ID [--checkpoint CP ...]
[--server-key HEX]`` (``cgledger.cli.verify``), and the player's commands
``roll``, ``roster`` and ``log`` (``cgledger.cli.player``, ``docs/client.md``),
which talk to a server through ``cgledger.client``; and ``definition …``, the
authoring tools of a CG definition (``cgledger.cli.definition``,
``docs/authoring.md``), which need no server.

Each command imports the server, or the client, only when it runs: ``cgledger
verify`` of a file loads neither.
"""

from __future__ import annotations

import argparse

from cgledger.cli import definition, player, server, verify
from cgledger.version import VERSION

__all__ = ["main"]


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
    server.add_serve(sub)
    verify.add_command(sub)
    player.add_commands(sub)
    server.add_backup(sub)
    definition.add_commands(sub)
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code
