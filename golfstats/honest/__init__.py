"""Perfect play without peeking (docs/honest-play.md): the value of a position for a player
who sees everything but the stock's order, and what is built on it.

The face: ``odds`` (one frozen ``Odds`` of a board: its ``Value``, each legal move's
``MoveValue``, the named ``Stats`` and, when kept, the ``Table``); ``Table``, one deal's
kept values, which answers the engine's ``Position``s of the deal (``value``,
``draw_value``) and plays any stock order out (``play``); ``play_orders`` and
``play_optimal``, the ``optimal`` policy's play-outs; ``review``, a played game against
the optimum; ``honest_hint``.  Inside: ``solve`` (the compiled passes sequenced), ``memory``
(the budget), ``layer_files`` (the value pass's layers on disk), ``positions`` (mid-game
positions of a deal).  The compiled insides are ``golfstats.kernels.honest``; callers
never reach past this package into them.
"""

from golfstats.honest.hint import HonestHint, honest_hint
from golfstats.honest.memory import DEFAULT_MAX_BYTES, resident
from golfstats.honest.odds import Odds, load_kernels, odds
from golfstats.honest.optimal import OptimalPlay, OrdersPlay, play_optimal, play_orders
from golfstats.honest.review import Game, GameError, MoveReview, Review, game_from_record, review
from golfstats.honest.table import Keep, Table
from golfstats.honest.value import MoveValue, Stats, Value

__all__ = ["DEFAULT_MAX_BYTES", "Game", "GameError", "HonestHint", "Keep", "MoveReview",
           "MoveValue", "Odds", "OptimalPlay", "OrdersPlay", "Review", "Stats", "Table", "Value",
           "game_from_record", "honest_hint", "load_kernels", "odds", "play_optimal",
           "play_orders", "resident", "review"]
