"""A viewer's summary, one event at a time: summary_start, then summary_step for each event.

The framework hands over only the events `viewer` may see, so this reads nothing but them: a
player's summary holds their own role, answers and list names because only those reached them.
Each step costs the same however long the match: it appends, or looks at the last entry only.
The view is plain JSON (string keys, lists), because the projections store it between steps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.decider import Event
from domain.games.kings_court.phases import (
    AWAITING_DMO,
    BETWEEN_GAMES,
    DEADLOCK_COIN,
    EC_VOTE,
    ELECTION,
    KING_GIFT,
    NOT_STARTED,
    OVER,
    TIEBREAK,
)

View = dict[str, Any]
Data = Mapping[str, Any]


def summary_start(viewer: str) -> View:
    return {
        "viewer": viewer,
        "players": [],  # seat order, from the match's public creation entry
        "game": 0,
        "round": 0,
        "phase": NOT_STARTED,  # the phase open now: the names of docs/games/kings_court.md 5.7
        "court": [],  # the running (or last) game's court, joining order
        "courts": {},  # game -> its court, joining order
        "kings": [],  # {game, king, early}
        "rounds": [],  # {game, round, counts, tied, joined}
        "roles": {},  # game -> {player: role}, as far as the viewer was told
        "annoyed": {},  # game -> {duke, noble}, as far as the viewer was told
        "list_names": {},  # game -> {player: names released so far}
        "votes": [],
        "receipts": [],  # accepted submissions other than votes
        "answers": [],  # the Judge's answers: looks, pair checks, peeks, annoyed checks
        "missed_votes": [],
        "tiebreaks": [],  # how each tie-break was resolved (host only)
        "garnets": {},  # player -> [{amount, reason}]
        "end": {},
    }


def summary_step(view: View, event: Event) -> None:
    handler = FOLDS.get(event.kind)
    if handler:
        handler(view, event.data)
    for posting in event.postings:
        if posting.asset == "garnets":
            change = {"amount": posting.amount, "reason": posting.reason}
            view["garnets"].setdefault(posting.player, []).append(change)


def _in_game(view: View, key: str, game: int) -> dict[str, Any]:
    entry: dict[str, Any] = view[key].setdefault(str(game), {})
    return entry


def match_created(view: View, data: Data) -> None:
    view["players"] = list(data["players"])


def match_closed(view: View, data: Data) -> None:
    """The match's own end (after the DMO or the fourth early King) or an abandon."""
    view["phase"] = OVER


def game_started(view: View, data: Data) -> None:
    view.update(game=data["game"], round=0, court=[])
    view["courts"][str(data["game"])] = []


def roles_drawn(view: View, data: Data) -> None:
    _in_game(view, "roles", data["game"]).update(data["roles"])
    annoyed = {"duke": data["annoyed_duke"], "noble": data["annoyed_noble"]}
    _in_game(view, "annoyed", data["game"]).update(annoyed)


def lists_drawn(view: View, data: Data) -> None:
    _in_game(view, "list_names", data["game"]).update(
        {owner: list(names) for owner, names in data["lists"].items()}
    )


def role_disclosed(view: View, data: Data) -> None:
    _in_game(view, "roles", data["game"])[data["player"]] = data["role"]


def round_opened(view: View, data: Data) -> None:
    view.update(round=data["round"], phase=ELECTION)


def votes_tallied(view: View, data: Data) -> None:
    entry = {
        "game": data["game"],
        "round": data["round"],
        "counts": dict(data["counts"]),
        "tied": list(data["tied"]),
        "joined": None,
    }
    view["rounds"].append(entry)
    if data["tied"]:
        view["phase"] = TIEBREAK


def member_joined(view: View, data: Data) -> None:
    view["court"] = list(data["court"])
    view["courts"][str(data["game"])] = list(data["court"])
    last = view["rounds"][-1] if view["rounds"] else None
    if (
        last
        and (last["game"], last["round"]) == (data["game"], data["round"])
        and data["via"] != "alone"
    ):
        last["joined"] = data["player"]
    if data["is_king"]:
        view["kings"].append({"game": data["game"], "king": data["player"], "early": None})


def list_name_released(view: View, data: Data) -> None:
    names = _in_game(view, "list_names", data["game"]).setdefault(data["player"], [])
    if data["name"] not in names:  # the host already holds the whole list (three names)
        names.append(data["name"])


def early_king_found(view: View, data: Data) -> None:
    view["kings"][-1]["early"] = True
    view["phase"] = BETWEEN_GAMES


def game_ended(view: View, data: Data) -> None:
    view["kings"][-1]["early"] = False
    _in_game(view, "roles", data["game"]).update(data["roles"])
    annoyed = {"duke": data["annoyed_duke"], "noble": data["annoyed_noble"]}
    _in_game(view, "annoyed", data["game"]).update(annoyed)
    view["end"].update(
        {
            key: data[key]
            for key in (
                "winner",
                "dukes_in_court",
                "nobles_in_court",
                "king_garnets",
                "opal",
                "ec_scores",
                "ec_tied",
            )
        }
    )
    view["phase"] = KING_GIFT if data["winner"] == "king" else EC_VOTE


def record(key: str, kind: str | None, *fields: str) -> Callable[[View, Data], None]:
    """Append the named fields of an event (tagged with `kind` if given) to a list of the view."""

    def fold(view: View, data: Data) -> None:
        entry = {field: data[field] for field in fields}
        view[key].append({"kind": kind, **entry} if kind else entry)

    return fold


def set_end(key: str | None, *fields: str, phase: str) -> Callable[[View, Data], None]:
    """Store the named fields of an event under `end` (or `end[key]`) and move the phase on."""

    def fold(view: View, data: Data) -> None:
        values = {field: data[field] for field in fields}
        view["end"].update({key: values} if key else values)
        view["phase"] = phase

    return fold


def awards_granted(view: View, data: Data) -> None:
    view["end"]["awards"] = {player: dict(prizes) for player, prizes in data["awards"].items()}


def ec_decided(view: View, data: Data) -> None:
    ballots = {key: data[key] for key in ("counts", "needed", "garnets")}
    view["end"].update(ec=data["ec"], ec_decided_by=data["decided_by"], ec_vote=ballots)
    view["phase"] = AWAITING_DMO


FOLDS: dict[str, Callable[[View, Data], None]] = {
    "MatchCreated": match_created,
    "MatchEnded": match_closed,
    "MatchAbandoned": match_closed,
    "GameStarted": game_started,
    "GameRolesDrawn": roles_drawn,
    "GameListsDrawn": lists_drawn,
    "RoleDisclosed": role_disclosed,
    "RoundOpened": round_opened,
    "VoteCast": record("votes", None, "game", "round", "voter", "candidate"),
    "PairCheckSubmitted": record("receipts", "pair_check", "game", "round", "targets"),
    "TiebreakChosen": record("receipts", "tiebreak", "game", "round", "choice"),
    "KingGiftChosen": record("receipts", "king_gift", "duke", "noble"),
    "EcBallotCast": record("receipts", "ec_vote", "voter", "candidate"),
    "KingLookAnswered": record("answers", "king_look", "game", "targets", "roles_shown"),
    "PairCheckAnswered": record("answers", "pair_check", "game", "round", "targets", "result"),
    "PeekAnswered": record("answers", "peek", "game", "peeker", "target", "role_shown"),
    "AnnoyedCheckAnswered": record("answers", "annoyed_check", "game", "player", "annoyed"),
    "MissedVotePenalised": record("missed_votes", None, "game", "round", "player", "amount"),
    "TiebreakResolved": record("tiebreaks", None, "game", "round", "tied", "choice", "defaulted"),
    "VotesTallied": votes_tallied,
    "MemberJoined": member_joined,
    "ListNameReleased": list_name_released,
    "EarlyKingFound": early_king_found,
    "MainMatchEnded": set_end(None, "outcome", "death_match", phase=OVER),
    "GameEnded": game_ended,
    "AwardsGranted": awards_granted,
    "KingGiftMade": set_end("king_gift", "duke", "noble", "defaulted", phase=EC_VOTE),
    "DeadlockCoinOpened": set_end(
        "deadlock_coin", "candidates", "counts", "needed", "garnets", phase=DEADLOCK_COIN
    ),
    "EcDecided": ec_decided,
    "DmoRecorded": set_end(None, "dmo", phase=OVER),
}
