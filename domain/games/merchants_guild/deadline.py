"""The host's moments: the opening (rulebook §4) and each week's deadline, in the exact order of
rulebook §4, ending in the settlement after week 8."""

from __future__ import annotations

from typing import Any

from domain.games.merchants_guild import ballot, draws, events
from domain.games.merchants_guild.guild import (
    BLACKMAIL_WEEK,
    DIRECTIONS,
    DOUBLE_PASS_VOTES,
    INVESTIGATION_WEEK,
    PAIRS_PER_WEEK,
    WEEKS,
)
from domain.games.merchants_guild.houses import apply_bills, listed, opening_houses
from domain.games.merchants_guild.settlement import settle
from domain.games.merchants_guild.state import Investigation, State
from domain.games.merchants_guild.turn import Turn


def open_guild(turn: Turn) -> None:
    """Commit the secrets first (MG-R39), then publish, then tell each player their houses."""
    state = turn.state
    setup = state.setup
    aligned = draws.alignments(setup, state.seed)
    derived = [name for name in ("pairs", "alignments") if getattr(setup, name) is None]
    turn.emit(events.secrets_drawn(draws.pairs(setup, state.seed), aligned, derived))
    selection = ballot.first_week(setup.week1_leads, turn.state.partners)
    turn.emit(events.ballot_selected(1, selection))
    turn.emit(events.guild_opened(setup.catalog(), listed(opening_houses())))
    turn.emit(events.ballot_published(1, ballot.listing(selection)))
    for player in state.players:
        turn.emit(events.alignment_disclosed(player, aligned[player]))


def close_week(turn: Turn) -> None:
    week = turn.state.week
    resolve_votes(turn)
    if lookups_are_open(turn.state):
        answer_lookups(turn)
    if week == INVESTIGATION_WEEK:
        report_investigations(turn)
    if week == BLACKMAIL_WEEK:
        register_blackmail(turn)
    if week < WEEKS:
        open_next_week(turn)
    else:
        publish_settlement(turn)


def resolve_votes(turn: Turn) -> None:
    """Count, decide each pair, apply the passed bills in ascending number, count passes."""
    state = turn.state
    counts = dict.fromkeys(state.on_ballot(), 0)
    for player in state.players:
        for bill in state.votes.get(player, ()):
            counts[bill] += 1
    passed = sorted(bill for pair in state.ballot for bill in pair_outcome(pair, counts))
    rejected = sorted(bill for bill in counts if bill not in passed)
    houses = apply_bills(state.houses, [state.bill(bill) for bill in passed])
    vote_counts = [{"bill": bill, "votes": counts[bill]} for bill in sorted(counts)]
    turn.emit(events.week_resolved(state.week, vote_counts, passed, rejected, listed(houses)))
    votes = {player: list(state.votes.get(player, ())) for player in state.players}
    passes = {player: sum(bill in passed for bill in votes[player]) for player in state.players}
    turn.emit(events.votes_recorded(state.week, votes, passes))


def pair_outcome(pair: tuple[int, int], counts: dict[int, int]) -> list[int]:
    """More votes passes; exactly 4-4 passes both; any other tie rejects both (MG-R9)."""
    first, second = pair
    if counts[first] != counts[second]:
        return [first if counts[first] > counts[second] else second]
    return [first, second] if counts[first] == DOUBLE_PASS_VOTES else []


def lookups_are_open(state: State) -> bool:
    return state.week < WEEKS or state.setup.week8_selection_actions == "allow"


def answer_lookups(turn: Turn) -> None:
    """Every player gets an answer event, empty if they bought nothing (leak safety)."""
    state = turn.state
    for player in state.players:
        answers = [
            {"bill": bill, "partner": state.partners[bill]}
            for bill in state.lookups.get(player, ())
        ]
        turn.emit(events.partners_revealed(state.week, player, answers))


def report_investigations(turn: Turn) -> None:
    """Free before extra; `matched` in the order named (MG-R38). Every player is answered."""
    state = turn.state
    for player in state.players:
        free = state.investigations.get(player)
        asked = [("free", free)] if free else []
        asked += [("extra", extra) for extra in state.extras.get(player, ())]
        results = [investigation_result(state, kind, found) for kind, found in asked]
        turn.emit(events.investigation_results(state.week, player, results))


def investigation_result(
    state: State, kind: str, investigation: Investigation
) -> dict[str, Any]:
    aligned = state.alignments[investigation.target]
    matched = [house for house in investigation.houses if house in aligned]
    return {
        "kind": kind,
        "target": investigation.target,
        "named": list(investigation.houses),
        "matched": matched,
        "blackmail_right": len(matched) == len(investigation.houses),
    }


def register_blackmail(turn: Turn) -> None:
    """Every decision still `proceed` is registered; each target learns their blackmailers."""
    state = turn.state
    players = state.players
    decisions = [
        {
            "blackmailer": blackmailer,
            "target": target,
            "proceed": state.decisions[blackmailer][target],
        }
        for blackmailer in players
        if blackmailer in state.decisions
        for target in players
        if target in state.decisions[blackmailer]
    ]
    blackmailers_of = {
        target: [b for b in players if state.decisions.get(b, {}).get(target) is True]
        for target in players
    }
    registered = [
        {"target": target, "blackmailers": blackmailers_of[target]}
        for target in players
        if blackmailers_of[target]
    ]
    turn.emit(events.blackmail_registered(state.week, decisions, registered))
    for target in players:
        turn.emit(events.blackmail_notified(state.week, target, blackmailers_of[target]))


def open_next_week(turn: Turn) -> None:
    """Add this week's nominations and pushes, select and publish the next ballot (§7.7)."""
    update_priorities(turn)
    state = turn.state
    selection = ballot.select(state.priorities, state.partners, state.presented, PAIRS_PER_WEEK)
    turn.emit(events.ballot_selected(state.week + 1, selection))
    turn.emit(events.ballot_published(state.week + 1, ballot.listing(selection)))


def update_priorities(turn: Turn) -> None:
    """Each player's free nomination, then their paid push, each moving one bill by 1."""
    state = turn.state
    applied = [
        {"player": player, "bill": bill, "direction": direction, "paid": paid}
        for player in state.players
        for paid, chosen in ((False, state.nominations), (True, state.pushes))
        if player in chosen
        for bill, direction in [chosen[player]]
    ]
    priorities = dict(state.priorities)
    for choice in applied:
        bill = choice["bill"]
        priorities[bill] = priorities.get(bill, 0) + DIRECTIONS[choice["direction"]]
    nonzero = [{"bill": b, "priority": p} for b, p in sorted(priorities.items()) if p]
    turn.emit(events.priorities_updated(state.week, applied, nonzero))


def publish_settlement(turn: Turn) -> None:
    state = turn.state
    outcome = settle(state)
    turn.emit(
        events.match_settled(
            outcome.losers,
            outcome=outcome.outcome,
            ranking=outcome.ranking,
            gold=outcome.gold,
            blackmails=outcome.blackmails,
            transfers=outcome.transfers,
            winners=outcome.winners,
            alignments={player: list(state.alignments[player]) for player in state.players},
            pairing=[[bill, mate] for bill, mate in sorted(state.partners.items()) if bill < mate],
            never_presented=sorted(set(state.partners) - state.presented),
            awards=[
                {"player": a.player, "count": a.count, "reason": a.reason} for a in outcome.awards
            ],
        )
    )
    gains = [{"player": p, "amount": outcome.gained(p)} for p in state.players]
    turn.emit(events.garnets_gained(gains))
    for award in outcome.awards:
        turn.emit(events.tol_awarded(award.player, award.count, award.reason, award.pass_count))
    for player in state.players:
        spent, gained = state.spent.get(player, 0), outcome.gained(player)
        turn.emit(
            events.totals_disclosed(
                player,
                pass_count=state.pass_counts.get(player, 0),
                garnets_spent=spent,
                garnets_gained=gained,
                garnet_delta=gained - spent,
                final_balance=turn.balance(player),
            )
        )
