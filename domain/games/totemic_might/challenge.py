"""The final challenge (rules 3.4, 4.7, 4.8, 6.8-6.10, 8, 9): balance attempts, guesses of
starting totems, and the final deadline's scores, ranking, awards and reveal."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from domain.errors import RuleViolation
from domain.games.totemic_might import events
from domain.games.totemic_might.grid import is_totem
from domain.games.totemic_might.ranking import final_ranking, opal_challenge_winner
from domain.games.totemic_might.scale import net_weight
from domain.games.totemic_might.state import Challenge, State
from domain.games.totemic_might.turn import Turn

Args = Mapping[str, Any]
SIDES = 3


# Guards, in the order of 4.7 and 4.8


def check_may_attempt(state: State, challenge: Challenge) -> None:
    if challenge.weight is not None:
        raise RuleViolation("ALREADY_BALANCED", "your balance is already level")
    limit = state.setup.final_max_attempts
    if limit is not None and challenge.attempts >= limit:
        raise RuleViolation("ATTEMPT_LIMIT", f"{limit} attempts at most")


def check_three_sides(sides: object) -> list[list[Any]]:
    if not isinstance(sides, list) or len(sides) != SIDES or not all(
        isinstance(one, list) for one in sides
    ):
        raise RuleViolation("WRONG_SIDE_COUNT", "give exactly 3 groups of pieces")
    if not all(sides):
        raise RuleViolation("EMPTY_SIDE", "every group holds at least one piece")
    return sides


def check_every_piece_once(challenge: Challenge, sides: list[list[Any]]) -> None:
    tokens = [token for one in sides for token in one]
    if not all(isinstance(token, str) for token in tokens) or Counter(tokens) != Counter(
        challenge.pieces
    ):
        raise RuleViolation("PIECES_MISMATCH", "place each of your final pieces exactly once")


def check_target(state: State, player: str, target: object) -> str:
    if target == player:
        raise RuleViolation("GUESS_SELF", "you know your own starting totem")
    if not isinstance(target, str) or target not in state.players:
        raise RuleViolation("UNKNOWN_PLAYER", f"{target!r} is not a player of this match")
    return target


# Commands


def attempt_balance(turn: Turn, player: str, args: Args) -> None:
    state = turn.state
    challenge = state.challenge[player]
    check_may_attempt(state, challenge)
    sides = check_three_sides(args.get("sides"))
    check_every_piece_once(challenge, sides)
    held = state.held(player)
    nets = [net_weight(state, held, one) for one in sides]
    balanced = len(set(nets)) == 1
    turn.emit(events.balance_attempted(
        player,
        attempt=challenge.attempts + 1,
        sides=sides,
        balanced=balanced,
        failure_marks=challenge.marks + (0 if balanced else 1),
        final_weight=nets[0] if balanced else None,
    ))


def guess_starting_totem(turn: Turn, player: str, args: Args) -> None:
    target = check_target(turn.state, player, args.get("target"))
    totem = args.get("totem")
    if not is_totem(totem):
        raise RuleViolation("UNKNOWN_TOTEM", f"{totem!r} is not a totem of the grid")
    turn.emit(events.guess_recorded(player, target, totem))


def withdraw_guess(turn: Turn, player: str, args: Args) -> None:
    """Never an error of its own: with no standing guess it changes nothing (TM-R42)."""
    target = args.get("target")
    standing = turn.state.guesses.get(player, {})
    named = target if isinstance(target, str) else None
    turn.emit(events.guess_withdrawn(player, named, named in standing))


# The final deadline


def close_challenge(turn: Turn, args: Args) -> None:
    """Unbalanced players take a mark and weight 0; score, rank, award; open the setup."""
    state = turn.state
    setup, players = state.setup, state.players
    marks = {p: closing_marks(state.challenge[p]) for p in players}
    weights = {p: state.challenge[p].weight or 0 for p in players}
    guessed_by = {target: correct_guessers(state, target) for target in players}
    correct = {g: sum(g in guessed_by[t] for t in players) for g in players}
    penalty = {p: setup.guess_penalty * len(guessed_by[p]) for p in players}
    scores = {p: weights[p] - penalty[p] for p in players}
    end_garnets = {p: turn.balance(p) for p in players}
    ranking = final_ranking(setup, marks, scores, end_garnets, state.garnets_start,
                            state.priority)
    opal = opal_challenge_winner(setup, correct, state.wagers_taken)
    turn.emit(events.match_results(
        awards(ranking, opal),
        starting_totems={p: state.starting[p] for p in players},
        players={
            p: {
                "rank": ranking.index(p) + 1,
                "failure_marks": marks[p],
                "final_weight": weights[p],
                "guessed_by": guessed_by[p],
                "penalty": penalty[p],
                "final_score": scores[p],
                "correct_guesses": correct[p],
                "wagers_taken": state.wagers_taken.get(p, 0),
                "end_garnets": end_garnets[p],
            }
            for p in players
        },
        ranking=ranking,
        winner=ranking[0],
        ec=ranking[-1],
        opal_challenge=opal,
    ))
    turn.emit(events.setup_revealed(
        weights=dict(state.weights),
        starting_totems={p: state.starting[p] for p in players},
        spirit_pool=list(state.initial_pool),
        series=[{name: list(totems) for name, totems in pair.items()} for pair in state.schedule],
        snake_hints=[hint.model_dump() for hint in setup.snake_hints],
    ))


def closing_marks(challenge: Challenge) -> int:
    """Not balanced by the final deadline: one more mark (6.8)."""
    return challenge.marks + (0 if challenge.weight is not None else 1)


def correct_guessers(state: State, target: str) -> list[str]:
    """The other players whose standing guess for `target` is its starting totem."""
    truth = state.starting[target]
    return [
        guesser for guesser in state.players
        if guesser != target and state.guesses.get(guesser, {}).get(target) == truth
    ]


def awards(ranking: list[str], opal_winner: str | None) -> dict[str, dict[str, int]]:
    """1st: 2 ToL and an Opal; the Opal challenge: an Opal (maybe the same player); 7th: EC."""
    prizes: dict[str, dict[str, int]] = {ranking[0]: {"tol": 2, "opal": 1}, ranking[-1]: {"ec": 1}}
    if opal_winner is not None:
        prizes.setdefault(opal_winner, {})["opal_challenge"] = 1
    return {player: prizes[player] for player in ranking if player in prizes}
