"""The solo game's saves and score table under hostile input, counted: many more cases than the unit tests'
fuzzing runs. Hostile saves (tests/test_solo_fuzz.py's generator) must replay or raise SaveError; randomly
damaged score tables (bytes flipped, files cut short) must record a finished game (setting the damaged file
aside unchanged) or say that it was not recorded. Anything else is counted as a failure and shown.
Run by hand: `python benchmarks/bench_solo_faults.py [--saves 4000] [--tables 1500]`."""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.* when run as a script
from doodle.solo.finish import record_entry  # noqa: E402
from doodle.solo.scores import ScoreBook  # noqa: E402
from doodle.solo.store import SaveError, read_save  # noqa: E402
from tests.test_solo_fuzz import ENTRY, hostile_saves, table_bytes  # noqa: E402


def sweep_saves(count: int, folder: Path) -> Counter:
    outcomes: Counter = Counter()

    @settings(max_examples=count, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(hostile_saves())
    def attempt(raw: bytes) -> None:
        path = folder / "save.json"
        path.write_bytes(raw)
        try:
            save = read_save(path)
            assert save is not None
            save.game()
            outcomes["replays"] += 1
        except SaveError:
            outcomes["SaveError, set aside with its message"] += 1
        except Exception as error:  # noqa: BLE001 - what the sweep is looking for
            outcomes[f"FAILURE {type(error).__name__}: {error}"[:120]] += 1

    attempt()
    return outcomes


def sweep_tables(count: int, folder: Path, seed: int = 1) -> Counter:
    rng = random.Random(seed)
    original = table_bytes()
    outcomes: Counter = Counter()
    for number in range(count):
        data = bytearray(original)
        if rng.random() < 0.3:
            del data[rng.randrange(len(data)):]
        for _ in range(rng.randrange(1, 8)):
            if data:
                data[rng.randrange(len(data))] = rng.randrange(256)
        raw = bytes(data)
        place = folder / f"t{number}"
        place.mkdir()
        path = place / "s.db"
        path.write_bytes(raw)
        try:
            standing = record_entry(path, ENTRY)
            if any(aside.read_bytes() != raw for aside in place.glob("s.db.corrupt-*")):
                outcomes["FAILURE: a damaged table was changed"] += 1
            elif not standing.recorded:
                outcomes[f"not recorded, said so: {standing.problem[-50:]}"] += 1
            else:
                with ScoreBook(path) as book:
                    if book.get(ENTRY.game_id) != ENTRY:
                        outcomes["FAILURE: said recorded, but the row is not there"] += 1
                    elif "damaged" in standing.note:
                        outcomes["recorded in a new table, the damaged one set aside"] += 1
                    else:
                        outcomes["recorded"] += 1
        except Exception as error:  # noqa: BLE001 - what the sweep is looking for
            outcomes[f"FAILURE {type(error).__name__}: {error}"[:120]] += 1
    return outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=4000)
    parser.add_argument("--tables", type=int, default=1500)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name, sweep, count in (("hostile saves", sweep_saves, options.saves),
                                   ("damaged score tables", sweep_tables, options.tables)):
            start = time.perf_counter()
            place = Path(folder) / name.replace(" ", "-")
            place.mkdir()
            outcomes = sweep(count, place)  # type: ignore[operator]
            print(f"{name}: {sum(outcomes.values())} tried in {time.perf_counter() - start:.0f} s")
            for outcome, times in outcomes.most_common():
                print(f"  {times:6d}  {outcome}")


if __name__ == "__main__":
    main()
