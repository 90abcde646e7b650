"""The players' commands: the checks of rulebook 6.2 after the common ones, in order.

Rejections reach only the submitter and name nothing the submitter did not already know.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

from domain.errors import RuleViolation
from domain.games.kings_court import events
from domain.games.kings_court.draws import king_peek_coin
from domain.games.kings_court.phases import EC_VOTE, ELECTION, KING_GIFT, TIEBREAK
from domain.games.kings_court.roles import DUKE, NOBLE, judge_lies_in_looks, judge_lies_in_peeks
from domain.games.kings_court.state import Game, State
from domain.games.kings_court.turn import Turn

PEEK_PRICE = 8
ANNOYED_CHECK_PRICE = 3
SPENDS = {"peek": PEEK_PRICE, "annoyed_check": ANNOYED_CHECK_PRICE}  # garnets per command

Args = Mapping[str, Any]


# Guards


def check_phase_is(state: State, phase: str) -> None:
    if state.phase != phase:
        raise RuleViolation("wrong_phase", f"this needs the {phase} phase; it is {state.phase}")


def check_actor_is_king(game: Game, actor: str) -> None:
    if actor != game.king:
        raise RuleViolation("not_king", "only the King may do this")


def check_is_player(state: State, name: object) -> str:
    if not isinstance(name, str) or name not in state.players:
        raise RuleViolation("unknown_target", f"{name!r} is not a player of this match")
    return name


def check_two_targets(state: State, actor: str, targets: object) -> list[str]:
    if not isinstance(targets, list | tuple) or len(targets) != 2:
        raise RuleViolation("invalid_targets", "targets must be a list of exactly 2 players")
    first, second = (check_is_player(state, target) for target in targets)
    if actor in (first, second):
        raise RuleViolation("cannot_target_self", "you cannot name yourself")
    if first == second:
        raise RuleViolation("duplicate_target", "name two different players")
    return [first, second]


def check_can_afford(turn: Turn, player: str, price: int) -> None:
    if turn.balance(player) < price:
        raise RuleViolation("insufficient_garnets", f"this costs {price} garnets")


# Commands


def vote(turn: Turn, actor: str, args: Args) -> None:
    state = turn.state
    check_phase_is(state, ELECTION)
    game = state.current()
    if actor in game.court:
        raise RuleViolation("in_court", "members of the court do not vote")
    candidate = check_is_player(state, args.get("candidate"))
    if candidate == actor:
        raise RuleViolation("self_vote", "you cannot vote for yourself")
    if candidate in game.court:
        raise RuleViolation("candidate_in_court", f"{candidate} is already in the court")
    turn.emit(events.vote_cast(game.number, game.round, actor, candidate))


def pair_check(turn: Turn, actor: str, args: Args) -> None:
    state = turn.state
    check_phase_is(state, ELECTION)
    game = state.current()
    if actor != game.check_right:
        raise RuleViolation("no_check_right", "only the member who joined last may check a pair")
    if game.pair_check:
        raise RuleViolation("already_used", "your pair check is already submitted")
    targets = check_two_targets(state, actor, args.get("targets"))
    turn.emit(events.pair_check_submitted(game.number, game.round, actor, targets))


def king_learn(turn: Turn, actor: str, args: Args) -> None:
    state = turn.state
    game = state.current()
    check_actor_is_king(game, actor)
    if state.phase != ELECTION or game.round != 1:
        raise RuleViolation("too_late", "the opening look is only open in round 1")
    if game.king_looked:
        raise RuleViolation("already_used", "you already had your opening look")
    targets = check_two_targets(state, actor, args.get("targets"))
    lying = judge_lies_in_looks(state.setup)
    shown = [game.secrets.shown(target, lying) for target in targets]
    turn.emit(events.king_look_answered(game.number, actor, targets, shown))


def tiebreak(turn: Turn, actor: str, args: Args) -> None:
    state = turn.state
    check_phase_is(state, TIEBREAK)
    game = state.current()
    check_actor_is_king(game, actor)
    choice = args.get("choice")
    if choice == actor:
        raise RuleViolation("king_cannot_elect_self", "the King cannot elect himself")
    if not isinstance(choice, str) or choice not in game.tied:
        raise RuleViolation("not_tied", f"choose one of {', '.join(game.tied)}")
    turn.emit(events.tiebreak_chosen(game.number, game.round, actor, choice))


def peek(turn: Turn, actor: str, args: Args) -> None:
    state = turn.state
    game = state.current()
    target = check_is_player(state, args.get("target"))
    if target == actor:
        raise RuleViolation("cannot_target_self", "you cannot peek at yourself")
    if (actor, target) in game.peeks:
        raise RuleViolation("already_peeked", f"you already peeked at {target} this game")
    check_can_afford(turn, actor, PEEK_PRICE)
    answer = peek_answer(state, actor, target)
    turn.emit(events.peek_answered(game.number, actor, target, answer, PEEK_PRICE))


def peek_answer(state: State, peeker: str, target: str) -> str:
    """A peek at the King answers the host's next explicit answer, else a seeded coin."""
    game = state.current()
    if target != game.king:
        return game.secrets.shown(target, judge_lies_in_peeks(state.setup))
    explicit = state.setup.king_peek_answers
    if state.king_peeks < len(explicit):
        return explicit[state.king_peeks]
    return king_peek_coin(state.seed, game.number, peeker)


def annoyed_check(turn: Turn, actor: str, args: Args) -> None:
    game = turn.state.current()
    if actor == game.king:
        raise RuleViolation("king_cannot_be_annoyed", "the King is never annoyed")
    if actor in game.annoyed_checked:
        raise RuleViolation("already_used", "you already checked this game")
    check_can_afford(turn, actor, ANNOYED_CHECK_PRICE)
    annoyed = actor in (game.secrets.annoyed_duke, game.secrets.annoyed_noble)
    turn.emit(events.annoyed_check_answered(game.number, actor, annoyed, ANNOYED_CHECK_PRICE))


def king_gift(turn: Turn, actor: str, args: Args) -> None:
    game = turn.state.current()
    check_actor_is_king(game, actor)
    duke, noble = args.get("duke"), args.get("noble")
    if not has_role(duke, game, DUKE) or not has_role(noble, game, NOBLE):
        raise RuleViolation("invalid_gift", "name one Duke and one Noble")
    turn.emit(events.king_gift_chosen(actor, duke, noble))


def has_role(player: object, game: Game, role: str) -> TypeGuard[str]:
    return isinstance(player, str) and game.secrets.roles.get(player) == role


def ec_vote(turn: Turn, actor: str, args: Args) -> None:
    aftermath = turn.state.settled()
    if actor not in aftermath.party:
        raise RuleViolation("not_in_winning_party", "only the winning party votes on the EC")
    candidate = args.get("candidate")
    if not isinstance(candidate, str) or candidate not in aftermath.ec_tied:
        raise RuleViolation("not_ec_candidate", f"choose one of {', '.join(aftermath.ec_tied)}")
    turn.emit(events.ec_ballot_cast(actor, candidate))


PlayerCommand = Callable[[Turn, str, Args], None]

GAMEPLAY: dict[str, PlayerCommand] = {
    "vote": vote,
    "pair_check": pair_check,
    "king_learn": king_learn,
    "tiebreak": tiebreak,
    "peek": peek,
    "annoyed_check": annoyed_check,
}
POST_GAME: dict[str, tuple[str, PlayerCommand]] = {
    "king_gift": (KING_GIFT, king_gift),
    "ec_vote": (EC_VOTE, ec_vote),
}
