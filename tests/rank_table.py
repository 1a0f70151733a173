"""The docs/rules.md "King and Ace rules" table, written out independently of golfstats.rules.

Shared by the tests: ``follows(king_rule, top, card)`` says whether a card of rank
``card`` may be played on a top card of rank ``top`` (1 = Ace .. 13 = King).
"""

from __future__ import annotations

ACE, QUEEN, KING = 1, 12, 13
RANKS = range(1, 14)

#: docs/rules.md, row by row: what may go on a King, what may go on an Ace.
ON_KING = {"strict": set(), "queens-on-kings": {QUEEN}, "putt-putt": {QUEEN, ACE}}
ON_ACE = {"strict": {2}, "queens-on-kings": {2}, "putt-putt": {2, KING}}


def king_rule_of(rules) -> str:
    """The king-rule column of docs/rules.md for a rule set: the games Black Hole and All in
    a Row wrap ranks (K-A adjacent), which is the putt-putt row."""
    if rules.game.value != "golf":
        return "putt-putt"
    return rules.king.value


def follows(king_rule: str, top: int, card: int) -> bool:
    """May ``card`` go on ``top``: one rank above or below, with the ends of the table."""
    if top == KING:
        return card in ON_KING[king_rule]
    if top == ACE:
        return card in ON_ACE[king_rule]
    return abs(top - card) == 1


def joker_may_follow(king_rule: str, top: int) -> bool:
    """A joker may go on ``top`` when some rank may."""
    return any(follows(king_rule, top, r) for r in RANKS)


def after_joker(king_rule: str, top: int, card: int, dead_queen: bool = False) -> bool:
    """After a joker played on ``top``, may ``card`` follow?  When it may go on some rank
    that may go on ``top``.  Under dead-queen, a joker standing for a Queen on a King
    is a dead Queen, which accepts nothing."""
    for r in RANKS:
        if not follows(king_rule, top, r):
            continue
        if dead_queen and top == KING and r == QUEEN:
            continue
        if follows(king_rule, r, card):
            return True
    return False
