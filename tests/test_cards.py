"""Cards: ids, text, ranks; and the docs/rules.md table walked with real cards through the engine.

Expected answers come from tests/rank_table.py (docs/rules.md written out by hand).
"""

from __future__ import annotations

import itertools

import pytest
from rank_table import RANKS, after_joker, follows, joker_may_follow, king_rule_of

from golfstats.cards import (
    JOKER_KIND,
    JOKERS,
    CardError,
    card,
    deck,
    format_card,
    format_rank,
    is_joker,
    kind,
    parse_card,
    pretty_card,
    suit_letter,
)
from golfstats.engine import DRAW, Position, apply, legal_moves, start_position
from golfstats.rules import all_rule_sets

RULE_SETS = all_rule_sets()
IDS = [r.id for r in RULE_SETS]


def test_every_card_round_trips_through_text():
    for c in range(52):
        assert parse_card(format_card(c)) == c
        assert parse_card(format_card(c).lower()) == c
    assert [format_card(c) for c in deck(2)][-3:] == ["KS", "JK", "JK"]
    assert parse_card("JK") == JOKERS[0]


def test_card_ids_ranks_and_suits():
    assert card(12, 1) == parse_card("QD")
    assert kind(parse_card("AC")) == 1 and kind(parse_card("KS")) == 13
    assert kind(JOKERS[1]) == JOKER_KIND and is_joker(JOKERS[1]) and not is_joker(51)
    assert {kind(c) for c in range(52)} == set(RANKS)
    assert sorted(suit_letter(c) for c in range(52)) == sorted("CDHS" * 13)
    assert [format_rank(r) for r in RANKS] == list("A23456789TJQK")
    assert format_rank(JOKER_KIND) == "JK"


@pytest.mark.parametrize(("text", "expected"), [("10H", "TH"), ("th", "TH"), (" 5c ", "5C"),
                                                ("joker", "JK"), ("jo", "JK")])
def test_card_spellings(text, expected):
    assert format_card(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["", "1H", "11S", "QX", "Q", "QDX", "ZZ", "♠A"])
def test_bad_card_text(text):
    with pytest.raises(CardError) as err:
        parse_card(text)
    assert repr(text) in str(err.value)


def test_pretty_card():
    assert pretty_card(parse_card("TD")) == "10\u2666"
    assert pretty_card(parse_card("QD"), colour=True) == "[red]Q\u2666[/]"
    assert pretty_card(parse_card("QS"), colour=True) == "Q\u2660"
    assert "JK" in pretty_card(JOKERS[0], colour=True)


def test_deck():
    assert deck() == tuple(range(52))
    assert len(deck(1)) == 53 and len(set(deck(2))) == 54


# ---------------------------------------------- the rank table with real cards


def _plays(rules, top_card, column):
    """Columns playable in a position with one column ``column`` and ``top_card`` on top."""
    pos = start_position([column], [parse_card("5S")], top_card)
    return [m for m in legal_moves(rules, pos) if m != DRAW]


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_rank_table_with_cards_of_every_suit(rules):
    """13 x 13 pairs, the top and the card in suits that differ (suits never matter)."""
    rule = king_rule_of(rules)
    for (top, x), (s1, s2) in itertools.product(itertools.product(RANKS, RANKS), [(0, 3), (2, 1)]):
        got = bool(_plays(rules, card(top, s1), [card(x, s2)]))
        assert got == follows(rule, top, x), (rules.id, top, x)


@pytest.mark.parametrize("rules", [r for r in RULE_SETS if r.jokers], ids=lambda r: r.id)
def test_jokers_with_cards(rules):
    """Joker on a card; a card after that joker; a joker as the first foundation card."""
    rule = king_rule_of(rules)
    for top in RANKS:
        pos = start_position([[card(x, 0) for x in RANKS] + [JOKERS[0]]], [], card(top, 2))
        joker_ok = 0 in legal_moves(rules, pos)
        assert joker_ok == joker_may_follow(rule, top), (rules.id, top)
        if not joker_ok:
            continue
        after = apply(rules, pos, 0)
        for x in RANKS:
            nxt = Position(((card(x, 1),),), (), after.top, JOKERS[0])
            assert (0 in legal_moves(rules, nxt)) == after_joker(rule, top, x, rules.dead_queen)
    for x in (*RANKS, JOKER_KIND):
        c = JOKERS[1] if x == JOKER_KIND else card(x, 3)
        assert _plays(rules, JOKERS[0], [c]) == [0], "a dealt joker on the foundation is any rank"


@pytest.mark.parametrize("rules", [r for r in RULE_SETS if r.jokers], ids=lambda r: r.id)
def test_joker_turned_from_the_stock_is_any_rank(rules):
    for x in RANKS:
        # a card of the same rank on top (a rank never goes on itself), then the joker is turned
        pos = start_position([[card(x, 0)]], [JOKERS[0]], card(x, 1))
        assert legal_moves(rules, pos) == [DRAW]
        pos = apply(rules, pos, DRAW)
        assert 0 in legal_moves(rules, pos), (rules.id, x)


def test_dead_queen_with_cards():
    from golfstats.rules import parse_variant

    for name, expected in (("queens-on-kings+dead-queen", [DRAW]),
                           ("queens-on-kings", [1, 2, DRAW])):
        rules = parse_variant(name)
        pos = start_position([[parse_card("QH")], [parse_card("JD")], [parse_card("KC")]],
                             [parse_card("2S")], parse_card("KS"))
        assert legal_moves(rules, pos) == [0, DRAW]
        assert legal_moves(rules, apply(rules, pos, 0)) == expected, name
