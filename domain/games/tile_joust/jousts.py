"""Jousts (rulebook sections 4.5, 4.6 and 7): secret one-tile steps, what a step shows,
resolution by sums, and the end of a set's joust phase. Commands: submit_tile, pass."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import RuleViolation
from domain.games.tile_joust import events
from domain.games.tile_joust.ending import end_phase
from domain.games.tile_joust.guards import check_phase_is
from domain.games.tile_joust.state import JOUST_STEP, Joust, State
from domain.games.tile_joust.turn import Turn

Args = Mapping[str, Any]
HIDDEN = "hidden"  # the group shown under Conceal
SET_END_HAND = 1  # a set's joust phase ends when a hand holds this many tiles or fewer


# Opening jousts and steps


def set_is_over(state: State) -> bool:
    """Checked before every joust, the first included (TJ-R10)."""
    return min(state.hand_counts().values()) <= SET_END_HAND


def final_is_over(state: State) -> bool:
    return min(state.hand_counts().values()) == 0


def open_joust(turn: Turn) -> None:
    turn.emit(events.joust_opened(turn.state.stage, turn.state.jousts_run + 1))
    open_step(turn, 1)


def eligible(state: State, joust: Joust, player: str) -> bool:
    """A hand that is not empty and fewer tiles committed than the cap (TJ-R7)."""
    return bool(state.hand(player)) and joust.count(player) < state.setup.joust_tile_cap


def open_step(turn: Turn, step: int) -> None:
    state = turn.state
    joust = state.current_joust()
    acting = [player for player in state.players if eligible(state, joust, player)]
    auto_passed = [player for player in state.players if player not in acting]
    turn.emit(events.joust_step_opened(state.stage, joust.number, step, acting, auto_passed))


# The players' steps


def submit_tile(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    check_phase_is(state, JOUST_STEP, "submit_tile")
    joust = state.current_joust()
    tile = args.get("tile")
    if not isinstance(tile, str) or tile not in state.hand(player):
        raise RuleViolation("TILE_NOT_HELD", "commit a tile of your current hand")
    if joust.count(player) >= state.setup.joust_tile_cap:
        raise RuleViolation(
            "JOUST_TILE_LIMIT", f"{state.setup.joust_tile_cap} tiles already in this joust"
        )
    check_has_not_acted(joust, player)
    turn.emit(events.tile_committed(state.stage, joust.number, joust.step, player, tile))


def pass_step(turn: Turn, player: str, args: Args) -> None:
    check_phase_is(turn.state, JOUST_STEP, "pass")
    check_has_not_acted(turn.state.current_joust(), player)
    pass_for(turn, player, by_default=False)


def check_has_not_acted(joust: Joust, player: str) -> None:
    if player not in joust.to_act:
        raise RuleViolation("ALREADY_ACTED", "you have acted in this step already")


def pass_for(turn: Turn, player: str, by_default: bool) -> None:
    state = turn.state
    joust = state.current_joust()
    turn.emit(events.step_passed(state.stage, joust.number, joust.step, player, by_default))


def pass_by_default(turn: Turn, player: str) -> None:
    """Timeout: no tile."""
    pass_for(turn, player, by_default=True)


# Closing steps and resolving


def shown(state: State, owner: str, tile_id: str) -> dict[str, object]:
    """What a committed tile shows: colour and group, and its set in the final joust; no label,
    no value (TJ-R15). Conceal withholds the group for the rest of the set (TJ-R18)."""
    tile = state.tiles[tile_id]
    view: dict[str, object] = {"colour": tile.colour, "group": tile.group}
    if state.in_final():
        view["set"] = tile.set
    elif state.concealer is not None and (
        state.setup.conceal_scope == "all_tiles" or owner == state.concealer
    ):
        view["group"] = HIDDEN
    return view


def close_step(turn: Turn) -> None:
    """Both have acted: publish the step; another step follows a commitment; a step with
    none resolves the joust, or ends the phase if the whole joust was empty (TJ-R9)."""
    state = turn.state
    joust = state.current_joust()
    plays = {player: play(state, player, joust) for player in state.players}
    turn.emit(events.joust_step_closed(state.stage, joust.number, joust.step, plays))
    if any(tile is not None for tile in joust.step_tiles.values()):
        open_step(turn, joust.step + 1)
    elif any(joust.committed.values()):
        resolve(turn)
    else:
        end_phase(turn, "empty_joust")


def play(state: State, player: str, joust: Joust) -> dict[str, object]:
    tile = joust.step_tiles.get(player)
    if tile is None:
        return {"committed": False}
    return {"committed": True, **shown(state, player, tile)}


def resolve(turn: Turn) -> None:
    """The higher sum gains the smallest value the other side committed (0 if none); equal
    sums gain both (rulebook section 7). Every committed tile is spent."""
    state = turn.state
    joust = state.current_joust()
    committed = {player: joust.committed.get(player, ()) for player in state.players}
    values = {p: [state.tiles[t].value for t in tiles] for p, tiles in committed.items()}
    sums = {player: sum(values[player]) for player in state.players}
    gains = {}
    for player in state.players:
        other = state.other(player)
        not_beaten = sums[player] >= sums[other]
        gains[player] = min(values[other]) if not_beaten and values[other] else 0
    first, second = state.players
    winner = "tie" if sums[first] == sums[second] else max(state.players, key=sums.__getitem__)
    totals = {player: state.total(player) + gains[player] for player in state.players}
    tiles = {
        player: [{"value": state.tiles[t].value, **shown(state, player, t)} for t in ts]
        for player, ts in committed.items()
    }
    turn.emit(
        events.joust_resolved(
            state.stage,
            joust.number,
            tiles=tiles,
            sums=sums,
            winner=winner,
            gains=gains,
            totals=totals,
            hands=state.hand_counts(),
        ),
        events.joust_tiles_spent(
            state.stage, joust.number, {player: list(ts) for player, ts in committed.items()}
        ),
    )
