"""The King joins: an early end (KC-R14..R17) or a normal end with winner, rewards and EC scores
(rulebook 5.5 and section 8, KC-R19..R26)."""

from __future__ import annotations

from domain.games.kings_court import events
from domain.games.kings_court.aftermath import decide_ec_if_untied
from domain.games.kings_court.roles import DUKE, NOBLE
from domain.games.kings_court.state import EARLY_END_LIMIT, Game, State
from domain.games.kings_court.turn import Turn

EARLY_KING_THRESHOLD = 3  # other members needed in court for a normal end
EARLY_KING_PENALTY = 2
ELECTION_BONUS = (5, 4, 3, 2, 1)
KING_WIN_TOL = 3
TEAM_WIN_TOL = 1
TEAM_WIN_GARNETS = 2


def end_game(turn: Turn) -> None:
    game = turn.state.current()
    if len(others_in_court(game)) < EARLY_KING_THRESHOLD:
        end_early(turn)
    else:
        end_normally(turn)


def others_in_court(game: Game) -> list[str]:
    return [member for member in game.court if member != game.king]


def end_early(turn: Turn) -> None:
    """MoE and -2 garnets (at most what he has); nothing but his identity is revealed."""
    state = turn.state
    game = state.current()
    last = state.early_ends + 1 == EARLY_END_LIMIT
    taken = turn.penalty(game.king, EARLY_KING_PENALTY)
    next_game = None if last else game.number + 1
    turn.emit(events.early_king_found(game.number, game.king, taken, next_game))
    if last:
        turn.emit(events.main_match_ended(list(turn.state.kings)))


def end_normally(turn: Turn) -> None:
    state = turn.state
    game = state.current()
    secrets = game.secrets
    others = others_in_court(game)
    dukes_in_court = sum(secrets.roles[member] == DUKE for member in others)
    nobles_in_court = sum(secrets.roles[member] == NOBLE for member in others)
    if dukes_in_court == nobles_in_court:
        winner, party = "king", [game.king]
        pool = [player for player in state.players if player != game.king]
        king_garnets = len(others) // 2
        awards = {game.king: {"tol": KING_WIN_TOL, "garnets": king_garnets, "opal": 0}}
        opal = None
    else:
        winner = "dukes" if dukes_in_court > nobles_in_court else "nobles"
        party = secrets.team(DUKE if winner == "dukes" else NOBLE, state.players)
        pool = secrets.team(NOBLE if winner == "dukes" else DUKE, state.players)
        king_garnets = 0
        opal = opal_winner(game, party)
        awards = {
            player: {"tol": TEAM_WIN_TOL, "garnets": TEAM_WIN_GARNETS, "opal": int(player == opal)}
            for player in party
        }
    scores = ec_scores(state, game, pool)
    turn.emit(
        events.game_ended(
            game=game.number,
            roles={player: secrets.roles[player] for player in state.players},
            annoyed_duke=secrets.annoyed_duke,
            annoyed_noble=secrets.annoyed_noble,
            court=list(game.court),
            dukes_in_court=dukes_in_court,
            nobles_in_court=nobles_in_court,
            winner=winner,
            party=party,
            king_garnets=king_garnets,
            opal=opal,
            ec_scores=scores,
            ec_tied=lowest(state, pool, scores),
        )
    )
    turn.emit(events.awards_granted(game.number, awards, f"{winner}_win"))
    turn.emit(events.trade_freeze_started(state.players))
    if winner != "king":
        decide_ec_if_untied(turn)


def opal_winner(game: Game, team: list[str]) -> str | None:
    """The Opal goes to the single winning team member outside the court (KC-R26)."""
    outside_court = [player for player in team if player not in game.court]
    return outside_court[0] if len(outside_court) == 1 else None


def election_bonus(game: Game, player: str) -> int:
    if player not in game.court:
        return 0
    place = game.court.index(player)
    return ELECTION_BONUS[place] if place < len(ELECTION_BONUS) else 0


def ec_scores(state: State, game: Game, pool: list[str]) -> dict[str, dict[str, int]]:
    """Votes of the final game plus the election bonus (KC-R24); with `ec_bonus =
    tiebreak_only` the score is the votes alone and the bonus only separates equal scores."""
    scores = {}
    for player in pool:
        votes = game.totals.get(player, 0)
        bonus = election_bonus(game, player)
        score = votes + bonus if state.setup.ec_bonus == "always" else votes
        scores[player] = {"votes": votes, "bonus": bonus, "score": score}
    return scores


def lowest(state: State, pool: list[str], scores: dict[str, dict[str, int]]) -> list[str]:
    def rank(player: str) -> tuple[int, ...]:
        score = scores[player]
        if state.setup.ec_bonus == "always":
            return (score["score"],)
        return (score["score"], score["bonus"])

    best = min(rank(player) for player in pool)
    return [player for player in pool if rank(player) == best]
