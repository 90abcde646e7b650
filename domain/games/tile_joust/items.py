"""Final Match items (rulebook sections 2.3 and 4.4): the pick, the item window at the start of each
joust phase and of the final joust, Tile Inversion and Conceal. The Equaliser is passive.
Commands: pick_item, use_items."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.decider import HOST, SYSTEM
from domain.errors import RuleViolation
from domain.games.tile_joust import events
from domain.games.tile_joust.guards import check_phase_is
from domain.games.tile_joust.setup import CONCEAL, EQUALISER, ITEMS, TILE_INVERSION
from domain.games.tile_joust.state import ITEM_PICK, ITEM_WINDOW, State, Use
from domain.games.tile_joust.tiles import colour_of, inverted
from domain.games.tile_joust.turn import Turn

Args = Mapping[str, Any]


# The pick


def pick_item(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    check_phase_is(state, ITEM_PICK, "pick_item")
    if player != state.first_picker:
        raise RuleViolation("NOT_YOUR_CHOICE", f"{state.first_picker} picks first")
    item = args.get("item")
    if item not in ITEMS:
        raise RuleViolation("UNKNOWN_ITEM", f"pick one of {', '.join(ITEMS)}")
    allocate(turn, item, "picked", player)


def pick_by_default(turn: Turn) -> None:
    """Timeout: the first item of the list, Tile Inversion."""
    allocate(turn, ITEMS[0], "timeout", SYSTEM)


def allocate(turn: Turn, picked: str, how: str, actor: str) -> None:
    picker = turn.state.first_picker
    items = {picker: [picked], turn.state.other(picker): [i for i in ITEMS if i != picked]}
    allocated(turn, items, how, actor)


def allocated(turn: Turn, items: Mapping[str, list[str]], how: str, actor: str) -> None:
    players = turn.state.players
    holder = next(player for player in players if EQUALISER in items[player])
    in_seat_order = {player: list(items[player]) for player in players}
    turn.emit(events.items_allocated(in_seat_order, holder, how, actor))


def allocate_as_fixed(turn: Turn) -> None:
    allocated(turn, turn.state.setup.item_allocation or {}, "fixed", HOST)


# The item window


def usable_now(state: State, player: str, item: str) -> bool:
    """Unused, and: Tile Inversion with a tile to turn; Conceal in a set's joust phase."""
    if item in state.used_items:
        return False
    if item == TILE_INVERSION:
        return bool(state.hand(player))
    return item == CONCEAL and not state.in_final()


def pending_players(state: State) -> list[str]:
    return [
        player
        for player in state.players
        if any(usable_now(state, player, item) for item in state.items.get(player, ()))
    ]


def window_needed(state: State) -> bool:
    return state.setup.final_match and bool(pending_players(state))


def open_window(turn: Turn) -> None:
    state = turn.state
    turn.emit(events.item_window_opened(state.stage, pending_players(state)))


def use_items(turn: Turn, player: str, args: Args) -> None:
    """Checks in the rulebook's order: the uses in list order (the first bad one decides), then
    whether this player has anything to decide at all."""
    state = turn.state
    check_phase_is(state, ITEM_WINDOW, "use_items")
    window = state.current_window()
    if player in window.choices:
        raise RuleViolation("ALREADY_ACTED", "your items are already chosen for this window")
    raw = args.get("items", [])
    if not isinstance(raw, list):
        raise RuleViolation("UNKNOWN_ITEM", "items must be a list of item uses")
    uses: list[Use] = []
    for entry in raw:
        uses.append(check_use(state, player, entry, uses))
    if player not in window.pending:
        raise RuleViolation("WRONG_PHASE", "you have no item to use now")
    choose(turn, player, uses, by_default=False)


def check_use(state: State, player: str, entry: object, earlier: list[Use]) -> Use:
    item, tile = read_use(entry)
    if item not in ITEMS:
        raise RuleViolation("UNKNOWN_ITEM", f"items are {', '.join(ITEMS)}")
    if item not in state.items.get(player, ()):
        raise RuleViolation("ITEM_NOT_HELD", f"you do not hold {item}")
    if item in state.used_items:
        raise RuleViolation("ITEM_ALREADY_USED", f"{item} is used already")
    if item == EQUALISER or (item == CONCEAL and state.in_final()):
        raise RuleViolation("ITEM_NOT_USABLE_NOW", f"{item} cannot be used now")
    if any(use.item == item for use in earlier):
        raise RuleViolation("DUPLICATE_ITEM_USE", f"{item} is named twice")
    if item != TILE_INVERSION:
        return Use(item, None)
    if not isinstance(tile, str) or tile not in state.hand(player):
        raise RuleViolation("TILE_NOT_HELD", "invert a tile of your current hand")
    return Use(item, tile)


def read_use(entry: object) -> tuple[object, object]:
    """A use is an item name, or an object {item, tile}; anything else names no item."""
    if isinstance(entry, str):
        return entry, None
    if isinstance(entry, Mapping):
        return entry.get("item"), entry.get("tile")
    return None, None


def choose_nothing(turn: Turn, player: str) -> None:
    """Timeout: use nothing."""
    choose(turn, player, [], by_default=True)


def choose(turn: Turn, player: str, uses: list[Use], by_default: bool) -> None:
    plain = [{"item": use.item, "tile": use.tile} for use in uses]
    turn.emit(events.items_chosen(turn.state.stage, player, plain, by_default))


def close_window(turn: Turn) -> None:
    """Every decision is in: apply them together, then announce (TJ-R19)."""
    state = turn.state
    window = state.current_window()
    choices = {player: window.choices.get(player, ()) for player in state.players}
    used = {player: [use.item for use in choices[player]] for player in state.players}
    turn.emit(events.item_window_closed(state.stage, used))
    for player in state.players:
        for use in choices[player]:
            if use.tile is not None:  # only a Tile Inversion names a tile
                invert(turn, player, use.tile)


def invert(turn: Turn, player: str, tile_id: str) -> None:
    """X becomes 13 - X; the colour follows the new value unless the variant keeps it."""
    state = turn.state
    tile = state.tiles[tile_id]
    new = inverted(tile.value)
    follows = state.setup.inversion_colour == "follows_value"
    colour = colour_of(new) if follows else tile.colour
    turn.emit(events.tile_inverted(state.stage, player, tile_id, tile.value, new, colour))
