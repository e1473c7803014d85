"""The HTTP API's wrappers, as plain ASGI so that an app mounted beside the routes (the MCP
endpoint streams its replies) gets them too: a bearer token when one is configured, a bound
on the size of a request body, and a crash turned into a one-line JSON 500 with the stack
trace kept in the server's log."""

from __future__ import annotations

import hmac
import json
import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger("graphwiki.serve")

OPEN_PATHS = frozenset({"/health"})  # what a client probes before it knows whether a token is wanted


def one_line(exc: BaseException) -> str:
    """The exception as one line: its type and the first line of its message."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


async def send_json(send: Send, status: int, body: dict, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    payload = json.dumps(body).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


class BearerToken:
    """Every path but the open ones needs ``Authorization: Bearer <token>``. The token is
    compared in constant time and never logged; a query-string token is not accepted (it
    would land in access logs)."""

    def __init__(self, app: ASGIApp, token: str):
        if not token:
            raise ValueError("an empty token protects nothing")
        self.app = app
        self._token = token.encode("utf-8")

    def _allowed(self, scope: Scope) -> bool:
        if scope["path"] in OPEN_PATHS:
            return True
        header = dict(scope.get("headers") or []).get(b"authorization", b"")
        scheme, _, credentials = header.partition(b" ")
        return scheme.lower() == b"bearer" and hmac.compare_digest(credentials.strip(), self._token)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await send_json(
            send,
            401,
            {"detail": "this server wants a token: send the header 'Authorization: Bearer <token>'"},
            [(b"www-authenticate", b"Bearer")],
        )


class ErrorsAsJson:
    """An exception no handler mapped becomes a 500 whose body is one line, never a trace."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as exc:
            logger.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if not started:
                await send_json(send, 500, {"detail": f"internal error: {one_line(exc)}"})


class BodyLimit:
    """A request body over ``max_bytes`` is refused with 413 before it is read: by its
    Content-Length when it states one, else as soon as the chunks received pass the bound
    (the route never sees the rest)."""

    def __init__(self, app: ASGIApp, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    def _refusal(self) -> dict:
        return {"detail": f"the request body is larger than this server takes ({self.max_bytes} bytes)"}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        stated = dict(scope.get("headers") or []).get(b"content-length")
        if stated is not None and stated.isdigit() and int(stated) > self.max_bytes:
            await send_json(send, 413, self._refusal())
            return
        received, started, refused = 0, False, False

        async def counted() -> Message:
            # Past the bound the answer is given here and the app is told the client left:
            # a route that reads its body as a whole never sees the rest of it.
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes and not started:
                    refused = True
                    await send_json(send, 413, self._refusal())
                    return {"type": "http.disconnect"}
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 was the answer
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except Exception:
            if not refused:
                raise
            # else: the app's reaction to a client that "left" (Starlette's ClientDisconnect)
