"""The one place the version is read: the installed distribution's metadata
(``pyproject.toml``), shown by ``GET /v1/health``, ``/openapi.json`` and
``cgledger --version``."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    VERSION = version("cgledger")
except PackageNotFoundError:  # running from a source tree that was never installed
    VERSION = "0+unknown"
