"""Reliability campaign: hostile input and injected faults against every surface of the `doodle` command.

Runs the real commands in subprocesses (and a few library entry points in-process, where a call is cheaper than a
process) and classifies every run:

- ok: exit 0 (and, after a fault, the game or file is whole);
- clear: a non-zero exit with a message and no traceback (what bad input should get);
- TRACEBACK: a Python traceback on stderr (a bug);
- SILENT: a non-zero exit without a word (a bug);
- HANG: no answer within the timeout (a bug);
- LOST: a player's work lost or a file damaged after a fault (the worst bug).

Faults: SIGKILL (and SIGINT, SIGTERM, SIGHUP) at random moments during recorded games (patchwork --plain --record,
solo --plain --save), then the record or save must parse, resume, and keep every move the game had acknowledged; a
full disk (a tmpfs of a few KB when run as root with mount allowed, else RLIMIT_FSIZE, which gives EFBIG; the
summary says which); a read-only filesystem and a locked or corrupt scores database; a closed standard input or
output, a pipe nobody reads, output encodings that cannot draw, odd terminal sizes.

Seeded and bounded: `python benchmarks/bench_reliability.py --seed 1 --budget 40` (cases per surface) or
`--seconds 600`; `--surfaces deal,score` to choose. Generated files go in a temporary directory, removed at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUILTS = ROOT / "examples" / "quilts"
PHOTOS = ROOT / "examples" / "photos"
DECK_TOML = ROOT / "doodle" / "data" / "doodle_cards.toml"
QUILT_TEXT = (QUILTS / "rulebook-4x5.txt").read_text()
SURFACES = ("deal", "score", "sheet", "patchwork", "solo", "deck", "faults", "library")
OUTCOMES = ("ok", "clear", "TRACEBACK", "SILENT", "HANG", "LOST")

# Text that breaks naive parsers: other digits, controls, escapes, direction marks, huge numbers.
JUNK = ["", " ", "²", "٣", "１", "½", "\x00", "\x1b[31mred\x1b[0m", "\u202e", "q̈", "9" * 5000, "-1", "1e9",
        "NaN", "inf", "0x10", "1_000", "  7  ", "\t", "💥", "A" * 3000, "'", '"', "\\", "%s", "{}", "\r", "\ufeff"]


@dataclass
class Case:
    surface: str
    label: str
    argv: list[str]
    stdin: bytes = b""
    env: dict[str, str] = field(default_factory=dict)
    check: Callable[[subprocess.CompletedProcess], str | None] | None = None  # a message when work was lost
    close_stdout: bool = False
    close_stdin: bool = False
    broken_pipe: bool = False  # standard output a pipe whose reader has gone (`doodle ... | head -0`)
    fsize: int | None = None  # RLIMIT_FSIZE in bytes (the fallback full disk)
    fault: str = ""


@dataclass
class Finding:
    surface: str
    outcome: str
    label: str
    argv: list[str]
    detail: str


def private_devices(work: Path) -> list[str]:
    """Copies of /dev/null, /dev/zero and /dev/full in the campaign's own folder, to write to and read from: a
    command that wrongly replaces its target then damages the copy, not the machine's /dev (as one did)."""
    if os.geteuid() != 0:
        return []
    devices = []
    for name, minor in (("null", 3), ("zero", 5), ("full", 7)):
        node = work / f"dev-{name}"
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, minor))
        devices.append(str(node))
    return devices


def damaged_devices(c: Campaign) -> list[str]:
    def is_device(path: str) -> bool:
        try:
            return stat.S_ISCHR(os.stat(path).st_mode)
        except OSError:
            return False
    return [d for d in c.devices if not is_device(d)]


class Campaign:
    def __init__(self, seed: int, timeout: float, work: Path) -> None:
        self.rng = random.Random(seed)
        self.timeout = timeout
        self.work = work
        self.counts: dict[str, Counter] = defaultdict(Counter)
        self.faults: dict[str, Counter] = defaultdict(Counter)
        self.findings: list[Finding] = []
        self.runs = 0
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
        self.env.pop("PYTHONIOENCODING", None)
        self.env["DOODLE_SOLO_SAVE"] = str(work / "default-save.json")
        self.env["DOODLE_SCORES"] = str(work / "default-scores.db")
        self._n = 0
        self.devices = private_devices(work)


    def path(self, name: str) -> Path:
        self._n += 1
        return self.work / f"{self._n:05d}-{name}"

    def file(self, name: str, data: bytes | str) -> str:
        target = self.path(name)
        target.write_bytes(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
        return str(target)

    def run(self, case: Case) -> str:
        def prepare() -> None:
            if case.fsize is not None:
                import resource

                resource.setrlimit(resource.RLIMIT_FSIZE, (case.fsize, case.fsize))
            if case.close_stdout:
                os.close(1)
            if case.close_stdin:
                os.close(0)

        case.argv = [arg.replace("\x00", "") for arg in case.argv]  # an argument cannot hold NUL
        argv = [sys.executable, "-m", "doodle", *case.argv]
        env = {**self.env, **case.env}
        try:
            if case.broken_pipe:
                result = self.broken_pipe(argv, env, case)
            else:
                result = subprocess.run(argv, input=case.stdin, capture_output=True, timeout=self.timeout, env=env,
                                        preexec_fn=prepare, cwd=self.work)
        except subprocess.TimeoutExpired:
            return self.record(case, "HANG", f"no answer in {self.timeout:.0f} s")
        stderr = result.stderr.decode("utf-8", "replace")
        if "Traceback" in stderr:
            return self.record(case, "TRACEBACK", stderr.strip().splitlines()[-1][:300])
        lost = case.check(result) if case.check else None
        if lost:
            return self.record(case, "LOST", lost)
        if result.returncode == 0:
            return self.record(case, "ok", "")
        if case.broken_pipe:  # the Unix convention (`yes | head`): stop quietly when the reader has gone
            return self.record(case, "clear", "")
        if result.returncode < 0:
            return self.record(case, "SILENT", f"killed by signal {-result.returncode}")
        if not (stderr.strip() or result.stdout.strip()):
            return self.record(case, "SILENT", f"exit {result.returncode} without a message")
        return self.record(case, "clear", stderr.strip()[-200:])

    def broken_pipe(self, argv: list[str], env: dict[str, str], case: Case) -> subprocess.CompletedProcess:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                cwd=self.work)
        proc.stdout.close()  # type: ignore[union-attr]
        try:
            _, stderr = proc.communicate(case.stdin, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise
        return subprocess.CompletedProcess(argv, proc.returncode, b"", stderr)

    def record(self, case: Case, outcome: str, detail: str) -> str:
        self.runs += 1
        self.counts[case.surface][outcome] += 1
        if case.fault:
            self.faults[case.surface][case.fault] += 1
        if outcome not in ("ok", "clear"):
            self.findings.append(Finding(case.surface, outcome, case.label, case.argv, detail))
        return outcome

    def library(self, surface: str, label: str, call: Callable[[], object], expected: tuple[type, ...]) -> None:
        """One in-process call: returning or raising an expected error is fine, anything else is a finding."""
        case = Case(surface, label, [])
        try:
            call()
        except expected:
            self.record(case, "clear", "")
        except RecursionError as error:
            self.record(case, "TRACEBACK", f"RecursionError: {error}"[:300])
        except Exception as error:  # noqa: BLE001 - every other exception is the finding
            self.record(case, "TRACEBACK", f"{type(error).__name__}: {error}"[:300])
        else:
            self.record(case, "ok", "")


# --- hostile data -------------------------------------------------------------------------------------------------

def mutate_text(rng: random.Random, text: str) -> bytes:
    """A valid text damaged in one of the ways files get damaged or written by other tools."""
    kind = rng.randrange(14)
    if kind == 0:
        return b""
    if kind == 1:  # truncated
        return text.encode()[: rng.randrange(max(1, len(text)))]
    if kind == 2:  # random bytes flipped
        data = bytearray(text.encode())
        for _ in range(rng.randint(1, 8)):
            if data:
                data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    if kind == 3:
        return ("\ufeff" + text).encode()
    if kind == 4:
        return text.encode("utf-16")
    if kind == 5:
        return text.encode("utf-16-le")
    if kind == 6:
        return (text.replace("#", "é") + "é").encode("latin-1", "replace")
    if kind == 7:  # a junk word dropped in
        at = rng.randrange(len(text) + 1)
        return (text[:at] + rng.choice(JUNK) + text[at:]).encode("utf-8", "surrogatepass")
    if kind == 8:  # lines shuffled or duplicated
        lines = text.splitlines()
        rng.shuffle(lines) if rng.random() < 0.5 else lines.extend(lines)
        return "\n".join(lines).encode()
    if kind == 9:
        return os.urandom(rng.choice([1, 10, 1000, 100_000]))
    if kind == 10:  # deep nesting, for the JSON and TOML parsers
        return (rng.choice(["[", "{\"a\":", "a=[", "x = {y = "]) * rng.choice([1000, 100_000])).encode()
    if kind == 11:  # every number huge, negative or not a number
        return "".join(rng.choice(["9" * 400, "-3", "1.5", "²"]) if c.isdigit() else c for c in text).encode()
    if kind == 12:
        return text.replace("\n", "\r\n").encode()
    return text.encode() * rng.choice([2, 500])


def mutate_json(rng: random.Random, value: object) -> str:
    """A JSON document with one node replaced by a hostile value (or a key dropped)."""
    hostile = [None, [], {}, "", "x", -1, 0.0, 1.5, True, 10**30, float("inf"), float("nan"), [[[[]]]], "²",
               {"a": 1}, list(range(50)), "\x1b[2J"]
    paths: list[tuple[object, object]] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key in list(node):
                paths.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for index in range(len(node)):
                paths.append((node, index))
                walk(node[index])

    value = json.loads(json.dumps(value))
    walk(value)
    if not paths:
        return json.dumps(rng.choice(hostile))
    parent, key = rng.choice(paths)
    choice = rng.randrange(5)
    if choice == 0 and isinstance(parent, dict):
        del parent[key]
    elif choice == 1 and isinstance(parent, list):
        parent.append(rng.choice(hostile))
    elif choice == 2:
        parent[key] = "HUGE"  # type: ignore[index]
        return json.dumps(value).replace('"HUGE"', "9" * rng.choice([50, 5000]))
    elif choice == 3:
        parent[key] = "DEEP"  # type: ignore[index]
        return json.dumps(value).replace('"DEEP"', "[" * 100_000 + "]" * 100_000)
    else:
        parent[key] = rng.choice(hostile)  # type: ignore[index]
    return json.dumps(value)


def hostile_paths(c: Campaign) -> list[str]:
    """Paths that are not the user's ordinary file."""
    loop = c.path("loop")
    with contextlib.suppress(OSError):
        loop.symlink_to(loop)
    folder = c.path("folder")
    folder.mkdir()
    return [*c.devices, str(folder), str(c.path("missing")), str(loop), "", "-", "/proc/self/status",
            str(c.path("no-folder") / "x")]


def typed_lines(rng: random.Random, words: list[str], count: int) -> bytes:
    lines = []
    for _ in range(count):
        if rng.random() < 0.6:
            lines.append(" ".join(rng.choice(words) for _ in range(rng.randint(1, 4))))
        else:
            lines.append(rng.choice(JUNK))
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


# --- surfaces -----------------------------------------------------------------------------------------------------

def deal_cases(c: Campaign) -> Iterator[Case]:
    rng = c.rng
    deck = DECK_TOML.read_text()
    words = ["Ann", "Bob", "1", "2", "3", "35", "empty", "4", "?", "y", "n", "q", "", "Ann 2 35", "Bob 1 999", "²"]
    while True:
        kind = rng.randrange(5)
        if kind == 0:
            path = c.file("deck.toml", mutate_text(rng, deck))
            yield Case("deal", "mutated --deck", ["deal", "--auto", "--json", "--players", "2", "--deck", path])
        elif kind == 1:
            yield Case("deal", "hostile --deck path",
                       ["deal", "--auto", "--players", "2", "--deck", rng.choice(hostile_paths(c))])
        elif kind == 2:
            seed = rng.choice(JUNK + ["0", "1", str(2**64), str(-2**63), "1.0", str(10**19)])
            yield Case("deal", "hostile --seed", ["deal", "--auto", "--players", "3", "--seed", seed])
        elif kind == 3:
            names = [rng.choice(JUNK + ["Ann", "Ann", "-x", "--players"]) for _ in range(rng.randint(1, 8))]
            names = [n.replace("\x00", "") for n in names]
            yield Case("deal", "hostile names", ["deal", "--auto", "--seed", "1", "--", *names])
        else:
            yield Case("deal", "typed lines on stdin", ["deal", "Ann", "Bob", "--seed", str(rng.randrange(100))],
                       stdin=typed_lines(rng, words, rng.randint(5, 200)))


def score_cases(c: Campaign) -> Iterator[Case]:
    rng = c.rng
    quilts = sorted(QUILTS.glob("*.txt"))
    photos = sorted(PHOTOS.glob("*.jpg"))
    record = subprocess.run([sys.executable, "-m", "doodle", "deal", "--auto", "--json", "--players", "1", "--seed",
                             "5"], capture_output=True, env=c.env, check=True).stdout.decode()
    events = [json.loads(line) for line in record.splitlines()]
    while True:
        kind = rng.randrange(8)
        quilt = rng.choice(quilts).read_text()
        if kind == 0:
            yield Case("score", "mutated text quilt", ["score", "--no-ask", c.file("q.txt", mutate_text(rng, quilt))])
        elif kind == 1:
            yield Case("score", "text quilt on stdin", ["score", "--no-ask", "-"], stdin=mutate_text(rng, quilt))
        elif kind == 2:
            yield Case("score", "damaged image", ["score", "--no-ask", "--json", c.file("p.jpg", damaged_image(rng,
                                                                                                    photos))])
        elif kind == 3:
            rounds = ",".join(rng.choice(JUNK + ["17", "35", "60", "81", "82", "0"]) for _ in range(rng.randint(1, 4)))
            yield Case("score", "hostile --rounds", ["score", "--no-ask", "--rounds", rounds, str(rng.choice(quilts))])
        elif kind == 4:
            previous = c.file("prev.txt", mutate_text(rng, quilt)) if rng.random() < 0.7 else rng.choice(
                hostile_paths(c))
            yield Case("score", "hostile --previous", ["score", "--no-ask", "--round", "2", "--previous", previous,
                                                       str(rng.choice(quilts))])
        elif kind == 5:
            lines = [mutate_json(rng, event) if rng.random() < 0.15 else json.dumps(event) for event in events]
            path = c.file("rec.jsonl", "\n".join(lines))
            yield Case("score", "hostile --record", ["score", "--no-ask", "--round", rng.choice(["1", "2", "3"]),
                                                     "--record", path, str(rng.choice(quilts))])
        elif kind == 6:
            yield Case("score", "hostile file paths", ["score", "--no-ask", rng.choice(hostile_paths(c)),
                                                       str(rng.choice(quilts))])
        else:
            target = rng.choice(hostile_paths(c) + [str(c.path("a.png"))])
            yield Case("score", "hostile --annotate", ["score", "--no-ask", "--annotate", target,
                                                       str(rng.choice(photos))])


def damaged_image(rng: random.Random, photos: list[Path]) -> bytes:
    from io import BytesIO

    from PIL import Image

    kind = rng.randrange(5)
    if kind == 0:
        data = bytearray(rng.choice(photos).read_bytes())
        return bytes(data[: rng.randrange(len(data))])
    if kind == 1:
        data = bytearray(rng.choice(photos).read_bytes())
        for _ in range(rng.randint(1, 50)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    out = BytesIO()
    size = rng.choice([(1, 1), (199, 5000), (300, 300), (1200, 900)])
    mode, fmt = rng.choice([("RGB", "PNG"), ("L", "GIF"), ("I;16", "PNG"), ("RGBA", "WEBP"), ("RGB", "TIFF"),
                            ("1", "BMP"), ("P", "PNG")])
    image = Image.new(mode, size)
    if kind == 3:
        image = Image.effect_noise(size, 80).convert(mode)
    image.save(out, fmt)
    return out.getvalue()


def sheet_cases(c: Campaign) -> Iterator[Case]:
    rng = c.rng
    while True:
        kind = rng.randrange(3)
        if kind == 0:
            readonly = c.path("ro.pdf")
            readonly.write_bytes(b"keep")
            readonly.chmod(0o444)
            target = rng.choice(hostile_paths(c) + [str(readonly), str(c.path("new.pdf")), str(c.path("é ü.pdf"))])

            def kept(result: subprocess.CompletedProcess, readonly: Path = readonly) -> str | None:
                return None if readonly.read_bytes() == b"keep" else "a read-only target was changed"

            yield Case("sheet", "hostile -o target", ["sheet", "-o", target], check=kept)
        elif kind == 1:
            first = rng.choice(JUNK + ["0", "99999999", "100000000", str(10**200), "-5"])
            yield Case("sheet", "hostile --first-id", ["sheet", "-o", str(c.path("s.pdf")), "--first-id", first])
        else:
            count = rng.choice(JUNK + ["0", "1", "3", "1001", str(10**40), "-1"])
            yield Case("sheet", "hostile --count", ["sheet", "-o", str(c.path("s.pdf")), "--count", count])


PATCHWORK_WORDS = ["advance", "a", "leather", "fits", "undo", "hint", "show", "help", "1", "2", "3", "12", "p3",
                   "o1", "r1", "m", "c4", "a1,b1", "a1", "e5", "-", "?", "quit"]


def patchwork_record(c: Campaign, seed: int, moves: int) -> dict:
    path = c.path("pw.json")
    lines = "".join(f"{rng_move}\n" for rng_move in ["advance", "1 a1", "2 e5", "advance"] * moves) + "quit\n"
    subprocess.run([sys.executable, "-m", "doodle", "patchwork", "play", "--plain", "--vs", "random", "--seed",
                    str(seed), "--record", str(path)], input=lines.encode(), capture_output=True, env=c.env,
                   timeout=c.timeout)
    return json.loads(path.read_text())


def patchwork_cases(c: Campaign) -> Iterator[Case]:
    rng = c.rng
    base = patchwork_record(c, 3, 3)
    while True:
        if rng.random() < 0.5:
            record = str(c.path("g.json"))
            stdin = typed_lines(rng, PATCHWORK_WORDS, rng.randint(3, 60))
            yield Case("patchwork", "typed moves in --plain",
                       ["patchwork", "play", "--plain", "--vs", rng.choice(["random", "human"]), "--seed",
                        str(rng.randrange(50)), "--record", record], stdin=stdin)
        else:
            source = c.file("r.json", mutate_json(rng, base)) if rng.random() < 0.8 else rng.choice(hostile_paths(c))
            yield Case("patchwork", "hostile --resume record", ["patchwork", "play", "--plain", "--resume", source],
                       stdin=b"advance\nquit\n")


SOLO_WORDS = ["draw", "a1", "b2", "c4", "r1", "m", "try", "fits", "pass", "score", "single", "neighbour", "before",
              "after", "cut", "h1", "v2", "1", "2", "choose", "show", "brief", "on", "off", "quit", "P03", "e5"]


def solo_base_save(c: Campaign) -> dict:
    folder = c.path("solo-base")
    folder.mkdir()
    subprocess.run([sys.executable, "-m", "doodle", "solo", "--plain", "--seed", "4", "--no-par", "--save",
                    str(folder / "s.json"), "--scores", str(folder / "s.db")], input=b"draw a1\npass\npass\nquit\n",
                   capture_output=True, env=c.env, timeout=c.timeout)
    return json.loads((folder / "s.json").read_text())


def solo_cases(c: Campaign) -> Iterator[Case]:
    rng = c.rng
    base = solo_base_save(c)
    finish = b"draw a1\n" + b"pass\n" * 30
    while True:
        kind = rng.randrange(4)
        folder = c.path("solo")
        folder.mkdir()
        save, scores = folder / "save.json", folder / "scores.db"
        common = ["solo", "--plain", "--no-par", "--save", str(save), "--scores", str(scores)]
        if kind == 0:
            save.write_text(mutate_json(rng, base)) if rng.random() < 0.8 else save.write_bytes(
                mutate_text(rng, json.dumps(base)))
            yield Case("solo", "hostile --save file", [*common, rng.choice(["--resume", "--new"])], stdin=finish)
        elif kind == 1:
            yield Case("solo", "typed commands", [*common, "--seed", str(rng.randrange(100))],
                       stdin=typed_lines(rng, SOLO_WORDS, rng.randint(5, 120)))
        elif kind == 2:
            make_scores(scores, rng)
            data = bytearray(scores.read_bytes())
            for _ in range(rng.randint(1, 20)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            scores.write_bytes(bytes(data))
            yield Case("solo", "corrupt scores database", [*common, "--seed", "2", *rng.choice([[], ["--high-scores"],
                                                           ["--new"]])], stdin=finish, check=game_kept(save, scores))
        else:
            yield Case("solo", "hostile --save/--scores path",
                       ["solo", "--plain", "--no-par", "--seed", "1", rng.choice(["--save", "--scores"]),
                        rng.choice(hostile_paths(c))], stdin=finish)


def make_scores(path: Path, rng: random.Random) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "doodle", "solo", "--plain", "--no-par", "--seed", str(rng.randrange(9)),
                    "--save", str(path.with_suffix(".tmp.json")), "--scores", str(path)],
                   input=b"draw a1\n" + b"pass\n" * 30, capture_output=True, env=env, timeout=120)


def finished_games(scores: Path) -> int:
    """How many games the scores database holds (0 when it cannot be read)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{scores}?mode=ro", uri=True)) as db:
            tables = [row[0] for row in db.execute("select name from sqlite_master where type='table'")]
            return sum(db.execute(f"select count(*) from {table}").fetchone()[0] for table in tables)
    except sqlite3.Error:
        return 0


Check = Callable[[subprocess.CompletedProcess], "str | None"]


def game_kept(save: Path, scores: Path, before: int | None = None) -> Check:
    """After a game played to its end: its score is in the database, or its save is still there, or the game is
    kept beside the save to be recorded on the next run (`<save>.finished-<id>.json`)."""
    def check(result: subprocess.CompletedProcess) -> str | None:
        out = result.stdout.decode("utf-8", "replace")
        if "High scores" not in out and "not recorded" not in out.lower() and "Final" not in out:
            return None  # the game did not reach its end
        games = finished_games(scores)
        kept = save.exists() or any(save.parent.glob(f"{save.name}.finished-*.json"))
        if kept or (before is not None and games > before) or (before is None and games):
            return None
        return "the finished game is neither in the scores database nor kept beside its save"
    return check


def deck_cases(c: Campaign) -> Iterator[Case]:
    rng = c.rng
    deck = DECK_TOML.read_text()
    while True:
        kind = rng.randrange(3)
        if kind == 0:
            yield Case("deck", "mutated --check", ["deck", "--check", c.file("d.toml", mutate_text(rng, deck))])
        elif kind == 1:
            yield Case("deck", "hostile --check path", ["deck", "--check", rng.choice(hostile_paths(c))])
        else:
            yield Case("deck", "hostile --export target", ["deck", "--export", rng.choice(hostile_paths(c)),
                                                           *rng.choice([[], ["--force"]])])


# --- faults -------------------------------------------------------------------------------------------------------

class FullDisk:
    """A tiny filesystem to write into: a tmpfs when we may mount one, else RLIMIT_FSIZE on the process."""

    def __init__(self, work: Path) -> None:
        self.root = work / "full"
        self.root.mkdir()
        self.mounted = os.geteuid() == 0 and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(self.root)], capture_output=True).returncode == 0
        self.how = "a 16 KB tmpfs (ENOSPC)" if self.mounted else "RLIMIT_FSIZE of 16 KB (EFBIG)"

    def fsize(self) -> int | None:
        return None if self.mounted else 16 * 1024

    def readonly(self, flag: bool) -> bool:
        """Remount read-only (or back); False when this cannot be done here."""
        if not self.mounted:
            return False
        mode = "ro" if flag else "rw"
        return subprocess.run(["mount", "-o", f"remount,{mode}", str(self.root)], capture_output=True).returncode == 0

    def clear(self) -> None:
        self.readonly(False)
        for child in self.root.iterdir():
            shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()

    def close(self) -> None:
        if self.mounted:
            self.readonly(False)
            subprocess.run(["umount", str(self.root)], capture_output=True)


def unchanged(path: Path, content: bytes) -> Callable[[subprocess.CompletedProcess], str | None]:
    def check(result: subprocess.CompletedProcess) -> str | None:
        try:
            now = path.read_bytes()
        except OSError as error:
            return f"{path.name} is gone ({error.strerror})"
        if result.returncode != 0 and now != content:
            return f"{path.name} was damaged by a failed write ({len(now)} of {len(content)} bytes)"
        return None
    return check


def fault_cases(c: Campaign, disk: FullDisk) -> Iterator[Case]:
    rng = c.rng
    commands = {"deal": ["deal", "--auto", "--players", "3", "--seed", "1"],
                "score": ["score", "--no-ask", str(QUILTS / "rulebook-4x5.txt")],
                "solo": ["solo", "--bot", "greedy", "--seed", "3"],
                "sheet": ["sheet", "-o", "-"],
                "patchwork": ["patchwork", "selfplay", "--games", "1", "--bot", "greedy", "--opponent", "random"],
                "deck": ["deck", "--check", str(DECK_TOML)]}
    typed = {"deal": (["deal", "Ann", "Bob"], b"\n" * 5), "patchwork": (["patchwork", "play", "--plain", "--vs",
             "random"], b"advance\n" * 5), "solo": (["solo", "--plain", "--no-par", "--save", str(c.path("s.json")),
             "--scores", str(c.path("s.db"))], b"draw a1\npass\n"), "score": (["score", "-"], QUILT_TEXT.encode())}
    while True:
        kind = rng.randrange(9)
        name = rng.choice(sorted(commands))
        if kind == 0:
            yield Case(name, "closed stdout", commands[name], close_stdout=True, fault="closed stdout")
        elif kind == 6:
            name = rng.choice(sorted(typed))
            yield Case(name, "closed stdin", typed[name][0], close_stdin=True, fault="closed stdin")
        elif kind == 7:
            name = rng.choice(sorted(typed))
            yield Case(name, "stdout a pipe nobody reads", typed[name][0], stdin=typed[name][1], broken_pipe=True,
                       fault="broken pipe")
        elif kind == 8:
            columns, lines = rng.choice(["0", "1", "-5", "abc", "100000", ""]), rng.choice(["0", "1", "x", "9999"])
            name = rng.choice(sorted(typed))
            yield Case(name, f"COLUMNS={columns!r} LINES={lines!r}", typed[name][0], stdin=typed[name][1],
                       env={"COLUMNS": columns, "LINES": lines}, fault="odd terminal size")
        elif kind == 1:
            encoding = rng.choice(["latin-1", "ascii", "cp1252", "cp437", "utf-16", "ascii:strict", "koi8-r"])
            yield Case(name, f"PYTHONIOENCODING={encoding}", commands[name], env={"PYTHONIOENCODING": encoding},
                       fault="odd encoding")
        elif kind == 2:
            yield from full_disk_case(c, disk, rng)
        elif kind == 3:
            yield from database_case(c, disk, rng)
        else:
            yield from kill_case(c, rng)


def full_disk_case(c: Campaign, disk: FullDisk, rng: random.Random) -> Iterator[Case]:
    disk.clear()
    old = b"the user's old content\n"
    kind = rng.randrange(5)
    target = disk.root / rng.choice(["out.pdf", "deck.toml", "g.json", "a.png", "save.json"])
    if disk.mounted:  # an old file to keep, then the disk filled but for a few hundred bytes
        if rng.random() < 0.7:
            target.write_bytes(old)
        with contextlib.suppress(OSError), open(disk.root / "filler", "wb") as filler:
            filler.write(b"x" * (16 * 1024 - rng.choice([0, 512, 4096])))
    existing = target.exists()
    check = unchanged(target, old) if existing else None
    fault = f"full disk ({disk.how})"
    if kind == 0:
        yield Case("sheet", "full disk: sheet -o", ["sheet", "-o", str(target), "--count", "5"],
                   fsize=disk.fsize(), check=check, fault=fault)
    elif kind == 1:
        yield Case("deck", "full disk: deck --export", ["deck", "--export", str(target), "--force"],
                   fsize=disk.fsize(), check=check, fault=fault)
    elif kind == 2:
        yield Case("patchwork", "full disk: --record", ["patchwork", "play", "--plain", "--vs", "random", "--seed",
                   "1", "--record", str(target)], stdin=b"advance\nadvance\nquit\n", fsize=disk.fsize(), fault=fault)
    elif kind == 3:
        yield Case("score", "full disk: --annotate", ["score", "--no-ask", "--annotate", str(target),
                   str(PHOTOS / "mild-2.jpg")], fsize=disk.fsize(), check=check, fault=fault)
    else:
        save = disk.root / "save.json"
        yield Case("solo", "full disk: --save", ["solo", "--plain", "--no-par", "--seed", "1", "--save", str(save),
                   "--scores", str(c.path("s.db"))], stdin=b"draw a1\npass\npass\nquit\n", fsize=disk.fsize(),
                   fault=fault)


def database_case(c: Campaign, disk: FullDisk, rng: random.Random) -> Iterator[Case]:
    """A finished solo game whose scores database is locked by another connection, read-only, or on a full disk."""
    kind = rng.choice(["locked", "read-only", "corrupt"])
    folder = c.path("db")
    folder.mkdir()
    scores = folder / "scores.db"
    if kind == "read-only":
        if not disk.mounted:
            return
        disk.clear()
        folder = disk.root
        scores = folder / "scores.db"
    make_scores(scores, rng)
    before = finished_games(scores)
    save = c.path("save.json")
    argv = ["solo", "--plain", "--no-par", "--seed", "6", "--save", str(save), "--scores", str(scores)]
    finish = b"draw a1\n" + b"pass\n" * 30
    if kind == "read-only":
        disk.readonly(True)
        yield Case("solo", "read-only scores database", argv, stdin=finish, check=game_kept(save, scores, before),
                   fault="read-only database")
        disk.readonly(False)
    elif kind == "locked":
        holder = sqlite3.connect(scores, timeout=0, check_same_thread=False)  # released by a timer thread
        holder.execute("begin exclusive")
        release = threading.Timer(rng.choice([1.0, 30.0]), holder.rollback)
        release.start()
        try:
            yield Case("solo", "locked scores database", argv, stdin=finish, check=game_kept(save, scores, before),
                       fault="locked database")
        finally:
            release.cancel()
            with contextlib.suppress(sqlite3.Error):
                holder.rollback()
            holder.close()
    else:
        data = bytearray(scores.read_bytes())
        data[rng.randrange(100, len(data))] ^= 0xFF
        scores.write_bytes(bytes(data))
        yield Case("solo", "corrupt scores database", argv, stdin=finish, check=game_kept(save, scores),
                   fault="corrupt database")


def kill_case(c: Campaign, rng: random.Random) -> Iterator[Case]:
    """SIGKILL at a random moment of a recorded game; the record must be whole, resume, and keep every move the
    game acknowledged (patchwork: a 'plays' line; solo: 'You drew', 'You passed', 'Scored')."""
    game = rng.choice(["patchwork", "solo"])
    folder = c.path("kill")
    folder.mkdir()
    if game == "patchwork":
        target = folder / "g.json"
        argv = ["patchwork", "play", "--plain", "--vs", "random", "--seed", str(rng.randrange(100)), "--record",
                str(target)]
        words = ["advance", "1 a1", "2 e5", "3 a5", "show", "2 c7 r1"]  # no undo: it takes moves back
        marks = (" plays ",)
    else:
        target = folder / "save.json"
        argv = ["solo", "--plain", "--no-par", "--seed", str(rng.randrange(100)), "--save", str(target), "--scores",
                str(folder / "s.db")]
        words = ["draw a1", "draw e5 r1", "draw c3", "pass", "score", "single i9", "fits"]
        marks = ("You drew", "You passed", "Scored")
    lines = [rng.choice(words) for _ in range(200)]
    proc = subprocess.Popen([sys.executable, "-m", "doodle", *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=c.env, cwd=c.work)
    output = bytearray()
    reader = threading.Thread(target=lambda: [output.extend(chunk) for chunk in iter_read(proc.stdout)], daemon=True)
    reader.start()
    deadline = time.monotonic() + rng.uniform(0.3, 6.0)
    with contextlib.suppress(BrokenPipeError, OSError):
        for line in lines:
            if time.monotonic() > deadline or proc.poll() is not None:
                break
            proc.stdin.write(line.encode() + b"\n")
            proc.stdin.flush()
            time.sleep(rng.uniform(0, 0.05))
    acknowledged = bytes(output).decode("utf-8", "replace")
    acknowledged_moves = sum(acknowledged.count(mark) for mark in marks)
    sent = rng.choice([signal.SIGKILL] * 3 + [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
    fault = sent.name
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(sent)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        c.record(Case(game, f"{fault} during a game", argv, fault=fault), "HANG", f"still running 15 s after {fault}")
        return
    reader.join(2)
    stderr = proc.stderr.read().decode("utf-8", "replace")
    leftovers = [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]

    def check(result: subprocess.CompletedProcess) -> str | None:
        if "Traceback" in stderr:
            return None
        if not target.exists():
            if game == "solo" and finished_games(folder / "s.db"):
                return None
            return f"no record after {acknowledged_moves} acknowledged moves" if acknowledged_moves else None
        try:
            data = json.loads(target.read_text())
        except (ValueError, OSError) as error:
            return f"the record is not whole after the kill: {error}"
        moves = data.get("moves") if game == "patchwork" else [e for e in data["record"]["log"] if "action" in e]
        if len(moves) < acknowledged_moves:
            return f"{len(moves)} moves in the record, {acknowledged_moves} acknowledged before the kill"
        if result.returncode != 0:
            return f"the record does not resume: {result.stderr.decode('utf-8', 'replace')[-200:]}"
        return None

    resume = (["patchwork", "play", "--plain", "--resume", str(target)] if game == "patchwork" else
              ["solo", "--plain", "--no-par", "--resume", "--save", str(target), "--scores", str(folder / "s.db")])
    if "Traceback" in stderr:
        c.record(Case(game, f"{fault} during a game", argv, fault=fault), "TRACEBACK",
                 stderr.strip().splitlines()[-1])
        return
    if not target.exists():
        lost = check(subprocess.CompletedProcess(argv, 0))
        c.record(Case(game, f"{fault} during a game", argv, fault=fault), "LOST" if lost else "ok", lost or "")
        return
    label = f"{fault} during a game, then resumed" + (f" (leftover {', '.join(leftovers)})" if leftovers else "")
    yield Case(game, label, resume, stdin=b"quit\n", check=check, fault=fault)


def iter_read(stream) -> Iterator[bytes]:  # type: ignore[no-untyped-def]
    while chunk := stream.read1(65536):
        yield chunk


# --- in-process library calls -------------------------------------------------------------------------------------

def library_calls(c: Campaign, count: int) -> None:
    from doodle.files import InputFileError
    from doodle.game import GameError
    from doodle.game.deck import parse_deck
    from doodle.patchwork import Game, PatchworkError, parse_move
    from doodle.quilt import Quilt

    rng = c.rng
    deck = DECK_TOML.read_text()
    quilt = (QUILTS / "rulebook-4x5.txt").read_text()
    record = {"format": "doodle-patchwork", "version": 1, "edition": "current", "first": 0, "moves": ["advance"]}
    surfaces: list[tuple[str, Callable[[], object], tuple[type, ...]]] = []
    for _ in range(count):
        kind = rng.randrange(4)
        if kind == 0:
            text = mutate_text(rng, deck).decode("utf-8", "replace")
            surfaces.append(("parse_deck", lambda t=text: parse_deck(t), (GameError, InputFileError)))
        elif kind == 1:
            text = mutate_text(rng, quilt).decode("utf-8", "replace")
            surfaces.append(("Quilt.from_text", lambda t=text: Quilt.from_text(t), (ValueError,)))
        elif kind == 2:
            line = typed_lines(rng, PATCHWORK_WORDS, 1).decode("utf-8", "replace")
            surfaces.append(("parse_move", lambda t=line: parse_move(t), (PatchworkError,)))
        else:
            try:  # the CLI surface covers documents that json itself cannot read
                value = json.loads(mutate_json(rng, record))
            except (ValueError, RecursionError):
                continue
            surfaces.append(("Game.from_record", lambda v=value: Game.from_record(v),
                             (PatchworkError, ValueError)))
    for label, call, expected in surfaces:
        c.library("library", label, call, expected)


# --- main ---------------------------------------------------------------------------------------------------------

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=30, help="commands per surface (default 30)")
    parser.add_argument("--seconds", type=float, default=None, help="stop each surface after its share of this")
    parser.add_argument("--surfaces", default=",".join(SURFACES), help=f"comma-separated, of {','.join(SURFACES)}")
    parser.add_argument("--library-calls", type=int, default=20_000, help="in-process parser calls (default 20000)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before a command counts as hung")
    parser.add_argument("--keep", action="store_true", help="keep the generated files (their folder is printed)")
    args = parser.parse_args()
    surfaces = [s for s in args.surfaces.split(",") if s]
    unknown = set(surfaces) - set(SURFACES)
    if unknown:
        parser.error(f"unknown surfaces: {', '.join(sorted(unknown))}")
    work = Path(tempfile.mkdtemp(prefix="doodle-reliability-"))
    campaign = Campaign(args.seed, args.timeout, work)
    disk = FullDisk(work)
    started = time.monotonic()
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # clean up (unmount) when stopped
    try:
        run_surfaces(campaign, disk, surfaces, args)
    except KeyboardInterrupt:
        print("\ninterrupted: the summary covers what ran", file=sys.stderr)
    finally:
        disk.close()
        report(campaign, disk, time.monotonic() - started, args)
        if args.keep:
            print(f"files kept in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if any(f.outcome != "ok" for f in campaign.findings) else 0


def run_surfaces(c: Campaign, disk: FullDisk, surfaces: list[str], args: argparse.Namespace) -> None:
    makers = {"deal": deal_cases, "score": score_cases, "sheet": sheet_cases, "patchwork": patchwork_cases,
              "solo": solo_cases, "deck": deck_cases, "faults": lambda c: fault_cases(c, disk)}
    share = args.seconds / len(surfaces) if args.seconds else None
    for surface in surfaces:
        start = time.monotonic()
        if surface == "library":
            library_calls(c, args.library_calls)
            print(f"library: {args.library_calls} calls", file=sys.stderr)
            continue
        cases = makers[surface](c)
        for done in range(args.budget):
            if share and time.monotonic() - start > share:
                break
            case = next(cases)
            outcome = c.run(case)
            print(f"\r{surface}: {done + 1}/{args.budget} {outcome:<9}", end="", file=sys.stderr, flush=True)
            if outcome not in ("ok", "clear"):
                print(f"\n  {outcome}: {case.label}: {' '.join(case.argv)[:200]}\n    {c.findings[-1].detail}",
                      file=sys.stderr)
        print(file=sys.stderr)


def report(c: Campaign, disk: FullDisk, seconds: float, args: argparse.Namespace) -> None:
    print(f"\n{c.runs} runs in {seconds:.0f} s (seed {args.seed}; full disk: {disk.how})\n")
    print("| surface | runs | ok | clear error | traceback | silent | hang | lost | faults injected |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for surface in sorted(c.counts):
        n = c.counts[surface]
        faults = ", ".join(f"{k} {v}" for k, v in sorted(c.faults[surface].items())) or "-"
        print(f"| {surface} | {sum(n.values())} | {n['ok']} | {n['clear']} | {n['TRACEBACK']} | {n['SILENT']} | "
              f"{n['HANG']} | {n['LOST']} | {faults} |")
    damaged = damaged_devices(c)
    if damaged:
        print(f"\nLOST: device files replaced by regular files: {', '.join(damaged)}")
    if c.findings:
        print("\nFindings:")
        seen = set()
        for f in c.findings:
            key = (f.surface, f.outcome, f.label, f.detail[:80])
            if key in seen:
                continue
            seen.add(key)
            print(f"- {f.outcome} {f.surface}: {f.label}: doodle {' '.join(f.argv)[:300]}\n    {f.detail}")


if __name__ == "__main__":
    sys.exit(main())
