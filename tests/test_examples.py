"""The examples/ folder stays true: quilts give their JSON, scripts run, the recorded deal is what the seed deals,
and every example photo shows a game a bot played, which `doodle score` reads as that game's sheet."""

import json
import re
import runpy
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from doodle.cli import main
from doodle.quilt import Quilt
from doodle.sheet import layout as L
from tests.photogen_game import expected_json, game_truth, played_game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PHOTOS = sorted((EXAMPLES / "photos").glob("*.jpg"))


@pytest.mark.parametrize("expected", sorted((EXAMPLES / "quilts").glob("*.json")), ids=lambda p: p.stem)
def test_example_quilts_give_their_json(expected):
    result = CliRunner().invoke(main, ["score", "--json", str(expected.with_suffix(".txt"))])
    assert result.exit_code == 0, result.output
    produced = json.loads(result.output)
    produced.pop("file", None)
    assert produced == json.loads(expected.read_text())


def test_recorded_deal_is_what_the_seed_deals():
    recorded = (EXAMPLES / "records" / "deal-3-players-seed-7.jsonl").read_text()
    result = CliRunner().invoke(main, ["deal", "--auto", "--json", "--players", "3", "--seed", "7"])
    assert result.output == recorded


@pytest.mark.parametrize("script", sorted((EXAMPLES / "scripts").glob("*.py")), ids=lambda p: p.stem)
def test_example_scripts_run(script, capsys, monkeypatch):
    monkeypatch.setattr("sys.argv", [str(script)])
    runpy.run_path(str(script), run_name="__main__")
    assert capsys.readouterr().out.strip()


@cache
def bot_game(seed: int, bot: str) -> dict:
    return played_game(seed, bot)


def test_there_are_example_photos_at_every_level_and_with_hard_shadows():
    truths = [json.loads(p.with_suffix(".truth.json").read_text()) for p in PHOTOS]
    assert {t["level"] for t in truths} == {"mild", "moderate", "harsh"}
    assert {"row (0.42)", "margin (0.35)"} <= {t["conditions"].get("shadow") for t in truths}
    assert len({(t["game"]["seed"], t["game"]["bot"]) for t in truths}) == len(truths)  # different games
    assert len({t["sheet_id"] for t in truths}) == len(truths)  # and different sheets: no duplicate warning


@pytest.mark.parametrize("photo", PHOTOS, ids=lambda p: p.stem)
def test_example_photo_shows_the_game_its_truth_names(photo):
    """The sheet in the photo is the one a bot's game leaves: the same quilt, the specials it crossed off, each
    round's score the best rectangle of the quilt at that scoring, and the total they make."""
    truth = json.loads(photo.with_suffix(".truth.json").read_text())
    record = bot_game(truth["game"]["seed"], truth["game"]["bot"])
    assert truth["layout"] == L.LAYOUT_VERSION
    replay = f"the {truth['game']['bot']} bot no longer plays this game: rerun {truth['generator']}"
    assert truth["quilt"] == record["quilt"], replay
    assert truth["round_scores"] == record["round_scores"] == truth["game"]["round_scores"], replay
    for scoring in record["scorings"]:
        assert Quilt.from_rows(scoring["quilt"]).best_rectangle().score == scoring["score"]
    sheet = game_truth(record)
    assert truth["specials_used"] == list(sheet.specials_used)
    expected = json.loads(photo.with_name(photo.stem + ".json").read_text())
    assert expected == expected_json(sheet)
    assert expected["total"] == record["total"] == sum(record["round_scores"]) - record["empty"]


def _answered(read: dict, expected: dict) -> dict:
    """The reading with each doubt answered from the sheet, as a player answers `doodle score`'s questions."""
    rows = [list(row) for row in read["quilt"]]
    specials = set(read["specials_used"] or ())
    rounds = list(read["round_scores"])
    for doubt in read["uncertain"]:
        if doubt["kind"] == "cell":
            row, col = int(doubt["name"][1:]) - 1, L.COLUMNS.index(doubt["name"][0])
            rows[row][col] = expected["quilt"][row][col]
        elif doubt["kind"] == "special":
            specials.discard(doubt["name"])
            specials |= {doubt["name"]} & set(expected["specials_used"])
        else:
            number = int(re.search(r"round (\d)", doubt["name"]).group(1))
            rounds[number - 1] = expected["round_scores"][number - 1]
    quilt = Quilt.from_rows(["".join(row) for row in rows])
    rect = quilt.best_rectangle()
    return {"quilt": quilt.rows(), "empty": quilt.empty_count(), "rectangle": rect.to_dict() if rect else None,
            "specials_used": [n for n in L.SPECIAL_NAMES if n in specials], "round_scores": rounds,
            "total": sum(rounds) - quilt.empty_count()}


@pytest.mark.parametrize("photo", PHOTOS, ids=lambda p: p.stem)
def test_doodle_score_reads_each_example_photo_as_its_game(photo):
    """What `doodle score --json` is sure of is the game's sheet; whatever else it lists as uncertain (exit 3), and
    answering those questions from the sheet gives the expected JSON exactly."""
    expected = json.loads(photo.with_name(photo.stem + ".json").read_text())
    truth = json.loads(photo.with_suffix(".truth.json").read_text())
    result = CliRunner().invoke(main, ["score", "--json", "--no-ask", str(photo)])
    read = json.loads(result.output)
    assert result.exit_code == (3 if read["uncertain"] else 0), result.output
    assert (read["layout"], read["sheet_id"], read["method"]) == (truth["layout"], truth["sheet_id"], "markers")
    assert _answered(read, expected) == expected
    if not read["uncertain"]:
        assert {key: read[key] for key in expected} == expected
