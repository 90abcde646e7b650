"""Every event the decider emits, with its audience (rules section 7) and its season postings.

One event has one audience. Every accepted player command emits exactly one sealed event, and
a deadline emits a number of events fixed by public facts alone, so the public log never
tells what anyone did in secret. Payloads hold only JSON values; players in seat order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.decider import HOST, PUBLIC, SYSTEM, Event, Posting
from domain.games.totemic_might.state import Transfer


def _public(kind: str, postings: Iterable[Posting] = (), /, **data: Any) -> Event:
    return Event(kind, data, audience=PUBLIC, actor=SYSTEM, postings=tuple(postings))


def _host(kind: str, /, **data: Any) -> Event:
    return Event(kind, data, audience=HOST, actor=SYSTEM)


def _private(
    audience: tuple[str, ...], kind: str, /, actor: str = SYSTEM,
    postings: Iterable[Posting] = (), **data: Any,
) -> Event:
    return Event(kind, data, audience=audience, actor=actor, postings=tuple(postings))


def _ack(player: str, kind: str, /, **data: Any) -> Event:
    """The acknowledgement of a player's own submission: theirs alone."""
    return _private((player,), kind, actor=player, player=player, **data)


# Opening


def secret_setup_recorded(**secret: Any) -> Event:
    """The sealed setup (2.3): weights, starting totems, pool, fixed series, hints (TM-R39)."""
    return _host("SecretSetupRecorded", **secret)


def game_opened(**public: Any) -> Event:
    return _public("GameOpened", **public)


def starting_totem_dealt(player: str, totem: str, weight: int) -> Event:
    return _private((player,), "StartingTotemDealt", player=player, totem=totem, weight=weight)


def round_opened(
    round_number: int, round_type: str, series: Mapping[str, list[str]] | None
) -> Event:
    return _public("RoundOpened", round=round_number, round_type=round_type,
                   series=None if series is None else dict(series))


def spirit_pool_shown(round_number: int, player: str, pool: list[str]) -> Event:
    return _private((player,), "SpiritPoolShown", round=round_number, player=player, pool=pool)


# Player submissions


def bet_placed(round_number: int, player: str, series: str, amount: int) -> Event:
    return _ack(player, "BetPlaced", round=round_number, series=series, amount=amount)


def pick_order_set(round_number: int, player: str, series: str, order: list[str]) -> Event:
    return _ack(player, "PickOrderSet", round=round_number, series=series, order=order)


def spirit_choice_made(round_number: int, player: str, totem: str) -> Event:
    return _ack(player, "SpiritChoiceMade", round=round_number, totem=totem)


def weighing_performed(
    round_number: int, player: str, use: int, left: list[str], right: list[str], result: str | None
) -> Event:
    """`result` is None when results come at the deadline (`weighing_results`)."""
    return _ack(player, "WeighingPerformed", round=round_number, use=use, left=left, right=right,
                result=result)


def wager_placed(round_number: int, player: str, wager: dict[str, Any], replaced: bool) -> Event:
    return _ack(player, "WagerPlaced", round=round_number, wager=wager, replaced=replaced)


def wager_cancelled(round_number: int, player: str, cancelled: bool) -> Event:
    return _ack(player, "WagerCancelled", round=round_number, cancelled=cancelled)


def _parties(transfer: Transfer) -> tuple[str, ...]:
    """A trade is shown to its counterparty so they can mirror it; a gift is silent (TM-R33)."""
    if transfer.kind == "trade":
        return (transfer.proposer, transfer.counterparty)
    return (transfer.proposer,)


def transfer_data(transfer: Transfer) -> dict[str, Any]:
    return {
        "proposer": transfer.proposer,
        "id": transfer.number,
        "kind": transfer.kind,
        "to": transfer.counterparty,
        "give": [f"T:{totem}" for totem in transfer.give],
        "receive": [f"T:{totem}" for totem in transfer.receive],
    }


def transfer_proposed(round_number: int, transfer: Transfer) -> Event:
    return _private(_parties(transfer), "TransferProposed", actor=transfer.proposer,
                    round=round_number, **transfer_data(transfer))


def transfer_cancelled(round_number: int, transfer: Transfer) -> Event:
    return _private(_parties(transfer), "TransferCancelled", actor=transfer.proposer,
                    round=round_number, proposer=transfer.proposer, id=transfer.number,
                    kind=transfer.kind)


def balance_attempted(player: str, **outcome: Any) -> Event:
    return _ack(player, "BalanceAttempted", **outcome)


def guess_recorded(player: str, target: str, totem: str) -> Event:
    return _ack(player, "GuessRecorded", target=target, totem=totem)


def guess_withdrawn(player: str, target: str | None, withdrawn: bool) -> Event:
    return _ack(player, "GuessWithdrawn", target=target, withdrawn=withdrawn)


# Deadlines


def spirit_grant_resolved(round_number: int, **grant: Any) -> Event:
    """Host only: whether the lone owed player chose or a default was drawn (section 7)."""
    return _host("SpiritGrantResolved", round=round_number, **grant)


def spirit_totem_granted(
    round_number: int, owed: list[str], recipients: list[str], pool_empty: bool
) -> Event:
    return _public("SpiritTotemGranted", round=round_number, owed=owed, recipients=recipients,
                   pool_empty=pool_empty)


def spirit_totem_received(round_number: int, player: str, totem: str, shared: bool) -> Event:
    """The totem's id, never its weight (TM-R31)."""
    return _private((player,), "SpiritTotemReceived", round=round_number, player=player,
                    totem=totem, shared=shared)


def series_bids_recorded(round_number: int, series: str, **detail: Any) -> Event:
    return _host("SeriesBidsRecorded", round=round_number, series=series, **detail)


def series_resolved(round_number: int, series: str, allocation: dict[str, str | None],
                    garnet_taker: str | None) -> Event:
    postings = [Posting(garnet_taker, "garnets", 1, "series_garnet")] if garnet_taker else []
    return _public("SeriesResolved", postings, round=round_number, series=series,
                   allocation=allocation)


def chips_updated(round_number: int, chips: dict[str, int]) -> Event:
    return _public("ChipsUpdated", round=round_number, chips=chips)


def priority_list_updated(round_number: int, priority_list: list[str]) -> Event:
    return _public("PriorityListUpdated", round=round_number, priority_list=priority_list)


def spirit_totems_owed(round_number: int, players: list[str]) -> Event:
    return _public("SpiritTotemsOwed", round=round_number, players=players)


def weighings_answered(round_number: int, player: str, results: list[dict[str, Any]]) -> Event:
    return _private((player,), "WeighingsAnswered", round=round_number, player=player,
                    results=results)


def trial_copies_destroyed(round_number: int, player: str, copies: dict[str, int]) -> Event:
    return _private((player,), "TrialCopiesDestroyed", round=round_number, player=player,
                    copies=copies)


def transfers_settled(round_number: int, player: str, **settled: Any) -> Event:
    return _private((player,), "TransfersSettled", round=round_number, player=player, **settled)


def wagers_settled(round_number: int, **detail: Any) -> Event:
    return _host("WagersSettled", round=round_number, **detail)


def wager_settled(round_number: int, player: str, cost: int, **answer: Any) -> Event:
    postings = [Posting(player, "garnets", -cost, f"{answer['kind']}_wager")] if cost else []
    return _private((player,), "WagerSettled", postings=postings, round=round_number,
                    player=player, cost=cost, **answer)


def auctions_ended(after_round: int) -> Event:
    return _public("AuctionsEnded", after_round=after_round)


def final_challenge_opened(round_number: int) -> Event:
    return _public("FinalChallengeOpened", round=round_number, trial_copies_discarded=True)


def final_pieces_issued(player: str, pieces: list[str]) -> Event:
    return _private((player,), "FinalPiecesIssued", player=player, pieces=pieces)


# Each prize of the results as (season asset, posting reason).
AWARD_POSTINGS = {
    "tol": ("tol", "winner"),
    "opal": ("opal", "winner"),
    "opal_challenge": ("opal", "opal_challenge"),
    "ec": ("ec", "elimination_candidate"),
}


def match_results(awards: Mapping[str, Mapping[str, int]], **results: Any) -> Event:
    postings = [
        Posting(player, AWARD_POSTINGS[prize][0], amount, AWARD_POSTINGS[prize][1])
        for player, prizes in awards.items()
        for prize, amount in prizes.items()
    ]
    plain = {player: dict(prizes) for player, prizes in awards.items()}
    return _public("MatchResults", postings, awards=plain, **results)


def setup_revealed(**setup: Any) -> Event:
    """The end of the match opens the sealed setup (2.3): the match discloses the sealed
    SecretSetupRecorded with its salt, so anyone can check it against its commitment."""
    return Event("SetupRevealed", setup, audience=PUBLIC, actor=SYSTEM,
                 opens=("SecretSetupRecorded",))
