"""evolve(state, event) -> state: pure and total, reads only the event record, never draws.

Event data may come back from storage as plain JSON (lists, string keys), so every handler
reads lists and builds its own tuples, sets and dicts. Kinds without a handler change nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from domain.decider import Event
from domain.games.merchants_guild.houses import from_listing
from domain.games.merchants_guild.state import Investigation, State

Data = Mapping[str, Any]


def evolve(state: State, event: Event) -> State:
    handler = HANDLERS.get(event.kind)
    return handler(state, event.data) if handler else state


def _plus(counts: Mapping[str, int], player: str, amount: int) -> dict[str, int]:
    return {**counts, player: counts.get(player, 0) + amount}


def secrets_drawn(state: State, data: Data) -> State:
    partners = {}
    for lower, higher in data["pairs"]:
        partners[lower], partners[higher] = higher, lower
    alignments = {player: tuple(houses) for player, houses in data["alignments"].items()}
    return replace(state, partners=partners, alignments=alignments)


def guild_opened(state: State, data: Data) -> State:
    return replace(state, houses=from_listing(data["houses"]))


def ballot_published(state: State, data: Data) -> State:
    """A new week opens: its ballot is presented and last week's submissions are spent."""
    ballot = tuple((lower, higher) for lower, higher in data["pairs"])
    return replace(
        state,
        week=data["week"],
        ballot=ballot,
        presented=state.presented | {bill for pair in ballot for bill in pair},
        votes={},
        nominations={},
        pushes={},
        lookups={},
    )


def vote_cast(state: State, data: Data) -> State:
    return replace(state, votes={**state.votes, data["player"]: tuple(data["bills"])})


def priority_nominated(state: State, data: Data) -> State:
    player, choice = data["player"], (data["bill"], data["direction"])
    if data["paid"]:
        spent = _plus(state.spent, player, data["price"])
        return replace(state, pushes={**state.pushes, player: choice}, spent=spent)
    return replace(state, nominations={**state.nominations, player: choice})


def partner_lookup_requested(state: State, data: Data) -> State:
    player = data["player"]
    asked = (*state.lookups.get(player, ()), data["bill"])
    spent = _plus(state.spent, player, data["price"])
    return replace(state, lookups={**state.lookups, player: asked}, spent=spent)


def investigation_submitted(state: State, data: Data) -> State:
    player = data["player"]
    investigation = Investigation(data["target"], tuple(data["houses"]))
    if not data["extra"]:
        return replace(state, investigations={**state.investigations, player: investigation})
    extras = {**state.extras, player: (*state.extras.get(player, ()), investigation)}
    return replace(state, extras=extras, spent=_plus(state.spent, player, data["price"]))


def blackmail_decided(state: State, data: Data) -> State:
    player = data["player"]
    mine = {**state.decisions.get(player, {}), data["target"]: data["proceed"]}
    return replace(state, decisions={**state.decisions, player: mine})


def week_resolved(state: State, data: Data) -> State:
    passed = (*state.passed, tuple(data["passed"]))
    return replace(state, houses=from_listing(data["houses"]), passed=passed)


def votes_recorded(state: State, data: Data) -> State:
    counts = dict(state.pass_counts)
    for player, passes in data["passes"].items():
        counts = _plus(counts, player, passes)
    return replace(state, pass_counts=counts)


def partners_revealed(state: State, data: Data) -> State:
    player = data["player"]
    learned = {bill for answer in data["answers"] for bill in (answer["bill"], answer["partner"])}
    known = {
        **state.known_partners,
        player: state.known_partners.get(player, frozenset()) | learned,
    }
    return replace(state, known_partners=known)


def investigation_results(state: State, data: Data) -> State:
    gained = {(data["player"], r["target"]) for r in data["results"] if r["blackmail_right"]}
    return replace(state, rights=state.rights | gained)


def blackmail_registered(state: State, data: Data) -> State:
    blackmails = tuple(
        (blackmailer, entry["target"])
        for entry in data["blackmails"]
        for blackmailer in entry["blackmailers"]
    )
    return replace(state, blackmails=blackmails)


def priorities_updated(state: State, data: Data) -> State:
    priorities = {entry["bill"]: entry["priority"] for entry in data["priorities"]}
    return replace(state, priorities=priorities)


def match_settled(state: State, data: Data) -> State:
    return replace(state, over=True, settlement=dict(data))


HANDLERS: dict[str, Callable[[State, Data], State]] = {
    "SecretsDrawn": secrets_drawn,
    "GuildOpened": guild_opened,
    "BallotPublished": ballot_published,
    "VoteCast": vote_cast,
    "PriorityNominated": priority_nominated,
    "PartnerLookupRequested": partner_lookup_requested,
    "InvestigationSubmitted": investigation_submitted,
    "BlackmailDecided": blackmail_decided,
    "WeekResolved": week_resolved,
    "VotesRecorded": votes_recorded,
    "PartnersRevealed": partners_revealed,
    "InvestigationResults": investigation_results,
    "BlackmailRegistered": blackmail_registered,
    "PrioritiesUpdated": priorities_updated,
    "MatchSettled": match_settled,
}
