"""The examples/ folder stays true: quilts give their JSON, scripts run, the recorded deal is what the seed deals."""

import json
import runpy
from pathlib import Path

import pytest
from click.testing import CliRunner

from doodle.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


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
