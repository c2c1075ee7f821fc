"""DESIGN §11: no cache may hand one side's view of a campaign to the other.

Every response under ``/v1/campaigns`` holds campaign data (a creation holds
the tokens), so it carries ``Cache-Control: private, no-store`` and
``Vary: Authorization``. Its ETag names the campaign version *and* the view:
the routes set ``"<version>"``, and this middleware appends a tag of the
caller's credentials, so the two sides and the referee never share an ETag
for one URL. ``If-Match`` accepts either form (``cgledger.service.session.if_match_version``).
A GET whose ``If-None-Match`` names the response's ETag is answered 304 with
no body (RFC 9110 13.1.2, 15.4.5).
"""

from __future__ import annotations

import hashlib

from cgledger.api.deps import ASGIApp, Message, Receive, Scope, Send

PREFIX = "/v1/campaigns"
CACHE_CONTROL = b"private, no-store"
#: Headers a 304 keeps (RFC 9110 15.4.5); the others describe a body it has not.
_KEEP_ON_304 = frozenset(
    {b"etag", b"cache-control", b"vary", b"date", b"x-request-id", b"content-location"}
)


def view_tag(authorization: bytes) -> str:
    """A short tag of the credentials: equal for one token, different between
    tokens (a side's, the other side's, the referee's). One-way, so it tells
    a reader of the header nothing about the token."""
    return hashlib.sha256(b"cgledger-view\0" + authorization).hexdigest()[:12]


def _etags(header: bytes) -> set[str]:
    return {t.strip().removeprefix("W/") for t in header.decode("latin-1").split(",")}


class CampaignCaching:
    """Pure ASGI middleware (streaming responses pass through untouched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(PREFIX):
            await self.app(scope, receive, send)
            return
        request_headers = dict(scope.get("headers", []))
        authorization = request_headers.get(b"authorization", b"")
        if_none_match = request_headers.get(b"if-none-match")
        readable = scope["method"] in ("GET", "HEAD")
        not_modified = False

        async def send_with_caching(message: Message) -> None:
            nonlocal not_modified
            if message["type"] == "http.response.start":
                headers = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k not in (b"cache-control", b"vary")
                ]
                headers += [(b"cache-control", CACHE_CONTROL), (b"vary", b"Authorization")]
                for i, (key, value) in enumerate(headers):
                    if key == b"etag" and authorization:
                        version = value.decode("latin-1").strip('"')
                        etag = f'"{version}-{view_tag(authorization)}"'
                        headers[i] = (key, etag.encode("latin-1"))
                        not_modified = (
                            readable
                            and message["status"] == 200
                            and if_none_match is not None
                            and (etag in _etags(if_none_match) or if_none_match.strip() == b"*")
                        )
                if not_modified:
                    headers = [(k, v) for k, v in headers if k in _KEEP_ON_304]
                    message = {**message, "status": 304, "headers": headers}
                else:
                    message["headers"] = headers
            elif message["type"] == "http.response.body" and not_modified:
                if message.get("more_body", False):
                    return  # a 304 sends no body
                message = {**message, "body": b""}
            await send(message)

        await self.app(scope, receive, send_with_caching)
