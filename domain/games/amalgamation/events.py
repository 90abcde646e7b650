"""Every event the decider emits, with its audience (rulebook section 8) and its season postings.

One event has one audience: a moment whose parts go to different people is several events.
The number, kinds and order of public events, and the number of sealed ones, never depend on
anything the public may not know: per-player notices go to every player every time.
Payloads hold only JSON values (lists, never tuples; tile keys as decimal strings); players
are listed in roster order, rankings in place order, winners and candidates in GT order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.decider import HOST, PUBLIC, SYSTEM, Event, Posting


def public(kind: str, postings: Iterable[Posting] = (), /, **data: Any) -> Event:
    return Event(kind, data, audience=PUBLIC, actor=SYSTEM, postings=tuple(postings))


def host(kind: str, /, **data: Any) -> Event:
    return Event(kind, data, audience=HOST, actor=SYSTEM)


def own(
    player: str, kind: str, /, actor: str = SYSTEM, postings: Iterable[Posting] = (), **data: Any
) -> Event:
    """For one player (and the host); `actor` is the player when he acted himself."""
    return Event(kind, data, audience=(player,), actor=actor, postings=tuple(postings))


def bids_as_json(bids: Mapping[int, int]) -> dict[str, int]:
    return {str(tile): bid for tile, bid in bids.items()}


# The opening and the pre-game window


def amalgamation_opened(**data: Any) -> Event:
    """Players, starting money, the 7 rounds, a host-supplied GT, the twist winners, variants."""
    return public("AmalgamationOpened", **data)


def garnets_held(player: str, garnets: int) -> Event:
    return own(player, "GarnetsHeld", player=player, garnets=garnets)


def garnet_rate_submitted(player: str, rate: int) -> Event:
    return own(player, "GarnetRateSubmitted", actor=player, player=player, rate=rate)


def ma_order_submitted(player: str, order: list[str]) -> Event:
    return own(player, "MinusAuctionOrderSubmitted", actor=player, player=player, order=order)


def teams_submitted(player: str, red: list[str], white: list[str]) -> Event:
    return own(player, "TeamsSubmitted", actor=player, player=player, red=red, white=white)


def setup_drawn(**data: Any) -> Event:
    """Host only: the GT, default teams and tile schedule in force, and where each came from."""
    return host("SetupDrawn", **data)


def pregame_settled(**data: Any) -> Event:
    """Host only: the rate submissions and whether the twists were used (AM-R46)."""
    return host("PregameSettled", **data)


def pregame_closed(**data: Any) -> Event:
    return public("PregameClosed", **data)


def round_opened(round_number: int, tiles: Sequence[int], ma_order: Sequence[str]) -> Event:
    return public("RoundOpened", round=round_number, tiles=list(tiles), ma_order=list(ma_order))


# Submissions


def round_submission_accepted(
    player: str, round_number: int, fields: Mapping[str, Any], reserved_before: int
) -> Event:
    """The garnets of an exchange leave the season on acceptance; a replaced submission's
    garnets come back in the same entry (AM-R35: nothing is bought by a replaced one)."""
    postings = []
    if reserved_before:
        postings.append(Posting(player, "garnets", reserved_before, "garnet_exchange_replaced"))
    if fields["garnets_to_exchange"]:
        postings.append(
            Posting(player, "garnets", -fields["garnets_to_exchange"], "garnet_exchange")
        )
    return own(
        player,
        "RoundSubmissionAccepted",
        actor=player,
        postings=postings,
        player=player,
        round=round_number,
        **fields,
    )


def ec_chosen(winner: str, candidate: str) -> Event:
    return own(winner, "EcChosen", actor=winner, winner=winner, candidate=candidate)


# Closing a round, in the order of rulebook 3.4 (steps 3 and 4)


def round_locked(round_number: int) -> Event:
    return public("RoundLocked", round=round_number)


def submission_locked(player: str, round_number: int, drawn_role: str | None) -> Event:
    """To every player: whether he was defaulted, and his drawn role if so."""
    return own(
        player,
        "SubmissionLocked",
        player=player,
        round=round_number,
        defaulted=drawn_role is not None,
        drawn_ct_role=drawn_role,
    )


def defaults_applied(round_number: int, drawn_roles: Mapping[str, str]) -> Event:
    return host(
        "DefaultsApplied", round=round_number, defaulted=list(drawn_roles), roles=dict(drawn_roles)
    )


def money_spent(player: str, round_number: int, **amounts: int) -> Event:
    """To every player every round, zeros included, so an exchange shows nowhere (AM-R46)."""
    data = {"player": player, "round": round_number, **amounts}
    return Event("MoneySpent", data, audience=(player,))


def kong_round_resolved(**data: Any) -> Event:
    return public("KongRoundResolved", **data)


def kong_round_totals(round_number: int, totals: Mapping[str, int]) -> Event:
    return host("KongRoundTotals", round=round_number, totals=dict(totals))


def ma_tile_awarded(round_number: int, tile: int, winner: str) -> Event:
    return public("MinusAuctionTileAwarded", round=round_number, tile=tile, winner=winner)


def ma_tile_bids(round_number: int, tile: int, **data: Any) -> Event:
    """Host only: every bid, the lowest, who tied and whether the winner moved (AM-R21)."""
    return host("MinusAuctionTileBids", round=round_number, tile=tile, **data)


def ma_round_closed(round_number: int, order_after: Sequence[str]) -> Event:
    return public("MinusAuctionRoundClosed", round=round_number, order_after=list(order_after))


def investment_tokens_awarded(
    round_number: int, top_investor: str | None, misers: Sequence[str]
) -> Event:
    return public(
        "InvestmentTokensAwarded",
        round=round_number,
        top_investor=top_investor,
        misers=list(misers),
    )


def investment_amounts(
    round_number: int, invest: Mapping[str, int], donate: Mapping[str, int]
) -> Event:
    return host("InvestmentAmounts", round=round_number, invest=dict(invest), donate=dict(donate))


def chip_thief_round_resolved(
    round_number: int, roles: Mapping[str, str], chips: Mapping[str, int]
) -> Event:
    return public(
        "ChipThiefRoundResolved", round=round_number, roles=dict(roles), chips=dict(chips)
    )


def chip_thief_bets(round_number: int, bets: Mapping[str, int], points: Mapping[str, int]) -> Event:
    return host("ChipThiefBets", round=round_number, bets=dict(bets), points=dict(points))


def chip_thief_points_noted(player: str, round_number: int, points: int, total: int) -> Event:
    return own(
        player,
        "ChipThiefPointsNoted",
        player=player,
        round=round_number,
        points=points,
        total=total,
    )


def ma_penalties_applied(
    round_number: int, penalised: Sequence[str], amount: int, dry_rounds: Mapping[str, int]
) -> Event:
    """Public, as the tiles are: who pays the dry-round penalty and every counter after it."""
    return public(
        "MinusAuctionPenaltiesApplied",
        round=round_number,
        penalised=list(penalised),
        amount=amount,
        dry_rounds=dict(dry_rounds),
    )


def balances_before_penalties(round_number: int, balances: Mapping[str, int]) -> Event:
    return host("BalancesBeforePenalties", round=round_number, balances=dict(balances))


def balances_revealed(round_number: int, balances: Mapping[str, int]) -> Event:
    return public("BalancesRevealed", round=round_number, balances=dict(balances))


# The end of the match (rulebook section 7)


def subgame_ranked(subgame: str, ranking: Sequence[str], scores: Mapping[str, Any]) -> Event:
    return public("SubgameRanked", subgame=subgame, ranking=list(ranking), scores=dict(scores))


def subgame_spending(**totals: Mapping[str, int]) -> Event:
    """Host only: the money totals the rankings used (AM-R20, AM-R25, AM-R13)."""
    return host("SubgameSpending", **{name: dict(amounts) for name, amounts in totals.items()})


def match_scored(
    match_points: Mapping[str, int],
    winners: Sequence[str],
    tols: Mapping[str, int],
    tols_invalidated: bool,
    candidates: Sequence[str],
) -> Event:
    postings = [Posting(player, "tol", amount, "match_winner") for player, amount in tols.items()]
    return public(
        "MatchScored",
        postings,
        match_points=dict(match_points),
        winners=list(winners),
        tols=dict(tols),
        tols_invalidated=tols_invalidated,
        ec_candidates=list(candidates),
    )


def ec_decision_opened(candidates: Sequence[str], deciders: Sequence[str]) -> Event:
    return public("EcDecisionOpened", candidates=list(candidates), deciders=list(deciders))


def ec_choices_counted(choices: Mapping[str, str], counts: Mapping[str, int]) -> Event:
    """Host only: the winners' choices stay private (AM-R32)."""
    return host("EcChoicesCounted", choices=dict(choices), counts=dict(counts))


def ec_determined(ec: str, decided_by: str) -> Event:
    """decided_by: `fewest_points`, `winner_choice` or `gamewide_tiebreak` (7.3)."""
    postings = [Posting(ec, "ec", 1, "elimination_candidate")]
    return public("EcDetermined", postings, ec=ec, decided_by=decided_by)


def garnets_awarded(awards: Mapping[str, int]) -> Event:
    """Credited once the EC is fixed (AM-R33): 2 for a 1st place, 1 for a 2nd."""
    postings = [
        Posting(player, "garnets", amount, "subgame_places")
        for player, amount in awards.items()
        if amount
    ]
    return public("GarnetsAwarded", postings, awards=dict(awards))


def garnet_ledger_closed(player: str, exchanged: int, awarded: int) -> Event:
    return own(
        player,
        "GarnetLedgerClosed",
        player=player,
        exchanged=exchanged,
        awarded=awarded,
        net_change=awarded - exchanged,
    )
