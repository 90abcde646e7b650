"""The phases of a King's Court match (docs/games/kings_court.md 5.7), as the state and the
summaries name them: kept apart from the state, so a summary loads no setup."""

from __future__ import annotations

NOT_STARTED = "not_started"
ELECTION = "election"
TIEBREAK = "tiebreak"
BETWEEN_GAMES = "between_games"  # only between an early end and the next game, inside one command
KING_GIFT = "king_gift"
EC_VOTE = "ec_vote"
DEADLOCK_COIN = "deadlock_coin"
AWAITING_DMO = "awaiting_dmo"
OVER = "over"

GAME_RUNNING = (ELECTION, TIEBREAK)
