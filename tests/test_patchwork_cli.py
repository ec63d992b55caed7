"""`doodle patchwork play --plain` and `doodle patchwork selfplay` through click's CliRunner."""

from __future__ import annotations

import json

from click.testing import CliRunner

from doodle.cli import main
from doodle.patchwork import ADVANCE, Game
from doodle.patchwork.bots import RandomBot
from doodle.patchwork.plain import PlainMatch
from doodle.tui.ghost import oriented


def scripted_lines(seed: int) -> tuple[list[str], Game]:
    """The lines a person types to always advance (placing leather patches on the first empty cell) against
    the seeded random bot, and the game that results."""
    game = Game.new(seed=seed)
    bot = RandomBot(seed)
    lines = []
    while not game.is_over():
        if game.current_player == 1:
            game.play(bot.choose(game))
            continue
        move = ADVANCE if not game.pending_leather else game.legal_moves()[0]
        lines.append(move.text())
        game.play(move)
    return lines, game


def test_a_whole_plain_game_against_a_bot_and_its_record(tmp_path):
    lines, expected = scripted_lines(seed=21)
    record_path = tmp_path / "game.json"
    result = CliRunner().invoke(
        main, ["patchwork", "play", "--plain", "--vs", "random", "--seed", "21", "--record", str(record_path)],
        input="\n".join(lines) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output and "Not played" not in result.output
    record = json.loads(record_path.read_text())
    assert record["scores"] == list(expected.scores())
    assert Game.from_record(record).notation() == expected.notation()


def test_illegal_typed_moves_are_refused_with_the_reason():
    game = Game.new(seed=4)
    dear = next(p for p in game.choices() if p.cost > 5)
    later = game.circle[5]
    inputs = [f"{later} a1", "advance now", f"{dear.number} a1", "leather a1", "1x a1", "quit"]
    result = CliRunner().invoke(main, ["patchwork", "play", "--plain", "--vs", "human", "--seed", "4"],
                                input="\n".join(inputs) + "\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"Not played: patch {later} is not one of the next three" in out
    assert "Not played: 'advance now': 'advance' takes nothing after it" in out
    assert f"Not played: cannot afford patch {dear.number}: it costs {dear.cost} buttons, player 1 has 5" in out
    assert "Not played: there is no leather patch to place now" in out
    assert "Not played: '1x a1' is not a move" in out


def test_plain_match_commands():
    game = Game.new(order=[3, 1, 2, 0])  # 3 costs 7 (too dear), 1 is the 1x3, 2 the 1x4
    match = PlainMatch(game, [None, RandomBot(1)], ["you", "random"])
    assert "cannot afford patch 3: it costs 7 buttons, player 1 has 5" in match.handle("3 a1")
    assert "fits in 126 ways" in match.handle("fits 1")
    assert "runs off the quilt" in match.handle("1 h1")
    assert "The greedy bot would play" in match.handle("hint")
    out = match.handle("1 a1 r1")  # turned a quarter: a1, a2, a3
    assert game.quilts[0].cells == frozenset({(0, 0), (1, 0), (2, 0)})
    assert "player 1 (you) plays 1 a1,a2,a3." in out and "player 2 (random) plays" in out
    assert "Took back" in match.handle("undo") and game.quilts[0].bits == 0 and game.move_stack == ()
    hot_seat = PlainMatch(Game.new(order=[1, 2, 25, 0]), [None, None])
    hot_seat.handle("1 a1")
    hot_seat.handle("advance")
    assert "Not played: patch 2 does not fit there: cells a1, b1, c1 are already covered" in hot_seat.handle("2 a1")
    assert "commands" in match.handle("help").lower()


def test_typed_orientation_codes_match_the_ghost_model():
    game = Game.new(order=[20, 1, 2, 0])  # patch 20: '#./#./##/#.'
    match = PlainMatch(game, [None, None])
    move = match.read_move("20 b2 r1 m")
    shape = oriented(game.choices()[0].shape, 1, True)
    assert move.cells == frozenset((1 + r, 1 + c) for r, c in shape.cells)


def test_a_script_that_ends_early_fails_with_a_message():
    result = CliRunner().invoke(main, ["patchwork", "play", "--plain", "--vs", "greedy", "--seed", "2"],
                                input="advance\n")  # fmt: skip
    assert result.exit_code == 1
    assert "the input ended before the game did" in result.output


def test_selfplay_json_lines_replay_and_summarise():
    result = CliRunner().invoke(
        main, ["patchwork", "selfplay", "--games", "2", "--bot", "greedy", "--opponent", "random", "--json"]
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    games, summary = lines[:-1], lines[-1]["summary"]
    assert len(games) == 2 and summary["games"] == 2 and sum(summary["wins"]) == 2
    assert games[0]["players"] == ["greedy", "random"] and games[1]["players"] == ["random", "greedy"]
    for entry in games:
        replayed = Game.from_record(entry["record"])
        assert list(replayed.scores()) == entry["scores"] and replayed.winner() == entry["winner"]


def test_selfplay_text_summary_and_bad_options():
    runner = CliRunner()
    result = runner.invoke(main, ["patchwork", "selfplay", "--games", "1", "--bot", "random", "--opponent", "random"])
    assert result.exit_code == 0 and "wins of 1" in result.output
    result = runner.invoke(main, ["patchwork", "selfplay", "--seconds", "1", "--iterations", "5"])
    assert result.exit_code == 2 and "not both" in result.output
    result = runner.invoke(main, ["patchwork", "play", "--vs", "alphago"])
    assert result.exit_code == 2 and "alphago" in result.output


def test_resume_a_recorded_game_and_bad_records(tmp_path):
    path = tmp_path / "game.json"
    runner = CliRunner()
    args = ["patchwork", "play", "--plain", "--vs", "human"]
    result = runner.invoke(main, [*args, "--seed", "6", "--record", str(path)], input="advance\nadvance\nquit\n")
    assert result.exit_code == 0 and json.loads(path.read_text())["moves"] == ["advance", "advance"]
    result = runner.invoke(main, [*args, "--resume", str(path)], input="advance\nquit\n")
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text())["moves"] == ["advance"] * 3
    path.write_text('{"order": [1, 1], "moves": []}')
    result = runner.invoke(main, ["patchwork", "play", "--plain", "--resume", str(path)])
    assert result.exit_code == 1 and "bad setup: patch 1 appears twice" in result.output
    path.write_text("not json")
    result = runner.invoke(main, ["patchwork", "play", "--plain", "--resume", str(path)])
    assert result.exit_code == 1 and "is not a JSON game record" in result.output
