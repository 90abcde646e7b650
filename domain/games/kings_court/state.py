"""The state the decider folds: the match, the game being played, and the aftermath of its end.

Frozen values only; `evolve` builds new ones. Players are always listed in seat order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from domain.games.kings_court.phases import AWAITING_DMO, GAME_RUNNING, NOT_STARTED, OVER
from domain.games.kings_court.roles import Secrets
from domain.games.kings_court.setup import Setup

EARLY_END_LIMIT = 4


@dataclass(frozen=True)
class Game:
    """One game of the Main Match; a replay after an early King starts a fresh one."""

    number: int
    secrets: Secrets
    round: int = 0
    court: tuple[str, ...] = ()  # joining order
    votes: Mapping[str, str] = field(default_factory=dict)  # this round, voter -> candidate
    totals: Mapping[str, int] = field(default_factory=dict)  # votes received this game
    check_right: str | None = None  # the member who joined at the previous deadline
    pair_check: tuple[str, ...] = ()  # the targets that member submitted this round
    king_looked: bool = False
    annoyed_checked: tuple[str, ...] = ()
    peeks: tuple[tuple[str, str], ...] = ()  # (peeker, target)
    tied: tuple[str, ...] = ()
    tiebreak_choice: str | None = None

    @property
    def king(self) -> str:
        return self.secrets.king

    def role(self, player: str) -> str:
        return self.secrets.roles[player]


@dataclass(frozen=True)
class Aftermath:
    """After a normal end: the winner, the EC race, the King's gift and the DMO."""

    winner: str  # "king", "dukes" or "nobles"
    party: tuple[str, ...]  # who votes on an EC tie
    ec_scores: Mapping[str, Mapping[str, int]]  # pool member -> votes, bonus, score
    ec_tied: tuple[str, ...]
    awards: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # tol, garnets, opal
    gift_choice: tuple[str, ...] = ()  # the King's current (duke, noble)
    gift: tuple[str, ...] = ()
    ec_ballots: Mapping[str, str] = field(default_factory=dict)
    deadlock: tuple[str, ...] = ()
    ec: str | None = None
    ec_decided_by: str | None = None
    dmo: str | None = None


@dataclass(frozen=True)
class State:
    setup: Setup
    seed: str
    phase: str = NOT_STARTED
    match_round: int = 0
    game: Game | None = None
    kings: tuple[str, ...] = ()  # Kings found so far, in game order (each was announced)
    early_ends: int = 0
    king_peeks: int = 0  # peeks at a King so far: explicit answers are consumed in this order
    default_picks: int = 0  # explicit tie-break picks consumed so far
    aftermath: Aftermath | None = None
    death_match: tuple[str, ...] = ()
    trade_freeze: bool = False

    @property
    def players(self) -> list[str]:
        return self.setup.players

    def current(self) -> Game:
        """The game being played (or just ended); commands reach it after their phase checks."""
        assert self.game is not None, "no game before open_match"
        return self.game

    def settled(self) -> Aftermath:
        """What a normal end decided; post-game commands reach it after their phase checks."""
        assert self.aftermath is not None, "no aftermath before a normal end"
        return self.aftermath

    def outside(self) -> list[str]:
        """Players not in the court of the running game, in seat order."""
        court = self.game.court if self.game else ()
        return [player for player in self.players if player not in court]

    def game_is_running(self) -> bool:
        return self.phase in GAME_RUNNING

    def main_match_is_over(self) -> bool:
        """The EC is decided or the fourth early end happened (KC-R32)."""
        return self.phase in (AWAITING_DMO, OVER)
