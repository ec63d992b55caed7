"""Patchwork under hostile input and faults: moves built by hand, typed junk, damaged records, killed games,
resumed games with their players, and the engine's shape (errors, text forms, no reaching into privates)."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import doodle.game
import doodle.patchwork
from doodle.cli import main
from doodle.patchwork import (
    ADVANCE,
    Game,
    IllegalMoveError,
    Move,
    MoveSyntaxError,
    NotationError,
    PatchworkError,
    PatchworkRecordError,
    parse_move,
)
from doodle.patchwork.app import ConfirmQuit, PatchworkApp
from doodle.patchwork.bots import GreedyBot
from doodle.patchwork.moves import leather_move, orientation_placement
from doodle.patchwork.plain import PlainMatch

ROOT = Path(__file__).resolve().parent.parent
EMPTY = "0" * 21
NOT_DIGITS = ["²", "¹²", "٣", "１", "5" * 5000, "-1", "1e3", "0x1"]  # superscripts, Arabic-Indic, full-width, ...


def waiting_leather() -> Game:
    """Player 1 (index 0) must place a leather patch now."""
    return Game.from_notation(f"current circle:1,2,0 p0:26/5/0/{EMPTY} p1:27/5/0/{EMPTY} top:0 bonus:- "
                              f"leather:0x1 end:-")  # fmt: skip


# ----- Game.play takes only well-formed moves (issue 11 items 5 and 13) -----
@pytest.mark.parametrize(
    "move",
    [
        Move("leather", None, frozenset({(0, 0)}), 1 << 5),  # the mask says a6, the cells say a1
        Move("leather", None, frozenset({(9, 0)}), 1 << 81),  # off the board
        Move("leather", None, frozenset({(0, 0), (0, 1)}), 0b11),  # two cells
        Move("leather", 3, frozenset({(0, 0)}), 1),  # a leather patch with a number
        Move("leather", None, frozenset({(0.0, 0)}), 1),  # type: ignore[arg-type]
        Move("leather", None, frozenset({(True, 0)}), 1),  # type: ignore[arg-type]
        Move("jump"),  # type: ignore[arg-type]
        None,
        "e5",
        leather_move(0, 0).text(),
    ],
)
def test_a_move_that_is_not_well_formed_is_refused_and_changes_nothing(move):
    game = waiting_leather()
    before = game.notation()
    with pytest.raises(IllegalMoveError):
        game.play(move)  # type: ignore[arg-type]
    assert game.why_illegal(move) is not None  # type: ignore[arg-type]
    assert game.notation() == before and game.move_stack == ()


def test_a_patch_move_whose_mask_disagrees_with_its_cells_is_refused():
    game = Game.new(order=[1, 2, 3, 0])
    good = orientation_placement(1, 0, 0, 0)  # a1, b1, c1
    liar = Move("patch", 1, good.cells, good.mask << 9)  # the mask is a2, b2, c2
    with pytest.raises(IllegalMoveError, match="mask .* does not match its cells a1,b1,c1"):
        game.play(liar)
    with pytest.raises(IllegalMoveError, match="not the shape of patch 1"):
        game.play(Move("patch", 1, frozenset({(0, 0), (0, 1), (1, 1)})))
    with pytest.raises(IllegalMoveError, match="there is no patch 40"):
        game.play(Move("patch", 40, good.cells))


def test_a_move_built_by_hand_that_agrees_is_played_as_the_engines_own_and_replays():
    game = waiting_leather()
    game.play(Move("leather", None, frozenset({(4, 4)})))  # the mask left out: it follows the cells
    game.play(Move("patch", 1, frozenset({(0, 0), (1, 0), (2, 0)})))
    assert game.quilts[0].cells == frozenset({(4, 4), (0, 0), (1, 0), (2, 0)})
    assert Game.from_record(json.loads(json.dumps(game.to_record()))).notation() == game.notation()


@pytest.mark.parametrize("player", ["0", 0.0, True, 2, -1, [0]])
def test_an_ill_typed_player_is_refused_with_the_documented_error(player):
    game = Game.new(seed=1)
    with pytest.raises(IllegalMoveError, match="the player is 0 or 1"):
        game.play(ADVANCE, player=player)
    assert game.move_stack == ()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([1, 2, 0], []), "unknown edition"),
        (([1, 2, 0], "current", 0.0), "first player is 0 or 1"),
        (([1, 2, 0], "current", True), "first player is 0 or 1"),
        (([True, 2, 0],), "unknown patch number True"),
        ((None,), "not NoneType"),
        (([10**5000, 0],), "unknown patch number a number of more than 19 digits"),
    ],
)
def test_a_setup_that_is_not_one_is_refused_with_the_packages_error(args, message):
    with pytest.raises(PatchworkError, match=message):
        Game(*args)


# ----- text that is not plain digits (issue 11 item 10) -----
@pytest.mark.parametrize("text", ["²", "² a1", "1² a1,b1", "p² a1", "12 o² c4", "12 o99999999999 c4", "٣ a1,b1,c1"])
def test_parse_move_refuses_digits_that_are_not_0_to_9_with_its_own_error(text):
    with pytest.raises(MoveSyntaxError):
        parse_move(text)


def test_parse_move_says_to_write_the_digits_0_to_9():
    with pytest.raises(MoveSyntaxError, match="digits 0-9"):
        parse_move("¹² a1")
    with pytest.raises(MoveSyntaxError, match="there is no patch 99999999999"):
        parse_move("99999999999 a1")
    with pytest.raises(MoveSyntaxError, match="written as text"):
        parse_move(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("junk", NOT_DIGITS)
def test_notation_refuses_numbers_that_are_not_plain_digits(junk):
    with pytest.raises(NotationError, match="not a whole number"):
        Game.from_notation(f"current circle:1,0 p0:0/{junk}/0/{EMPTY} p1:0/5/0/{EMPTY} top:0 bonus:- leather:- end:-")


# ----- the typed game answers every line (issue 11 item 2) -----
@pytest.mark.parametrize(
    "line",
    ["²", "² a1", "12 ² r1", "fits ²", "fits " + "9" * 5000, "9" * 5000 + " a1", "12 o² c4", "٣ a1 r1", "\x00",
     "\x1b[2J", "leather ²", "a1 a1 a1", "advance ²", "undo ²", "ｑｕｉｔ"],
)  # fmt: skip
def test_any_typed_line_is_answered_with_a_message(line):
    match = PlainMatch(Game.new(seed=2), [None, None])
    answer = match.handle(line)
    assert isinstance(answer, str) and answer
    leather = PlainMatch(waiting_leather(), [None, None])
    assert isinstance(leather.handle(line), str)


def test_the_typed_game_calls_on_change_after_every_move_before_a_bot_thinks():
    saved: list[int] = []

    class Watching(GreedyBot):
        def choose(self, game):
            assert saved and saved[-1] == len(game.move_stack), "the person's move was not saved before thinking"
            return super().choose(game)

    match = PlainMatch(Game.new(seed=5), [None, Watching()], on_change=lambda g: saved.append(len(g.move_stack)))
    match.handle("advance")
    assert saved == [1, 2]
    match.handle("²")  # refused: nothing changed, nothing saved
    assert saved == [1, 2]
    match.handle("undo")
    assert saved == [1, 2, 0]


def scripted(seed: int, lines_wanted: int) -> tuple[list[str], list[str]]:
    """The lines a person types (always advance, leather on the first empty cell) against the greedy bot, and
    the moves the record holds once the bot has answered the last of them."""
    game = Game.new(seed=seed)
    bot = GreedyBot()
    lines: list[str] = []
    while len(lines) < lines_wanted:
        move = ADVANCE if not game.pending_leather else game.legal_moves()[0]
        lines.append(move.text())
        game.play(move)
        while game.current_player == 1:
            game.play(bot.choose(game))
    return lines, [move.text() for move in game.move_stack]


@pytest.mark.parametrize("resumed", [False, True])
def test_a_killed_game_keeps_every_move_in_its_record(tmp_path, resumed):
    record = tmp_path / "g.json"
    lines, expected = scripted(seed=3, lines_wanted=8)
    args = ["patchwork", "play", "--plain", "--vs", "greedy", "--seed", "3", "--record", str(record)]
    if resumed:  # the first three lines in an earlier session, the rest after --resume
        earlier = CliRunner().invoke(main, args, input="\n".join(lines[:3]) + "\nquit\n")
        assert earlier.exit_code == 0, earlier.output
        args, lines = ["patchwork", "play", "--plain", "--resume", str(record)], lines[3:]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "doodle", *args], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)  # fmt: skip
    try:
        proc.stdin.write(("\n".join(lines) + "\n").encode())  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]
        deadline = time.monotonic() + 60
        moves: list[str] = []
        while time.monotonic() < deadline and moves != expected:
            time.sleep(0.1)
            if record.exists():
                moves = json.loads(record.read_text())["moves"]
        assert proc.poll() is None, "the game ended before it was killed"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    data = json.loads(record.read_text())
    assert data["moves"] == expected
    assert Game.from_record(data).move_stack == tuple(parse_move(m) for m in expected)
    assert not list(tmp_path.glob(".g.json.*.tmp"))


class Terminal:
    """`doodle ARGS` running in a pseudo-terminal of 120x45, as a person sees it: wait for text, type keys."""

    def __init__(self, args: list[str], cwd: Path, term: str = "dumb") -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 45, 120, 0, 0))
        env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": term, "NO_COLOR": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "doodle", *args], stdin=slave, stdout=slave,
                                     stderr=slave, cwd=cwd, env=env, start_new_session=True)  # fmt: skip
        os.close(slave)
        self.master = master
        self.seen = b""
        self.deadline = time.monotonic() + 90

    def expect(self, text: str | None, since: int = 0, seconds: float | None = None) -> bool:
        """Read until `text` shows (after byte `since`), or to the end of the program when `text` is None; for
        at most `seconds` when given."""
        deadline = self.deadline if seconds is None else min(self.deadline, time.monotonic() + seconds)
        while time.monotonic() < deadline:
            if text is not None and text.encode() in self.seen[since:]:
                return True
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the program ended and closed the terminal
                    chunk = b""
                if not chunk:
                    return text is None
                self.seen += chunk
        return False

    def type(self, keys: str) -> int:
        mark = len(self.seen)
        os.write(self.master, keys.encode())
        return mark

    def finish(self) -> tuple[str, int]:
        self.expect(None)
        try:
            status = self.proc.wait(timeout=max(1.0, self.deadline - time.monotonic()))
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            os.close(self.master)
        return self.seen.decode("utf-8", "replace"), status


def test_typed_junk_in_a_terminal_gets_a_message_and_the_record_keeps_the_moves(tmp_path):
    term = Terminal(["patchwork", "play", "--plain", "--vs", "greedy", "--seed", "4", "--record", "g.json"], tmp_path)
    for wait_for, line in [("> ", "²"), ("Not played", "12 ² r1"), ("> ", "advance"), ("plays", "quit")]:
        assert term.expect(wait_for), term.seen[-500:]
        term.type(line + "\n")
    shown, status = term.finish()
    assert status == 0, shown
    assert "Traceback" not in shown and "Not played" in shown
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["moves"][0] == "advance" and len(record["moves"]) >= 2
    assert "--resume g.json" in shown  # says how to go on


def test_the_full_screen_game_saves_each_move_and_asks_before_quitting(tmp_path):
    term = Terminal(["patchwork", "play", "--vs", "greedy", "--seed", "3", "--record", "g.json"], tmp_path,
                    term="xterm-256color")  # fmt: skip
    assert term.expect("advance")  # the footer's key line
    term.type("a")
    record = tmp_path / "g.json"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(json.loads(record.read_text())["moves"]) < 2:
        term.expect(None, seconds=0.5)  # keep reading the screen while the bot answers
    assert json.loads(record.read_text())["moves"][0] == "advance"
    assert len(json.loads(record.read_text())["moves"]) == 2  # saved before quitting: the bot's answer too
    mark = term.type("q")
    assert term.expect("Quit the game?", since=mark) and term.expect("saved in g.json", since=mark)
    term.type("y")
    shown, status = term.finish()
    assert status == 0 and "Traceback" not in shown
    assert "Game saved in g.json: go on with 'doodle patchwork play --resume g.json'" in shown


# ----- damaged records at --resume (issue 11 item 9) -----
def good_record() -> dict:
    game = Game.new(seed=8)
    game.play(ADVANCE)
    return game.to_record()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "not a JSON game record"),
        ('{"order": [1' + "0" * 5000 + "], \"moves\": []}", "not a JSON game record"),
        (json.dumps({**good_record(), "edition": []}), "'edition' is a name"),
        (json.dumps({**good_record(), "first": 0.0}), "'first' is the player who starts, 0 or 1, not 0.0"),
        (json.dumps({**good_record(), "first": True}), "'first' is the player who starts"),
        (json.dumps({**good_record(), "order": [True, 2, 0]}), "needs 'order'"),
        (json.dumps({**good_record(), "moves": [1]}), "move 1: 1 is not a move text"),
        (json.dumps({**good_record(), "moves": "advance"}), "'moves' must be a list"),
        (json.dumps({**good_record(), "version": 1.0}), "record version 1.0 is not supported"),
        (json.dumps({**good_record(), "players": [{"kind": "bot", "bot": "deep blue"}, {"kind": "human"}]}),
         "the bot is one of"),
        (json.dumps({**good_record(), "players": [{"kind": "bot", "bot": "mcts", "seconds": 1e300}, {}]}),
         "'seconds' is a time per move"),
        (json.dumps({**good_record(), "players": [{"kind": "human"}, {"kind": "robot"}]}), "'players' entry 2 is"),
        (json.dumps({**good_record(), "players": [{"kind": "bot", "bot": "random"}] * 2}), "at least one seat"),
        (json.dumps({**good_record(), "seed": "1"}), "'seed' is a whole number"),
        (json.dumps({**good_record(), "start": 5}), "'start' is a position text"),
        (json.dumps({**good_record(), "scores": [[[[1]]]]}), "the record says scores"),
        ("\ufeff" + json.dumps({**good_record(), "moves": ["²"]}), "move 1 .* does not replay"),
        ("x" * (2 << 20), "larger than 1 MB"),
        ("", "not a JSON game record"),
    ],
)  # fmt: skip
def test_a_damaged_record_at_resume_gets_a_message_not_a_traceback(tmp_path, content, message):
    path = tmp_path / "g.json"
    path.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(main, ["patchwork", "play", "--plain", "--resume", str(path)], input="quit\n")
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "g.json" in result.output
    assert re.search(message, result.output), result.output


def test_resume_reads_a_stream_with_a_size_cap(tmp_path):
    result = CliRunner().invoke(main, ["patchwork", "play", "--plain", "--resume", "/dev/zero"])
    assert result.exit_code == 1 and "larger than 1 MB" in result.output


# ----- the record keeps the players (issue 12 item 2) -----
def play_cli(*args: str, input: str = "quit\n"):
    return CliRunner().invoke(main, ["patchwork", "play", "--plain", *args], input=input)


def test_resume_goes_on_with_the_recorded_players(tmp_path):
    path = tmp_path / "g.json"
    result = play_cli("--second", "--vs", "greedy", "--seed", "6", "--record", str(path), input="advance\nquit\n")
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    assert record["players"] == [{"kind": "bot", "bot": "greedy"}, {"kind": "human"}] and record["seed"] == 6
    played = len(record["moves"])
    assert played >= 2  # greedy moved first, then the person
    result = play_cli("--resume", str(path), input="advance\nquit\n")
    assert result.exit_code == 0, result.output
    assert "player 1 (greedy) plays" in result.output and "player 2 (you)" in result.output
    again = json.loads(path.read_text())
    assert again["players"] == record["players"] and again["moves"][:played] == record["moves"]
    assert len(again["moves"]) > played
    mcts = tmp_path / "m.json"
    assert play_cli("--vs", "mcts", "--seconds", "0.05", "--record", str(mcts)).exit_code == 0
    seats = json.loads(mcts.read_text())["players"]
    assert seats == [{"kind": "human"}, {"kind": "bot", "bot": "mcts", "seconds": 0.05}]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--vs", "mcts"], "--vs mcts (the record's opponent is greedy)"),
        (["--vs", "human"], "--vs human"),
        (["--second"], "--second (you are player 1 in the record)"),
        (["--seconds", "3"], "--seconds 3 (the record's bot is the greedy bot)"),
        (["--seed", "7"], "--seed 7 (the record has seed 6"),
        (["--edition", "original"], "--edition original (the record is the current edition)"),
    ],
)
def test_options_that_contradict_the_record_are_refused(tmp_path, options, message):
    path = tmp_path / "g.json"
    assert play_cli("--vs", "greedy", "--seed", "6", "--record", str(path), input="advance\nquit\n").exit_code == 0
    before = path.read_text()
    result = play_cli("--resume", str(path), *options)
    assert result.exit_code == 2 and message in result.output, result.output
    assert "contradict" in result.output and path.read_text() == before
    agreeing = play_cli("--resume", str(path), "--vs", "greedy", "--seed", "6", "--edition", "current")
    assert agreeing.exit_code == 0, agreeing.output


def test_an_old_record_without_players_loads_and_says_what_is_assumed(tmp_path):
    path = tmp_path / "old.json"
    record = good_record()
    path.write_text(json.dumps(record))
    result = play_cli("--resume", str(path), "--vs", "random")
    assert result.exit_code == 0, result.output
    assert "does not say who plays" in result.output and "the random bot" in result.output
    assert json.loads(path.read_text())["players"] == [{"kind": "human"}, {"kind": "bot", "bot": "random"}]


# ----- the full-screen game asks before quitting (issue 12 item 2) -----
def test_q_in_the_full_screen_game_asks_first_and_every_move_is_saved():
    game = Game.new(seed=5)
    saved: list[int] = []
    app = PatchworkApp(game, [None, GreedyBot()], ["you", "greedy"],
                       on_change=lambda g: saved.append(len(g.move_stack)), record_name="g.json")  # fmt: skip
    exits: list[bool] = []
    app.exit = lambda *args, **kwargs: exits.append(True)  # type: ignore[method-assign]

    async def go() -> None:
        async with app.run_test(size=(110, 45)) as pilot:
            await pilot.press("a")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert saved[:2] == [1, 2]
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit) and "saved in g.json" in app.screen.text
            await pilot.press("n")
            await pilot.pause()
            assert not exits and not isinstance(app.screen, ConfirmQuit)
            await pilot.press("q")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()

    asyncio.run(go())
    assert exits == [True]


def test_q_without_a_record_warns_that_the_game_will_be_lost():
    app = PatchworkApp(Game.new(seed=5), [None, None], ["player 1", "player 2"])

    async def go() -> None:
        async with app.run_test(size=(110, 45)) as pilot:
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit) and "will be lost" in app.screen.text

    asyncio.run(go())


# ----- the engine's shape (issue 16 items 2 and 5) -----
def test_every_patchwork_error_has_one_root_and_is_a_value_error():
    for name in ("IllegalMoveError", "MoveSyntaxError", "NotationError", "PatchworkRecordError"):
        error = getattr(doodle.patchwork, name)
        assert issubclass(error, PatchworkError) and issubclass(error, ValueError)
    assert not hasattr(doodle.patchwork, "RecordError")  # the name is doodle.game's alone
    assert PatchworkRecordError is not doodle.game.RecordError
    with pytest.raises(PatchworkError):
        Game.from_record([])


def test_repr_is_one_line_that_reads_back():
    game = waiting_leather()
    game.play(leather_move(4, 4))
    text = repr(game)
    assert "\n" not in text and text.startswith("Game.from_notation(")
    assert eval(text, {"Game": Game}) == game  # noqa: S307
