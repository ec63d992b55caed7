"""`doodle table` on the command line: clear refusals, and a real server that is stopped and resumed with the same
seats and room code."""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest
from click.testing import CliRunner

from doodle.cli import main
from doodle.game.deck import load_deck
from doodle.table.save import TableSave, write_save
from doodle.table.session import TableSession

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return CliRunner().invoke(main, ["table", "--no-browser", *args])


def started_save(path, players=2):
    session = TableSession.new(load_deck(), players=players, seed=3)
    session.start()
    write_save(path, TableSave(session))
    return session


def test_help_names_the_options():
    result = CliRunner().invoke(main, ["table", "--help"])
    assert result.exit_code == 0
    for option in ("--players", "--seed", "--deck", "--port", "--host", "--no-browser", "--resume", "--save"):
        assert option in result.output


def test_resume_without_a_save_says_how_to_start(tmp_path):
    result = run("--resume", "--save", str(tmp_path / "none.json"))
    assert result.exit_code == 1 and "no saved table game" in result.output and "Traceback" not in result.output


def test_resume_takes_no_new_game_options(tmp_path):
    result = run("--resume", "--players", "3", "--save", str(tmp_path / "x.json"))
    assert result.exit_code == 2 and "--resume continues" in result.output


@pytest.mark.parametrize("args,message", [
    (("Ann", "ann"), "already at the table"),
    (("Ann", "--players", "2"), "either player names or --players"),
    (("A", "B", "C", "D", "E", "F", "G"), "at most 6 players"),
    (("",), "type a name"),
])
def test_bad_names_are_usage_errors(tmp_path, args, message):
    result = run(*args, "--save", str(tmp_path / "x.json"))
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "x.json").exists()


def test_a_game_in_progress_is_never_replaced_without_new(tmp_path):
    path = tmp_path / "table.json"
    started_save(path)
    before = path.read_bytes()
    result = run("--save", str(path))
    assert result.exit_code == 1 and "--resume" in result.output and "--new" in result.output
    assert path.read_bytes() == before


def test_a_damaged_save_is_named_and_kept(tmp_path):
    path = tmp_path / "table.json"
    path.write_text("{ not json")
    result = run("--save", str(path))
    assert result.exit_code == 1 and "not valid JSON" in result.output and "--new" in result.output
    assert path.read_text() == "{ not json"
    result = run("--resume", "--save", str(path))
    assert result.exit_code == 1 and "not valid JSON" in result.output


def test_a_bad_deck_or_a_busy_port_is_a_clear_message(tmp_path):
    deck = tmp_path / "deck.toml"
    deck.write_text("name = 'x'\n")
    result = run("--deck", str(deck), "--save", str(tmp_path / "t.json"))
    assert result.exit_code == 1 and "[[start]]" in result.output
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = run("--host", "127.0.0.1", "--port", str(port), "--save", str(tmp_path / "t.json"))
    assert result.exit_code == 1 and "in use" in result.output and "--port" in result.output


def serve(*args):
    """`doodle table` in a child process; returns it and the lines it printed up to the host's address."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    child = subprocess.Popen([sys.executable, "-m", "doodle", "table", "--no-browser", "--host", "127.0.0.1",
                              "--port", "0", *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             env=env)
    lines = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith("The table (big screen):"):
            return child, "".join(lines)
    child.kill()
    pytest.fail("doodle table did not start:\n" + "".join(lines))


def stop(child):
    child.send_signal(signal.SIGINT)
    rest, _ = child.communicate(timeout=20)
    return child.returncode, rest


def test_serve_stop_and_resume_with_the_same_seats(tmp_path):
    path = tmp_path / "table.json"
    child, shown = serve("Ann", "Gran", "--seed", "8", "--save", str(path))
    base = re.search(r"big screen\): (http://127\.0\.0\.1:\d+)/host#key=", shown).group(1)
    room = re.search(r"type the room code (\S+)", shown).group(1)
    room = re.sub(r"\x1b\[[0-9;]*m", "", room)
    assert json.loads(path.read_text())["table"]["room_code"] == room  # saved from the start
    joined = httpx2.post(f"{base}/api/join", json={"name": "Ann", "room": room}).json()
    assert joined["name"] == "Ann"
    code, rest = stop(child)
    assert code == 0 and "--resume" in rest
    saved = json.loads(path.read_text())
    assert [(seat["name"], bool(seat["token_hash"])) for seat in saved["table"]["seats"]] == [
        ("Ann", True), ("Gran", False)]

    child, shown = serve("--resume", "--save", str(path))
    try:
        base = re.search(r"big screen\): (http://127\.0\.0\.1:\d+)/host#key=", shown).group(1)
        assert room in shown  # the same room code: the QR codes and typed codes still work
        again = httpx2.post(f"{base}/api/join", json={"name": "Ann", "room": room})
        assert again.status_code == 409 and "joined already" in again.json()["error"]  # her phone keeps the seat
        bob = httpx2.post(f"{base}/api/join", json={"name": "Bob", "room": room}).json()
        assert bob["name"] == "Bob"
    finally:
        stop(child)
    saved = json.loads(path.read_text())
    assert [seat["name"] for seat in saved["table"]["seats"]] == ["Ann", "Gran", "Bob"]


def test_the_save_file_can_be_named_by_the_environment(tmp_path, monkeypatch):
    path = tmp_path / "elsewhere.json"
    monkeypatch.setenv("DOODLE_TABLE_SAVE", str(path))
    result = CliRunner().invoke(main, ["table", "--no-browser", "--resume"])
    assert result.exit_code == 1 and str(path) in result.output
