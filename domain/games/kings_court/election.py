"""Game start, vote deadlines, tie-breaks and joining the court (rulebook 5.1-5.4)."""

from __future__ import annotations

from domain.games.kings_court import events
from domain.games.kings_court.draws import game_secrets, seeded_tiebreak
from domain.games.kings_court.ending import end_game
from domain.games.kings_court.phases import BETWEEN_GAMES
from domain.games.kings_court.state import State
from domain.games.kings_court.turn import Turn

MISSED_VOTE_PENALTY = 1
NAME_MILESTONES = {2: 1, 4: 2, 6: 3}  # court size -> which list name is released


def start_game(turn: Turn, number: int) -> None:
    """Fix the roles, annoyed pair and lists, tell each player their role, open round 1."""
    state = turn.state
    secrets = game_secrets(state.setup, state.seed, number, list(state.kings))
    explicit = number <= len(state.setup.games)
    turn.emit(events.game_started(number, state.kings))
    turn.emit(events.game_roles_drawn(number, secrets, state.players))
    turn.emit(events.game_lists_drawn(number, secrets, state.players, explicit))
    for player in state.players:
        turn.emit(events.role_disclosed(number, player, secrets.roles[player]))
    open_round(turn)


def open_round(turn: Turn) -> None:
    game = turn.state.current()
    turn.emit(events.round_opened(game.number, game.round + 1, turn.state.match_round + 1))


def close_round(turn: Turn) -> None:
    """The vote deadline, the steps of rulebook 5.2 in order."""
    answer_pair_check(turn)
    penalise_missed_votes(turn)
    state = turn.state
    game = state.current()
    outside = state.outside()
    counts = dict.fromkeys(outside, 0)
    for voter in outside:
        if voter in game.votes:
            counts[game.votes[voter]] += 1
    highest = max(counts.values())
    top = [candidate for candidate in outside if counts[candidate] == highest]
    tied = top if len(top) > 1 else []
    turn.emit(events.votes_tallied(game.number, game.round, counts, tied))
    if not tied:
        join(turn, top[0], via="votes")


def answer_pair_check(turn: Turn) -> None:
    """Answered before the tally, so also when this tally ends the game (KC-R5)."""
    game = turn.state.current()
    if not game.pair_check or game.check_right is None:
        return
    first, second = game.pair_check
    same = game.secrets.judge(first) == game.secrets.judge(second)
    result = "same" if same else "different"
    turn.emit(
        events.pair_check_answered(
            game.number, game.round, game.check_right, list(game.pair_check), result
        )
    )


def penalise_missed_votes(turn: Turn) -> None:
    game = turn.state.current()
    for player in turn.state.outside():
        if player not in game.votes:
            taken = turn.penalty(player, MISSED_VOTE_PENALTY)
            turn.emit(events.missed_vote_penalised(game.number, game.round, player, taken))


def close_tiebreak(turn: Turn) -> None:
    game = turn.state.current()
    if game.tiebreak_choice is not None:
        choice, source, skipped = game.tiebreak_choice, "king", None
    else:
        choice, source, skipped = default_tiebreak(turn.state)
    turn.emit(
        events.tiebreak_resolved(game.number, game.round, list(game.tied), choice, source, skipped)
    )
    join(turn, choice, via="tiebreak")


def default_tiebreak(state: State) -> tuple[str, str, str | None]:
    """(choice, source, skipped explicit pick): the host's next pick if eligible, else the
    variant's rule. An ineligible explicit pick is used up and recorded, never obeyed."""
    game = state.current()
    eligible = [player for player in game.tied if player != game.king]
    picks = state.setup.tiebreak_default_picks
    skipped = None
    if state.default_picks < len(picks):
        pick = picks[state.default_picks]
        if pick in eligible:
            return pick, "explicit", None
        skipped = pick
    if state.setup.tiebreak_default == "seat_order":
        return eligible[0], "seat_order", skipped
    return seeded_tiebreak(state.seed, game.number, game.round, eligible), "seed", skipped


def join(turn: Turn, player: str, via: str) -> None:
    """Joining (rulebook 5.4): announce the joiner; a King ends the game, else play goes on."""
    game = turn.state.current()
    is_king = player == game.king
    court = [*game.court, player]
    turn.emit(events.member_joined(game.number, game.round, player, is_king, court, via))
    if is_king:
        end_game(turn)
        if turn.state.phase == BETWEEN_GAMES:
            start_game(turn, game.number + 1)
        return
    release_list_names(turn)
    if turn.state.outside() == [game.king]:
        join(turn, game.king, via="alone")  # KC-R18: nobody can vote for him
    else:
        open_round(turn)


def release_list_names(turn: Turn) -> None:
    game = turn.state.current()
    index = NAME_MILESTONES.get(len(game.court))
    if index is None:
        return
    for player in turn.state.players:
        name = game.secrets.lists[player][index - 1]
        turn.emit(events.list_name_released(game.number, player, index, name))
