"""Gifts and trades of trial copies (rules 4.6, 6.5, TM-R13, TM-R33, TM-R40, TM-R41)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from domain.errors import RuleViolation
from domain.games.totemic_might import events
from domain.games.totemic_might.grid import TRIAL, parse_token
from domain.games.totemic_might.state import State, Transfer
from domain.games.totemic_might.turn import Turn

Args = Mapping[str, Any]
GIFT, TRADE = "gift", "trade"
EXECUTED, LAPSED = "executed", "lapsed"


# Guards, in the order of 4.6


def check_counterparty(state: State, player: str, other: object) -> str:
    if other == player:
        raise RuleViolation("SELF_TRANSFER", "you cannot give or trade to yourself")
    if not isinstance(other, str) or other not in state.players:
        raise RuleViolation("UNKNOWN_PLAYER", f"{other!r} is not a player of this match")
    return other


def check_transferable(pieces: object) -> tuple[str, ...]:
    """Only trial copies move: `T:<totem>` tokens, at least one."""
    if pieces == []:
        raise RuleViolation("NOT_TRANSFERABLE", "name at least one trial copy")
    if not isinstance(pieces, list):
        raise RuleViolation("UNKNOWN_PIECE", "a list of `T:<totem>` tokens")
    totems = []
    for value in pieces:
        parsed = parse_token(value)
        if parsed is None:
            raise RuleViolation("UNKNOWN_PIECE", f"{value!r} is not a piece token")
        if parsed[0] != TRIAL:
            raise RuleViolation("NOT_TRANSFERABLE", "only trial copies can be transferred")
        totems.append(parsed[1])
    return tuple(totems)


def check_copies_available(state: State, player: str, give: tuple[str, ...]) -> None:
    """Held, minus used on the scale this round, minus promised in other pending transfers."""
    held, window = state.held(player), state.window
    used, locked = window.used_copies(player), window.committed_copies(player)
    for totem, count in Counter(give).items():
        if held.copies(totem) - used[totem] - locked[totem] < count:
            raise RuleViolation("COPY_NOT_AVAILABLE", f"not enough free copies of {totem}")


def check_own_pending_transfer(state: State, player: str, number: object) -> Transfer:
    """Ids are whole numbers: `1.0` or `true` names no transfer, although Python finds them
    equal to 1."""
    is_integer = isinstance(number, int) and not isinstance(number, bool)
    mine = next(
        (t for t in state.window.transfers
         if is_integer and t.proposer == player and t.number == number),
        None,
    )
    if mine is None:
        raise RuleViolation("UNKNOWN_TRANSFER", f"you have no pending transfer {number!r}")
    return mine


# Commands


def give(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    receiver = check_counterparty(state, player, args.get("to"))
    pieces = check_transferable(args.get("pieces"))
    check_copies_available(state, player, pieces)
    propose(turn, Transfer(player, next_number(state, player), GIFT, receiver, pieces))


def propose_trade(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    other = check_counterparty(state, player, args.get("with"))
    given = check_transferable(args.get("give"))
    received = check_transferable(args.get("receive"))
    check_copies_available(state, player, given)
    propose(turn, Transfer(player, next_number(state, player), TRADE, other, given, received))


def next_number(state: State, player: str) -> int:
    """Numbered per proposer and round (TM-R40)."""
    return state.window.transfer_numbers.get(player, 0) + 1


def propose(turn: Turn, transfer: Transfer) -> None:
    turn.emit(events.transfer_proposed(turn.state.round, transfer))


def cancel_transfer(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    mine = check_own_pending_transfer(state, player, args.get("id"))
    turn.emit(events.transfer_cancelled(state.round, mine))


# The deadline


def settle_transfers(turn: Turn) -> None:
    """Step 6: in acceptance order, gifts execute and each trade pairs with the earliest
    unpaired mirror of the other party (TM-R41); one sealed account per player."""
    state = turn.state
    pending = state.window.transfers
    outcome: dict[tuple[str, int], str] = {}
    for transfer in pending:
        name = (transfer.proposer, transfer.number)
        if name in outcome:
            continue
        if transfer.kind == GIFT:
            outcome[name] = EXECUTED
            continue
        partner = next(
            (other for other in pending
             if (other.proposer, other.number) not in outcome and transfer.mirrors(other)),
            None,
        )
        outcome[name] = EXECUTED if partner else LAPSED
        if partner:
            outcome[(partner.proposer, partner.number)] = EXECUTED
    for player in state.players:
        settled = account(player, pending, outcome)
        turn.emit(events.transfers_settled(state.round, player, **settled))


def account(
    player: str, pending: tuple[Transfer, ...], outcome: Mapping[tuple[str, int], str]
) -> dict[str, Any]:
    """What the player proposed or was party to, what became of it, and the copies moved."""
    copies_in: Counter[str] = Counter()
    copies_out: Counter[str] = Counter()
    listed = []
    for transfer in pending:
        if player not in (transfer.proposer, transfer.counterparty):
            continue
        status = outcome[(transfer.proposer, transfer.number)]
        listed.append({**events.transfer_data(transfer), "status": status})
        if status == EXECUTED:
            outgoing = transfer.proposer == player
            (copies_out if outgoing else copies_in).update(transfer.give)
    return {
        "transfers": listed,
        "copies_in": dict(sorted(copies_in.items())),
        "copies_out": dict(sorted(copies_out.items())),
    }
