"""The 血战到底 table: a game engine for one hand (RULES.md section 10) with legal-action masks
over a fixed action space, observations, built-in players and batched self-play.

>>> from mjfast.table import Table, play_hand
>>> t = play_hand(Table(seed=1), ("efficient",) * 4, seed=1)
>>> t.is_over, int(t.scores.sum())
(True, 0)
"""

from mjfast.table.actions import (
    DISCARD,
    KONG_ADDED,
    KONG_CONCEALED,
    KONG_EXPOSED,
    NUM_ACTIONS,
    PASS,
    PUNG,
    VOID,
    WIN,
    IllegalActionError,
    action_name,
    parse_action,
)
from mjfast.table.batch import TableBatch
from mjfast.table.duplicate import DuplicateResult, duplicate
from mjfast.table.engine import MAX_TABLE_PLAYERS, Table
from mjfast.table.forecast_player import ForecastPlayer
from mjfast.table.observe import OBSERVATION_KEYS, Observation, observation
from mjfast.table.players import PLAYERS, Player, efficient_player, play_hand, random_player
from mjfast.table.selfplay import SelfPlayResult, selfplay

__all__ = ["DISCARD", "KONG_ADDED", "KONG_CONCEALED", "KONG_EXPOSED", "MAX_TABLE_PLAYERS",
           "NUM_ACTIONS", "OBSERVATION_KEYS", "PASS", "PLAYERS", "PUNG", "VOID", "WIN",
           "DuplicateResult", "ForecastPlayer", "IllegalActionError", "Observation", "Player",
           "SelfPlayResult",
           "Table", "TableBatch", "action_name", "duplicate", "efficient_player", "observation",
           "parse_action", "play_hand", "random_player", "selfplay"]
