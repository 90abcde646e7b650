"""Every event the decider emits, with its one audience (rulebook section 9).

What a moment releases to different people goes into separate events. Payloads hold only JSON
values (lists, never tuples); players are listed in seat order. No event has season postings:
the rules give this game no garnet, ToL or Opal effects (rulebook section 8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.decider import HOST, PUBLIC, SYSTEM, Event
from domain.games.tile_joust.tiles import GroupStart, Tile

Stage = int | str  # a set number or "final"


def _public(kind: str, /, actor: str = SYSTEM, **data: object) -> Event:
    return Event(kind, data, audience=PUBLIC, actor=actor)


def _host(kind: str, /, **data: object) -> Event:
    return Event(kind, data, audience=HOST, actor=SYSTEM)


def _private(recipient: str, kind: str, /, actor: str = SYSTEM, **data: object) -> Event:
    return Event(kind, data, audience=(recipient,), actor=actor)


def _by(player: str, by_default: bool) -> str:
    return SYSTEM if by_default else player


# Opening


def tile_joust_opened(**data: object) -> Event:
    """Players, variant, roles, chips and options: everything public at the opening."""
    return _public("TileJoustOpened", actor=HOST, **data)


def orderings_recorded(
    orderings: Mapping[str, list[int]], drawn: list[int], allocation: object
) -> Event:
    """The sealed host-only record of the hidden setup (TJ-R25: no public digest)."""
    return _host("OrderingsRecorded", orderings=dict(orderings), drawn=drawn, items=allocation)


def item_pick_opened(picker: str, items: Sequence[str]) -> Event:
    return _public("ItemPickOpened", picker=picker, items=list(items))


def items_allocated(items: Mapping[str, list[str]], holder: str, how: str, actor: str) -> Event:
    """how: `fixed` by the host, `picked`, or `timeout` (the default pick)."""
    return _public(
        "ItemsAllocated", actor=actor, items=dict(items), equaliser_holder=holder, how=how
    )


# Auctions


def group_opened(set_number: int, group: int, colours: dict[str, str], first_label: str) -> Event:
    return _public(
        "GroupOpened", set=set_number, group=group, colours=colours, first_label=first_label
    )


def group_start_computed(set_number: int, group: int, start: GroupStart) -> Event:
    return _host(
        "GroupStartComputed",
        set=set_number,
        group=group,
        reference=start.reference,
        distances=dict(start.distances),
        tie=start.tie,
        label=start.label,
    )


def auction_opened(set_number: int, group: int, label: str, opener: str) -> Event:
    return _public("AuctionOpened", set=set_number, group=group, label=label, opener=opener)


def bid_placed(set_number: int, group: int, label: str, player: str, amount: int) -> Event:
    return _public(
        "BidPlaced",
        actor=player,
        set=set_number,
        group=group,
        label=label,
        player=player,
        amount=amount,
    )


def folded(set_number: int, group: int, label: str, player: str, reason: str) -> Event:
    """reason: `fold`, `timeout` or `cannot_raise`."""
    return _public(
        "Folded",
        actor=player if reason == "fold" else SYSTEM,
        set=set_number,
        group=group,
        label=label,
        player=player,
        reason=reason,
    )


def tile_won(
    set_number: int,
    group: int,
    label: str,
    winner: str,
    price: int,
    chips: dict[str, int],
    hands: dict[str, int],
) -> Event:
    return _public(
        "TileWon",
        set=set_number,
        group=group,
        label=label,
        winner=winner,
        price=price,
        chips=chips,
        hands=hands,
    )


def tile_value_shown(player: str, tile_id: str, tile: Tile) -> Event:
    return _private(
        player,
        "TileValueShown",
        player=player,
        tile=tile_id,
        set=tile.set,
        group=tile.group,
        label=tile.label,
        value=tile.value,
        colour=tile.colour,
    )


def next_tile_chosen(
    set_number: int, group: int, label: str, chooser: str, by_default: bool
) -> Event:
    return _public(
        "NextTileChosen",
        actor=_by(chooser, by_default),
        set=set_number,
        group=group,
        label=label,
        chooser=chooser,
        by_default=by_default,
    )


# The leftover step


def leftover_given(set_number: int, player: str, tile: str, hands: dict[str, int]) -> Event:
    """DM: who got `x1` (its value goes to them alone)."""
    return _public("LeftoverGiven", set=set_number, player=player, tile=tile, hands=hands)


def leftovers_discarded(set_number: int, tiles: list[str]) -> Event:
    return _public("LeftoversDiscarded", set=set_number, tiles=tiles)


def leftover_values_withheld(set_number: int, values: dict[str, int]) -> Event:
    return _host("LeftoverValuesWithheld", set=set_number, values=values)


def leftover_offered(set_number: int, chooser: str) -> Event:
    return _public("LeftoverOffered", set=set_number, chooser=chooser)


def leftover_values_shown(set_number: int, chooser: str, values: dict[str, int]) -> Event:
    return _private(chooser, "LeftoverValuesShown", set=set_number, chooser=chooser, values=values)


def leftover_kept(set_number: int, chooser: str, kept: str, given: str, by_default: bool) -> Event:
    return _private(
        chooser,
        "LeftoverKept",
        actor=_by(chooser, by_default),
        set=set_number,
        chooser=chooser,
        kept=kept,
        given=given,
    )


def leftover_split(
    set_number: int, chooser: str, receiver: str, by_default: bool, hands: dict[str, int]
) -> Event:
    return _public(
        "LeftoverSplit",
        set=set_number,
        chooser=chooser,
        receiver=receiver,
        by_default=by_default,
        hands=hands,
    )


# Items


def item_window_opened(stage: Stage, pending: list[str]) -> Event:
    return _public("ItemWindowOpened", set=stage, pending=pending)


def items_chosen(
    stage: Stage, player: str, uses: list[dict[str, str | None]], by_default: bool
) -> Event:
    return _private(
        player,
        "ItemsChosen",
        actor=_by(player, by_default),
        set=stage,
        player=player,
        uses=uses,
        by_default=by_default,
    )


def item_window_closed(stage: Stage, used: dict[str, list[str]]) -> Event:
    return _public("ItemWindowClosed", set=stage, used=used)


def tile_inverted(stage: Stage, player: str, tile: str, old: int, new: int, colour: str) -> Event:
    return _private(
        player,
        "TileInverted",
        set=stage,
        player=player,
        tile=tile,
        old=old,
        new=new,
        colour=colour,
    )


# Jousts


def joust_opened(stage: Stage, joust: int) -> Event:
    return _public("JoustOpened", set=stage, joust=joust)


def joust_step_opened(
    stage: Stage, joust: int, step: int, eligible: list[str], auto_passed: list[str]
) -> Event:
    return _public(
        "JoustStepOpened",
        set=stage,
        joust=joust,
        step=step,
        eligible=eligible,
        auto_passed=auto_passed,
    )


def tile_committed(stage: Stage, joust: int, step: int, player: str, tile: str) -> Event:
    return _private(
        player,
        "TileCommitted",
        actor=player,
        set=stage,
        joust=joust,
        step=step,
        player=player,
        tile=tile,
    )


def step_passed(stage: Stage, joust: int, step: int, player: str, by_default: bool) -> Event:
    return _private(
        player,
        "StepPassed",
        actor=_by(player, by_default),
        set=stage,
        joust=joust,
        step=step,
        player=player,
        by_default=by_default,
    )


def joust_step_closed(
    stage: Stage, joust: int, step: int, plays: dict[str, dict[str, object]]
) -> Event:
    return _public("JoustStepClosed", set=stage, joust=joust, step=step, plays=plays)


def joust_resolved(stage: Stage, joust: int, **data: object) -> Event:
    """tiles (values with colour, group and set as allowed), sums, winner, gains, totals."""
    return Event("JoustResolved", {"set": stage, "joust": joust, **data})


def joust_tiles_spent(stage: Stage, joust: int, tiles: dict[str, list[str]]) -> Event:
    return _host("JoustTilesSpent", set=stage, joust=joust, tiles=tiles)


def set_ended(
    set_number: int, reason: str, tiles_left: dict[str, int], stored: dict[str, int]
) -> Event:
    """reason: `few_tiles` (TJ-R10) or `empty_joust` (TJ-R9); tiles_left: the hands now
    stored; stored: every tile each player keeps for the final joust."""
    return _public("SetEnded", set=set_number, reason=reason, tiles_left=tiles_left, stored=stored)


def final_joust_opened(pools: dict[str, int]) -> Event:
    return _public("FinalJoustOpened", pools=pools)


def final_ended(**data: object) -> Event:
    """reason, remaining-tile points, totals, winner, loser, decided_by_tiebreak."""
    return Event("FinalEnded", data)


def setup_revealed(orderings: Mapping[str, list[int]], items: Mapping[str, list[str]]) -> Event:
    """The end-of-match opening of the sealed setup (TJ-R24): the match then discloses the
    sealed OrderingsRecorded with its salt, so anyone can check it against its commitment."""
    return Event("SetupRevealed", {"orderings": dict(orderings), "items": dict(items)},
                 audience=PUBLIC, actor=SYSTEM, opens=("OrderingsRecorded",))
