"""Photos of the sheets at the table, through Starlette's TestClient: an upload read with the game's checks and
shown to its phone only, a wrong cell named and corrected by a tap, the confirmed quilt giving the score, and
the uploads the table refuses (not an image, too large, HEIC, no sheet, another seat's)."""

import asyncio
import contextlib
import copy
import io
import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from doodle.cli import main
from doodle.game.deck import load_deck
from doodle.quilt import Quilt, cell_name
from doodle.table import photos
from doodle.table.app import TableServer, create_app
from doodle.table.photos import HEIC_MESSAGE, MAX_UPLOAD_BYTES, NOT_IMAGE_MESSAGE
from doodle.table.recheck import record_findings
from doodle.table.save import TableSave, game_record, read_save, write_save
from doodle.table.session import Stage, TableSession
from tests.photogen_table import sheet_photo, table_game
from tests.table_client import TableClient
from tests.test_table_app import HOST_KEY, hello_host, hello_seat, join, wait_state

SEED = 3
(QUILTS,) = table_game(1, SEED)  # a bot's game dealt as a 1-seat table with this seed deals it


def to_scoring(session, number):
    """Every player done at every turn until the scoring of round `number`; earlier scorings are left as they are."""
    while not (session.stage == Stage.SCORING and session.round == number):
        if session.stage in (Stage.SCORING, Stage.ROUND):
            session.advance(session.step)
        else:
            for seat in session.seats:
                session.set_done(seat.id, session.step)


def upload(client, token, data, name="sheet.jpg"):
    return client.post("/api/photo", headers={"authorization": f"Bearer {token}"},
                       files={"photo": (name, data, "image/jpeg")})


@pytest.fixture
def table():
    """A maker of started tables (1 to 3 seats joined by phone) with their test client, entered so that every
    connection shares one event loop, as under uvicorn."""
    with contextlib.ExitStack() as stack:
        def make(players=1, seed=SEED):
            session = TableSession.new(load_deck(), players=0, seed=seed)
            server = TableServer(session, HOST_KEY, "http://192.0.2.7:8765/#room=" + session.room_code)
            stack.callback(server.photos.close)
            client = stack.enter_context(TableClient(create_app(server)))
            tokens = [join(client, server, name) for name in ("Ann", "Bob", "Cid")[:players]]
            session.start()
            return client, server, tokens

        yield make


def test_a_photo_is_read_with_the_games_checks_corrected_by_a_tap_and_gives_the_score(table):
    client, server, (token,) = table()
    session = server.session
    to_scoring(session, 1)
    quilt1, specials1, score1 = QUILTS[0]
    with client.websocket_connect("/ws") as phone, client.websocket_connect("/ws") as host:
        hello_seat(phone, token)
        hello_host(host)
        response = upload(client, token, sheet_photo(quilt1, specials1))
        assert response.status_code == 200, response.text
        reading = response.json()["reading"]
        assert Quilt.from_rows(reading["quilt"]) == quilt1 and reading["score"] == score1 == quilt1.score_rectangle()
        assert reading["doubts"] == []  # the round score left blank on the sheet is the table's to fill in
        shown = wait_state(phone, lambda s: s.get("reading"))
        assert shown["reading"] == reading
        assert "reading" not in wait_state(host, lambda s: True)  # the host never sees a phone's photo
        phone.send_json({"type": "photo_confirm"})
        state = wait_state(phone, lambda s: s["scores"]["1"][0]["points"] is not None)
        entry = state["scores"]["1"][0]
        assert entry == {"points": score1, "empty": None, "by": "photo", "quilt": quilt1.rows(), "overruled": []}
        assert state["reading"] is None

        # round 2: the photo shows a cell of round 1's quilt empty (a light pencil stroke the reader missed)
        session.advance(session.step)
        to_scoring(session, 2)
        quilt2, specials2, score2 = QUILTS[1]
        lost = min(quilt1.cells)
        response = upload(client, token, sheet_photo(Quilt(quilt2.bits & ~Quilt.from_cells([lost]).bits), specials2))
        reading = response.json()["reading"]
        named = [doubt for doubt in reading["doubts"] if doubt["problem"]]
        assert [doubt["cells"] for doubt in named] == [[cell_name(*lost)]]
        assert "previous quilt" in named[0]["reason"]
        phone.send_json({"type": "photo_confirm"})  # not accepted silently
        error = phone.receive_json()
        while error["type"] != "error":
            error = phone.receive_json()
        assert cell_name(*lost) in error["message"] and "confirm anyway" in error["message"]
        assert session.scores[1][1].points is None
        phone.send_json({"type": "photo_cell", "cell": cell_name(*lost), "shaded": True})
        state = wait_state(phone, lambda s: s["reading"] and s["reading"]["tapped"])
        assert Quilt.from_rows(state["reading"]["quilt"]) == quilt2
        assert state["reading"]["doubts"] == [] and state["reading"]["score"] == score2
        phone.send_json({"type": "photo_confirm"})
        wait_state(phone, lambda s: s["scores"]["1"][1]["points"] == score2)
        assert session.scores[1][1].quilt == quilt2.rows() and session.scores[1][1].overruled == []


def test_a_reading_that_breaks_a_check_is_confirmed_only_by_the_players_word(table):
    client, server, (token,) = table()
    to_scoring(server.session, 1)
    quilt, specials, _ = QUILTS[0]
    too_much = Quilt(quilt.bits | Quilt.from_cells((8, col) for col in range(9)).bits)
    with client.websocket_connect("/ws") as phone:
        hello_seat(phone, token)
        reading = upload(client, token, sheet_photo(too_much, specials)).json()["reading"]
        assert any(doubt["problem"] and "a9" in doubt["cells"] for doubt in reading["doubts"])
        phone.send_json({"type": "photo_confirm", "anyway": True})
        state = wait_state(phone, lambda s: s["scores"]["1"][0]["points"] is not None)
    entry = state["scores"]["1"][0]
    assert entry["quilt"] == too_much.rows() and entry["points"] == too_much.score_rectangle()
    assert entry["overruled"] and "round 1" in entry["overruled"][0]


def test_a_reading_and_its_taps_outlive_a_restart_of_the_table(tmp_path, caplog):
    path = tmp_path / "table.json"
    url = "http://192.0.2.7:8765/"

    def save(current, readings):
        write_save(path, TableSave(current, readings=readings))

    quilt, specials, score = QUILTS[0]
    missed = min(quilt.cells)
    session = TableSession.new(load_deck(), players=0, seed=SEED)
    server = TableServer(session, HOST_KEY, url, save)
    with TableClient(create_app(server)) as client, client.websocket_connect("/ws") as phone:
        token = join(client, server, "Ann")
        session.start()
        to_scoring(session, 1)
        hello_seat(phone, token)
        upload(client, token, sheet_photo(Quilt(quilt.bits & ~Quilt.from_cells([missed]).bits), specials))
        phone.send_json({"type": "photo_cell", "cell": cell_name(*missed), "shaded": True})
        before = wait_state(phone, lambda s: s["reading"] and s["reading"]["tapped"])["reading"]
    server.photos.close()
    kept_text = path.read_text()
    assert before["tapped"] == [cell_name(*missed)] and Quilt.from_rows(before["quilt"]) == quilt

    saved = read_save(path)  # the laptop closed before Ann confirmed: `doodle table --resume`
    server = TableServer(saved.session, HOST_KEY, url, save, saved.readings)
    with TableClient(create_app(server)) as client, client.websocket_connect("/ws") as phone:
        assert hello_seat(phone, token)["reading"] == before
        phone.send_json({"type": "photo_confirm"})
        wait_state(phone, lambda s: s["scores"]["1"][0]["points"] == score)
    assert read_save(path).readings == {}  # confirmed: no longer kept
    assert saved.session.scores[1][0].quilt == quilt.rows()

    for where, value, logged in [  # a kept reading that cannot be used is left out and logged; the game goes on
        (("quilt",), ["###"], "could not be restored"),
        (("uncertain",), [{"kind": "quilt", "read": True, "confidence": 0, "cells": [5], "reason": "x"}],
         "could not be restored"),
        (("round",), 2, "was kept for another step"),
        ((), [], None),  # the readings not kept by seat
    ]:
        damaged = json.loads(kept_text)
        if where:
            damaged["readings"]["1"][where[0]] = value
        else:
            damaged["readings"] = value
        path.write_text(json.dumps(damaged))
        caplog.clear()
        saved = read_save(path)
        server = TableServer(saved.session, HOST_KEY, url, save, saved.readings)
        assert server.photos.pending == {} and saved.session.round == 1
        assert logged is None or f"the reading of Ann's photo {logged}" in caplog.text


def png(width, height, value=255):
    buffer = io.BytesIO()
    Image.fromarray(np.full((height, width, 3), value, np.uint8)).save(buffer, "PNG")
    return buffer.getvalue()


@pytest.mark.parametrize("data,status,message", [
    (b"%PDF-1.4 not a photo", 422, NOT_IMAGE_MESSAGE),
    (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic", 422, HEIC_MESSAGE),
    (b"", 422, NOT_IMAGE_MESSAGE),
    (png(800, 600), 422, "no score sheet found"),
    (b"\xff\xd8\xff\xe0" + b"\x00" * 100, 422, NOT_IMAGE_MESSAGE),  # a JPEG cut short
])
def test_uploads_that_are_not_a_sheet_get_a_clear_message(table, data, status, message):
    client, server, (token,) = table()
    to_scoring(server.session, 1)
    response = upload(client, token, data)
    assert response.status_code == status and message in response.json()["error"]
    assert server.photos.pending == {}


def test_uploads_are_bounded_and_need_a_seat_and_a_scoring(table, monkeypatch):
    client, server, (token,) = table()
    photo = sheet_photo(*QUILTS[0][:2])
    response = upload(client, token, photo)
    assert response.status_code == 422 and "at a scoring" in response.json()["error"]
    to_scoring(server.session, 1)
    assert upload(client, "not-a-token", photo).status_code == 403
    response = client.post("/api/photo", headers={"authorization": f"Bearer {token}"}, data={"other": "x"})
    assert response.status_code == 400 and "'photo'" in response.json()["error"]
    too_large = b"\xff\xd8\xff" + bytes(MAX_UPLOAD_BYTES)
    response = upload(client, token, too_large)
    assert response.status_code == 413 and "larger than 25 MB" in response.json()["error"]
    monkeypatch.setattr(photos, "MAX_UPLOAD_PIXELS", 1000 * 1000)
    response = upload(client, token, png(1200, 900))
    assert response.status_code == 422 and "megapixels" in response.json()["error"]


def test_phones_uploading_at_once_each_get_their_own_reading_read_once(table, monkeypatch):
    client, server, tokens = table(players=3)
    to_scoring(server.session, 1)
    reads = []
    run = server.photos.run

    async def counted(function, *args):
        reads.append(args[0])
        return await run(function, *args)

    monkeypatch.setattr(server.photos, "run", counted)
    quilts = [Quilt.from_cells((0, col) for col in range(n)) for n in (3, 5, 7)]  # three different sheets
    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(lambda args: upload(client, *args),
                                zip(tokens, [sheet_photo(q) for q in quilts], strict=True)))
    assert [answer.status_code for answer in answers] == [200, 200, 200]
    assert [Quilt.from_rows(a.json()["reading"]["quilt"]) for a in answers] == quilts
    assert len(reads) == 3 and len(set(reads)) == 3
    assert {seat: reading.result.quilt for seat, reading in server.photos.pending.items()} == dict(
        zip((1, 2, 3), quilts, strict=True))


def photo_game(quilts=QUILTS):
    """A 1-seat table played to the end, every score confirmed from a quilt as the table would."""
    session = TableSession.new(load_deck(), players=0, seed=SEED)
    session.join("Ann")
    session.start()
    for number, (quilt, _, _) in enumerate(quilts, start=1):
        to_scoring(session, number)
        session.set_photo_score(1, number, quilt, [])
    session.advance(session.step)
    assert session.stage == Stage.OVER
    return session


def test_the_record_holds_the_quilts_and_check_finds_what_does_not_hold(tmp_path):
    record = game_record(photo_game())
    assert record["quilts"] == [[quilt.rows() for quilt, _, _ in QUILTS]]
    assert record["totals"] == [sum(score for _, _, score in QUILTS) - QUILTS[2][0].empty_count()]
    good, bad = record_findings(record, load_deck())
    assert bad == [] and len(good) == 3
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(main, ["table", "--check", str(path)])
    assert result.exit_code == 0 and "Ann, round 2: " in result.output and "PROBLEM" not in result.output

    lost = copy.deepcopy(record)  # round 2's quilt lost a cell of round 1's
    first = min(QUILTS[0][0].cells)
    lost["quilts"][0][1] = Quilt(QUILTS[1][0].bits & ~Quilt.from_cells([first]).bits).rows()
    lost["round_scores"][0][1] = Quilt.from_rows(lost["quilts"][0][1]).score_rectangle()
    path.write_text(json.dumps(lost))
    result = CliRunner().invoke(main, ["table", "--check", str(path)])
    assert result.exit_code == 3
    assert f"PROBLEM  Ann, round 2: cell {cell_name(*first)} is covered in the previous quilt" in result.output

    typed = copy.deepcopy(record)  # a score typed over the photo's reading
    typed["round_scores"][0][0] += 1
    typed["scored_by"][0][0] = "phone"
    good, bad = record_findings(typed, load_deck())
    assert bad == [f"Ann, round 1: typed over the photo's reading: {QUILTS[0][2] + 1} points, but the quilt's best "
                   f"rectangle scores {QUILTS[0][2]}"]

    path.write_text("{not json")
    result = CliRunner().invoke(main, ["table", "--check", str(path)])
    assert result.exit_code == 1 and "is not JSON" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("dies", [False, True])
def test_closing_the_desk_stops_its_readers_before_it_returns(dies):
    """A pool shut down without waiting, or dropped when a reader died, is still winding down as Python exits and
    can write to its closed pipe then ("Exception ignored ... Bad file descriptor" after the table closed)."""
    desk = photos.PhotoDesk(readers=1)
    before = set(threading.enumerate())

    async def read() -> None:
        if dies:
            with pytest.raises(photos.UploadError):
                await desk.run(os._exit, 1)
        else:
            await desk.run(abs, -3)

    asyncio.run(read())
    desk.close()
    assert not [thread for thread in set(threading.enumerate()) - before
                if "ExecutorManager" in type(thread).__name__]


def test_a_reader_that_dies_is_replaced_and_the_phone_told_to_send_again():
    desk = photos.PhotoDesk(readers=1)

    async def both():
        with pytest.raises(photos.UploadError, match="send the photo again"):
            await desk.run(os._exit, 1)  # the worker process dies, as when killed for memory
        return await desk.run(abs, -3)

    try:
        assert asyncio.run(both()) == 3
    finally:
        desk.close()
