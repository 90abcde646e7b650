"""The viewer's summary, one event at a time: summary_start(viewer), then summary_step(view,
event) for each event the viewer may see (the package's `summarize` folds the two).

The framework passes only what `viewer` may see, so this reads nothing but its arguments: a
player's summary holds his own submissions, spending and Chip Thief points because only those
reached him; the host's holds everything. A step costs the same at any length of the match: it
appends or replaces, and finds the round it adds to at the end of `rounds`, never by a search.
`phase` follows the game (rulebook 3.8): not_started, pregame, round, resolving, scored,
ec_decision, over.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.decider import HOST, Event

View = dict[str, Any]
Data = Mapping[str, Any]


def summary_start(viewer: str) -> View:
    return {
        "viewer": viewer,
        "phase": "not_started",
        "round": 0,
        "players": [],
        "twists": {"mm_winner": None, "dm_winner": None},  # who may set the order, the teams
        "variants": {},
        "gamewide_tiebreak": None,
        "teams": None,
        "garnet_rate": None,
        "tiles": [],  # the open round's, in resolution order
        "ma_order": [],
        "balances": {},
        "kong_points": {},
        "ma_tiles": {},  # player -> tiles taken so far
        "tokens": {"top_investor": {}, "miser": {}},
        "rounds": [],  # each resolved round's public results
        "garnets_held": {},
        "submissions": [],  # accepted commands the viewer may see
        "spending": [],  # MoneySpent the viewer may see
        "chip_thief_points": [],
        "host_notes": [],  # host-only records, by kind
        "end": {},
    }


def summary_step(view: View, event: Event) -> None:
    handler = FOLDS.get(event.kind)
    if handler:
        handler(view, event.data)
    elif event.audience == HOST:
        view["host_notes"].append({"kind": event.kind, **event.data})


def _round(view: View, number: int) -> dict[str, Any]:
    if not view["rounds"] or view["rounds"][-1]["round"] != number:
        view["rounds"].append({"round": number, "tiles": {}})
    latest: dict[str, Any] = view["rounds"][-1]
    return latest


def opened(view: View, data: Data) -> None:
    view.update(phase="pregame", players=list(data["players"]))
    view["gamewide_tiebreak"] = data["gamewide_tiebreak"]
    view["twists"] = {"mm_winner": data["mm_winner"], "dm_winner": data["dm_winner"]}
    view["variants"] = dict(data["variants"])
    view["balances"] = dict.fromkeys(data["players"], data["starting_money"])
    view["ma_tiles"] = {player: [] for player in data["players"]}
    view["tokens"] = {
        "top_investor": dict.fromkeys(data["players"], 0),
        "miser": dict.fromkeys(data["players"], 0),
    }


def garnets_held(view: View, data: Data) -> None:
    view["garnets_held"][data["player"]] = data["garnets"]


def pregame_closed(view: View, data: Data) -> None:
    view.update(
        gamewide_tiebreak=list(data["gamewide_tiebreak"]),
        teams={team: list(members) for team, members in data["teams"].items()},
        garnet_rate=data["garnet_rate"],
        ma_order=list(data["ma_initial_order"]),
        kong_points={team: 0 for team in data["teams"]},
    )


def round_opened(view: View, data: Data) -> None:
    view.update(
        phase="round",
        round=data["round"],
        tiles=list(data["tiles"]),
        ma_order=list(data["ma_order"]),
    )


def submitted(kind: str) -> Callable[[View, Data], None]:
    def fold(view: View, data: Data) -> None:
        view["submissions"].append({"kind": kind, **data})

    return fold


def round_locked(view: View, data: Data) -> None:
    view["phase"] = "resolving"
    _round(view, data["round"])


def kong_round(view: View, data: Data) -> None:
    view["kong_points"] = dict(data["points"])
    _round(view, data["round"])["kong"] = {
        key: data[key] for key in ("result", "losing_team_total", "tie_total")
    }


def tile_awarded(view: View, data: Data) -> None:
    _round(view, data["round"])["tiles"][str(data["tile"])] = data["winner"]
    view["ma_tiles"].setdefault(data["winner"], []).append(data["tile"])


def ma_round_closed(view: View, data: Data) -> None:
    view["ma_order"] = list(data["order_after"])
    _round(view, data["round"])["ma_order_after"] = list(data["order_after"])


def tokens_awarded(view: View, data: Data) -> None:
    entry = _round(view, data["round"])
    entry.update(top_investor=data["top_investor"], misers=list(data["misers"]))
    tokens = view["tokens"]
    if data["top_investor"]:
        top = data["top_investor"]
        tokens["top_investor"][top] = tokens["top_investor"].get(top, 0) + 1
    for miser in data["misers"]:
        tokens["miser"][miser] = tokens["miser"].get(miser, 0) + 1


def chip_thief_round(view: View, data: Data) -> None:
    _round(view, data["round"]).update(roles=dict(data["roles"]), chips=dict(data["chips"]))


def penalties(view: View, data: Data) -> None:
    _round(view, data["round"])["penalised"] = list(data["penalised"])


def balances_revealed(view: View, data: Data) -> None:
    view["balances"] = dict(data["balances"])
    _round(view, data["round"])["balances"] = dict(data["balances"])


def record(key: str) -> Callable[[View, Data], None]:
    def fold(view: View, data: Data) -> None:
        view[key].append(dict(data))

    return fold


def subgame_ranked(view: View, data: Data) -> None:
    view["phase"] = "scored"
    rankings = view["end"].setdefault("rankings", {})
    rankings[data["subgame"]] = {"ranking": list(data["ranking"]), **data["scores"]}


def end_fields(*fields: str, phase: str | None = None) -> Callable[[View, Data], None]:
    def fold(view: View, data: Data) -> None:
        view["end"].update({field: data[field] for field in fields})
        if phase:
            view["phase"] = phase

    return fold


def abandoned(view: View, data: Data) -> None:
    """The host ended the match early (the framework's MatchAbandoned): nothing more follows."""
    view["phase"] = "over"


FOLDS: dict[str, Callable[[View, Data], None]] = {
    "AmalgamationOpened": opened,
    "GarnetsHeld": garnets_held,
    "GarnetRateSubmitted": submitted("garnet_rate"),
    "MinusAuctionOrderSubmitted": submitted("ma_order"),
    "TeamsSubmitted": submitted("teams"),
    "PregameClosed": pregame_closed,
    "RoundOpened": round_opened,
    "RoundSubmissionAccepted": submitted("round"),
    "EcChosen": submitted("ec_choice"),
    "RoundLocked": round_locked,
    "SubmissionLocked": record("spending"),
    "MoneySpent": record("spending"),
    "KongRoundResolved": kong_round,
    "MinusAuctionTileAwarded": tile_awarded,
    "MinusAuctionRoundClosed": ma_round_closed,
    "InvestmentTokensAwarded": tokens_awarded,
    "ChipThiefRoundResolved": chip_thief_round,
    "ChipThiefPointsNoted": record("chip_thief_points"),
    "MinusAuctionPenaltiesApplied": penalties,
    "BalancesRevealed": balances_revealed,
    "SubgameRanked": subgame_ranked,
    "MatchScored": end_fields(
        "match_points", "winners", "tols", "tols_invalidated", "ec_candidates"
    ),
    "EcDecisionOpened": end_fields("candidates", "deciders", phase="ec_decision"),
    "EcDetermined": end_fields("ec", "decided_by"),
    "GarnetsAwarded": end_fields("awards", phase="over"),
    "GarnetLedgerClosed": end_fields("exchanged", "awarded", "net_change"),
    "MatchAbandoned": abandoned,
}
