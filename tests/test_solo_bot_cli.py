"""`doodle solo --bot NAME [--json]`: a bot plays the game; the JSON record re-checks against a replay."""

import json

from click.testing import CliRunner

from doodle.cli import main
from doodle.game.solo_record import verify_solo_record


def test_bot_json_record_replays_and_rescores():
    result = CliRunner().invoke(main, ["solo", "--bot", "greedy", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert (record["seed"], record["bot"]) == (3, "greedy")
    game = verify_solo_record(record)
    assert game.totals()[0] == record["total"] == sum(record["round_scores"]) - record["empty"]
    assert len(record["round_quilts"]) == 3 and all(len(rows) == 9 for rows in record["round_quilts"])


def test_bot_summary_in_text():
    result = CliRunner().invoke(main, ["solo", "--bot", "greedy", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("The greedy bot on seed 3: rounds ")


def test_bad_bot_options_are_usage_errors():
    runner = CliRunner()
    unknown = runner.invoke(main, ["solo", "--bot", "nobody"])
    assert unknown.exit_code == 2 and "unknown bot 'nobody'" in unknown.output
    assert runner.invoke(main, ["solo", "--bot", "greedy", "--resume"]).exit_code == 2
    assert runner.invoke(main, ["solo", "--json"]).exit_code == 2
