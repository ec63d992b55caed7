"""The web table as an ASGI app (Starlette): the pages, the card pictures, joining, and one WebSocket per page.

Thin, like the CLI: the state lives in `TableSession`; this layer authenticates each page (the host key, or a
phone's seat token), checks the size and rate of what it sends, calls the session, saves, and sends every page
the whole state it may see. A page that missed updates catches up from the next state, never from a log.

Protocol (JSON text frames). The page first sends `{"type": "hello", "role": "host", "key": K}` or
`{"type": "hello", "role": "seat", "token": T}`; the server answers `{"type": "state", "state": {...}}` now and
after every change, `{"type": "error", "message": ...}` for a refused request (the game goes on), and
`{"type": "bye", "message": ...}` before closing a page that has no seat any more.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from doodle.game.checks import SheetChecks
from doodle.table.address import qr_svg_data_uri
from doodle.table.cards import card_svg, frame_cells
from doodle.table.kept import reading_from_json, reading_to_json
from doodle.table.photos import (
    MAX_UPLOAD_BYTES,
    PhotoDesk,
    Reading,
    UploadError,
    check_pixels,
    image_kind,
    problem_words,
    table_checks,
    tap,
)
from doodle.table.save import game_record
from doodle.table.session import Seat, Stage, TableError, TableSession

log = logging.getLogger("doodle.table")

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 2048  # characters in one WebSocket message; the largest legitimate one is under 200
MAX_JOIN_BODY = 1024
MAX_CLIENTS = 64
HELLO_SECONDS = 10.0
SEND_SECONDS = 5.0
RATE = 10.0  # messages per second a page may send on average...
BURST = 30.0  # ...and at once
FLOOD_LIMIT = 200  # messages refused for rate before the page is disconnected
JOIN_TRIES = 10  # failed joins (wrong room code) per address...
JOIN_WINDOW = 60.0  # ...per minute
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
     b"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


@dataclass
class TokenBucket:
    """At most `rate` messages per second on average, `burst` at once."""

    rate: float = RATE
    burst: float = BURST
    tokens: float = BURST
    stamp: float = field(default_factory=time.monotonic)
    refused: int = 0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False


@dataclass(eq=False)
class Client:
    websocket: WebSocket
    role: str  # "host" or "seat"
    token_digest: str | None = None
    bucket: TokenBucket = field(default_factory=TokenBucket)


class TableServer:
    """One table served: the session, the host key, the join address, the pages connected, and how to save."""

    def __init__(self, session: TableSession, host_key: str, join_url: str,
                 save: Callable[[TableSession, dict[int, Any]], None] | None = None,
                 readings: dict[int, Any] | None = None) -> None:
        """`save(session, readings)` keeps the table after every step; `readings` are those it kept (by seat id),
        given back to their phones while their scoring lasts."""
        self.session = session
        self.host_key = host_key
        self.join_url = join_url
        self.qr = qr_svg_data_uri(join_url)
        self.save = save
        self.save_error: str | None = None
        self.clients: set[Client] = set()
        self.failed_joins: dict[str, list[float]] = {}
        self.frame = frame_cells(session.deck)
        self.cards = {card.id: card for card in session.deck.start_cards + session.deck.patch_cards}
        self.photos = PhotoDesk()
        self.photos.pending = self._restored(readings or {})

    # ----- state -----
    def seat_of(self, client: Client) -> Seat | None:
        if client.token_digest is None:
            return None
        return next((s for s in self.session.seats if s.token_hash == client.token_digest), None)

    def online(self) -> list[int]:
        seats = (self.seat_of(client) for client in self.clients if client.role == "seat")
        return sorted({seat.id for seat in seats if seat is not None})

    def host_state(self) -> dict[str, Any]:
        view = self.session.table_view()
        view.update(online=self.online(), room_code=self.session.room_code, join_url=self.join_url, qr=self.qr,
                    save_error=self.save_error)
        return view

    def seat_state(self, seat: Seat) -> dict[str, Any]:
        view = self.session.seat_view(seat)
        view["online"] = self.online()
        reading = self.reading_of(seat)
        view["reading"] = reading.view() if reading else None  # this phone's photo, for its eyes only
        view["reading_busy"] = seat.id in self.photos.busy
        return view

    # ----- photos of the sheets -----
    def reading_of(self, seat: Seat) -> Reading | None:
        """The seat's reading, while the scoring it was taken at lasts."""
        reading = self.photos.pending.get(seat.id)
        if reading is None or self.session.stage != Stage.SCORING or reading.round != self.session.round:
            return None
        return reading

    async def read_photo(self, seat: Seat, data: bytes) -> Reading:
        """Read a seat's photo at the current scoring with the game's checks; the phone sees the reading."""
        session = self.session
        if session.stage != Stage.SCORING:
            raise UploadError("photos are read at a scoring: wait for the end of the round")
        number = session.round
        image_kind(data)
        check_pixels(data)  # from the header: quick, and before a worker decodes anything
        checks = self.checks_for(seat, number)
        earlier = [entry.points for entry in session.scores[seat.id][: number - 1]]
        await self.broadcast()  # the phone shows that its photo is being read
        try:
            result, filled = await self.photos.read(seat.id, data, checks, earlier)
        finally:
            await self.broadcast()
        if session.stage != Stage.SCORING or session.round != number:
            raise UploadError("the table moved on while your photo was read: type your score, or ask the host")
        reading = Reading(number, result, filled)
        self.photos.pending[seat.id] = reading
        self.changed()  # kept in the save: a restart gives the phone its reading back
        await self.broadcast()
        return reading

    def checks_for(self, seat: Seat, number: int) -> SheetChecks:
        """The game's checks for this seat's photo at the scoring of round `number`."""
        session = self.session
        return table_checks(session.events, session.deck, number, session.confirmed_quilt(seat.id, number - 1))

    def kept_readings(self) -> dict[int, Any]:
        """The readings waiting for their players, as the save keeps them."""
        readings = ((seat.id, self.reading_of(seat)) for seat in self.session.seats)
        return {seat_id: reading_to_json(reading) for seat_id, reading in readings if reading is not None}

    def _restored(self, kept: dict[int, Any]) -> dict[int, Reading]:
        """The kept readings of this scoring, checked again; one that cannot be used is left out (its phone takes
        the photo again) and logged."""
        session, restored = self.session, {}
        for seat in session.seats:
            data = kept.get(seat.id)
            if data is None:
                continue
            if session.stage != Stage.SCORING or not isinstance(data, dict) or data.get("round") != session.round:
                log.warning("the reading of %s's photo was kept for another step of the game: left out", seat.name)
                continue
            try:
                restored[seat.id] = reading_from_json(data, self.checks_for(seat, session.round))
            except ValueError as error:
                log.warning("the reading of %s's photo could not be restored (%s): the phone asks for the photo "
                            "again", seat.name, error)
        return restored

    async def photo_action(self, client: Client, message: dict[str, Any]) -> None:
        """A phone corrects a cell of its reading, confirms it, or drops it to retake the photo."""
        seat = self.seat_of(client)
        if seat is None or client.role != "seat":
            raise TableError("only a player's phone corrects its own photo")
        reading = self.reading_of(seat)
        if reading is None:
            raise TableError("no photo of your sheet is waiting: take one")
        kind = message.get("type")
        if kind == "photo_drop":
            self.photos.pending.pop(seat.id, None)
        elif kind == "photo_cell":
            try:  # the checks may search a while: in the readers' pool, never on the event loop
                changed = await self.photos.run(tap, reading, message.get("cell"), message.get("shaded"))
            except UploadError as error:
                raise TableError(str(error)) from None
            if self.photos.pending.get(seat.id) is reading:
                self.photos.pending[seat.id] = changed
        elif kind == "photo_confirm":
            overruled = [problem_words(problem) for problem in reading.result.problems]
            if overruled and message.get("anyway") is not True:
                raise TableError(f"your sheet breaks a check of the game ({'; '.join(overruled)}): tap the cells "
                                 "to correct them, or confirm anyway if your sheet really is so")
            self.session.set_photo_score(seat.id, reading.round, reading.result.quilt, overruled)
            self.photos.pending.pop(seat.id, None)
        else:
            raise TableError(f"a phone cannot ask for {_short(kind)}")
        self.session.version += 1  # the phone's view changed (its reading is part of its state): saved, sent

    def changed(self) -> None:
        """Save after every step; a failed save is shown on the host and the game goes on."""
        if self.save is None:
            return
        try:
            self.save(self.session, self.kept_readings())
            self.save_error = None
        except OSError as error:
            self.save_error = f"the game could not be saved: {error.strerror or error}"
            log.error(self.save_error)

    async def broadcast(self) -> None:
        host_text = _state_message(self.host_state())
        sends = []
        for client in list(self.clients):
            if client.role == "host":
                sends.append(self._send(client, host_text))
                continue
            seat = self.seat_of(client)
            if seat is None:
                sends.append(self._bye(client, "the host freed or removed your seat: join again"))
            else:
                sends.append(self._send(client, _state_message(self.seat_state(seat))))
        await asyncio.gather(*sends)

    async def _send(self, client: Client, text: str) -> None:
        try:
            await asyncio.wait_for(client.websocket.send_text(text), SEND_SECONDS)
        except Exception:  # a page that went away or stalls is closed: it reconnects and catches up from the state
            self.clients.discard(client)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.websocket.close(code=1011), 1)

    async def _bye(self, client: Client, message: str) -> None:
        self.clients.discard(client)
        with contextlib.suppress(Exception):
            await client.websocket.send_text(json.dumps({"type": "bye", "message": message}))
            await client.websocket.close(code=4001)

    # ----- requests -----
    def act(self, client: Client, message: dict[str, Any]) -> None:
        """Carry out one request of a page, for its own seat only (the host for any seat)."""
        kind = message.get("type")
        session = self.session
        if client.role == "seat":
            seat = self.seat_of(client)
            if seat is None:
                raise TableError("you have no seat at this table: join again")
            if kind == "done":
                session.set_done(seat.id, message.get("step"), message.get("done", True))
            elif kind == "score":
                session.set_score(seat.id, message.get("round"), message.get("points"), message.get("empty"), "phone")
            else:
                raise TableError(f"a phone cannot ask for {_short(kind)}")
            return
        seat_id = message.get("seat")
        if kind == "start":
            session.start()
        elif kind == "advance":
            session.advance(message.get("step"))
        elif kind == "add":
            session.add_player(message.get("name"))
        elif kind == "rename":
            session.rename(seat_id, message.get("name"))
        elif kind == "remove":
            session.remove(seat_id)
        elif kind == "free":
            session.free(seat_id)
        elif kind == "done":
            session.set_done(seat_id, message.get("step"), message.get("done", True))
        elif kind == "score":
            session.set_score(seat_id, message.get("round"), message.get("points"), message.get("empty"), "host")
        elif kind == "auto_roll":
            session.set_auto_roll(message.get("on"))
        else:
            raise TableError(f"unknown request {_short(kind)}")

    def authenticate(self, hello: Any) -> tuple[str, str | None] | str:
        """The page's role (and a phone's seat token digest) from its hello, or the reason it is refused."""
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            return "say hello first"
        if hello.get("role") == "host":
            key = hello.get("key")
            if isinstance(key, str) and hmac.compare_digest(key.encode(), self.host_key.encode()):
                return "host", None
            return "this host page is not this table's (or is from an earlier run): open the address " \
                   "`doodle table` printed"
        seat = self.session.seat_for_token(hello.get("token"))
        if seat is None:
            return "unknown seat: join the table again"
        return "seat", seat.token_hash

    def join_allowed(self, address: str) -> bool:
        now = time.monotonic()
        tries = [t for t in self.failed_joins.get(address, []) if now - t < JOIN_WINDOW]
        self.failed_joins[address] = tries
        return len(tries) < JOIN_TRIES

    def join_failed(self, address: str) -> None:
        self.failed_joins.setdefault(address, []).append(time.monotonic())
        if len(self.failed_joins) > 1000:  # forget the oldest addresses rather than grow without end
            self.failed_joins.pop(next(iter(self.failed_joins)))


def _short(value: Any) -> str:
    return repr(value)[:40]


def _state_message(state: dict[str, Any]) -> str:
    return json.dumps({"type": "state", "state": state}, ensure_ascii=False, separators=(",", ":"))


def _error(message: str) -> str:
    return json.dumps({"type": "error", "message": message}, ensure_ascii=False)


class SecurityHeaders:
    """Adds a strict content security policy and friends to every HTTP response: the pages load only their own
    scripts and styles, so even a name that slipped past escaping could not run."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, with_headers)


def create_app(server: TableServer) -> Starlette:
    """The ASGI app serving `server`'s table."""

    template = (STATIC / "page.html").read_text(encoding="utf-8")
    pages = {page: template.replace("{page}", page).replace("{title}", title)
             for page, title in (("phone", "join"), ("host", "table"))}

    async def phone_page(request: Request) -> Response:
        return HTMLResponse(pages["phone"], headers={"cache-control": "no-cache"})

    async def host_page(request: Request) -> Response:
        return HTMLResponse(pages["host"], headers={"cache-control": "no-cache"})

    async def card(request: Request) -> Response:
        found = server.cards.get(request.path_params["card_id"])
        if found is None:
            return JSONResponse({"error": "no such card"}, status_code=404)
        return Response(card_svg(found, server.frame), media_type="image/svg+xml",
                        headers={"cache-control": "max-age=3600"})

    async def join(request: Request) -> Response:
        address = request.client.host if request.client else "?"
        if not server.join_allowed(address):
            return JSONResponse({"error": "too many wrong room codes: wait a minute and try again"}, status_code=429)
        body = await _limited_json(request)
        if body is None:
            return JSONResponse({"error": "send a JSON object with your name and the room code"}, status_code=400)
        if not server.session.check_room_code(body.get("room")):
            server.join_failed(address)
            return JSONResponse({"error": "wrong room code: type the 4 letters shown on the table's screen"},
                                status_code=403)
        try:
            seat, token = server.session.join(body.get("name"))
        except TableError as error:
            return JSONResponse({"error": str(error)}, status_code=409)
        server.changed()
        await server.broadcast()
        return JSONResponse({"seat": seat.id, "name": seat.name, "token": token})

    async def photo(request: Request) -> Response:
        seat = server.session.seat_for_token(request.headers.get("authorization", "").removeprefix("Bearer "))
        if seat is None:
            return JSONResponse({"error": "unknown seat: join the table again"}, status_code=403)
        if seat.id in server.photos.busy:  # refused before its bytes are taken in
            return JSONResponse({"error": "your previous photo is still being read: wait a moment"}, status_code=409)
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES + 64 * 1024:
            return JSONResponse({"error": _too_large()}, status_code=413)
        body = await _limited_body(request, MAX_UPLOAD_BYTES + 64 * 1024)  # the file and its multipart frame
        if body is None:
            return JSONResponse({"error": _too_large()}, status_code=413)

        async def replay() -> Message:
            return {"type": "http.request", "body": body, "more_body": False}

        try:
            form = await Request(request.scope, replay).form(max_files=1, max_fields=2)
            upload = form.get("photo")
            data = await upload.read() if upload is not None and not isinstance(upload, str) else None
        except Exception:  # a malformed multipart body: python-multipart's errors are many
            data = None
        if data is None:
            return JSONResponse({"error": "send the photo as the form field 'photo'"}, status_code=400)
        if len(data) > MAX_UPLOAD_BYTES:
            return JSONResponse({"error": _too_large()}, status_code=413)
        try:
            reading = await server.read_photo(seat, data)
        except UploadError as error:
            return JSONResponse({"error": str(error)}, status_code=422)
        except Exception:  # a bug must not stop the game: log it, tell the phone, go on
            log.exception("reading a photo failed")
            return JSONResponse({"error": "the table could not read this photo (an internal error, logged): type "
                                          "your score"}, status_code=500)
        return JSONResponse({"reading": reading.view()})

    async def record(request: Request) -> Response:
        key = request.headers.get("authorization", "").removeprefix("Bearer ")
        if not hmac.compare_digest(key.encode(), server.host_key.encode()):
            return JSONResponse({"error": "only the host can download the record"}, status_code=403)
        return JSONResponse(game_record(server.session), headers={
            "content-disposition": f'attachment; filename="doodle-table-{server.session.seed}.json"'})

    async def socket(websocket: WebSocket) -> None:
        if len(server.clients) >= MAX_CLIENTS:
            await websocket.close(code=1013)
            return
        origin = websocket.headers.get("origin")
        if origin is not None and origin.split("://", 1)[-1] != websocket.headers.get("host"):
            await websocket.close(code=1008)  # another site's page in a player's browser
            return
        await websocket.accept()
        client = await _hello(websocket, server)
        if client is None:
            return
        server.clients.add(client)
        try:
            await server.broadcast()  # this page's state, and the others see it online
            while client in server.clients:  # a page dropped for stalling is not served on
                text = await _receive_text(websocket)
                await _handle(server, client, text)
        except WebSocketDisconnect:
            pass
        finally:
            if client in server.clients:
                server.clients.discard(client)
                with contextlib.suppress(Exception):
                    await server.broadcast()

    app = Starlette(routes=[
        Route("/", phone_page),
        Route("/host", host_page),
        Route("/card/{card_id}.svg", card),
        Route("/api/join", join, methods=["POST"]),
        Route("/api/record", record),
        Route("/api/photo", photo, methods=["POST"]),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.add_middleware(SecurityHeaders)
    app.state.server = server
    return app


async def _limited_json(request: Request) -> dict[str, Any] | None:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_JOIN_BODY:
            return None
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # bad JSON or text, a number too long to read, deep nesting
        return None
    return data if isinstance(data, dict) else None


async def _limited_body(request: Request, limit: int) -> bytes | None:
    """The request's body, or None as soon as it is longer than `limit` bytes (the rest is never read)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _too_large() -> str:
    return (f"the photo is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB: take it with the phone's usual "
            "camera settings")


async def _receive_text(websocket: WebSocket) -> str:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return message.get("text") or ""  # a binary frame reads as empty text, refused below


async def _hello(websocket: WebSocket, server: TableServer) -> Client | None:
    try:
        text = await asyncio.wait_for(_receive_text(websocket), HELLO_SECONDS)
        hello = json.loads(text) if len(text) <= MAX_MESSAGE else None
    except (TimeoutError, WebSocketDisconnect, ValueError, RecursionError):
        hello = None
    found = server.authenticate(hello)
    if isinstance(found, str):
        with contextlib.suppress(Exception):
            await websocket.send_text(json.dumps({"type": "bye", "message": found}))
            await websocket.close(code=4001)
        return None
    role, digest = found
    return Client(websocket, role, digest)


async def _handle(server: TableServer, client: Client, text: str) -> None:
    """One message of a page: refused with a clear error when too large, too frequent, malformed or not allowed."""
    websocket = client.websocket
    if not client.bucket.take():
        if client.bucket.refused > FLOOD_LIMIT:
            await websocket.close(code=1008)
            raise WebSocketDisconnect(1008)
        if client.bucket.refused % 10 == 1:
            await websocket.send_text(_error("too many messages at once: slow down"))
        return
    if len(text) > MAX_MESSAGE:
        await websocket.send_text(_error(f"message too large (at most {MAX_MESSAGE} characters)"))
        return
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        message = None
    if not isinstance(message, dict):
        await websocket.send_text(_error("a message is a JSON object with a type"))
        return
    if message.get("type") == "ping":
        return
    before = server.session.version
    try:
        if str(message.get("type")).startswith("photo_"):
            await server.photo_action(client, message)
        else:
            server.act(client, message)
    except TableError as error:
        await websocket.send_text(_error(str(error)))
        return
    except Exception:  # a bug must not stop the game: log it, tell the page, go on
        log.exception("request %r failed", message)
        await websocket.send_text(_error("the table could not do that (an internal error, logged)"))
        return
    if server.session.version != before:
        server.changed()
        await server.broadcast()

