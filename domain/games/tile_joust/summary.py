"""The live view: a readable fold of exactly the events a viewer may see, one event at a time.

The framework passes only what `viewer` may see, so this reads nothing but its arguments: a
player's view holds their own tile values and actions because only those reached them; the
public view holds bids, chips, tile counts, colours, groups and the values jousts published.

`summary_step` costs the same at any point of a match: it touches the last auction, group or
joust, and moves tiles between statuses through `tiles_by_status` (the viewer's known tile
ids per status) instead of scanning every known tile. `phase` names the phase open now in
the rulebook's words (rulebook section 11); `now` keeps its details.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.decider import Event, fold_summary
from domain.games.tile_joust.tiles import FINAL, REMAINING

View = dict[str, Any]
Data = Mapping[str, Any]

# The phases the summary names (rulebook section 11).
NOT_STARTED, OPENING, ITEM_PICK = "not_started", "opening", "item_pick"
AUCTION, NEXT_TILE, LEFTOVERS, ITEM_WINDOW = "auction", "next_tile", "leftovers", "item_window"
JOUST, BETWEEN_SETS, FINAL_JOUST, OVER = "joust", "between_sets", "final_joust", "over"


def summary_start(viewer: str) -> View:
    return {
        "viewer": viewer,
        "variant": None,
        "players": [],
        "roles": {},
        "config": {},
        "items": {},
        "items_used": [],  # {set, used}: who used which item, and when
        "round": 0,
        "phase": NOT_STARTED,
        "now": {"what": "not_started"},
        "chips": {},
        "points": {},
        "points_by_stage": {},  # player -> {"1", "2", ..., "final", "remaining"}: points
        "tiles": {},  # player -> {hand, stored}: public counts
        "auctions": [],  # {set, group, label, opener, bids, winner, price}
        "groups": [],  # {set, group, colours, first_label, next_chosen}
        "leftovers": [],
        "jousts": [],  # {set, joust, steps, resolution}
        "sets_ended": [],
        "known_tiles": {},  # tile id -> what this viewer was told of it
        "tiles_by_status": {},  # status -> the known tile ids with that status
        "result": None,
        "revealed": None,
        "orderings": None,  # the host's, from the opening
    }


def summary_step(view: View, event: Event) -> None:
    fold = FOLDS.get(event.kind)
    if fold:
        fold(view, event.data)


def summarize(events: Sequence[Event], viewer: str) -> View:
    return fold_summary(sys.modules[__name__], events, viewer)


def _joust_phase(stage: int | str) -> str:
    return FINAL_JOUST if stage == FINAL else JOUST


def _counts(view: View, hands: Data) -> None:
    for player, count in hands.items():
        view["tiles"][player]["hand"] = count


def _know(view: View, tile: str, **facts: Any) -> None:
    known = view["known_tiles"].setdefault(tile, {})
    before = known.get("status")
    known.update(facts)
    if "status" in facts:
        by_status = view["tiles_by_status"]
        if before is not None:
            by_status[before].remove(tile)
        by_status.setdefault(facts["status"], []).append(tile)


def _score(view: View, stage: str, gains: Data) -> None:
    for player, gain in gains.items():
        view["points_by_stage"][player][stage] += gain


def _new_round(view: View) -> None:
    view["round"] += 1


def opened(view: View, data: Data) -> None:
    view.update(variant=data["variant"], players=list(data["players"]), config=dict(data["config"]))
    view["roles"] = {
        key: data[key] for key in ("dmo", "ec", "first_picker", "starter") if data[key] is not None
    }
    view["chips"] = dict(data["chips"])
    view["points"] = dict.fromkeys(data["players"], 0)
    stages = [str(number) for number in range(1, data["config"]["sets"] + 1)]
    view["points_by_stage"] = {
        player: dict.fromkeys([*stages, FINAL, REMAINING], 0) for player in data["players"]
    }
    view["tiles"] = {player: {"hand": 0, "stored": 0} for player in data["players"]}
    view["phase"] = OPENING
    view["now"] = {"what": "opening"}


def orderings_recorded(view: View, data: Data) -> None:
    """The host holds every value from the start."""
    view["orderings"] = {key: list(values) for key, values in data["orderings"].items()}


def item_pick_opened(view: View, data: Data) -> None:
    _new_round(view)
    view["phase"] = ITEM_PICK
    view["now"] = {"what": "item_pick", "who": data["picker"], "items": list(data["items"])}


def items_allocated(view: View, data: Data) -> None:
    view["items"] = {player: list(items) for player, items in data["items"].items()}
    view["roles"].update(starter=data["equaliser_holder"], equaliser=data["equaliser_holder"])
    view["phase"] = OPENING


def group_opened(view: View, data: Data) -> None:
    keys = ("set", "group", "colours", "first_label")
    view["groups"].append({key: data[key] for key in keys})
    view["phase"] = AUCTION


def next_tile_chosen(view: View, data: Data) -> None:
    """The choice follows a group's first auction: the group is the last one opened."""
    view["groups"][-1]["next_chosen"] = {"label": data["label"], "by_default": data["by_default"]}
    view["phase"] = AUCTION


def auction_opened(view: View, data: Data) -> None:
    _new_round(view)
    view["phase"] = AUCTION
    auction = {key: data[key] for key in ("set", "group", "label", "opener")}
    view["auctions"].append({**auction, "bids": [], "winner": None, "price": None})
    view["now"] = {"what": "bidding", **auction, "to_act": data["opener"], "high_bid": None}


def bid_placed(view: View, data: Data) -> None:
    view["auctions"][-1]["bids"].append({"player": data["player"], "bid": data["amount"]})
    others = [player for player in view["players"] if player != data["player"]]
    view["now"].update(to_act=others[0], high_bid=data["amount"], high_bidder=data["player"])


def folded(view: View, data: Data) -> None:
    view["auctions"][-1]["bids"].append({"player": data["player"], "fold": data["reason"]})


def tile_won(view: View, data: Data) -> None:
    view["auctions"][-1].update(winner=data["winner"], price=data["price"])
    view["chips"] = dict(data["chips"])
    _counts(view, data["hands"])
    if _first_of_its_group(view["auctions"]):
        view["phase"] = NEXT_TILE
        view["now"] = {
            "what": "next_tile_choice",
            "who": data["winner"],
            "set": data["set"],
            "group": data["group"],
        }
    else:
        view["phase"] = AUCTION
        view["now"] = {"what": "auction_over"}


def _first_of_its_group(auctions: list[dict[str, Any]]) -> bool:
    """Whether the last auction opened its group (the one before, if any, is another's)."""
    if len(auctions) == 1:
        return True
    before, last = auctions[-2], auctions[-1]
    return (before["set"], before["group"]) != (last["set"], last["group"])


def tile_value_shown(view: View, data: Data) -> None:
    facts = ("set", "group", "label", "value", "colour")
    _know(view, data["tile"], holder=data["player"], status="hand", **{k: data[k] for k in facts})


def leftover_result(view: View, data: Data) -> None:
    """The leftover step is over: the set's joust phase begins."""
    view["leftovers"].append(dict(data))
    view["phase"] = JOUST
    if "hands" in data:
        _counts(view, data["hands"])


def leftover_offered(view: View, data: Data) -> None:
    _new_round(view)
    view["phase"] = LEFTOVERS
    view["leftovers"].append(dict(data))
    view["now"] = {"what": "leftover_choice", "who": data["chooser"], "set": data["set"]}


def leftover_values_shown(view: View, data: Data) -> None:
    for tile, value in data["values"].items():
        _know(view, tile, set=data["set"], group="leftover", value=value, status="offered")


def leftover_kept(view: View, data: Data) -> None:
    others = [player for player in view["players"] if player != data["chooser"]]
    _know(view, data["kept"], holder=data["chooser"], status="hand")
    _know(view, data["given"], holder=others[0], status="hand")


def item_window_opened(view: View, data: Data) -> None:
    _new_round(view)
    view["phase"] = ITEM_WINDOW
    view["now"] = {
        "what": "item_window",
        "set": data["set"],
        "pending": list(data["pending"]),
        "chosen": {},
    }


def items_chosen(view: View, data: Data) -> None:
    view["now"]["chosen"][data["player"]] = list(data["uses"])


def item_window_closed(view: View, data: Data) -> None:
    used = {player: list(items) for player, items in data["used"].items() if items}
    if used:
        view["items_used"].append({"set": data["set"], "used": used})
    view["phase"] = _joust_phase(data["set"])


def tile_inverted(view: View, data: Data) -> None:
    _know(view, data["tile"], value=data["new"], colour=data["colour"], inverted_from=data["old"])


def joust_opened(view: View, data: Data) -> None:
    _new_round(view)
    view["phase"] = _joust_phase(data["set"])
    view["jousts"].append(
        {"set": data["set"], "joust": data["joust"], "steps": [], "resolution": None}
    )


def joust_step_opened(view: View, data: Data) -> None:
    view["now"] = {
        "what": "joust_step",
        "set": data["set"],
        "joust": data["joust"],
        "step": data["step"],
        "eligible": list(data["eligible"]),
        "acted": {},
    }


def tile_committed(view: View, data: Data) -> None:
    view["now"]["acted"][data["player"]] = data["tile"]
    _know(view, data["tile"], status="committed")


def step_passed(view: View, data: Data) -> None:
    view["now"]["acted"][data["player"]] = None


def joust_step_closed(view: View, data: Data) -> None:
    view["jousts"][-1]["steps"].append({"step": data["step"], "plays": dict(data["plays"])})
    for player, play in data["plays"].items():
        if play["committed"]:
            view["tiles"][player]["hand"] -= 1


def joust_resolved(view: View, data: Data) -> None:
    keys = ("tiles", "sums", "winner", "gains", "totals")
    view["jousts"][-1]["resolution"] = {key: data[key] for key in keys}
    view["points"] = dict(data["totals"])
    _score(view, str(data["set"]), data["gains"])
    _counts(view, data["hands"])
    _move_known(view, "committed", "spent")
    view["now"] = {"what": "joust_over"}


def set_ended(view: View, data: Data) -> None:
    view["sets_ended"].append(dict(data))
    view["phase"] = BETWEEN_SETS
    for player, stored in data["stored"].items():
        view["tiles"][player] = {"hand": 0, "stored": stored}
    _move_known(view, "hand", "stored")


def final_joust_opened(view: View, data: Data) -> None:
    view["phase"] = FINAL_JOUST
    for player, pool in data["pools"].items():
        view["tiles"][player] = {"hand": pool, "stored": 0}
    _move_known(view, "stored", "hand")


def _move_known(view: View, old: str, new: str) -> None:
    """Every known tile with status `old` takes status `new`; only those tiles are touched."""
    moving = view["tiles_by_status"].pop(old, [])
    for tile in moving:
        view["known_tiles"][tile]["status"] = new
    if moving:
        view["tiles_by_status"].setdefault(new, []).extend(moving)


def final_ended(view: View, data: Data) -> None:
    view["result"] = dict(data)
    view["points"] = dict(data["totals"])
    _score(view, REMAINING, data["remaining_points"])
    view["phase"] = OVER
    view["now"] = {"what": "over"}


def setup_revealed(view: View, data: Data) -> None:
    view["revealed"] = {key: dict(data[key]) for key in ("orderings", "items")}


FOLDS: dict[str, Callable[[View, Data], None]] = {
    "TileJoustOpened": opened,
    "OrderingsRecorded": orderings_recorded,
    "ItemPickOpened": item_pick_opened,
    "ItemsAllocated": items_allocated,
    "GroupOpened": group_opened,
    "AuctionOpened": auction_opened,
    "BidPlaced": bid_placed,
    "Folded": folded,
    "TileWon": tile_won,
    "TileValueShown": tile_value_shown,
    "NextTileChosen": next_tile_chosen,
    "LeftoverGiven": leftover_result,
    "LeftoversDiscarded": leftover_result,
    "LeftoverValuesWithheld": leftover_result,
    "LeftoverOffered": leftover_offered,
    "LeftoverValuesShown": leftover_values_shown,
    "LeftoverKept": leftover_kept,
    "LeftoverSplit": leftover_result,
    "ItemWindowOpened": item_window_opened,
    "ItemsChosen": items_chosen,
    "ItemWindowClosed": item_window_closed,
    "TileInverted": tile_inverted,
    "JoustOpened": joust_opened,
    "JoustStepOpened": joust_step_opened,
    "TileCommitted": tile_committed,
    "StepPassed": step_passed,
    "JoustStepClosed": joust_step_closed,
    "JoustResolved": joust_resolved,
    "SetEnded": set_ended,
    "FinalJoustOpened": final_joust_opened,
    "FinalEnded": final_ended,
    "SetupRevealed": setup_revealed,
}
