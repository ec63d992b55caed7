import contextlib
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doodle.game.deck import DeckError, load_deck, parse_deck

GOOD_PATCHES = "".join(f'[[patch]]\nid = "X{i:02}"\nshape = "##"\n' for i in range(20))


def test_bundled_deck_matches_the_reference():
    deck = load_deck()
    assert len(deck.start_cards) == 10 and len(deck.patch_cards) == 25
    assert all(card.shape.size == 7 and card.shape.is_connected() for card in deck.start_cards)
    assert len({card.shape.canonical() for card in deck.start_cards}) == 10
    # 24 distinct shapes: the T-tetromino twice
    assert len({card.shape.canonical() for card in deck.patch_cards}) == 24
    assert deck.card("P13").shape.to_text() == "###/#.#"
    assert sorted(card.shape.size for card in deck.patch_cards)[:3] == [1, 2, 3]


def test_deck_file_round_trip(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text('name = "mine"\n[[start]]\nid = "S1"\nshape = "###/#.."\n' + GOOD_PATCHES)
    deck = load_deck(path)
    assert deck.name == "mine" and len(deck.patch_cards) == 20


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name = [", "not valid TOML"),
        (GOOD_PATCHES, "no \\[\\[start\\]\\] cards"),
        ('[[start]]\nid = "S1"\nshape = "#"\n[[patch]]\nid = "P1"\nshape = "#"\n', "has 1 \\[\\[patch\\]\\] cards"),
        ('[[start]]\nid = "S1"\nshape = "#.#"\n' + GOOD_PATCHES, "S1: the shape '#.#' is not connected"),
        ('[[start]]\nid = "S1"\nshape = "#####/#####"\n' + GOOD_PATCHES, "10 cells; at most 9"),
        ('[[start]]\nid = "S1"\nshape = "#x"\n' + GOOD_PATCHES, "unexpected character 'x'"),
        ('[[start]]\nshape = "#"\n' + GOOD_PATCHES, "needs an id"),
        ('[[start]]\nid = "X00"\nshape = "#"\n' + GOOD_PATCHES, "repeated: X00"),
    ],
)
def test_broken_decks_are_named(text, message):
    with pytest.raises(DeckError, match=message):
        parse_deck(text, "my.toml")


def test_missing_and_binary_files(tmp_path):
    with pytest.raises(DeckError, match="does not exist"):
        load_deck(tmp_path / "nope.toml")
    binary = tmp_path / "deck.toml"
    binary.write_bytes(b"\x80\x81\x00\x01")
    with pytest.raises(DeckError, match="is not text in UTF-8 or UTF-16"):
        load_deck(binary)


def test_a_deck_saved_with_a_byte_order_mark_loads(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_bytes(b"\xef\xbb\xbf" + ('name = "bom"\n[[start]]\nid = "S1"\nshape = "#"\n' + GOOD_PATCHES).encode())
    assert load_deck(path).name == "bom"


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_file_is_refused_at_its_cap():
    with pytest.raises(DeckError, match="deck file /dev/zero is larger than 1 MB"):
        load_deck("/dev/zero")


DEEP = 100_000


@pytest.mark.parametrize("nesting", ["a = " + "[" * DEEP + "]" * DEEP, "a = " + "{b = " * DEEP + "1" + "}" * DEEP])
def test_toml_nested_deeply_is_a_deck_error(nesting):
    with pytest.raises(DeckError, match="nests arrays or tables too deeply"):
        parse_deck(nesting, "deep.toml")


def test_a_number_thousands_of_digits_long_is_a_deck_error():
    """tomllib hands an integer over 4300 digits to int(), which refuses it with a ValueError (found by the CLI
    fuzz test: the bundled deck with every digit made 400 nines)."""
    with pytest.raises(DeckError, match="thousands of digits"):
        parse_deck("name = 'x'\nsize = " + "9" * 5000 + "\n")


def test_a_huge_shape_is_refused_by_its_size_before_anything_else():
    # before: the shape was built and walked for connectivity first (a 5-million-cell shape took 100 s)
    with pytest.raises(DeckError, match="S1: the shape has 100000 cells; at most 9"):
        parse_deck('[[start]]\nid = "S1"\nshape = "' + "#." * 100_000 + '"\n' + GOOD_PATCHES)


def test_a_large_deck_names_its_repeated_ids():
    cards = "".join(f'[[patch]]\nid = "C{i}"\nshape = "#"\n' for i in range(20_000))
    text = '[[start]]\nid = "C17"\nshape = "#"\n' + cards + '[[patch]]\nid = "C5"\nshape = "##"\n'
    with pytest.raises(DeckError, match="repeated: C17, C5$"):
        parse_deck(text)


def test_format_errors_say_how_to_get_a_copy_of_the_bundled_deck():
    with pytest.raises(DeckError) as error:
        parse_deck("name = [", "my.toml")
    assert "doodle deck --export" in str(error.value) and "doodle/data" not in str(error.value)


def test_too_few_start_cards_for_players():
    deck = parse_deck('[[start]]\nid = "S1"\nshape = "#"\n' + GOOD_PATCHES)
    deck.check_players(1)
    with pytest.raises(DeckError, match="1 start cards, too few for 2 players"):
        deck.check_players(2)


shape_texts = st.text(alphabet="#./ \n", max_size=40) | st.text(max_size=12)
toml_values = st.recursive(st.integers() | st.text(max_size=8) | st.booleans(),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                         max_size=3), max_leaves=8)


@given(st.text(max_size=300))
def test_any_text_is_a_deck_or_a_deck_error(text):
    with contextlib.suppress(DeckError):  # anything else (TypeError, RecursionError, ...) fails the test
        parse_deck(text, "fuzz.toml")


@given(st.lists(st.fixed_dictionaries({"id": st.text(max_size=4) | st.integers(), "shape": shape_texts | toml_values}),
                max_size=25),
       st.lists(st.fixed_dictionaries({"id": st.text(max_size=4), "shape": shape_texts}), max_size=25))
def test_any_cards_are_a_deck_or_a_deck_error_naming_the_file(starts, patches):
    text = "".join(f"[[start]]\nid = {json.dumps(card['id'])}\nshape = {json.dumps(card['shape'])}\n"
                   for card in starts)
    text += "".join(f"[[patch]]\nid = {json.dumps(card['id'])}\nshape = {json.dumps(card['shape'])}\n"
                    for card in patches)
    try:
        deck = parse_deck(text, "fuzz.toml")
    except DeckError as error:
        assert "fuzz.toml" in str(error)
    else:
        assert deck.start_cards and len(deck.patch_cards) >= 20
        assert all(1 <= card.shape.size <= 9 and card.shape.is_connected()
                   for card in deck.start_cards + deck.patch_cards)
