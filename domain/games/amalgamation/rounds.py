"""Closing a round (rulebook 3.4, steps 3 and 4): lock, defaults, then exchange and spending,
Kong, Minus Auction, Investment & Donation, Chip Thief, penalties and the reveal, in that
order [AM-R7]; then the next round opens, or the match is scored."""

from __future__ import annotations

from collections.abc import Mapping

from domain.games.amalgamation import chip_thief, events, investment, kong, minus_auction, scoring
from domain.games.amalgamation.draws import GAME_ID, RED, random_role
from domain.games.amalgamation.guards import Args
from domain.games.amalgamation.setup import ROUNDS
from domain.games.amalgamation.state import State, Submission
from domain.games.amalgamation.turn import Turn
from domain.rng import Rng

Submissions = Mapping[str, Submission]


def close_round(turn: Turn, actor: str, args: Args) -> None:
    state = turn.state
    number = state.round
    submissions = lock(turn)
    balances = spend_money(turn, submissions)
    resolve_kong(turn, submissions)
    took_a_tile = resolve_minus_auction(turn, submissions)
    resolve_investment(turn, submissions)
    resolve_chip_thief(turn, submissions)
    apply_penalties(turn, balances, took_a_tile)
    if number < ROUNDS:
        state = turn.state
        turn.emit(events.round_opened(number + 1, state.tiles_of(number + 1), state.ma_order))
    else:
        scoring.score_match(turn)


def lock(turn: Turn) -> dict[str, Submission]:
    """Every player without a valid submission gets the defaults of section 5."""
    state = turn.state
    number = state.round
    rng = Rng(GAME_ID, state.seed)
    drawn = {
        player: random_role(rng, number, player)
        for player in state.players
        if player not in state.submissions
    }
    submissions = {
        player: state.submissions.get(player) or default_submission(state, drawn[player])
        for player in state.players
    }
    turn.emit(events.round_locked(number))
    for player in state.players:
        turn.emit(events.submission_locked(player, number, drawn.get(player)))
    turn.emit(events.defaults_applied(number, drawn))
    return submissions


def default_submission(state: State, role: str) -> Submission:
    """Contribution 0, a 0 bid on every tile, invest and donate 0, bet 0, the drawn role."""
    return Submission(
        kd_contribution=0,
        ma_bids=dict.fromkeys(state.tiles, 0),
        invest=0,
        donate=0,
        ct_role=role,
        ct_bet=0,
    )


def spend_money(turn: Turn, submissions: Submissions) -> dict[str, int]:
    """Garnet exchange, then spending; validation kept every result at 0 or more."""
    state = turn.state
    balances = {}
    for player in state.players:
        submission = submissions[player]
        bought = submission.garnets_to_exchange * state.garnet_rate
        balances[player] = state.balances[player] + bought - submission.spend
        turn.emit(
            events.money_spent(
                player,
                state.round,
                garnets_exchanged=submission.garnets_to_exchange,
                money_bought=bought,
                kd_contribution=submission.kd_contribution,
                ma_bids_total=submission.ma_spend,
                invest=submission.invest,
                donate=submission.donate,
                ct_bet=submission.ct_bet,
                total=submission.spend,
                balance=balances[player],
            )
        )
    return balances


def resolve_kong(turn: Turn, submissions: Submissions) -> None:
    state = turn.state
    contributions = {p: submissions[p].kd_contribution for p in state.players}
    result = kong.resolve_round(state.teams, contributions)
    points = dict(state.totals().kong_points)
    if result.result != kong.TIE:
        points[result.result] += 1
    tie_shows_amount = result.result == kong.TIE and state.setup.variants.kd_tie_reveals_amount
    turn.emit(
        events.kong_round_resolved(
            round=state.round,
            result=result.result,
            losing_team_total=result.losing_team_total,
            tie_total=result.totals[RED] if tie_shows_amount else None,
            points=points,
        )
    )
    turn.emit(events.kong_round_totals(state.round, result.totals))


def resolve_minus_auction(turn: Turn, submissions: Submissions) -> dict[str, bool]:
    """The tiles one after another, the order rotating between them; who took a tile."""
    state = turn.state
    every_winner_moves = state.setup.variants.ma_rotation == "every_winner"
    order = state.ma_order
    took = dict.fromkeys(state.players, False)
    for tile in state.tiles:
        bids = {p: submissions[p].ma_bids[tile] for p in state.players}
        award = minus_auction.award_tile(tile, bids, order, every_winner_moves)
        turn.emit(events.ma_tile_awarded(state.round, tile, award.winner))
        turn.emit(
            events.ma_tile_bids(
                state.round,
                tile,
                bids=bids,
                lowest_bid=award.lowest_bid,
                tied=list(award.tied),
                moved_to_end=award.moved_to_end,
            )
        )
        order = award.order_after
        took[award.winner] = True
    turn.emit(events.ma_round_closed(state.round, order))
    return took


def resolve_investment(turn: Turn, submissions: Submissions) -> None:
    state = turn.state
    invest = {p: submissions[p].invest for p in state.players}
    donate = {p: submissions[p].donate for p in state.players}
    top = investment.top_investor(invest, state.setup.variants.ti_zero_amount_eligible)
    misers = investment.misers(state.players, donate)
    turn.emit(events.investment_tokens_awarded(state.round, top, misers))
    turn.emit(events.investment_amounts(state.round, invest, donate))


def resolve_chip_thief(turn: Turn, submissions: Submissions) -> None:
    state = turn.state
    roles = {p: submissions[p].ct_role for p in state.players}
    chips = chip_thief.chips(state.players, roles)
    bets = {p: submissions[p].ct_bet for p in state.players}
    points = {p: chips[p] * bets[p] for p in state.players}
    turn.emit(events.chip_thief_round_resolved(state.round, roles, chips))
    turn.emit(events.chip_thief_bets(state.round, bets, points))
    totals = turn.state.totals().ct_points
    for player in state.players:
        turn.emit(
            events.chip_thief_points_noted(player, state.round, points[player], totals[player])
        )


def apply_penalties(turn: Turn, balances: dict[str, int], took_a_tile: dict[str, bool]) -> None:
    """Step P (AM-R18): the second dry round in a row costs $20, clamped at 0 (AM-R8), and
    resets the counter; then every balance is revealed (AM-R42)."""
    state = turn.state
    dry = minus_auction.dry_rounds_after(state.totals().dry_rounds, took_a_tile)
    penalised = [p for p in state.players if dry[p] == minus_auction.DRY_LIMIT]
    after = dict(balances)
    for player in penalised:
        dry[player] = 0
        after[player] = max(0, balances[player] - minus_auction.PENALTY)
    turn.emit(events.ma_penalties_applied(state.round, penalised, minus_auction.PENALTY, dry))
    turn.emit(events.balances_before_penalties(state.round, balances))
    turn.emit(events.balances_revealed(state.round, after))
