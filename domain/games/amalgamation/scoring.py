"""After round 7 (rulebook section 7): the four rankings, match points, winners and ToLs,
the EC, and the garnets for 1st and 2nd places."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.games.amalgamation import chip_thief, events, investment, kong, minus_auction
from domain.games.amalgamation.guards import Args
from domain.games.amalgamation.state import State
from domain.games.amalgamation.turn import Turn

KONG, MINUS_AUCTION, INVESTMENT, CHIP_THIEF = (
    "kong",
    "minus_auction",
    "investment_donation",
    "chip_thief",
)
SUBGAMES = (KONG, MINUS_AUCTION, INVESTMENT, CHIP_THIEF)
PLACE_POINTS = (20, 15, 12, 10, 8, 4)
PLACE_GARNETS = (2, 1)  # 1st and 2nd place of each sub-game
MOST_JOINT_WINNERS = 3


def score_match(turn: Turn) -> None:
    rank_subgames(turn)
    award_match(turn)


def award_match(turn: Turn) -> None:
    """Match points from the places (AM-R44), winners and ToLs (AM-R31), then the EC: unique,
    by the GT fallback, or by the winners in a decision window (7.3)."""
    state = turn.state
    points = {
        player: sum(PLACE_POINTS[state.rankings[game].index(player)] for game in SUBGAMES)
        for player in state.players
    }
    in_gt_order = state.gamewide_tiebreak
    top = [p for p in in_gt_order if points[p] == max(points.values())]
    bottom = [p for p in in_gt_order if points[p] == min(points.values())]
    invalidated = len(top) > MOST_JOINT_WINNERS
    if not invalidated:
        winners, tols = top, dict.fromkeys(top, 2 if len(top) == 1 else 1)
    else:
        winners = top if state.setup.variants.four_plus_top_tie == "winners_without_tols" else []
        tols = {}
    turn.emit(events.match_scored(points, winners, tols, invalidated, bottom))
    if len(bottom) == 1:
        determine_ec(turn, bottom[0], "fewest_points")
    elif not winners:
        determine_ec(turn, bottom[-1], "gamewide_tiebreak")
    else:
        turn.emit(events.ec_decision_opened(bottom, winners))


def rank_subgames(turn: Turn) -> None:
    """Every ranking at once, each a strict order ending at the GT (AM-R30)."""
    state = turn.state
    tally, players, gt_place = state.totals(), state.players, state.gt_place
    team, decided_by = kong.winning_team(
        tally.kong_points, tally.kong_point_rounds, state.teams, state.gamewide_tiebreak
    )
    turn.emit(
        events.subgame_ranked(
            KONG,
            kong.ranking(state.teams, team, tally.kong_contributions, gt_place),
            {"winning_team": team, "decided_by": decided_by, "points": dict(tally.kong_points)},
        )
    )
    per_tile = state.setup.variants.ma_streak_scoring == "per_tile"
    scores = {p: minus_auction.score(tally.ma_tiles[p], per_tile) for p in players}
    turn.emit(
        events.subgame_ranked(
            MINUS_AUCTION,
            minus_auction.ranking(players, scores, tally.ma_spent, gt_place),
            {
                "tiles": {p: sorted(tally.ma_tiles[p], reverse=True) for p in players},
                "scores": scores,
            },
        )
    )
    turn.emit(
        events.subgame_ranked(
            INVESTMENT,
            investment.snake_ranking(
                players,
                tally.top_investor_tokens,
                tally.miser_tokens,
                tally.id_spent,
                gt_place,
            ),
            {
                "top_investor_tokens": dict(tally.top_investor_tokens),
                "miser_tokens": dict(tally.miser_tokens),
            },
        )
    )
    turn.emit(
        events.subgame_ranked(
            CHIP_THIEF,
            chip_thief.ranking(players, tally.ct_points, gt_place),
            {"points": dict(tally.ct_points)},
        )
    )
    turn.emit(
        events.subgame_spending(
            kong_contributions=tally.kong_contributions,
            minus_auction=tally.ma_spent,
            investment_donation=tally.id_spent,
        )
    )


def close_ec_decision(turn: Turn, actor: str, args: Args) -> None:
    """AM-R32: the most chosen candidate; level or no choices: the lowest in GT among them."""
    final = turn.state.ending()
    counts = dict.fromkeys(final.candidates, 0)
    for winner in final.winners:
        if winner in final.ec_choices:
            counts[final.ec_choices[winner]] += 1
    turn.emit(
        events.ec_choices_counted(chosen_in_gt_order(final.winners, final.ec_choices), counts)
    )
    most = max(counts.values())
    level = [candidate for candidate in final.candidates if counts[candidate] == most]
    if len(level) == 1:
        determine_ec(turn, level[0], "winner_choice")
    else:
        determine_ec(turn, level[-1], "gamewide_tiebreak")


def chosen_in_gt_order(winners: Sequence[str], choices: Mapping[str, str]) -> dict[str, str]:
    return {winner: choices[winner] for winner in winners if winner in choices}


def determine_ec(turn: Turn, ec: str, decided_by: str) -> None:
    """The EC is fixed; then the garnets of the places are credited (AM-R33) and each player
    is told his own garnet balance of the match."""
    turn.emit(events.ec_determined(ec, decided_by))
    state = turn.state
    awards = garnet_awards(state)
    turn.emit(events.garnets_awarded(awards))
    exchanged = state.totals().garnets_exchanged
    for player in state.players:
        turn.emit(events.garnet_ledger_closed(player, exchanged[player], awards[player]))


def garnet_awards(state: State) -> dict[str, int]:
    awards = dict.fromkeys(state.players, 0)
    for game in SUBGAMES:
        for place, garnets in enumerate(PLACE_GARNETS):
            awards[state.rankings[game][place]] += garnets
    return awards
