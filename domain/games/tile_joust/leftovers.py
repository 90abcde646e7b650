"""The leftover step after a set's 12th auction (rulebook section 4.3): counts of this set's tiles
decide. DM: `x1` to the player with fewer tiles (TJ-R6). FM: that player sees `x1` and `x2`,
keeps one and gives the other (TJ-R16). Equal counts: the leftovers are never revealed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import RuleViolation
from domain.games.tile_joust import events
from domain.games.tile_joust.guards import check_is_the_chooser, check_phase_is
from domain.games.tile_joust.state import LEFTOVER_CHOICE, State
from domain.games.tile_joust.tiles import leftovers_of
from domain.games.tile_joust.turn import Turn

Args = Mapping[str, Any]


def leftover_tiles(state: State) -> list[str]:
    return leftovers_of(state.set_number(), 2 if state.setup.final_match else 1)


def leftover_step(turn: Turn) -> None:
    state = turn.state
    counts = state.hand_counts()
    tiles = leftover_tiles(state)
    if len(set(counts.values())) == 1:
        values = {tile: state.tiles[tile].value for tile in tiles}
        turn.emit(
            events.leftovers_discarded(state.stage, tiles),
            events.leftover_values_withheld(state.stage, values),
        )
        return
    fewer = min(state.players, key=lambda player: counts[player])
    if not state.setup.final_match:
        hands = {**counts, fewer: counts[fewer] + 1}
        turn.emit(
            events.leftover_given(state.stage, fewer, tiles[0], hands),
            events.tile_value_shown(fewer, tiles[0], state.tiles[tiles[0]]),
        )
        return
    values = {tile: state.tiles[tile].value for tile in tiles}
    turn.emit(
        events.leftover_offered(state.stage, fewer),
        events.leftover_values_shown(state.stage, fewer, values),
    )


def keep_leftover(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    check_phase_is(state, LEFTOVER_CHOICE, "keep_leftover")
    check_is_the_chooser(state, player)
    tile = args.get("tile")
    if tile not in leftover_tiles(state):
        raise RuleViolation(
            "INVALID_TILE_CHOICE", f"keep one of {', '.join(leftover_tiles(state))}"
        )
    split(turn, tile, by_default=False)


def keep_by_default(turn: Turn) -> None:
    """Timeout: keep the higher value (TJ-R16), or the lower under the variant."""
    state = turn.state
    by_value = sorted(leftover_tiles(state), key=lambda tile: state.tiles[tile].value)
    higher = state.setup.fm_leftover_default == "keep_higher"
    split(turn, by_value[-1] if higher else by_value[0], by_default=True)


def split(turn: Turn, kept: str, by_default: bool) -> None:
    """The chooser keeps one; the receiver learns only the value of the one they get."""
    state = turn.state
    chooser = state.chooser
    receiver = state.other(chooser)
    given = next(tile for tile in leftover_tiles(state) if tile != kept)
    hands = {player: count + 1 for player, count in state.hand_counts().items()}
    turn.emit(
        events.leftover_kept(state.stage, chooser, kept, given, by_default),
        events.tile_value_shown(receiver, given, state.tiles[given]),
        events.leftover_split(state.stage, chooser, receiver, by_default, hands),
    )
