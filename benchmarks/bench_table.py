"""How fast the web table shows a roll on every screen, and how much memory its server takes (run by hand;
figures go in the README).

    python3 benchmarks/bench_table.py              # 3 games: 6 phones and the host on localhost
    python3 benchmarks/bench_table.py --games 10
    python3 benchmarks/bench_table.py --games 1 --photos  # and at every scoring 6 phones upload 12 MP photos at once

It starts `doodle table` in its own process on 127.0.0.1 (auto-roll off, so the benchmark rolls), joins 6 phones
over HTTP, connects them and one host page by WebSocket, and plays whole games: at each roll the host sends
"advance" and the clock runs until every one of the 7 pages has received the state with that roll. The phones
say "done" and send their scores as people would between rolls (not timed). It reports the median and 95th
percentile of the time to the last page, and the server's resident memory (now and at its peak) from /proc.
The pages here are WebSocket clients, not browsers: a browser adds its own rendering (a few milliseconds) on top.

With --photos, at each scoring the 6 phones upload a 12-megapixel photo of their sheet at the same moment (the
quilts bots drew from the cards this table deals, drawn by tests/photogen_table.py) and the clock runs until each
phone's page has its reading; then each confirms it. The reader's own time on the same photos, one at a time in
the benchmark's process, is measured after the game, in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402

from benchmarks.bench_scan import machine  # noqa: E402

PHONES = 6


PHOTO_SEED = 12
PHOTO_MEGAPIXELS = 12.0


def start_server(save: Path, seed: int | None = None) -> tuple[subprocess.Popen, str, str, str]:
    """`doodle table` in a child process; its base address, host key and room code as it printed them."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    seeded = ["--seed", str(seed)] if seed is not None else []
    child = subprocess.Popen([sys.executable, "-m", "doodle", "table", "--no-browser", "--host", "127.0.0.1",
                              "--port", "0", "--new", "--save", str(save), *seeded],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    shown = ""
    while "big screen" not in shown:
        line = child.stdout.readline()
        if not line:
            raise SystemExit("doodle table did not start:\n" + shown)
        shown += line
    shown = re.sub(r"\x1b\[[0-9;]*m", "", shown)
    base, key = re.search(r"big screen\): (http://[\d.:]+)/host#key=(\S+)", shown).groups()
    room = re.search(r"type the room code (\S+)", shown).group(1)
    return child, base, key, room


def memory_kib(pid: int) -> tuple[int, int]:
    """The process's resident memory now and at its peak, in KiB (Linux /proc)."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def join(base: str, room: str, name: str) -> str:
    request = urllib.request.Request(f"{base}/api/join", data=json.dumps({"name": name, "room": room}).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())["token"]


class Page:
    """One page's WebSocket: it keeps the newest state and the time each step's state arrived."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.state: dict = {}
        self.arrived: dict[int, float] = {}
        self.read_at: float | None = None  # when this phone's photo reading arrived
        self.changed = asyncio.Event()

    async def listen(self) -> None:
        async for text in self.socket:
            message = json.loads(text)
            if message["type"] == "state":
                now = time.perf_counter()
                self.state = message["state"]
                self.arrived.setdefault(self.state["step"], now)
                if self.state.get("reading") and self.read_at is None:
                    self.read_at = now
                self.changed.set()
            elif message["type"] == "error":
                raise RuntimeError(message["message"])

    async def until(self, check) -> dict:
        while not (self.state and check(self.state)):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 10)
        return self.state

    async def send(self, message: dict) -> None:
        await self.socket.send(json.dumps(message))


def upload(base: str, token: str, photo: bytes) -> None:
    import httpx2

    answer = httpx2.post(f"{base}/api/photo", headers={"authorization": f"Bearer {token}"},
                        files={"photo": ("sheet.jpg", photo, "image/jpeg")}, timeout=300)
    if answer.status_code != 200:
        raise RuntimeError(f"upload refused: {answer.text}")


async def photos_at_once(base: str, tokens: list[str], phones: list[Page], photos: list[bytes]) -> list[float]:
    """Every phone uploads at the same moment; the seconds until each phone's page has its reading."""
    for phone in phones:
        phone.read_at = None
    sent = time.perf_counter()
    await asyncio.gather(*(asyncio.to_thread(upload, base, token, photo)
                           for token, photo in zip(tokens, photos, strict=True)))
    for phone in phones:
        await phone.until(lambda s: s.get("reading"))
        await phone.send({"type": "photo_confirm", "anyway": True})
    return [phone.read_at - sent for phone in phones]


async def play_game(base: str, key: str, room: str, photos: dict[int, list[bytes]] | None = None,
                    read_times: list[float] | None = None) -> list[float]:
    """One whole game; the seconds from each roll to the last page showing it. With `photos` (per round, one per
    phone) the phones upload them at each scoring, and the time until each phone has its reading is added to
    `read_times`."""
    ws_url = base.replace("http://", "ws://") + "/ws"
    tokens = [join(base, room, f"Phone {n + 1}") for n in range(PHONES)]
    host = Page(await websockets.connect(ws_url))
    await host.send({"type": "hello", "role": "host", "key": key})
    phones = []
    for token in tokens:
        phone = Page(await websockets.connect(ws_url))
        await phone.send({"type": "hello", "role": "seat", "token": token})
        phones.append(phone)
    pages = [host, *phones]
    tasks = [asyncio.create_task(page.listen()) for page in pages]
    await host.until(lambda s: s["online"] and len(s["online"]) == PHONES)
    await host.send({"type": "auto_roll", "on": False})
    await host.until(lambda s: not s["auto_roll"])
    await host.send({"type": "start"})
    times = []
    while (state := await host.until(lambda s: s["stage"] != "lobby"))["stage"] != "over":
        step, stage = state["step"], state["stage"]
        if stage in ("start", "turn", "final"):
            for phone in phones:  # every player done (the last "done" does not roll: auto-roll is off)
                await phone.send({"type": "done", "step": step})
            await host.until(lambda s, step=step: s["step"] == step and not s["waiting_for"])
        elif stage == "scoring" and photos:
            read_times += await photos_at_once(base, tokens, phones, photos[state["round"]])
            await host.until(lambda s, step=step: s["step"] == step and not s["waiting_for"])
        elif stage == "scoring":
            for phone in phones:
                message = {"type": "score", "round": state["round"], "points": 16}
                if state["round"] == state["rounds"]:
                    message["empty"] = 20
                await phone.send(message)
            await host.until(lambda s, step=step: s["step"] == step and not s["waiting_for"])
        rolls = state["next"] == "Roll"
        sent = time.perf_counter()
        await host.send({"type": "advance", "step": step})
        for page in pages:
            await page.until(lambda s, step=step: s["step"] > step)
        if rolls:
            times.append(max(page.arrived[step + 1] for page in pages) - sent)
    for task in tasks:
        task.cancel()
    for page in pages:
        await page.socket.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="whole games to play (17 rolls each)")
    parser.add_argument("--photos", action="store_true",
                        help=f"at every scoring, {PHONES} phones upload a {PHOTO_MEGAPIXELS:.0f} MP photo at once")
    args = parser.parse_args()
    times: list[float] = []
    read_times: list[float] = []
    photos = make_photos() if args.photos else None
    peaks = []
    workers: list[int] = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.games):
            child, base, key, room = start_server(Path(folder) / "table.json", PHOTO_SEED if photos else None)
            try:
                times += asyncio.run(play_game(base, key, room, photos, read_times))
                peaks.append(memory_kib(child.pid))
                workers.append(workers_memory_kib(child.pid))
            finally:
                child.terminate()
                child.wait(timeout=20)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    print(f"machine: {machine()}")
    print(f"{args.games} games, {len(times)} rolls, {PHONES} phones + host on localhost")
    print(f"roll to every page: median {statistics.median(times) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
          f"max {times[-1] * 1000:.1f} ms")
    now = max(rss for rss, _ in peaks)
    peak = max(hwm for _, hwm in peaks)
    print(f"server memory after a game: {now / 1024:.1f} MiB resident (peak {peak / 1024:.1f} MiB)")
    if photos:
        read_times.sort()
        p95 = read_times[min(len(read_times) - 1, round(0.95 * (len(read_times) - 1)))]
        print(f"{len(read_times)} uploads of {PHOTO_MEGAPIXELS:.0f} MP photos, {PHONES} at once at each scoring: until "
              f"each phone has its reading: median {statistics.median(read_times):.2f} s, p95 {p95:.2f} s, "
              f"max {read_times[-1]:.2f} s")
        print(f"the photo readers (worker processes) after the game: {max(workers) / 1024:.1f} MiB resident")
        alone, checked = reader_times(photos)
        print(f"the reader alone on the same photos, one at a time: median {statistics.median(alone):.2f} s, "
              f"max {max(alone):.2f} s; with the game's checks: median {statistics.median(checked):.2f} s, "
              f"max {max(checked):.2f} s")


def make_photos() -> dict[int, list[bytes]]:
    """Per round, each phone's photo of its sheet: the quilts bots drew from the cards a table seeded with
    PHOTO_SEED deals."""
    from tests.photogen_table import sheet_photo, table_game

    game = table_game(PHONES, PHOTO_SEED)
    return {number: [sheet_photo(*sheets[number - 1][:2], seed=phone, megapixels=PHOTO_MEGAPIXELS)
                     for phone, sheets in enumerate(game)] for number in (1, 2, 3)}


def reader_times(photos: dict[int, list[bytes]]) -> tuple[list[float], list[float]]:
    """The worker's job on each photo, one at a time in this process: the reader alone, and the reader with the
    game's checks (the cards of the round, the quilt before) as the table runs it."""
    from doodle.game.checks import dealt_events
    from doodle.game.deck import load_deck
    from doodle.quilt import Quilt
    from doodle.sheet import read_photo
    from doodle.table.photos import read_upload, table_checks

    deck = load_deck()
    events = dealt_events(PHOTO_SEED, PHONES, deck)
    read_photo(photos[1][0])  # loads OpenCV and warms its caches, as the server's first reading did
    alone, checked = [], []
    for phone in range(PHONES):
        previous, earlier = Quilt(0), []
        for number in (1, 2, 3):
            photo = photos[number][phone]
            start = time.perf_counter()
            read_photo(photo)
            alone.append(time.perf_counter() - start)
            start = time.perf_counter()
            result, _ = read_upload(photo, table_checks(events, deck, number, previous), earlier)
            checked.append(time.perf_counter() - start)
            previous, earlier = result.quilt, [*earlier, result.quilt.score_rectangle()]
    return alone, checked


def workers_memory_kib(pid: int) -> int:
    """The resident memory of a process's children (the photo readers), in KiB (Linux /proc)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                total += memory_kib(int(stat.parent.name))[0]
        except (OSError, IndexError, ValueError):
            continue
    return total


if __name__ == "__main__":
    main()
