"""The table's save file: written in the background in the order of the steps, failures reported, and a save
that does not replay refused with a message."""

import json
import threading

import pytest

from doodle.files import write_atomic
from doodle.game.deck import load_deck
from doodle.table.save import BackgroundSaver, TableSaveError, read_save
from doodle.table.session import TableSession


def test_the_newest_step_is_on_disk_after_close(tmp_path):
    path = tmp_path / "table.json"
    saver = BackgroundSaver(path)
    session = TableSession.new(load_deck(), players=2, seed=5)
    session.start()
    for seat in session.seats * 3:
        if session.step < 10:
            session.set_done(seat.id, session.step)
        saver.save(session)
    saver.close()
    saved = read_save(path).session
    assert saved.events == session.events and saved.done == session.done


def test_a_failed_write_is_raised_by_the_next_save(tmp_path, monkeypatch):
    path = tmp_path / "table.json"
    saver = BackgroundSaver(path)
    session = TableSession.new(load_deck(), players=1)
    written = threading.Event()

    def full_disk(target, text):
        written.set()
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("doodle.table.save.write_atomic", full_disk)
    saver.save(session)
    assert written.wait(5)
    with pytest.raises(OSError, match="No space"):
        saver.close()
    monkeypatch.setattr("doodle.table.save.write_atomic", write_atomic)
    saver.save(session)
    saver.close()
    assert read_save(path).session.room_code == session.room_code


@pytest.mark.parametrize("text,message", [
    ("{", "not valid JSON"),
    ('{"format": "doodle-solo-save/1"}', "not a doodle-table-save/1"),
    ('{"format": "doodle-table-save/1", "table": {"seats": []}}', "another deck"),
    (b"\xff\xfe\x00", "UTF"),
    ('{"format": "doodle-table-save/1", "seed": ' + "9" * 5000 + "}", "a huge number or deep nesting"),
    ("[" * 100_000 + "]" * 100_000, "a huge number or deep nesting"),
])
def test_a_save_that_cannot_be_used_is_refused_with_a_reason(tmp_path, text, message):
    path = tmp_path / "table.json"
    (path.write_bytes if isinstance(text, bytes) else path.write_text)(text)
    with pytest.raises(TableSaveError, match=message):
        read_save(path)


def test_a_save_whose_deal_was_changed_does_not_replay(tmp_path):
    path = tmp_path / "table.json"
    saver = BackgroundSaver(path)
    session = TableSession.new(load_deck(), players=2, seed=5)
    session.start()
    saver.save(session)
    saver.close()
    data = json.loads(path.read_text())
    data["table"]["seed"] = 6
    path.write_text(json.dumps(data))
    with pytest.raises(TableSaveError, match="not what seed 6 deals"):
        read_save(path)
