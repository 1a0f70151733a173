"""Rules as data: the rank table of every rule set, jokers, dead-queen, names and errors.

The expected answers come from tests/rank_table.py (docs/rules.md written out by hand),
never from golfstats.rules itself.
"""

from __future__ import annotations

import itertools

import pytest
from rank_table import KING, QUEEN, RANKS, after_joker, follows, joker_may_follow, king_rule_of

from golfstats.cards import JOKER_KIND
from golfstats.engine import Top
from golfstats.rules import (
    ALIASES,
    OPTIONS,
    VARIANTS,
    Draw,
    Game,
    KingRule,
    Rules,
    RulesError,
    all_rule_sets,
    parse_variant,
    with_options,
)

RULE_SETS = all_rule_sets()
IDS = [r.id for r in RULE_SETS]


# ------------------------------------------------------------ the 13 x 13 table


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_every_rank_pair_follows_the_table(rules):
    """All 169 (top, card) pairs: Rules.may_follow and the engine's Top agree with docs/rules.md."""
    rule = king_rule_of(rules)
    for top, card in itertools.product(RANKS, RANKS):
        expected = follows(rule, top, card)
        assert rules.may_follow(top, card) == expected, (rules.id, top, card)
        engine_ok = Top.of_rank(top).after(rules, card) is not None
        # dead-queen only changes what goes on a Queen that was played on a King
        assert engine_ok == expected, (rules.id, top, card)


def test_table_has_the_documented_ends():
    """Spot checks straight from the docs/rules.md prose, so a typo in rank_table shows up."""
    strict, qok, putt = (parse_variant(v) for v in ("strict", "queens-on-kings", "putt-putt"))
    assert not any(strict.may_follow(KING, r) for r in RANKS)
    assert [r for r in RANKS if qok.may_follow(KING, r)] == [QUEEN]
    assert sorted(r for r in RANKS if putt.may_follow(KING, r)) == [1, QUEEN]
    assert sorted(r for r in RANKS if putt.may_follow(1, r)) == [2, KING]
    assert [r for r in RANKS if strict.may_follow(1, r)] == [2]
    assert strict.may_follow(QUEEN, KING)  # a King goes on a Queen, just nothing on a King
    assert strict.may_follow(6, 7) and strict.may_follow(7, 6) and not strict.may_follow(6, 8)


# ------------------------------------------------------------ jokers


@pytest.mark.parametrize("rules", [r for r in RULE_SETS if r.jokers], ids=lambda r: r.id)
def test_joker_on_every_top_and_what_follows_it(rules):
    rule = king_rule_of(rules)
    for top in RANKS:
        after = Top.of_rank(top).after(rules, JOKER_KIND)
        assert (after is not None) == joker_may_follow(rule, top), (rules.id, top)
        for card in RANKS:
            expected = after_joker(rule, top, card, rules.dead_queen)
            got = after is not None and after.after(rules, card) is not None
            assert got == expected, (rules.id, top, card)


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_any_rank_top(rules):
    """A joker turned from the stock, dealt as the first foundation card, or the empty
    foundation stands for any rank: a card may follow when it may go on *some* rank."""
    rule = king_rule_of(rules)
    expected = [x for x in RANKS if any(follows(rule, r, x) for r in RANKS)]
    for top in (Top.drawn(JOKER_KIND), Top.any()):
        assert [x for x in RANKS if top.after(rules, x) is not None] == expected, rules.id
        assert top.after(rules, JOKER_KIND) is not None
    assert expected == list(RANKS), "every rank has a rank it may go on"


def test_joker_not_on_a_king_under_strict():
    rules = parse_variant("strict+jokers1")
    assert Top.of_rank(KING).after(rules, JOKER_KIND) is None
    assert Top.of_rank(QUEEN).after(rules, JOKER_KIND) is not None


def test_two_jokers_in_a_row():
    """Joker on 5 (stands for 4 or 6), joker on that (3, 5 or 7): then 2, 4, 6 or 8."""
    rules = parse_variant("strict+jokers2")
    two = Top.of_rank(5).after(rules, JOKER_KIND).after(rules, JOKER_KIND)
    assert sorted(r for r in RANKS if two.after(rules, r) is not None) == [2, 4, 6, 8]


# ------------------------------------------------------------ dead-queen


def test_dead_queen_accepts_nothing():
    dead = parse_variant("queens-on-kings+dead-queen")
    live = parse_variant("queens-on-kings")
    for rules, expected in ((dead, []), (live, [11, KING])):
        queen = Top.of_rank(KING).after(rules, QUEEN)
        assert queen is not None, "a Queen still goes on a King"
        assert [r for r in RANKS if queen.after(rules, r) is not None] == expected, rules.id


def test_dead_queen_only_on_a_king():
    rules = parse_variant("queens-on-kings+dead-queen")
    on_jack = Top.of_rank(11).after(rules, QUEEN)
    assert sorted(r for r in RANKS if on_jack.after(rules, r) is not None) == [11, KING]
    turned = Top.drawn(QUEEN)  # a Queen from the stock was not played on a King
    assert sorted(r for r in RANKS if turned.after(rules, r) is not None) == [11, KING]


def test_dead_queen_with_jokers():
    rules = parse_variant("queens-on-kings+jokers2+dead-queen")
    # a joker on a King can only be a Queen there: dead, so not even a joker follows
    on_king = Top.of_rank(KING).after(rules, JOKER_KIND)
    assert on_king is not None
    assert all(on_king.after(rules, x) is None for x in (JOKER_KIND, *RANKS))
    # a Queen played on a joker that stands for J or K takes the live meaning (on the Jack)
    joker_on_queen = Top.of_rank(QUEEN).after(rules, JOKER_KIND)  # J or K
    queen = joker_on_queen.after(rules, QUEEN)
    assert sorted(r for r in RANKS if queen.after(rules, r) is not None) == [11, KING]


# ------------------------------------------------------------ names


def test_all_rule_sets_is_the_full_product():
    expected = set()
    for king in ("strict", "queens-on-kings", "putt-putt"):
        for jokers, empty, stuck in itertools.product((0, 1, 2), (False, True), (False, True)):
            for dead in ((False, True) if king == "queens-on-kings" else (False,)):
                expected.add((king, jokers, empty, stuck, dead))
    got = {(r.king.value, r.jokers, r.empty_start, r.draw is Draw.WHEN_STUCK, r.dead_queen)
           for r in RULE_SETS if r.game is Game.GOLF}
    assert got == expected
    assert len(RULE_SETS) == len(expected) + 2 == 50
    assert {r.game for r in RULE_SETS if r.game is not Game.GOLF} == {Game.BLACK_HOLE,
                                                                       Game.ALL_IN_A_ROW}
    assert len(set(IDS)) == len(IDS), "canonical ids are unique"


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_canonical_id_round_trips(rules):
    assert parse_variant(rules.id) == rules
    assert parse_variant(rules.id.upper()).id == rules.id
    assert str(rules) == rules.id


@pytest.mark.parametrize(("alias", "base"), [
    ("golf-a", "strict"), ("dead-king", "strict"), ("golf-b", "queens-on-kings"),
    ("golf-c", "putt-putt"), ("wrap", "putt-putt"), ("relaxed", "putt-putt"),
])
def test_aliases(alias, base):
    assert parse_variant(alias).id == base
    assert parse_variant(f"{alias}+jokers2+empty-start").id == f"{base}+jokers2+empty-start"
    assert ALIASES[alias] == base


@pytest.mark.parametrize(("alias", "base"), [
    ("hard", "strict"), ("medium", "queens-on-kings"), ("easy", "putt-putt")])
def test_retired_aliases_name_their_replacement(alias, base):
    """hard, medium and easy are course --difficulty bands, not variants (one meaning per word)."""
    with pytest.raises(RulesError, match=f"alias '{alias}' is retired.*write {base}$"):
        parse_variant(f"{alias}+jokers1")
    assert alias not in ALIASES


@pytest.mark.parametrize(("text", "canonical"), [
    ("putt-putt+jokers=2+empty-start", "putt-putt+jokers2+empty-start"),
    ("queens-on-kings+draw=when-stuck+dead-queen", "queens-on-kings+when-stuck+dead-queen"),
    ("queens-on-kings+dead-queen+when-stuck", "queens-on-kings+when-stuck+dead-queen"),
    ("strict+jokers0", "strict"),
    ("strict+any-time", "strict"),
    (" Strict + Jokers1 ", "strict+jokers1"),
])
def test_option_spellings(text, canonical):
    assert parse_variant(text).id == canonical


def test_layouts_and_decks():
    golf = parse_variant("strict")
    assert (golf.layout.columns, golf.layout.height, golf.stock_size, len(golf.deck)) == (7, 5, 16, 52)
    assert parse_variant("strict+jokers2").stock_size == 18
    assert parse_variant("strict+jokers1+empty-start").stock_size == 18
    hole = parse_variant("black-hole")
    assert (hole.layout.columns, hole.layout.height, hole.stock_size, len(hole.deck)) == (17, 3, 0, 51)
    assert 3 * 13 not in hole.deck  # the Ace of spades starts the foundation
    row = parse_variant("all-in-a-row")
    assert (row.layout.columns, row.layout.height, row.stock_size, len(row.deck)) == (13, 4, 0, 52)


def test_with_options_overrides_and_validates():
    base = parse_variant("queens-on-kings")
    assert with_options(base, jokers=2, draw="when-stuck").id == "queens-on-kings+jokers2+when-stuck"
    assert with_options(base).id == base.id
    with pytest.raises(RulesError):
        with_options(parse_variant("strict"), dead_queen=True)


# ------------------------------------------------------------ errors


def test_unknown_variant_lists_what_exists():
    with pytest.raises(RulesError) as err:
        parse_variant("mini-golf")
    message = str(err.value)
    assert "mini-golf" in message
    for name in (*VARIANTS, *ALIASES):
        assert name in message


def test_unknown_option_lists_the_options():
    with pytest.raises(RulesError) as err:
        parse_variant("strict+mulligan")
    message = str(err.value)
    assert "mulligan" in message
    for option in OPTIONS:
        assert option in message


@pytest.mark.parametrize(("text", "words"), [
    ("strict+dead-queen", ["dead-queen", "queens-on-kings"]),
    ("putt-putt+dead-queen", ["dead-queen", "queens-on-kings"]),
    ("strict+jokers3", ["0, 1 or 2"]),
    ("strict+jokers=-1", ["0, 1 or 2"]),
    ("black-hole+jokers1", ["black-hole", "golf only"]),
    ("all-in-a-row+empty-start", ["all-in-a-row", "golf only"]),
    ("black-hole+when-stuck", ["golf only"]),
    ("strict+draw=sometimes", ["unknown option"]),
])
def test_impossible_combinations(text, words):
    with pytest.raises(RulesError) as err:
        parse_variant(text)
    for word in words:
        assert word in str(err.value)


def test_make_validates():
    with pytest.raises(RulesError):
        Rules.make(king=KingRule.PUTT_PUTT, dead_queen=True)
    with pytest.raises(RulesError):
        Rules.make(game=Game.BLACK_HOLE, king=KingRule.STRICT)
    assert Rules.make(king=KingRule.QUEENS_ON_KINGS, dead_queen=True).id == "queens-on-kings+dead-queen"
