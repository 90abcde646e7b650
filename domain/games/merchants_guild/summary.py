"""The viewer's summary, one event at a time: `summary_start(viewer)` and
`summary_step(view, event)`; `summarize` folds them over a list.

The framework passes only what `viewer` may see, so this reads nothing but its arguments: a
player's summary holds their own houses, receipts and answers because only those reached them.
A step costs the same at the first entry as at the last: it appends, replaces or updates by key,
and never walks a list that grows with the match (the known pairs are at most 30).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.decider import Event, fold_summary
from domain.games.merchants_guild.guild import BLACKMAIL_WEEK, INVESTIGATION_WEEK, WEEKS

View = dict[str, Any]
Data = Mapping[str, Any]

# The phase open now, in the rulebook's words (§4).
PHASE_OF_WEEK = {INVESTIGATION_WEEK: "investigation_week", BLACKMAIL_WEEK: "blackmail_week",
                 WEEKS: "final_week"}


def summary_start(viewer: str) -> View:
    return {
        "viewer": viewer,
        "players": [],  # seat order, from the match's public creation entry
        "phase": "configured",
        "week": 0,
        "bills": [],  # the catalog
        "houses": [],  # the house state now
        "ballot": [],  # this week's pairs
        "weeks": [],  # {week, vote_counts, passed, rejected, houses}
        "alignments": {},  # player -> houses, as far as the viewer was told
        "pairs": [],  # pairs the viewer knows: drawn (host), looked up, or all at the end
        "votes": {},  # week -> {player: bills}: own receipts, or everyone's for the host
        "receipts": [],  # nominations, pushes, look-ups, investigations, blackmail decisions
        "investigation_results": [],
        "blackmailers": {},  # target -> blackmailers, as far as the viewer was told
        "priorities": [],  # host only
        "garnets": {},  # player -> [{amount, reason}]
        "settlement": {},
        "totals": {},  # player -> own pass count and garnet totals
    }


def summary_step(view: View, event: Event) -> None:
    handler = FOLDS.get(event.kind)
    if handler:
        handler(view, event.data)
    for posting in event.postings:
        if posting.asset == "garnets":
            change = {"amount": posting.amount, "reason": posting.reason}
            view["garnets"].setdefault(posting.player, []).append(change)


def summarize(events: Sequence[Event], viewer: str) -> View:
    return fold_summary(sys.modules[__name__], events, viewer)


def secrets_drawn(view: View, data: Data) -> None:
    view["alignments"].update({p: list(houses) for p, houses in data["alignments"].items()})
    view["pairs"] = [list(pair) for pair in data["pairs"]]


def guild_opened(view: View, data: Data) -> None:
    view.update(bills=list(data["bills"]), houses=list(data["houses"]))


def ballot_published(view: View, data: Data) -> None:
    week = data["week"]
    phase = PHASE_OF_WEEK.get(week, "week")
    view.update(phase=phase, week=week, ballot=[list(pair) for pair in data["pairs"]])


def alignment_disclosed(view: View, data: Data) -> None:
    view["alignments"][data["player"]] = list(data["houses"])


def vote_cast(view: View, data: Data) -> None:
    view["votes"].setdefault(str(data["week"]), {})[data["player"]] = list(data["bills"])


def votes_recorded(view: View, data: Data) -> None:
    view["votes"][str(data["week"])] = {p: list(bills) for p, bills in data["votes"].items()}


def receipt(kind: str, *fields: str) -> Callable[[View, Data], None]:
    def fold(view: View, data: Data) -> None:
        view["receipts"].append({"kind": kind, **{key: data[key] for key in fields}})

    return fold


def week_resolved(view: View, data: Data) -> None:
    keys = ("week", "vote_counts", "passed", "rejected", "houses")
    view["weeks"].append({key: data[key] for key in keys})
    view["houses"] = list(data["houses"])


def match_created(view: View, data: Data) -> None:
    view["players"] = list(data["players"])


def partners_revealed(view: View, data: Data) -> None:
    for answer in data["answers"]:
        pair = sorted((answer["bill"], answer["partner"]))
        if pair not in view["pairs"]:
            view["pairs"].append(pair)


def investigation_results(view: View, data: Data) -> None:
    view["investigation_results"].extend(
        {"player": data["player"], **result} for result in data["results"]
    )


def blackmail_notified(view: View, data: Data) -> None:
    view["blackmailers"][data["target"]] = list(data["blackmailers"])


def priorities_updated(view: View, data: Data) -> None:
    view["priorities"] = list(data["priorities"])


def match_settled(view: View, data: Data) -> None:
    view["phase"] = "over"
    view["settlement"] = dict(data)
    view["alignments"] = {p: list(houses) for p, houses in data["alignments"].items()}
    view["pairs"] = [list(pair) for pair in data["pairing"]]
    view["blackmailers"] = {
        entry["target"]: list(entry["blackmailers"]) for entry in data["blackmails"]
    }


def match_abandoned(view: View, data: Data) -> None:
    """The framework's early end (the host's `end`): no settlement follows."""
    view["phase"] = "abandoned"


def totals_disclosed(view: View, data: Data) -> None:
    view["totals"][data["player"]] = {k: v for k, v in data.items() if k != "player"}


FOLDS: dict[str, Callable[[View, Data], None]] = {
    "SecretsDrawn": secrets_drawn,
    "GuildOpened": guild_opened,
    "BallotPublished": ballot_published,
    "AlignmentDisclosed": alignment_disclosed,
    "VoteCast": vote_cast,
    "VotesRecorded": votes_recorded,
    "PriorityNominated": receipt("nomination", "week", "player", "bill", "direction", "paid"),
    "PartnerLookupRequested": receipt("partner_lookup", "week", "player", "bill"),
    "InvestigationSubmitted": receipt(
        "investigation", "week", "player", "target", "houses", "extra"
    ),
    "BlackmailDecided": receipt("blackmail", "week", "player", "target", "proceed"),
    "WeekResolved": week_resolved,
    "PartnersRevealed": partners_revealed,
    "InvestigationResults": investigation_results,
    "BlackmailNotified": blackmail_notified,
    "PrioritiesUpdated": priorities_updated,
    "MatchSettled": match_settled,
    "TotalsDisclosed": totals_disclosed,
    "MatchCreated": match_created,
    "MatchAbandoned": match_abandoned,
}
