"""The web table through Starlette's TestClient: joining, the WebSocket protocol, who may do what, bad requests,
saving after every step, and a resumed table that gives each phone its seat back."""

import asyncio
import contextlib
import json
import re

import pytest
from starlette.websockets import WebSocketDisconnect

from doodle.game.deck import load_deck
from doodle.table.app import MAX_MESSAGE, Client, TableServer, create_app
from doodle.table.save import TableSave, read_save, write_save
from doodle.table.session import TableSession
from tests.table_client import TableClient

HOST_KEY = "the-host-key"


@pytest.fixture
def make_client():
    """A maker of test clients for a table. Each client is entered, so all its connections share one event loop,
    as under uvicorn (a client used without `with` gives each WebSocket its own loop)."""
    with contextlib.ExitStack() as stack:
        def make(session=None, save=None):
            session = session or TableSession.new(load_deck(), players=0, seed=11)
            server = TableServer(session, HOST_KEY, "http://192.0.2.7:8765/#room=" + session.room_code, save)
            return stack.enter_context(TableClient(create_app(server))), server

        yield make


def join(client, server, name):
    response = client.post("/api/join", json={"name": name, "room": server.session.room_code})
    assert response.status_code == 200, response.text
    return response.json()["token"]


def state_of(ws):
    """The next state message, skipping errors (returned apart when asked)."""
    while True:
        message = ws.receive_json()
        if message["type"] == "state":
            return message["state"]


def wait_state(ws, check, limit=20):
    """Read states until one passes `check` (other pages' comings and goings send states too)."""
    for _ in range(limit):
        state = state_of(ws)
        if check(state):
            return state
    raise AssertionError("no such state came")


def hello_seat(ws, token):
    ws.send_json({"type": "hello", "role": "seat", "token": token})
    return state_of(ws)


def hello_host(ws, key=HOST_KEY):
    ws.send_json({"type": "hello", "role": "host", "key": key})
    return state_of(ws)


def test_pages_assets_and_cards_are_served_with_a_strict_policy(make_client):
    client, server = make_client()
    for path in ("/", "/host", "/static/common.js", "/static/host.js", "/static/phone.js", "/static/table.css"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "default-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"
    html = client.get("/host").text
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html  # nothing from a CDN
    card = client.get("/card/P01.svg")
    assert card.headers["content-type"].startswith("image/svg+xml")
    shape = server.session.deck.card("P01").shape
    assert card.text.count("<rect") == shape.size + 1  # the card, then one square per cell
    assert client.get("/card/NOPE.svg").status_code == 404
    assert client.get("/card/..%2F..%2Fetc%2Fpasswd.svg").status_code == 404
    assert client.get("/static/../app.py").status_code == 404


def test_join_needs_the_room_code_and_a_name(make_client):
    client, server = make_client()
    assert client.post("/api/join", json={"name": "Ann", "room": "ZZZZ"}).status_code == 403
    assert client.post("/api/join", content=b"not json").status_code == 400
    assert client.post("/api/join", content=b"{" + b" " * 5000 + b"}").status_code == 400
    response = client.post("/api/join", json={"name": "  ", "room": server.session.room_code})
    assert response.status_code == 409 and "name" in response.json()["error"]
    lower = client.post("/api/join", json={"name": "Ann", "room": server.session.room_code.lower()})
    assert lower.status_code == 200 and lower.json()["name"] == "Ann"
    again = client.post("/api/join", json={"name": "ann", "room": server.session.room_code})
    assert again.status_code == 409 and "joined already" in again.json()["error"]


def test_wrong_room_codes_are_rate_limited(make_client):
    client, server = make_client()
    codes = [client.post("/api/join", json={"name": "Eve", "room": "AAAA"}).status_code for _ in range(12)]
    assert codes[:10] == [403] * 10 and codes[10:] == [429, 429]
    refused = client.post("/api/join", json={"name": "Eve", "room": server.session.room_code})
    assert refused.status_code == 429  # even the right code, until the minute is over


def test_a_phone_sees_its_seat_and_the_host_sees_the_join_code(make_client):
    client, server = make_client()
    token = join(client, server, "Ann")
    with client.websocket_connect("/ws") as phone:
        state = hello_seat(phone, token)
        assert state["you"] == state["seats"][0]["id"] and state["seats"][0]["name"] == "Ann"
        assert "room_code" not in state and "qr" not in state
        with client.websocket_connect("/ws") as host:
            state = hello_host(host)
            assert state["room_code"] == server.session.room_code
            assert state["qr"].startswith("data:image/svg+xml") and state["join_url"].endswith(state["room_code"])
            assert state["online"] == [state["seats"][0]["id"]]


@pytest.mark.parametrize("hello", [
    {"type": "hello", "role": "host", "key": "guess"},
    {"type": "hello", "role": "seat", "token": "forged"},
    {"type": "hello", "role": "seat", "token": ["x"]},
    {"type": "done"},
    "hello",
])
def test_a_page_without_a_key_or_seat_is_sent_away(hello, make_client):
    client, _ = make_client()
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps(hello))
        message = ws.receive_json()
        assert message["type"] == "bye" and message["message"]
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_a_socket_from_another_site_is_refused(make_client):
    client, _ = make_client()
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            "/ws", headers={"origin": "http://evil.example"}) as ws:
        ws.receive_json()


def test_a_phone_acts_only_for_its_own_seat_and_not_as_host(make_client):
    client, server = make_client()
    ann, bob = join(client, server, "Ann"), join(client, server, "Bob")
    with client.websocket_connect("/ws") as host, client.websocket_connect("/ws") as phone:
        hello_host(host)
        state = hello_seat(phone, ann)
        for request in ({"type": "start"}, {"type": "remove", "seat": 2}, {"type": "rename", "seat": 2, "name": "X"},
                        {"type": "advance", "step": 0}, {"type": "auto_roll", "on": False}):
            phone.send_json(request)
            message = phone.receive_json()
            assert message["type"] == "error" and "phone cannot" in message["message"]
        assert [s.name for s in server.session.seats] == ["Ann", "Bob"] and not server.session.started
        host.send_json({"type": "start"})
        state = state_of(phone)
        assert state["stage"] == "start"
        # "done" for another seat: the phone's own seat is marked, never the one it names
        phone.send_json({"type": "done", "step": state["step"], "seat": 2})
        state = state_of(phone)
        assert [s["done"] for s in state["seats"]] == [True, False]
    del bob


def test_bad_messages_get_clear_errors_and_the_game_goes_on(make_client):
    client, server = make_client()
    token = join(client, server, "Ann")
    with client.websocket_connect("/ws") as phone:
        hello_seat(phone, token)
        for text in ("{not json", "[1, 2]", json.dumps({"type": "fly"}), "x" * (MAX_MESSAGE + 1),
                     json.dumps({"type": "done", "step": "many"}),
                     json.dumps({"type": "score", "round": 1, "points": 70})):
            phone.send_text(text)
            message = phone.receive_json()
            assert message["type"] == "error" and message["message"], text
        phone.send_bytes(b"\x00\x01")
        assert phone.receive_json()["type"] == "error"
        phone.send_json({"type": "ping"})  # no answer, no error
    with client.websocket_connect("/ws") as host:
        assert hello_host(host)["stage"] == "lobby"


def test_a_flood_is_refused_then_disconnected(make_client):
    client, server = make_client()
    token = join(client, server, "Ann")
    with client.websocket_connect("/ws") as phone:
        hello_seat(phone, token)
        for _ in range(400):
            phone.send_json({"type": "ping"})
        errors = []
        with pytest.raises(WebSocketDisconnect):
            while True:
                errors.append(phone.receive_json())
        assert errors and all(e["type"] == "error" and "slow down" in e["message"] for e in errors)
    with client.websocket_connect("/ws") as again:  # the seat is still there
        assert hello_seat(again, token)["you"] == server.session.seats[0].id


def test_names_are_data_not_markup(make_client):
    client, server = make_client()
    evil = '<b onclick="x()">Ann</b>'
    token = join(client, server, evil)
    with client.websocket_connect("/ws") as phone:
        assert hello_seat(phone, token)["seats"][0]["name"] == evil  # kept as typed; the pages use textContent
    for script in ("common.js", "host.js", "phone.js"):
        source = client.get(f"/static/{script}").text
        assert not re.search(r"\.(inner|outer)HTML\b|insertAdjacentHTML|document\.write", source)


def test_host_manages_seats_and_a_freed_seat_is_taken_by_a_new_phone(make_client):
    client, server = make_client()
    token = join(client, server, "Ann")
    with client.websocket_connect("/ws") as host:
        hello_host(host)
        host.send_json({"type": "add", "name": "Gran"})
        state = state_of(host)
        assert [(s["name"], s["phone"]) for s in state["seats"]] == [("Ann", True), ("Gran", False)]
        gran = state["seats"][1]["id"]
        host.send_json({"type": "rename", "seat": gran, "name": "Granny"})
        assert state_of(host)["seats"][1]["name"] == "Granny"
        with client.websocket_connect("/ws") as phone:
            hello_seat(phone, token)
            state_of(host)  # Ann online
            host.send_json({"type": "free", "seat": state["seats"][0]["id"]})
            message = phone.receive_json()
            while message["type"] == "state":
                message = phone.receive_json()
            assert message["type"] == "bye" and "freed" in message["message"]
        new_token = join(client, server, "Ann")
        assert new_token != token and server.session.seat_for_token(token) is None
        host.send_json({"type": "start"})
        wait_state(host, lambda state: state["stage"] == "start")
        host.send_json({"type": "remove", "seat": gran})
        message = host.receive_json()
        while message["type"] == "state":
            message = host.receive_json()
        assert message["type"] == "error" and "started" in message["message"]


def test_every_step_is_saved_and_a_resumed_table_keeps_the_seats(tmp_path, make_client):
    path = tmp_path / "table.json"
    saves = []

    def save(session, readings):
        write_save(path, TableSave(session, readings=readings))
        saves.append(session.step)

    client, server = make_client(save=save)
    ann, bob = join(client, server, "Ann"), join(client, server, "Bob")
    with client.websocket_connect("/ws") as host:
        hello_host(host)
        host.send_json({"type": "auto_roll", "on": False})
        state_of(host)
        host.send_json({"type": "start"})
        state = state_of(host)
        host.send_json({"type": "advance", "step": state["step"]})
        state = state_of(host)
        assert state["stage"] == "turn" and state["roll"] in (1, 2, 3)
        host.send_json({"type": "advance", "step": state["step"] - 1})  # a second tap on Roll rolls nothing
        assert host.receive_json()["type"] == "error"
    assert saves[-1] == state["step"]
    resumed = read_save(path)
    session = resumed.session
    assert session.events == server.session.events and session.room_code == server.session.room_code
    client2, server2 = make_client(session=session)
    with client2.websocket_connect("/ws") as phone:
        state2 = hello_seat(phone, bob)
        assert state2["you"] == state["seats"][1]["id"] and state2["current"] == state["current"]
    del ann


def test_the_record_downloads_for_the_host_only(make_client):
    client, server = make_client()
    join(client, server, "Ann")
    server.session.start()
    assert client.get("/api/record").status_code == 403
    assert client.get("/api/record", headers={"authorization": "Bearer nope"}).status_code == 403
    record = client.get("/api/record", headers={"authorization": "Bearer " + HOST_KEY}).json()
    assert record["format"] == "doodle-table/1" and record["names"] == ["Ann"]
    assert record["events"][0]["event"] == "setup"


def test_a_failed_save_is_shown_on_the_host_and_the_game_goes_on(make_client):
    def full_disk(session, readings):
        raise OSError(28, "No space left on device")

    client, server = make_client(save=full_disk)
    token = join(client, server, "Ann")
    with client.websocket_connect("/ws") as host, client.websocket_connect("/ws") as phone:
        assert "No space left" in hello_host(host)["save_error"]
        hello_seat(phone, token)
        host.send_json({"type": "start"})
        state = wait_state(phone, lambda s: s["stage"] == "start")
        phone.send_json({"type": "done", "step": state["step"]})
        assert wait_state(phone, lambda s: s["stage"] == "turn")["roll"] in (1, 2, 3)


def test_a_page_that_stalls_is_closed_so_it_reconnects(monkeypatch):
    class Stalled:
        closed_with = None

        async def send_text(self, text):
            await asyncio.sleep(60)  # a phone whose Wi-Fi froze: the send never completes

        async def close(self, code=1000):
            self.closed_with = code

    monkeypatch.setattr("doodle.table.app.SEND_SECONDS", 0.05)
    session = TableSession.new(load_deck(), players=0)
    server = TableServer(session, HOST_KEY, "http://192.0.2.7:8765/#room=" + session.room_code)
    page = Stalled()
    server.clients.add(Client(page, "host"))
    asyncio.run(server.broadcast())
    assert not server.clients and page.closed_with == 1011
