"""Hope's Wagers at submission (rules 4.5, TM-R14-R20): one standing wager a round, checked in
the listed order, replaceable and cancellable until the deadline."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import RuleViolation
from domain.games.totemic_might import events
from domain.games.totemic_might.grid import LETTERS, is_totem, season_of, sigil_of
from domain.games.totemic_might.state import BEAR, FOX, SNAKE, WOLF, State, Wager
from domain.games.totemic_might.turn import Turn

Args = Mapping[str, Any]
KINDS = (SNAKE, WOLF, BEAR, FOX)
PAYMENTS = ("garnets", "balloon")


def wager_price(state: State, wager: Wager) -> int:
    """Garnets the wager costs when it resolves (Snake and Wolf are paid with balloons)."""
    setup = state.setup
    if wager.kind == BEAR:
        return setup.bear_cost + (setup.bear_fine_extra if wager.fine else 0)
    if wager.kind == FOX and wager.payment == "garnets":
        return setup.fox_garnet_cost
    return 0


def wager_params(args: Args) -> Args:
    """`place_wager(kind, params)`: the parameters nested under `params`, or given flat."""
    params = args.get("params")
    return params if isinstance(params, Mapping) else args


# Guards, in the order of 4.5


def check_kind_is_known(kind: object) -> str:
    if not isinstance(kind, str) or kind.lower() not in KINDS:
        raise RuleViolation("UNKNOWN_WAGER", f"the wagers are {', '.join(KINDS)}")
    return kind.lower()


def check_totems(named: object) -> tuple[str, ...]:
    """The named totems, all on the grid and none twice; anything but a list names none."""
    if not isinstance(named, list):
        return ()
    for totem in named:
        if not is_totem(totem):
            raise RuleViolation("UNKNOWN_TOTEM", f"{totem!r} is not a totem of the grid")
    if len(set(named)) != len(named):
        raise RuleViolation("DUPLICATE_TOTEM", "name each totem once")
    return tuple(named)


def check_totem_count(totems: tuple[str, ...], wanted: int | None) -> None:
    if (len(totems) != wanted) if wanted else not totems:
        needed = f"exactly {wanted}" if wanted else "at least one"
        raise RuleViolation("WRONG_TOTEM_COUNT", f"name {needed} totem(s)")


def check_can_afford(turn: Turn, player: str, price: int) -> None:
    if turn.balance(player) < price:
        raise RuleViolation("INSUFFICIENT_GARNETS", f"this wager costs {price} garnets")


def snake(turn: Turn, player: str, params: Args) -> Wager:
    state = turn.state
    letter = params.get("letter")
    if not isinstance(letter, str) or letter not in LETTERS:
        raise RuleViolation("INVALID_LETTER", "choose a letter from A to J")
    if state.snake_uses.get(player, 0) >= state.setup.snake_max_uses:
        raise RuleViolation("SNAKE_LIMIT", f"{state.setup.snake_max_uses} Snake wagers a match")
    return Wager(SNAKE, letter=letter)


def wolf(turn: Turn, player: str, params: Args) -> Wager:
    state = turn.state
    totems = check_totems(params.get("totems"))
    check_totem_count(totems, 2)
    first, second = totems
    if season_of(first) == season_of(second):
        raise RuleViolation("WOLF_SAME_SEASON", "choose totems of two different seasons")
    if any(is_own_spirit_line(state, player, totem) for totem in totems):
        raise RuleViolation("WOLF_OWN_SPIRIT", "not a totem you hold a spirit totem of")
    return Wager(WOLF, totems=totems)


def is_own_spirit_line(state: State, player: str, totem: str) -> bool:
    """TM-R15: the totem itself (`totem`) or its season (`season`) among the player's spirits,
    as held at the opening of the round (holdings only change at deadlines)."""
    spirits = state.held(player).spirits
    if state.setup.wolf_restriction == "season":
        return season_of(totem) in map(season_of, spirits)
    return totem in spirits


def bear(turn: Turn, player: str, params: Args) -> Wager:
    totems = check_totems(params.get("totems"))
    check_totem_count(totems, None)
    wager = Wager(BEAR, totems=totems, fine=params.get("fine") is True)
    check_can_afford(turn, player, wager_price(turn.state, wager))
    return wager


def fox(turn: Turn, player: str, params: Args) -> Wager:
    totems = check_totems(params.get("totems"))
    check_totem_count(totems, 3)
    for line in (season_of, sigil_of):
        if len({line(totem) for totem in totems}) != len(totems):
            raise RuleViolation("FOX_SHARED_LINE", "no two totems may share a season or a sigil")
    payment = params.get("payment")
    if not isinstance(payment, str) or payment not in PAYMENTS:
        raise RuleViolation("FOX_PAYMENT_REQUIRED", "pay with `garnets` or a `balloon`")
    wager = Wager(FOX, totems=totems, payment=payment)
    check_can_afford(turn, player, wager_price(turn.state, wager))
    return wager


CHECKS = {SNAKE: snake, WOLF: wolf, BEAR: bear, FOX: fox}


# Commands


def place_wager(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    params = wager_params(args)
    kind = check_kind_is_known(args.get("kind", params.get("kind")))
    wager = CHECKS[kind](turn, player, params)
    replaced = player in state.window.wagers
    turn.emit(events.wager_placed(state.round, player, wager_data(wager), replaced))


def wager_data(wager: Wager) -> dict[str, Any]:
    if wager.kind == SNAKE:
        return {"kind": SNAKE, "letter": wager.letter}
    data: dict[str, Any] = {"kind": wager.kind, "totems": list(wager.totems)}
    if wager.kind == BEAR:
        data["fine"] = wager.fine
    if wager.kind == FOX:
        data["payment"] = wager.payment
    return data


def cancel_wager(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    turn.emit(events.wager_cancelled(state.round, player, player in state.window.wagers))
