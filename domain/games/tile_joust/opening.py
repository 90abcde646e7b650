"""`open_match`: the public opening, the sealed record of the hidden setup, and the FM items
(the first picker's pick, or the host's fixed allocation)."""

from __future__ import annotations

from domain.games.tile_joust import events, items
from domain.games.tile_joust.draws import all_orderings
from domain.games.tile_joust.setup import EQUALISER, ITEMS, Setup
from domain.games.tile_joust.turn import Turn


def open_match(turn: Turn) -> None:
    setup = turn.state.setup
    turn.emit(
        events.tile_joust_opened(
            players=list(setup.players),
            variant=setup.variant,
            dmo=setup.dmo,
            ec=None if setup.dmo is None else other_player(setup, setup.dmo),
            first_picker=setup.first_picker,
            starter=starter_at_opening(setup),
            chips=dict.fromkeys(setup.players, setup.starting_chips),
            config=setup.config(),
        ),
        events.orderings_recorded(
            all_orderings(setup, turn.state.seed),
            drawn=list(range(len(setup.orderings) + 1, setup.sets + 1)),
            allocation=setup.item_allocation,
        ),
    )
    if setup.item_allocation is not None:
        items.allocate_as_fixed(turn)
    elif setup.first_picker is not None:
        turn.emit(events.item_pick_opened(setup.first_picker, ITEMS))


def other_player(setup: Setup, player: str) -> str:
    return next(other for other in setup.players if other != player)


def starter_at_opening(setup: Setup) -> str | None:
    """DM: the DMO. FM: the Equaliser holder, known now only if the host fixed the items."""
    if setup.dmo is not None:
        return setup.dmo
    allocation = setup.item_allocation or {}
    return next((player for player, held in allocation.items() if EQUALISER in held), None)
