"""The summary of what one viewer saw, one event at a time: `summary_start(viewer)`, then
`summary_step(view, event)` for each event the viewer may see (the projections keep the view
and step it as entries arrive).

The framework passes only what `viewer` may see, so this reads nothing but its arguments: a
player's summary holds their own starting totem, weighings and answers because only those
reached them. A step appends or sets; it never reads back the view's growing lists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.decider import Event

View = dict[str, Any]
Data = Mapping[str, Any]

# `phase` names the part of the match open now (docs/games/totemic_might.md 3.5).
NOT_STARTED, OVER = "not_started", "over"


def summary_start(viewer: str) -> View:
    return {
        "viewer": viewer,
        "round": 0,
        "phase": NOT_STARTED,
        "series": None,
        "chips": {},
        "priority_list": [],
        "garnets_start": {},
        "starting_totems": {},  # player -> {totem, weight?}, as far as the viewer was told
        "spirit_totems": {},  # player -> totems told
        "pool_shown": None,
        "auctions": [],  # {round, series, allocation}
        "spirit_grants": [],  # {round, owed, recipients, pool_empty}
        "submissions": [],  # the viewer's own acknowledged submissions
        "weighings": [],
        "wager_answers": [],
        "transfers": [],
        "final_pieces": {},
        "attempts": [],
        "results": None,
        "setup": None,  # the secret setup: the host's from the start, everyone's at the end
        "garnets": {},  # player -> [{amount, reason}]
    }


def summary_step(view: View, event: Event) -> None:
    handler = FOLDS.get(event.kind)
    if handler:
        handler(view, event.data)
    for posting in event.postings:
        if posting.asset == "garnets":
            change = {"amount": posting.amount, "reason": posting.reason}
            view["garnets"].setdefault(posting.player, []).append(change)


def game_opened(view: View, data: Data) -> None:
    view.update(
        chips=dict(data["chips"]),
        priority_list=list(data["priority_list"]),
        garnets_start=dict(data["garnets_start"]),
    )


def starting_totem_dealt(view: View, data: Data) -> None:
    view["starting_totems"][data["player"]] = {"totem": data["totem"], "weight": data["weight"]}
    view["spirit_totems"].setdefault(data["player"], []).insert(0, data["totem"])


def round_opened(view: View, data: Data) -> None:
    view.update(round=data["round"], phase=data["round_type"], series=data["series"],
                pool_shown=None)


def spirit_totem_received(view: View, data: Data) -> None:
    view["spirit_totems"].setdefault(data["player"], []).append(data["totem"])


def record(
    key: str, *fields: str, kind: str | None = None, unless_empty: str | None = None
) -> Callable[[View, Data], None]:
    """Append the named fields of an event (tagged with `kind` if given) to a list; with
    `unless_empty`, only when that field holds something (a deadline's "nothing for you")."""

    def fold(view: View, data: Data) -> None:
        if unless_empty and not data.get(unless_empty):
            return
        entry = {field: data.get(field) for field in fields}
        view[key].append({"kind": kind, **entry} if kind else entry)

    return fold


def set_value(key: str, field: str) -> Callable[[View, Data], None]:
    def fold(view: View, data: Data) -> None:
        view[key] = data[field]

    return fold


def final_challenge_opened(view: View, data: Data) -> None:
    view.update(round=data["round"], phase="final_challenge", series=None)


def final_pieces_issued(view: View, data: Data) -> None:
    view["final_pieces"][data["player"]] = list(data["pieces"])


def match_results(view: View, data: Data) -> None:
    view["results"] = dict(data)
    view["phase"] = OVER
    for player, totem in data["starting_totems"].items():
        view["starting_totems"].setdefault(player, {})["totem"] = totem


def secret_setup(view: View, data: Data) -> None:
    view["setup"] = dict(data)


def abandoned(view: View, data: Data) -> None:
    """The host ended the match early (the match's own event): nothing is open any more."""
    view["phase"] = OVER


FOLDS: dict[str, Callable[[View, Data], None]] = {
    "SecretSetupRecorded": secret_setup,
    "SetupRevealed": secret_setup,
    "GameOpened": game_opened,
    "StartingTotemDealt": starting_totem_dealt,
    "RoundOpened": round_opened,
    "SpiritPoolShown": set_value("pool_shown", "pool"),
    "SpiritTotemReceived": spirit_totem_received,
    "SpiritTotemGranted": record("spirit_grants", "round", "owed", "recipients", "pool_empty"),
    "SeriesResolved": record("auctions", "round", "series", "allocation"),
    "ChipsUpdated": set_value("chips", "chips"),
    "PriorityListUpdated": set_value("priority_list", "priority_list"),
    "BetPlaced": record("submissions", "round", "series", "amount", kind="bet"),
    "PickOrderSet": record("submissions", "round", "series", "order", kind="pick_order"),
    "SpiritChoiceMade": record("submissions", "round", "totem", kind="spirit_choice"),
    "WagerPlaced": record("submissions", "round", "player", "wager", kind="wager"),
    "WagerCancelled": record("submissions", "round", "player", "cancelled", kind="cancel_wager"),
    "TransferProposed": record("submissions", "round", "proposer", "id", "kind", "to", "give",
                               "receive", kind="transfer"),
    "TransferCancelled": record("submissions", "round", "proposer", "id", kind="cancel_transfer"),
    "GuessRecorded": record("submissions", "player", "target", "totem", kind="guess"),
    "GuessWithdrawn": record("submissions", "player", "target", "withdrawn",
                             kind="withdraw_guess"),
    "WeighingPerformed": record("weighings", "round", "player", "use", "left", "right", "result"),
    "WeighingsAnswered": record("weighings", "round", "player", "results", kind="at_deadline"),
    "WagerSettled": record("wager_answers", "round", "player", "kind", "took_place", "answer",
                           "letter", "bumped", "hint", "lift", "balloon", "cost", "lapsed",
                           unless_empty="kind"),
    "TransfersSettled": record("transfers", "round", "player", "transfers", "copies_in",
                               "copies_out", unless_empty="transfers"),
    "FinalChallengeOpened": final_challenge_opened,
    "FinalPiecesIssued": final_pieces_issued,
    "BalanceAttempted": record("attempts", "player", "attempt", "balanced", "failure_marks",
                               "final_weight"),
    "MatchResults": match_results,
    "MatchAbandoned": abandoned,
}
