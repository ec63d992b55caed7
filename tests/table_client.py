"""Starlette's TestClient for the web table, with pages that close the way a browser's do.

On leaving a `websocket_connect` block, the TestClient sends the close and at once cancels the app's task. If the
page's handler is still at its teardown (telling the other pages that this one left), that cancellation can leak
out as `CancelledError` on a loaded machine: a harness artefact, since a real server delivers the close as a
message and never cancels the handler. So each page here sends its close, waits until the table's handler for it
has really ended, and only then lets the TestClient cancel what is left (nothing of ours).
"""

from __future__ import annotations

import threading
from typing import Any

from starlette.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send

HANDLER_END_SECONDS = 10.0  # a handler's teardown takes milliseconds; this only bounds a broken test


class _WebSocketHandlers:
    """The ASGI app, with an event per WebSocket connection that is set when the app's handler for it ends."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.ended: list[threading.Event] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        ended = threading.Event()
        self.ended.append(ended)
        try:
            await self.app(scope, receive, send)
        finally:
            ended.set()


class _ClosingPage:
    """A WebSocket test session that, on exit, closes and waits for the table's handler to end."""

    def __init__(self, session: Any, handlers: _WebSocketHandlers) -> None:
        self._session = session
        self._handlers = handlers
        self._ended: threading.Event | None = None

    def __enter__(self) -> _ClosingPage:
        self._session.__enter__()
        self._ended = self._handlers.ended[-1]  # pages connect one at a time: the handler just started is ours
        return self

    def __exit__(self, *exc_info: Any) -> bool | None:
        if self._ended is not None and not self._ended.is_set():
            try:
                self._session.close(1000)
            except Exception:  # noqa: BLE001 - the session is gone already: nothing to wait for
                pass
            else:
                self._ended.wait(HANDLER_END_SECONDS)
        return self._session.__exit__(*exc_info)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


class TableClient(TestClient):
    """A TestClient whose WebSocket pages close as a browser's do (see the module's docstring)."""

    def __init__(self, app: ASGIApp, **kwargs: Any) -> None:
        self._handlers = _WebSocketHandlers(app)
        super().__init__(self._handlers, **kwargs)

    def websocket_connect(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return _ClosingPage(super().websocket_connect(*args, **kwargs), self._handlers)
