"""The ``cgledger`` console script: ``serve`` and ``verify FILE``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cgledger.settings import Settings


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from api.app import create_app

    settings = Settings()
    host = args.host or settings.host
    port = args.port or settings.port
    backend = "PostgreSQL" if settings.database_url else f"SQLite in {settings.data_dir}/"
    print(f"cgledger: serving on http://{host}:{port}/docs ({backend})", file=sys.stderr)
    uvicorn.run(create_app(settings), host=host, port=port)
    return 0


def _verify(args: argparse.Namespace) -> int:
    from cgledger.verify import VerificationError, verify_bytes

    try:
        data = Path(args.file).read_bytes()
    except OSError as exc:
        print(f"cgledger verify: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        report = verify_bytes(data)
    except VerificationError as exc:
        print(f"FAILED {args.file}: {exc}", file=sys.stderr)
        return 1
    print(
        f"OK {args.file}: {report.events} events, hash chain intact (head {report.head[:16]}…); "
        f"{report.rolls} rolls, {report.rolls_recomputed} recomputed from their seeds, "
        f"{report.rolls_hidden} with the seed still secret; "
        f"{report.rule_results_checked} rule results checked"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cgledger", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the REST API (see CGLEDGER_* variables)")
    serve.add_argument("--host", default=None, help="default: CGLEDGER_HOST or 127.0.0.1")
    serve.add_argument("--port", type=int, default=None, help="default: CGLEDGER_PORT or 8000")
    serve.set_defaults(func=_serve)
    verify = sub.add_parser("verify", help="check an export's hash chain and revealed rolls")
    verify.add_argument("file", help="a .jsonl file from GET /v1/campaigns/{id}/export")
    verify.set_defaults(func=_verify)
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
