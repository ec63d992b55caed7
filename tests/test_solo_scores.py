"""The high-score table (ranks, ties, per-seed ranks, one row per game) and damaged databases."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doodle.solo.scores import Rank, ScoreBook, ScoreEntry, ScoresCorrupt


def entry(game_id: str, total: int, seed: int = 1, name: str = "ann", played_at: str = "2026-11-29T10:00:00",
          deck: str | None = None, deck_id: str | None = None):
    return ScoreEntry(game_id, name, total, seed, None, (10, 20, 30), 60 - total, None, None, played_at, deck,
                      deck_id)


def test_ranks_share_places_on_ties_and_count_per_seed(tmp_path):
    with ScoreBook(tmp_path / "s.db") as book:
        for game_id, total, seed in [("a", 90, 1), ("b", 110, 2), ("c", 90, 2), ("d", 70, 1)]:
            book.add(entry(game_id, total, seed))
        assert book.rank(110) == Rank(1, 4)
        assert book.rank(90) == Rank(2, 4)  # a and c share second place
        assert book.rank(70) == Rank(4, 4)
        assert book.rank(90, seed=1) == Rank(1, 2)
        assert book.rank(90, seed=2) == Rank(2, 2)
        assert [e.game_id for e in book.top()] == ["b", "a", "c", "d"]
        assert [e.game_id for e in book.top(2, seed=1)] == ["a", "d"]
        assert book.get("b").round_scores == (10, 20, 30)
        assert book.count() == 4


def test_the_same_game_is_recorded_once(tmp_path):
    with ScoreBook(tmp_path / "s.db") as book:
        book.add(entry("same", 80))
        book.add(entry("same", 80))
        assert book.rank(0).of == 1


@settings(max_examples=12)
@given(st.lists(st.integers(-81, 200), min_size=1, max_size=8), st.integers(-81, 200))
def test_rank_is_one_plus_the_number_of_better_games(tmp_path_factory, totals, mine):
    path = tmp_path_factory.mktemp("scores") / "s.db"
    with ScoreBook(path) as book:
        for index, total in enumerate(totals):
            book.add(entry(f"g{index}", total))
        assert book.rank(mine) == Rank(1 + sum(total > mine for total in totals), len(totals))
        assert [e.total for e in book.top(len(totals))] == sorted(totals, reverse=True)


def test_scores_survive_reopening(tmp_path):
    path = tmp_path / "deep" / "dir" / "s.db"
    with ScoreBook(path) as book:
        book.add(entry("x", 101))
    with ScoreBook(path) as book:
        assert book.top()[0].total == 101


@pytest.mark.parametrize("content", [b"not a database at all" * 50, b"SQLite format 3\x00" + b"\xff" * 2000])
def test_a_damaged_file_is_reported_as_corrupt(tmp_path, content):
    path = tmp_path / "s.db"
    path.write_bytes(content)
    with pytest.raises(ScoresCorrupt):
        ScoreBook(path)
    assert path.read_bytes() == content  # never overwritten


def test_another_programs_database_is_not_taken_over(tmp_path):
    path = tmp_path / "s.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    db.close()
    with pytest.raises(ScoresCorrupt, match="not a doodle score table"):
        ScoreBook(path)
    with sqlite3.connect(path) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    db.close()
    assert tables == ["recipes"]


def test_the_high_scores_set_a_damaged_file_aside_but_leave_another_programs_database_alone(tmp_path):
    from click.testing import CliRunner

    from doodle.cli import main

    notes = tmp_path / "notes.txt"
    notes.write_text("not a database")
    result = CliRunner().invoke(main, ["solo", "--high-scores", "--scores", str(notes)])
    assert result.exit_code == 0, result.output
    [aside] = tmp_path.glob("notes.txt.corrupt-*")
    assert aside.read_text() == "not a database"  # moved, never overwritten
    assert f"it was moved to {aside}" in result.output and "none yet" in result.output
    recipes = tmp_path / "recipes.db"
    with sqlite3.connect(recipes) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    db.close()
    foreign = CliRunner().invoke(main, ["solo", "--high-scores", "--scores", str(recipes)])
    assert foreign.exit_code == 1 and "not a doodle score table: give doodle's own with --scores" in foreign.output
    assert not list(tmp_path.glob("recipes.db.*"))


def test_a_rank_on_one_seed_counts_only_games_dealt_from_the_same_deck(tmp_path):
    with ScoreBook(tmp_path / "s.db") as book:
        book.add(entry("a", 100, seed=3, deck="Patchwork Doodle", deck_id="bundled"))
        book.add(entry("b", 120, seed=3, deck="Patchwork Doodle", deck_id="edited"))  # a copy that kept the name
        book.add(entry("c", 90, seed=3, deck="Patchwork Doodle", deck_id="bundled"))
        assert book.rank(95, seed=3, deck_id="bundled") == Rank(2, 2)
        assert book.rank(95, seed=3, deck_id="edited") == Rank(2, 1)
        assert book.rank(95) == Rank(3, 3)  # over all games, whatever the deck
        assert (book.get("b").deck, book.get("b").deck_id) == ("Patchwork Doodle", "edited")


def test_a_version_1_table_is_upgraded_in_place_and_keeps_its_games(tmp_path):
    path = tmp_path / "s.db"
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE scores (game_id TEXT PRIMARY KEY, name TEXT NOT NULL, total INTEGER NOT NULL, "
            "seed INTEGER NOT NULL, daily TEXT, round_scores TEXT NOT NULL, empty INTEGER NOT NULL, par INTEGER, "
            "par_bot TEXT, played_at TEXT NOT NULL); PRAGMA user_version = 1;"
        )
        db.execute("INSERT INTO scores VALUES ('old', 'bo', 80, 3, NULL, '[10, 20, 50]', 0, NULL, NULL, '2026-01-01')")
    db.close()
    with ScoreBook(path) as book:
        assert book.get("old") == ScoreEntry("old", "bo", 80, 3, None, (10, 20, 50), 0, None, None, "2026-01-01")
        book.add(entry("new", 90, seed=3, deck="Patchwork Doodle", deck_id="bundled"))
        assert book.rank(90, seed=3, deck_id="bundled") == Rank(1, 1)  # the old game's deck is unknown
        assert book.rank(90) == Rank(1, 2)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    db.close()
    with ScoreBook(path) as book:  # and opens again as it is now
        assert book.count() == 2


def test_the_high_score_table_names_a_deck_other_than_the_bundled_one():
    from doodle.game.deck import bundled_deck
    from doodle.solo.finish import score_table

    bundled = bundled_deck()
    rows = score_table([entry("a", 100, deck="my cards", deck_id="f00d"),
                        entry("b", 90, deck=bundled.name, deck_id=bundled.fingerprint),
                        entry("c", 80), entry("d", 70, deck=bundled.name, deck_id="beef")])
    assert "deck my cards #f00d" in rows[0]
    assert "deck" not in rows[1] and "deck" not in rows[2]
    assert f"deck {bundled.name} #beef" in rows[3]  # an edited copy of the bundled deck, under its name


def test_a_decks_fingerprint_follows_its_cards_not_its_name():
    import dataclasses

    from doodle.game.deck import Card, bundled_deck
    from doodle.geometry import Polyomino

    bundled = bundled_deck()
    renamed = dataclasses.replace(bundled, name="my cards")
    first = bundled.patch_cards[0]
    edited = dataclasses.replace(bundled, patch_cards=(Card(first.id, Polyomino.from_text("##/##")),
                                                       *bundled.patch_cards[1:]))
    reordered = dataclasses.replace(bundled, patch_cards=bundled.patch_cards[::-1])
    assert renamed.fingerprint == bundled.fingerprint
    assert len({bundled.fingerprint, edited.fingerprint, reordered.fingerprint}) == 3
