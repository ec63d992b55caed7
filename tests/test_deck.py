import pytest

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
    binary.write_bytes(b"\xff\xfe\x00\x01")
    with pytest.raises(DeckError, match="cannot be read as text"):
        load_deck(binary)


def test_too_few_start_cards_for_players():
    deck = parse_deck('[[start]]\nid = "S1"\nshape = "#"\n' + GOOD_PATCHES)
    deck.check_players(1)
    with pytest.raises(DeckError, match="1 start cards, too few for 2 players"):
        deck.check_players(2)
