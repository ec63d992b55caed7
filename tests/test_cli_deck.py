import os

from click.testing import CliRunner

from doodle.cli import main
from doodle.game.deck import bundled_deck, load_deck


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_export_writes_the_bundled_deck_that_deal_then_plays(tmp_path):
    path = tmp_path / "my cards.toml"
    result = run("deck", "--export", str(path))
    assert result.exit_code == 0, result.output
    assert load_deck(path).fingerprint == bundled_deck().fingerprint
    assert "# Provenance" in path.read_text()  # the comments come along, to edit by
    assert f"doodle deck --check '{path}'" in result.output
    played = run("deal", "--auto", "--json", "--players", "2", "--seed", "5", "--deck", str(path))
    assert played.output == run("deal", "--auto", "--json", "--players", "2", "--seed", "5").output


def test_export_keeps_an_existing_file_unless_forced(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("my own cards")
    result = run("deck", "--export", str(path))
    assert result.exit_code == 1 and "already exists" in result.output and "--force" in result.output
    assert path.read_text() == "my own cards"
    assert run("deck", "--export", str(path), "--force").exit_code == 0
    assert load_deck(path).fingerprint == bundled_deck().fingerprint


def test_export_to_standard_output():
    result = run("deck", "--export", "-")
    assert result.exit_code == 0 and "[[patch]]" in result.output


def test_export_where_nothing_can_be_written(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        result = run("deck", "--export", str(folder / "cards.toml"))
    finally:
        folder.chmod(0o700)
    if os.geteuid() != 0:  # root writes anywhere
        assert result.exit_code == 1 and "cannot write" in result.output
    assert run("deck", "--export", str(folder)).exit_code == 2  # a folder is not a file name


def test_check_says_what_a_deck_holds_or_what_is_wrong(tmp_path):
    path = tmp_path / "cards.toml"
    run("deck", "--export", str(path))
    good = run("deck", "--check", str(path))
    assert good.exit_code == 0
    assert "is a good deck" in good.output and "10 start cards and 25 patch cards, for 1 to 6 players" in good.output
    path.write_text(path.read_text().replace('shape = "..#/.##/.#./###"', 'shape = "#.#"'))
    bad = run("deck", "--check", str(path))
    assert bad.exit_code == 1 and "S01: the shape '#.#' is not connected" in bad.output


def test_check_an_endless_file_and_a_missing_one(tmp_path):
    assert "larger than 1 MB" in run("deck", "--check", "/dev/zero").output
    assert "does not exist" in run("deck", "--check", str(tmp_path / "nope.toml")).output


def test_without_options_it_says_how_to_make_a_deck():
    result = run("deck")
    assert result.exit_code == 0 and "doodle deck --export my-cards.toml" in result.output
    assert run("deck", "--export", "a.toml", "--check", "b.toml").exit_code == 2
