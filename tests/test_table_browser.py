"""A whole 3-player game of `doodle table` in a real browser: Debian's Chromium driven by Playwright, one host page
(1280x720) and three phone pages (phone viewport, each its own browser profile). The phones join by room code,
every turn is done on each phone, one phone reloads mid-game and keeps its seat, and the host's view is checked
against the engine's deal at every turn. At every scoring each phone photographs its sheet (a synthetic photo of
the quilt a bot drew from the cards dealt), one misread cell is corrected by a tap, and the final scoreboard is
the engine's. Screenshots of the host and a phone are kept in the test's folder (and
copied to $DOODLE_TABLE_SCREENSHOTS when set, which is how examples/screenshots/ was made)."""

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from doodle.game.dealer import Dealer
from doodle.game.deck import load_deck
from doodle.game.table import table_events
from doodle.quilt import Quilt, cell_name
from doodle.table.app import TableServer, create_app
from doodle.table.save import TableSave, read_save, write_save
from doodle.table.session import TableSession
from tests.photogen_table import sheet_photo, table_game

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed (/usr/bin/chromium): `apt-get install -y chromium`",
                allow_module_level=True)
playwright = pytest.importorskip("playwright.sync_api", reason="playwright (the test extra) is not installed")
expect = playwright.expect
uvicorn = pytest.importorskip("uvicorn")

SEED = 2026
HOST_KEY = "browser-test-host-key"
NAMES = ["Ann", "Bob", "<i>Cid</i>"]  # a name with markup must show as typed, never as markup
GAME = dict(zip(NAMES, table_game(len(NAMES), SEED), strict=True))  # each sheet at each scoring, as bots drew it
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
READ_MS = 60_000  # a photo's reading (the first loads OpenCV; the checks may search a while on a loaded machine)
STEP_MS = 20_000  # any other page update: Playwright's default of 5 s was once too short on a loaded shared machine
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


class Served:
    """The table served by uvicorn on 127.0.0.1 (a free port) in a thread, saving to a file after every step;
    `restart()` stops it and serves the saved game again on the same port, as `doodle table --resume` does."""

    def __init__(self, save_path: Path) -> None:
        self.save_path = save_path
        self.port = 0
        self.serve(TableSession.new(load_deck(), players=0, seed=SEED))

    def serve(self, session: TableSession, readings: dict | None = None) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        self.port = listener.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.server = TableServer(session, HOST_KEY, f"{self.base}/#room={session.room_code}",
                                  lambda current, kept: write_save(self.save_path, TableSave(current, readings=kept)),
                                  readings)
        self.uv = uvicorn.Server(uvicorn.Config(create_app(self.server), log_level="warning", lifespan="off",
                                                ws_max_size=4096))
        self.thread = threading.Thread(target=self.uv.run, kwargs={"sockets": [listener]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.uv.started and time.monotonic() < deadline:
            time.sleep(0.02)

    def stop(self) -> None:
        self.uv.should_exit = True
        self.thread.join(timeout=10)

    def restart(self) -> None:
        self.stop()
        saved = read_save(self.save_path)
        self.serve(saved.session, saved.readings)


@pytest.fixture(autouse=True)
def patient_expect():
    """Each expectation waits up to STEP_MS (it returns as soon as the page shows what is expected)."""
    expect.set_options(timeout=STEP_MS)
    yield
    expect.set_options(timeout=5_000)


@pytest.fixture
def table_server(tmp_path):
    served = Served(tmp_path / "table.json")
    yield served
    served.stop()


def shoot(page, tmp_path, name):
    path = tmp_path / name
    page.screenshot(path=str(path))
    target = os.environ.get("DOODLE_TABLE_SCREENSHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(target) / name)


def read_qr(png: bytes) -> str:
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    return cv2.QRCodeDetector().detectAndDecode(image)[0]


def qr_on_screen(image, patience_s: float = 10.0) -> str:
    """What a phone's camera reads off the screen from the QR code's <img>, once the browser has decoded and painted
    its picture. The host's page draws its <img> anew on every update, so a screenshot can catch a fresh one not yet
    painted (an empty box: CI read '' twice, once after waiting for the picture to decode): the camera looks again,
    as a phone held up to the screen does, for up to `patience_s` seconds ('' if it never reads a code)."""
    deadline = time.monotonic() + patience_s
    while True:
        image.evaluate("img => img.decode()")
        text = read_qr(image.screenshot())
        if text or time.monotonic() > deadline:
            return text
        time.sleep(0.2)


def fits(page, width, height):
    """The page's content fits the viewport (`height` None: any height)."""
    wide, tall = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    return wide <= width and (height is None or tall <= height)


def winners_line(totals):
    best = max(totals.values())
    names = [name for name, total in totals.items() if total == best]
    if len(names) == 1:
        return f"{names[0]} wins with {best} points!"
    return f"{', '.join(names[:-1])} and {names[-1]} share the victory with {best} points!"


def test_a_whole_game_with_a_host_and_three_phones(table_server, tmp_path):
    served = table_server
    photos = {}  # (name, round) -> the JPEG the phone sends; Ann's round-2 photo misses a cell of round 1's quilt
    for name, sheets in GAME.items():
        for number, (quilt, specials, _) in enumerate(sheets, start=1):
            if (name, number) == ("Ann", 2):
                missed = min(GAME["Ann"][0][0].cells)
                quilt = Quilt(quilt.bits & ~Quilt.from_cells([missed]).bits)
            photos[name, number] = sheet_photo(quilt, specials, seed=number, megapixels=2.0)
    missed_name = cell_name(*missed)
    base, server = served.base, served.server
    expected = list(table_events(Dealer.new(len(NAMES), SEED, load_deck())))
    problems = []
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)

        def watch(page, who):
            # While the server restarts (twice below), Chromium logs each reconnection it refuses; the pages are
            # checked to come back online by themselves. Any other error is a problem.
            page.on("console", lambda m: problems.append(f"{who}: {m.text}") if m.type == "error" and not (
                "WebSocket connection" in m.text and "ERR_CONNECTION_REFUSED" in m.text) else None)
            page.on("pageerror", lambda error: problems.append(f"{who}: {error}"))
            return page

        # the host asks for reduced motion: the die shows its face at once, without its tumble
        host = watch(browser.new_page(viewport={"width": 1280, "height": 720}, reduced_motion="reduce"), "host")
        host.add_init_script(  # count the die's sounds: four short tones for each roll
            "window.tones = 0; const tone = AudioContext.prototype.createOscillator;"
            "AudioContext.prototype.createOscillator = function () { window.tones += 1; return tone.call(this); };")
        host.goto(f"{base}/host#key={HOST_KEY}")
        code = host.locator(".code.big")
        expect(code).to_have_text(server.session.room_code)
        room = code.inner_text()

        scanned = qr_on_screen(host.locator("img.qr"))  # what a phone's camera reads off the screen
        assert scanned == f"{base}/#room={room}"

        phones = []
        for name in NAMES:
            phone = watch(browser.new_context(**PHONE).new_page(), name)
            if name == NAMES[0]:  # Ann scans the code: the room code comes with the link
                phone.goto(scanned)
                expect(phone.locator("#room")).to_have_value(room)
            else:  # the others type the address and the room code
                phone.goto(base + "/")
                phone.fill("#room", room.lower())
            phone.fill("#name", name)
            phone.click("button[type=submit]")
            expect(phone.locator(".me")).to_have_text(name)
            phones.append(phone)
        expect(host.locator(".seat .name")).to_have_text(NAMES)
        shoot(host, tmp_path, "host-lobby.png")
        shoot(phones[0], tmp_path, "phone-lobby.png")

        host.click("text=Deal the cards")
        setup = expected[0]
        expect(host.locator(".starts figcaption")).to_have_text(
            [f"{name} · {card}" for name, card in zip(NAMES, setup["start_cards"], strict=True)])
        for phone, card in zip(phones, setup["start_cards"], strict=True):
            expect(phone.locator("h2 strong")).to_have_text(card)
            if phone is phones[0]:
                shoot(phone, tmp_path, "phone-start.png")
            phone.click("#done")

        reloaded = False
        for event in expected[1:]:
            kind = event["event"]
            if kind == "turn" and event["roll"] is not None:
                title = f"Round {event['round']} · Turn {event['turn']} of 6"
                expect(host.locator(".bar h1")).to_have_text(title)
                expect(host.locator("#current-card")).to_have_text(event["card"])
                expect(host.locator("#die-holder .die")).to_have_attribute("data-roll", str(event["roll"]))
                assert host.locator(".die.rolling").count() == 0
                expect(host.locator(".spot.current .label")).to_have_text(event["card"])
                expect(host.locator(".neighbours figcaption")).to_have_text(
                    [f"before · {event['neighbours'][0]}", f"after · {event['neighbours'][1]}"])
                expect(host.locator(".circle .spot .label")).to_have_text(event["circle"])
                if (event["round"], event["turn"]) == (2, 3):
                    shoot(host, tmp_path, "host-turn.png")
                    shoot(phones[0], tmp_path, "phone-turn.png")
                    assert fits(host, 1280, 720)  # the whole table on a 1280x720 screen, no scrolling
                    host.click(".join-mini")  # a late guest: the join code shown large, then closed
                    assert qr_on_screen(host.locator(".qr-overlay img.qr")) == scanned
                    host.click(".qr-overlay")
                    expect(host.locator(".qr-overlay")).to_have_count(0)
                    small = watch(browser.new_page(viewport=PHONE["viewport"]), "small host")
                    small.goto(f"{base}/host#key={HOST_KEY}")
                    expect(small.locator("#current-card")).to_have_text(event["card"])
                    assert fits(small, 390, None)  # on a phone-sized screen it scrolls down, never sideways
                    shoot(small, tmp_path, "host-small.png")
                    small.close()
                for index, phone in enumerate(phones):
                    expect(phone.locator("#current-card")).to_have_text(event["card"])
                    if index == 0 and (event["round"], event["turn"]) == (3, 2):
                        served.restart()  # the laptop closed and opened: every page reconnects by itself
                        for page in (host, *phones):
                            expect(page.locator("body")).to_have_attribute("data-status", "online")
                            expect(page.locator("#current-card")).to_have_text(event["card"])
                    if index == 1 and (event["round"], event["turn"]) == (2, 2) and not reloaded:
                        phone.reload()  # a phone reloads mid-game: it keeps its seat
                        expect(phone.locator(".me")).to_have_text(NAMES[1])
                        expect(phone.locator("#current-card")).to_have_text(event["card"])
                        reloaded = True
                    if index == 0 and event["turn"] == 1:  # the card in the hand turns and mirrors
                        phone.click(".turn-right")
                        expect(phone.locator("img.hand")).to_have_attribute(  # turned before the next tap
                            "style", "transform: rotate(90deg) scaleX(1);")
                        phone.click(".mirror-btn")
                        expect(phone.locator("img.hand")).to_have_attribute(
                            "style", "transform: rotate(90deg) scaleX(-1);")
                    phone.click("#done")
                    if index < len(phones) - 1:  # (the last one's "done" rolls: the button is new again)
                        expect(phone.locator("#done")).to_have_attribute("aria-pressed", "true")
            elif kind == "turn":
                expect(host.locator(".choices figcaption")).to_have_text(event["choices"])
                shoot(host, tmp_path, "host-final.png")
                for phone in phones:
                    expect(phone.locator(".choice span")).to_have_text(event["choices"])
                    phone.locator(".choice").nth(2).click()
                    expect(phone.locator("img.hand")).to_have_attribute("data-card", event["choices"][2])
                    if phone is phones[0]:
                        shoot(phone, tmp_path, "phone-final.png")
                    phone.click("#done")
            elif kind == "scoring":
                round_number = event["round"]
                expect(host.locator(".bar h1")).to_have_text(f"Scoring, round {round_number}")
                for name, phone in zip(NAMES, phones, strict=True):
                    quilt, _, score = GAME[name][round_number - 1]
                    expect(phone.locator("h2")).to_have_text(f"Scoring, round {round_number}")
                    phone.set_input_files("#photo-input", files=[{"name": "sheet.jpg", "mimeType": "image/jpeg",
                                                                   "buffer": photos[name, round_number]}])
                    if (name, round_number) == ("Ann", 2):  # the cell read empty is named; a tap shades it
                        expect(phone.locator(".problems")).to_contain_text(missed_name, timeout=READ_MS)
                        expect(phone.locator(f".qcell.problem[data-cell='{missed_name}']")).to_have_count(1)
                        shoot(phone, tmp_path, "phone-reading-problem.png")
                        phone.click(f"[data-cell='{missed_name}']")
                        expect(phone.locator(".problems")).to_have_count(0)
                        expect(phone.locator(f".qcell.tapped[data-cell='{missed_name}']")).to_have_count(1)
                        served.restart()  # the laptop closes before Ann confirms: her reading and her tap are kept
                        expect(phone.locator("body")).to_have_attribute("data-status", "online")
                        expect(phone.locator(f".qcell.tapped[data-cell='{missed_name}']")).to_have_count(1)
                        expect(phone.locator(".problems")).to_have_count(0)
                        shoot(phone, tmp_path, "phone-reading-restored.png")
                    expect(phone.locator("#reading-score")).to_contain_text(f": {score} points", timeout=READ_MS)
                    if name == NAMES[0] and round_number == 1:
                        shoot(phone, tmp_path, "phone-reading.png")
                    phone.click("#confirm-reading")
                    expect(phone.locator("#score-sent")).to_contain_text(f"Sent ✓ {score}")
                for name in NAMES:
                    row = host.locator(f"tr[data-seat]:has(th:text-is('{name}'))")
                    expect(row.locator("input").nth(round_number - 1)).to_have_value(
                        str(GAME[name][round_number - 1][2]))
                    if round_number == 3:
                        expect(row.locator("input").nth(3)).to_have_value(str(GAME[name][2][0].empty_count()))
                if round_number == 1:
                    shoot(host, tmp_path, "host-scoring.png")
                    shoot(phones[2], tmp_path, "phone-scoring.png")
                host.click("#next")
            elif kind == "end":
                totals = {name: sum(s[2] for s in sheets) - sheets[-1][0].empty_count()
                          for name, sheets in GAME.items()}  # the engine's scores
                expect(host.locator(".winners")).to_have_text(winners_line(totals))
                expect(host.locator("tbody .total")).to_have_text([str(totals[name]) for name in NAMES])
                expect(phones[1].locator(".winners")).to_have_text(winners_line(totals))
                expect(host.locator(".quilt-figure figcaption")).to_have_text(  # each quilt as read, beside its total
                    [f"{name} · {totals[name]} points" for name in NAMES])
                for name in NAMES:
                    on = host.locator(f".quilt-figure:has(strong:text-is('{name}')) rect.on")
                    expect(on).to_have_count(81 - GAME[name][2][0].empty_count())
                shoot(host, tmp_path, "host-end.png")
                shoot(phones[1], tmp_path, "phone-end.png")
                bob = phones[1]  # a correction after the end, from a phone: Bob says his round 1 scored 1 more
                bob.click("#correct")
                bob.fill("#fix-points-1", str(GAME["Bob"][0][2] + 1))
                bob.click("text=Save")
                totals["Bob"] += 1
                expect(host.locator("tbody .total")).to_have_text([str(totals[name]) for name in NAMES])
                expect(host.locator(".winners")).to_have_text(winners_line(totals))
        assert reloaded
        rolls = sum(1 for event in expected if event["event"] == "turn" and event["roll"] is not None)
        assert host.evaluate("window.tones") == 4 * rolls
        browser.close()

    assert not problems, problems
    saved = read_save(served.save_path).session
    assert saved.events == expected and list(saved.totals().values()) == list(totals.values())
    assert [saved.scores[seat][0].quilt for seat in (1, 2, 3)] == [GAME[name][0][0].rows() for name in NAMES]


def _host_and_two_seats(browser, served, init_script: str | None = None):
    """A host page at the lobby and Ann's and Bob's phones seated (each with `init_script` added first)."""
    host = browser.new_page(viewport={"width": 1280, "height": 720})
    host.goto(f"{served.base}/host#key={HOST_KEY}")
    room = host.locator(".code.big").inner_text()
    phones = []
    for name in NAMES[:2]:
        phone = browser.new_context(**PHONE).new_page()
        if init_script:
            phone.add_init_script(init_script)
        phone.goto(f"{served.base}/#room={room}")
        phone.fill("#name", name)
        phone.click("button[type=submit]")
        expect(phone.locator(".me")).to_have_text(name)
        phones.append(phone)
    return host, phones


def test_a_tap_is_kept_when_the_table_changes_under_the_finger(table_server):
    """Ann's finger is on Mirror when Bob's Done reaches her phone. The page shows Bob's Done once her finger
    lifts, and her tap still mirrors the card (a page that re-rendered under the finger lost the tap: the finger
    went down on one button and came up on its replacement)."""
    served = table_server
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        host, phones = _host_and_two_seats(  # count the table's messages as they arrive, whatever the page shows
            browser, served, "window.received = 0; const Socket = window.WebSocket;"
            "window.WebSocket = function (url) { const s = new Socket(url);"
            " s.addEventListener('message', () => { window.received += 1; }); return s; };"
            "window.WebSocket.prototype = Socket.prototype;")
        host.click("text=Deal the cards")
        ann, bob = phones
        expect(ann.locator(".others")).to_contain_text("Waiting for: Ann, Bob")
        expect(bob.locator("#done")).to_be_enabled()
        box = ann.locator(".mirror-btn").bounding_box()
        before = ann.evaluate("window.received")
        ann.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        ann.mouse.down()
        bob.evaluate("document.getElementById('done').click()")  # at once: a finger is held at most 2 s
        deadline = time.monotonic() + STEP_MS / 1000  # (wait_for_function would evaluate a string: the page's CSP)
        while ann.evaluate("window.received") == before and time.monotonic() < deadline:
            time.sleep(0.02)
        assert ann.evaluate("window.received") > before, "Bob's Done never reached Ann's phone"
        assert ann.locator(".others .done").count() == 0  # not shown under her finger
        ann.mouse.up()
        expect(ann.locator("img.hand")).to_have_attribute("style", "transform: rotate(0deg) scaleX(-1);")
        expect(ann.locator(".others .done")).to_have_text("Done: Bob")
        expect(ann.locator(".mirror-btn")).to_have_attribute("aria-pressed", "true")
        browser.close()


def test_the_buttons_under_the_card_stay_put_when_the_table_changes(table_server):
    """Every state the table sends re-renders the phone's page, the card in hand included. Until a new image of
    the card had its size, the buttons under it jumped up by the card's height and back: a tap just then landed
    elsewhere, or on nothing (the whole-game test lost Ann's tap on Mirror so, now and then). The card keeps its
    square while it loads."""
    served = table_server
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        host, (ann, bob) = _host_and_two_seats(browser, served)
        # Where Mirror lies after each change the page goes through, from the deal on (the layout is read at once,
        # as a tap would find it; the new card's image is not loaded yet).
        ann.evaluate("window.tops = []; new MutationObserver(() => { const b = document.querySelector('.mirror-btn');"
                     " if (b) window.tops.push(b.getBoundingClientRect().top); })"
                     ".observe(document.body, {childList: true, subtree: true, attributes: true});")
        host.click("text=Deal the cards")
        expect(ann.locator(".others")).to_contain_text("Waiting for: Ann, Bob")
        ann.wait_for_load_state("networkidle")
        settled = ann.locator(".mirror-btn").bounding_box()["y"]
        bob.click("#done")
        expect(ann.locator(".others .done")).to_have_text("Done: Bob")
        bob.click("#done")  # and undone: two more re-renders
        expect(ann.locator(".others")).to_contain_text("Waiting for: Ann, Bob")
        tops = ann.evaluate("window.tops")
        assert tops, "Ann's page did not change"
        assert all(abs(top - settled) < 1 for top in tops), tops
        browser.close()
