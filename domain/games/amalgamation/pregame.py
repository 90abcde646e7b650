"""The opening and the pre-game close (rulebook 3.1-3.3): the twists, the seeded setup, round 1."""

from __future__ import annotations

from collections.abc import Mapping

from domain.games.amalgamation import draws, events
from domain.games.amalgamation.draws import RED, WHITE
from domain.games.amalgamation.guards import Args
from domain.games.amalgamation.setup import ROUNDS, in_roster_order
from domain.games.amalgamation.turn import Turn
from domain.rng import Rng


def open_match(turn: Turn, actor: str, args: Args) -> None:
    """Public: who plays, the money, the rounds, the twist winners and a host-supplied GT
    (AM-R45); each player alone: the garnets he holds."""
    setup = turn.state.setup
    turn.emit(
        events.amalgamation_opened(
            players=list(setup.players),
            starting_money=setup.variants.starting_money,
            rounds=ROUNDS,
            gamewide_tiebreak=setup.gamewide_tiebreak,
            mm_winner=setup.mm_winner,
            dm_winner=setup.dm_winner,
            variants=setup.variants.model_dump(mode="json"),
        )
    )
    for player in setup.players:
        turn.emit(events.garnets_held(player, max(turn.balance(player), 0)))


def close_pregame(turn: Turn, actor: str, args: Args) -> None:
    """The draws the setup left to the seed, the twists or their fallbacks, the rate; then
    round 1 opens."""
    state = turn.state
    setup, players = state.setup, state.players
    rng = Rng(draws.GAME_ID, state.seed)
    gt = setup.gamewide_tiebreak or draws.gamewide_tiebreak(rng, players)
    if setup.default_teams is not None:
        default_teams = {RED: setup.default_teams.red, WHITE: setup.default_teams.white}
    else:
        default_teams = draws.default_teams(rng, players)
    schedule = setup.tile_schedule or draws.tile_schedule(rng)
    turn.emit(
        events.setup_drawn(
            gamewide_tiebreak=list(gt),
            default_teams={team: list(members) for team, members in default_teams.items()},
            tile_schedule=[list(tiles) for tiles in schedule],
            sources={
                "gamewide_tiebreak": source(setup.gamewide_tiebreak),
                "default_teams": source(setup.default_teams),
                "tile_schedule": source(setup.tile_schedule),
            },
        )
    )
    teams = state.teams_submission or default_teams
    ma_order = state.ma_order_submission or gt
    rate = garnet_rate(state.rate_submissions, setup.variants.garnet_rate_if_no_submissions)
    turn.emit(
        events.pregame_settled(
            rate_submissions=dict(state.rate_submissions),
            teams_from="dm_winner" if state.teams_submission else "default_teams",
            ma_order_from="mm_winner" if state.ma_order_submission else "gamewide_tiebreak",
        )
    )
    turn.emit(
        events.pregame_closed(
            gamewide_tiebreak=list(gt),
            teams={team: in_roster_order(players, teams[team]) for team in (RED, WHITE)},
            ma_initial_order=list(ma_order),
            garnet_rate=rate,
        )
    )
    turn.emit(events.round_opened(1, turn.state.tiles_of(1), turn.state.ma_order))


def source(given: object) -> str:
    return "seed" if given is None else "setup"


def garnet_rate(submissions: Mapping[str, int], if_none: int) -> int:
    """AM-R34: the mean of the submissions, halves rounded up: floor((2S + n) / 2n)."""
    n = len(submissions)
    if n == 0:
        return if_none
    return (2 * sum(submissions.values()) + n) // (2 * n)
