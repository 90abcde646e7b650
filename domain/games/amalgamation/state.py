"""The state the decider folds. Frozen values only; `evolve` builds new ones.

Players are always listed in roster order; orders (the GT, the MA order, rankings) are tuples.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.games.amalgamation.setup import ROUNDS, Setup

NOT_STARTED = "not_started"
PREGAME = "pregame"
ROUND = "round"  # a round's submission window is open
RESOLVING = "resolving"  # from a round's lock to its reveal, inside one host command
EC_DECISION = "ec_decision"
OVER = "over"

SCORING_ROUND = ROUNDS + 1  # the final scoring and the EC window come after round 7


@dataclass(frozen=True)
class Submission:
    """One player's combined round submission (4.2), or the defaults of section 5."""

    kd_contribution: int
    ma_bids: Mapping[int, int]  # tile -> bid
    invest: int
    donate: int
    ct_role: str
    ct_bet: int
    garnets_to_exchange: int = 0

    @property
    def ma_spend(self) -> int:
        return sum(abs(bid) for bid in self.ma_bids.values())

    @property
    def spend(self) -> int:
        """Everything this submission spends (AM-R6): bids at their absolute value."""
        return self.kd_contribution + self.ma_spend + self.invest + self.donate + self.ct_bet


@dataclass(frozen=True)
class Tally:
    """What the sub-games and the exchange accumulate over the seven rounds."""

    kong_contributions: Mapping[str, int]
    kong_points: Mapping[str, int]  # team -> points
    kong_point_rounds: Mapping[str, tuple[int, ...]]  # team -> the rounds it scored in
    ma_tiles: Mapping[str, tuple[int, ...]]
    ma_spent: Mapping[str, int]
    dry_rounds: Mapping[str, int]
    top_investor_tokens: Mapping[str, int]
    miser_tokens: Mapping[str, int]
    id_spent: Mapping[str, int]
    ct_points: Mapping[str, int]
    garnets_exchanged: Mapping[str, int]

    @classmethod
    def empty(cls, players: list[str], teams: tuple[str, ...]) -> Tally:
        zeros = dict.fromkeys(players, 0)
        return cls(
            kong_contributions=zeros,
            kong_points=dict.fromkeys(teams, 0),
            kong_point_rounds={team: () for team in teams},
            ma_tiles={player: () for player in players},
            ma_spent=zeros,
            dry_rounds=zeros,
            top_investor_tokens=zeros,
            miser_tokens=zeros,
            id_spent=zeros,
            ct_points=zeros,
            garnets_exchanged=zeros,
        )


@dataclass(frozen=True)
class Final:
    """The end of the match (rulebook section 7): match points, winners, the EC, garnets."""

    match_points: Mapping[str, int]
    winners: tuple[str, ...]  # GT order
    tols: Mapping[str, int]
    tols_invalidated: bool
    candidates: tuple[str, ...]  # GT order
    ec_choices: Mapping[str, str] = field(default_factory=dict)
    ec: str | None = None
    ec_decided_by: str | None = None
    garnet_awards: Mapping[str, int] = field(default_factory=dict)  # credited at the very end


@dataclass(frozen=True)
class State:
    setup: Setup
    seed: str
    phase: str = NOT_STARTED
    round: int = 0
    # The pre-game window: last valid submission of each kind.
    rate_submissions: Mapping[str, int] = field(default_factory=dict)
    ma_order_submission: tuple[str, ...] | None = None
    teams_submission: Mapping[str, tuple[str, ...]] | None = None
    # Fixed at the pre-game close.
    gamewide_tiebreak: tuple[str, ...] = ()
    tile_schedule: tuple[tuple[int, ...], ...] = ()
    teams: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    garnet_rate: int = 0
    # Moving with the rounds.
    ma_order: tuple[str, ...] = ()
    balances: Mapping[str, int] = field(default_factory=dict)
    submissions: Mapping[str, Submission] = field(default_factory=dict)  # the open round's
    tally: Tally | None = None
    # After round 7.
    rankings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # sub-game -> places
    subgame_scores: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    final: Final | None = None

    @property
    def players(self) -> list[str]:
        return self.setup.players

    @property
    def tiles(self) -> tuple[int, ...]:
        """The open round's tiles in resolution order."""
        return self.tiles_of(self.round)

    def tiles_of(self, round_number: int) -> tuple[int, ...]:
        return self.tile_schedule[round_number - 1]

    def totals(self) -> Tally:
        assert self.tally is not None, "the tally starts at the pre-game close"
        return self.tally

    def ending(self) -> Final:
        assert self.final is not None, "the end comes after round 7"
        return self.final

    def gt_place(self, player: str) -> int:
        """0 for the highest in the Gamewide Tiebreak: smaller is always better."""
        return self.gamewide_tiebreak.index(player)

    def reserved_garnets(self, player: str) -> int:
        """Garnets the player's current submission for the open round has already taken."""
        submission = self.submissions.get(player)
        return submission.garnets_to_exchange if submission else 0
