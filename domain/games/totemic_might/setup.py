"""The host's setup (rules 2.1-2.6): players, garnet history, every piece of hidden setup the
host may fix, the ten Snake hints, pinned draws, and the configuration values of 2.6.

Every check raises ValueError; the framework turns the pydantic error into `invalid_setup`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from domain.games.totemic_might.grid import GARNET, LETTERS, SERIES, TOTEMS, is_totem
from domain.setup import SetupBase

PLAYER_COUNT = 7
SERIES_SIZE = 5
POOL_SIZE = 10
SNAKE_LIFTS = tuple(range(11, 21))
RESERVED_IDS = ("host", "system", "public")

# Draws made during play, by label: how many parts follow the label in the test key, and the
# outcomes a pin may name (rules 2.4).
PINNABLE: dict[str, tuple[int, tuple[object, ...]]] = {
    "pick": (3, (*TOTEMS, GARNET)),
    "spirit_default": (2, TOTEMS),
    "spirit_shared": (1, TOTEMS),
    "wolf_lift": (2, (1, 2)),
    "fox_lift": (2, (1, 2, 3, 4, 5)),
}


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class SnakeHint(Strict):
    """One hint of the host's table; the text is shown, never read; `claim` is for auditors."""

    letter: str
    text: str
    lift: int
    claim: Any = None


class SeriesPair(Strict):
    """The two series of one auction round, five totem ids each."""

    A: list[str]
    B: list[str]


class Setup(SetupBase):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    snake_hints: list[SnakeHint]
    garnet_history: dict[str, list[int]] = Field(default_factory=dict)
    weights: dict[str, int] | None = None
    starting_totems: dict[str, str] | None = None
    spirit_pool: list[str] | None = None
    series: list[SeriesPair] = Field(default_factory=list)
    draws: dict[str, str | int] = Field(default_factory=dict)
    publish_schedule: bool = False
    starting_chips: int = 120
    bet_min_per_series: int = 1
    bet_max_per_series: int = 10
    bet_max_per_round: int = 15
    end_chip_threshold: int = 15
    end_player_count: int = 3
    weighings_per_round: int = 3
    snake_max_uses: int = 2
    snake_lifts_distinct: bool = True
    wolf_modulus: int = 8
    wolf_restriction: Literal["totem", "season"] = "totem"
    bear_cost: int = 2
    bear_fine_extra: int = 1
    fox_garnet_cost: int = 4
    tie_rotation: Literal["all_but_last", "first_only"] = "all_but_last"
    balloons_on_trial_scale: bool = True
    weighing_results: Literal["immediate", "at_deadline"] = "immediate"
    final_max_attempts: int | None = None
    guess_penalty: int = 3
    opal_requires_correct_guess: bool = True

    @model_validator(mode="after")
    def check_everything(self) -> Setup:
        check_players(self.players)
        check_history(self)
        check_weights(self.weights)
        check_starting_and_pool(self)
        for number, pair in enumerate(self.series, start=1):
            check_series_pair(number, pair)
        check_hints(self.snake_hints, self.snake_lifts_distinct)
        for key, outcome in self.draws.items():
            check_pinned_draw(self, key, outcome)
        check_configuration(self)
        return self


def check_players(players: list[str]) -> None:
    if len(players) != PLAYER_COUNT:
        raise ValueError(f"players: Totemic Might needs {PLAYER_COUNT} players, got {len(players)}")
    if len(set(players)) != PLAYER_COUNT:
        raise ValueError("players: ids must be distinct")
    for player in players:
        if not player or player in RESERVED_IDS or "|" in player:
            raise ValueError(f"players: {player!r} cannot be a player id")


def check_history(setup: Setup) -> None:
    for player, counts in setup.garnet_history.items():
        if player not in setup.players:
            raise ValueError(f"garnet_history: {player!r} is not a player")
        if any(count < 0 for count in counts):
            raise ValueError(f"garnet_history[{player!r}]: counts are never negative")


def check_weights(weights: dict[str, int] | None) -> None:
    if weights is None:
        return
    if sorted(weights) != sorted(TOTEMS):
        raise ValueError("weights: give a weight for each of the 20 totems and nothing else")
    if sorted(weights.values()) != list(range(1, 21)):
        raise ValueError("weights: the weights must be 1..20, each used once")


def check_starting_and_pool(setup: Setup) -> None:
    starting = setup.starting_totems
    if starting is not None:
        if sorted(starting) != sorted(setup.players):
            raise ValueError("starting_totems: give one totem for each player")
        check_distinct_totems("starting_totems", list(starting.values()), PLAYER_COUNT)
    pool = setup.spirit_pool
    if pool is None:
        return
    if starting is None:
        raise ValueError("spirit_pool: give starting_totems too, so the pool can avoid them")
    check_distinct_totems("spirit_pool", pool, POOL_SIZE)
    if set(pool) & set(starting.values()):
        raise ValueError("spirit_pool: a starting totem is never in the pool")


def check_series_pair(number: int, pair: SeriesPair) -> None:
    check_distinct_totems(f"series[{number - 1}].A", pair.A, SERIES_SIZE)
    check_distinct_totems(f"series[{number - 1}].B", pair.B, SERIES_SIZE)
    if set(pair.A) & set(pair.B):
        raise ValueError(f"series[{number - 1}]: A and B of one round must be disjoint")


def check_distinct_totems(where: str, totems: list[str], size: int) -> None:
    if len(totems) != size or len(set(totems)) != size or not all(map(is_totem, totems)):
        raise ValueError(f"{where}: needs {size} distinct totem ids of the grid")


def check_hints(hints: list[SnakeHint], lifts_distinct: bool) -> None:
    if sorted(hint.letter for hint in hints) != list(LETTERS):
        raise ValueError("snake_hints: exactly one hint for each letter A..J")
    lifts = sorted(hint.lift for hint in hints)
    if lifts_distinct and lifts != list(SNAKE_LIFTS):
        raise ValueError("snake_hints: the lifts must be 11..20, each used once")
    if not all(lift in SNAKE_LIFTS for lift in lifts):
        raise ValueError("snake_hints: every lift is between 11 and 20")


def check_pinned_draw(setup: Setup, key: str, outcome: object) -> None:
    """A pin names a draw by its test key (`pick|r|S|player`, ...) and one possible outcome."""
    label, *parts = key.split("|")
    if label not in PINNABLE or len(parts) != PINNABLE[label][0]:
        raise ValueError(f"draws: {key!r} is not the test key of a draw made during play")
    if not (parts[0].isascii() and parts[0].isdigit()) or parts[0].startswith("0"):
        raise ValueError(f"draws: {key!r} must name a round 1, 2, ...")
    if label == "pick" and parts[1] not in SERIES:
        raise ValueError(f"draws: {key!r} must name series A or B")
    if label != "spirit_shared" and parts[-1] not in setup.players:
        raise ValueError(f"draws: {key!r} must name a player")
    options = PINNABLE[label][1]
    if isinstance(outcome, bool) or outcome not in options:
        raise ValueError(f"draws: {outcome!r} is not a possible outcome of {key!r}")


def check_configuration(setup: Setup) -> None:
    at_least = {
        "starting_chips": 0,
        "bet_min_per_series": 1,
        "bet_max_per_series": setup.bet_min_per_series,
        "bet_max_per_round": setup.bet_min_per_series,
        "end_chip_threshold": 0,
        "end_player_count": 1,
        "weighings_per_round": 0,
        "snake_max_uses": 0,
        "wolf_modulus": 1,
        "bear_cost": 0,
        "bear_fine_extra": 0,
        "fox_garnet_cost": 0,
        "guess_penalty": 0,
    }
    for key, least in at_least.items():
        if getattr(setup, key) < least:
            raise ValueError(f"{key}: must be at least {least}")
    if setup.end_player_count > PLAYER_COUNT:
        raise ValueError(f"end_player_count: at most {PLAYER_COUNT}")
    if setup.final_max_attempts is not None and setup.final_max_attempts < 1:
        raise ValueError("final_max_attempts: null (unlimited) or at least 1")


# Each setup field in the rulebook's words (docs/games/totemic_might.md), for the set-up page.
SETUP_HELP = {
    "snake_hints": "The ten hints {letter, text, lift, claim?} (required: the host writes them).",
    "garnet_history": "Per player, earlier posted garnet counts, most recent first.",
    "weights": "All 20 totems, weights 1 to 20 each once; empty: drawn.",
    "starting_totems": "One distinct totem per player; empty: drawn.",
    "spirit_pool": "10 distinct totems, none a starting totem (only with starting_totems); empty: "
                   "drawn.",
    "series": "The rounds' series {A: [5 totems], B: [5 totems]}, A and B disjoint; empty: "
              "drawn.",
    "draws": "Pinned draws by test key (rulebook 2.4).",
    "publish_schedule": "Publish the host's series at the opening (TM-R8).",
    "starting_chips": "Chips each player starts with.",
    "bet_min_per_series": "The least bet on one series.",
    "bet_max_per_series": "The most on one series (TM-R1).",
    "bet_max_per_round": "The most on A and B together (TM-R1).",
    "end_chip_threshold": "Chips at or below which a player counts towards the end.",
    "end_player_count": "How many players at or below the threshold end the auctions.",
    "weighings_per_round": "Scale uses per player per round.",
    "snake_max_uses": "Snake wagers per player per match.",
    "snake_lifts_distinct": "The hint lifts are 11 to 20 each once (else any values in 11 to 20).",
    "wolf_modulus": "Wolf answers the difference modulo this.",
    "wolf_restriction": "What a Wolf wager is restricted to: totem (TM-R15) or season.",
    "bear_cost": "Bear's price in garnets.",
    "bear_fine_extra": "The extra garnet for Bear's 5-wide band.",
    "fox_garnet_cost": "Fox's price when paid in garnets.",
    "tie_rotation": "How ties rotate (TM-R4): all_but_last, or first_only.",
    "balloons_on_trial_scale": "Balloons may go on the trial scale (TM-R12).",
    "weighing_results": "Weighing answers at once (immediate) or all at the deadline "
                        "(at_deadline).",
    "final_max_attempts": "Balance attempts allowed in the final challenge; empty: no limit "
                          "(TM-R22).",
    "guess_penalty": "Points lost per correct guess against you.",
    "opal_requires_correct_guess": "The Opal challenge needs at least one correct guess (TM-R26).",
}
