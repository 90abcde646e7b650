"""After a normal end: the King's gift (KC-R21), the EC decision (KC-R25) and the DMO (KC-R32)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.decider import HOST
from domain.errors import RuleViolation
from domain.games.kings_court import events
from domain.games.kings_court.roles import DUKE, NOBLE
from domain.games.kings_court.state import Game
from domain.games.kings_court.turn import Turn


def decide_ec_if_untied(turn: Turn) -> None:
    aftermath = turn.state.settled()
    if len(aftermath.ec_tied) == 1:
        turn.emit(events.ec_decided(aftermath.ec_tied[0], "lowest_score"))


def close_king_gift(turn: Turn, args: Mapping[str, Any]) -> None:
    game, aftermath = turn.state.current(), turn.state.settled()
    if aftermath.gift_choice:
        duke, noble = aftermath.gift_choice
    else:
        duke, noble = earliest_elected(game, DUKE), earliest_elected(game, NOBLE)
    turn.emit(events.king_gift_made(game.king, duke, noble, defaulted=not aftermath.gift_choice))
    decide_ec_if_untied(turn)


def earliest_elected(game: Game, role: str) -> str:
    """The default recipient; one of each exists, since the King wins only with D = N >= 2."""
    return next(member for member in game.court if game.role(member) == role)


def close_ec_vote(turn: Turn, args: Mapping[str, Any]) -> None:
    """Party majority, else fewest garnets (live balances), else the deadlock coin."""
    state = turn.state
    aftermath = state.settled()
    counts = dict.fromkeys(aftermath.ec_tied, 0)
    for voter in aftermath.party:
        if voter in aftermath.ec_ballots:
            counts[aftermath.ec_ballots[voter]] += 1
    if state.setup.ec_majority == "strict_of_party":
        majority = len(aftermath.party) // 2 + 1
        needed: int | None = majority
        chosen = [candidate for candidate, count in counts.items() if count >= majority]
    else:
        needed = None
        most = max(counts.values())
        chosen = [candidate for candidate, count in counts.items() if count == most and most]
    if len(chosen) == 1:
        turn.emit(events.ec_decided(chosen[0], "party_vote", counts, needed))
        return
    garnets = {candidate: turn.balance(candidate) for candidate in aftermath.ec_tied}
    fewest = min(garnets.values())
    poorest = [candidate for candidate in aftermath.ec_tied if garnets[candidate] == fewest]
    if len(poorest) == 1:
        turn.emit(events.ec_decided(poorest[0], "garnets", counts, needed, garnets))
    else:
        turn.emit(events.deadlock_coin_opened(poorest, counts, needed, garnets))


def record_deadlock_result(turn: Turn, args: Mapping[str, Any]) -> None:
    aftermath = turn.state.settled()
    ec = args.get("ec")
    if not isinstance(ec, str) or ec not in aftermath.deadlock:
        allowed = ", ".join(aftermath.deadlock)
        raise RuleViolation("invalid_deadlock_result", f"ec must be one of {allowed}")
    turn.emit(events.ec_decided(ec, "deadlock_coin", actor=HOST))


def record_dmo(turn: Turn, args: Mapping[str, Any]) -> None:
    """The DMO is any other player of this match; the decider cannot see the season roster."""
    state = turn.state
    aftermath = state.settled()
    dmo = args.get("dmo")
    if not isinstance(dmo, str) or dmo not in state.players or dmo == aftermath.ec:
        raise RuleViolation("invalid_dmo", "dmo must be a player of this match other than the EC")
    assert aftermath.ec is not None, "the DMO phase opens when the EC is decided"
    turn.emit(events.dmo_recorded(dmo, aftermath.ec))
    turn.emit(events.trade_freeze_ended(state.players))
