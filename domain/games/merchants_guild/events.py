"""Every event the decider emits, with its audience (rulebook §9) and season postings.

One event, one audience: what a moment releases to different people goes in separate events.
Where the rules hide whether something happened (look-ups, investigations, blackmail), every
player gets their own event at the deadline, empty or not, so that the number of sealed
events never depends on it. Payloads hold only JSON values; players in seat order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.decider import HOST, PUBLIC, SYSTEM, Event, Posting


def _public(kind: str, postings: Iterable[Posting] = (), /, **data: Any) -> Event:
    return Event(kind, data, audience=PUBLIC, actor=SYSTEM, postings=tuple(postings))


def _host(kind: str, /, **data: Any) -> Event:
    return Event(kind, data, audience=HOST, actor=SYSTEM)


def _private(
    recipient: str, kind: str, /, actor: str = SYSTEM, postings: Iterable[Posting] = (), **data: Any
) -> Event:
    return Event(kind, data, audience=(recipient,), actor=actor, postings=tuple(postings))


def _spend(player: str, price: int, reason: str) -> list[Posting]:
    return [Posting(player, "garnets", -price, reason)] if price else []


# The opening


def secrets_drawn(
    pairs: list[list[int]], alignments: Mapping[str, list[str]], derived: list[str]
) -> Event:
    """Committed before anything is released (MG-R39); `derived` names what the seed drew."""
    return _host("SecretsDrawn", pairs=pairs, alignments=dict(alignments), derived=derived)


def guild_opened(catalog: list[dict[str, Any]], houses: list[dict[str, Any]]) -> Event:
    return _public("GuildOpened", bills=catalog, houses=houses)


def alignment_disclosed(player: str, houses: list[str]) -> Event:
    return _private(player, "AlignmentDisclosed", player=player, houses=houses)


def ballot_selected(week: int, selection: Sequence[Sequence[int]]) -> Event:
    """The selection order, [lead, mate] per pair: host only, it ranks priorities (MG-R7)."""
    return _host("BallotSelected", week=week, selection=[list(pair) for pair in selection])


def ballot_published(week: int, pairs: list[list[int]]) -> Event:
    return _public("BallotPublished", week=week, pairs=pairs)


# Accepted player commands: a receipt to the actor, nothing to anyone else


def vote_cast(week: int, player: str, bills: list[int]) -> Event:
    return _private(player, "VoteCast", actor=player, week=week, player=player, bills=bills)


def priority_nominated(
    week: int, player: str, bill: int, direction: str, paid: bool, price: int
) -> Event:
    return _private(
        player,
        "PriorityNominated",
        actor=player,
        postings=_spend(player, price, "paid_push"),
        week=week,
        player=player,
        bill=bill,
        direction=direction,
        paid=paid,
        price=price,
    )


def partner_lookup_requested(week: int, player: str, bill: int, price: int) -> Event:
    return _private(
        player,
        "PartnerLookupRequested",
        actor=player,
        postings=_spend(player, price, "reveal_partner"),
        week=week,
        player=player,
        bill=bill,
        price=price,
    )


def investigation_submitted(
    week: int, player: str, target: str, houses: list[str], extra: bool, price: int
) -> Event:
    return _private(
        player,
        "InvestigationSubmitted",
        actor=player,
        postings=_spend(player, price, "extra_investigation"),
        week=week,
        player=player,
        target=target,
        houses=houses,
        extra=extra,
        price=price,
    )


def blackmail_decided(week: int, player: str, target: str, proceed: bool) -> Event:
    return _private(
        player,
        "BlackmailDecided",
        actor=player,
        week=week,
        player=player,
        target=target,
        proceed=proceed,
    )


# A deadline


def week_resolved(
    week: int,
    vote_counts: list[dict[str, int]],
    passed: list[int],
    rejected: list[int],
    houses: list[dict[str, Any]],
) -> Event:
    return _public(
        "WeekResolved",
        week=week,
        vote_counts=vote_counts,
        passed=passed,
        rejected=rejected,
        houses=houses,
    )


def votes_recorded(week: int, votes: dict[str, list[int]], passes: dict[str, int]) -> Event:
    """Who voted for what, and how many of each player's votes passed: host only."""
    return _host("VotesRecorded", week=week, votes=votes, passes=passes)


def partners_revealed(week: int, player: str, answers: list[dict[str, int]]) -> Event:
    return _private(player, "PartnersRevealed", week=week, player=player, answers=answers)


def investigation_results(week: int, player: str, results: list[dict[str, Any]]) -> Event:
    return _private(player, "InvestigationResults", week=week, player=player, results=results)


def blackmail_registered(
    week: int, decisions: list[dict[str, Any]], blackmails: list[dict[str, str]]
) -> Event:
    """Every final decision (withdrawn ones too) and the registered blackmails: host only."""
    return _host("BlackmailRegistered", week=week, decisions=decisions, blackmails=blackmails)


def blackmail_notified(week: int, target: str, blackmailers: list[str]) -> Event:
    return _private(
        target, "BlackmailNotified", week=week, target=target, blackmailers=blackmailers
    )


def priorities_updated(
    week: int, nominations: list[dict[str, Any]], priorities: list[dict[str, int]]
) -> Event:
    """The week's nominations and pushes and every non-zero priority after them: host only."""
    return _host("PrioritiesUpdated", week=week, nominations=nominations, priorities=priorities)


# The settlement


def match_settled(losers: Sequence[str], **data: Any) -> Event:
    """Everything needed to verify the outcome (MG-R34); every loser is an EC (MG-R32)."""
    postings = [Posting(loser, "ec", 1, "elimination_candidate") for loser in losers]
    return _public("MatchSettled", postings, losers=list(losers), **data)


def garnets_gained(gains: list[dict[str, Any]]) -> Event:
    postings = [
        Posting(gain["player"], "garnets", gain["amount"], "gold_converted")
        for gain in gains
        if gain["amount"]
    ]
    return _public("GarnetsGained", postings, gains=gains)


def tol_awarded(player: str, count: int, reason: str, pass_count: int | None) -> Event:
    data: dict[str, Any] = {"player": player, "count": count, "reason": reason}
    if pass_count is not None:
        data["pass_count"] = pass_count
    return _public("ToLAwarded", [Posting(player, "tol", count, reason)], **data)


def totals_disclosed(player: str, **totals: int) -> Event:
    """A player's own pass count and garnet totals (rulebook §9: private at the settlement)."""
    return Event("TotalsDisclosed", {"player": player, **totals}, audience=(player,))
