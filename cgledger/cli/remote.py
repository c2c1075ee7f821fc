"""What the commands that talk to a server share: the ``--server``,
``--token``, ``--campaign`` and ``--retries`` options, the client they make,
and how a failure becomes an exit code."""

# The client (and httpx2) is imported when a command runs, so that the
# commands that do not talk to a server load none of it.
# ruff: noqa: PLC0415

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from cgledger.client import Client

T = TypeVar("T")

DEFAULT_SERVER = "http://127.0.0.1:8000"


class Usage(Exception):
    """A usage error of a player's command (exit 2)."""


def server_options(parser: argparse.ArgumentParser, *, campaign_help: str) -> None:
    group = parser.add_argument_group("server")
    group.add_argument(
        "--server",
        default=None,
        metavar="URL",
        help=f"default: CGLEDGER_SERVER or {DEFAULT_SERVER}",
    )
    group.add_argument(
        "--token", default=None, help="a Bearer token of the campaign; default: CGLEDGER_TOKEN"
    )
    group.add_argument(
        "--campaign",
        default=None,
        metavar="ID",
        help=f"{campaign_help}; default: CGLEDGER_CAMPAIGN",
    )
    group.add_argument(
        "--retries",
        type=int,
        default=3,
        metavar="N",
        help="tries again after a dropped connection or a busy server (default 3)",
    )


@contextmanager
def _client(args: argparse.Namespace) -> Iterator[Client]:
    from cgledger.client import Client

    server = args.server or os.environ.get("CGLEDGER_SERVER") or DEFAULT_SERVER
    token = args.token or os.environ.get("CGLEDGER_TOKEN")
    campaign = args.campaign or os.environ.get("CGLEDGER_CAMPAIGN")
    if not token:
        raise Usage("no token: pass --token or set CGLEDGER_TOKEN")
    if not campaign:
        raise Usage("no campaign: pass --campaign or set CGLEDGER_CAMPAIGN")
    if args.retries < 0:
        raise Usage("--retries must be 0 or more")
    with Client(server, token, campaign=campaign, retries=args.retries) as api:
        yield api


def on_server(args: argparse.Namespace, action: Callable[[Client], T]) -> T | int:
    """``action`` on a client of the server, or the exit code of its failure:
    the problem's detail and 1 for an error answer or no server, 2 for a
    usage error."""
    import httpx2 as httpx

    from cgledger.client import ApiError, FeedDropped

    name = f"cgledger {args.command}"
    try:
        with _client(args) as api:
            return action(api)
    except Usage as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    except ApiError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 1
    except (httpx.HTTPError, FeedDropped) as exc:
        server = args.server or os.environ.get("CGLEDGER_SERVER") or DEFAULT_SERVER
        print(f"{name}: no answer from {server}: {exc or type(exc).__name__}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
