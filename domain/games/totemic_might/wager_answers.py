"""Hope's Wagers at the deadline (rules 6.6, TM-R16, TM-R36): answers, costs and balloons.

Every player gets one sealed answer and the host one record, whether or not anyone wagered, so
the log does not tell how many wagers were placed.
"""

from __future__ import annotations

from typing import Any

from domain.games.totemic_might import events
from domain.games.totemic_might.draws import FOX_LIFTS, WOLF_LIFTS, Draw, draw
from domain.games.totemic_might.snake import SnakeDeal, assign_letters
from domain.games.totemic_might.state import BEAR, FOX, SNAKE, WOLF, State, Wager
from domain.games.totemic_might.turn import Turn
from domain.games.totemic_might.wagers import wager_data, wager_price

Answer = dict[str, Any]


class Settlement:
    """The answers of one deadline, built player by player, with the host's record."""

    def __init__(self, turn: Turn) -> None:
        self.turn = turn
        self.state: State = turn.state
        self.draws: list[Draw] = []
        self.balloons: list[dict[str, Any]] = []

    def balloon(self, player: str, kind: str, lift: int) -> dict[str, Any]:
        """A new balloon `<wager>-<player>-<n>`; the host record keeps its lift."""
        number = len(self.state.held(player).balloons) + 1
        made = {"player": player, "id": f"{kind}-{player}-{number}", "lift": lift}
        self.balloons.append(made)
        return made

    def drawn_lift(self, options: tuple[int, ...], label: str, player: str) -> int:
        lift = draw(self.state.setup, self.state.seed, options, label, self.state.round, player)
        self.draws.append(lift)
        outcome: int = lift.outcome
        return outcome


def settle_wagers(turn: Turn) -> None:
    state = turn.state
    standing = state.window.wagers
    ranking = sorted(state.players, key=lambda p: (-turn.balance(p), state.priority.index(p)))
    requests = {p: w.letter for p, w in standing.items() if w.kind == SNAKE and w.letter}
    deal = assign_letters(requests, ranking, state.snake_taken, state.snake_received)
    settlement = Settlement(turn)
    answers = {
        player: answer_for(settlement, player, standing.get(player), deal)
        for player in state.players
    }
    turn.emit(events.wagers_settled(
        state.round,
        snake={
            "taken_before": list(state.snake_taken),
            "requests": requests,
            "ranking": [p for p in ranking if p in requests],
            "assigned": dict(deal.assigned),
            "bumped": list(deal.bumped),
            "taken_after": list(deal.taken_after),
            "refreshes": deal.refreshes,
        },
        balloons=settlement.balloons,
        draws=[drawn.record() for drawn in settlement.draws],
    ))
    for player in state.players:
        answer = answers[player]
        turn.emit(events.wager_settled(state.round, player, answer.pop("cost"), **answer))


def answer_for(settlement: Settlement, player: str, wager: Wager | None, deal: SnakeDeal) -> Answer:
    if wager is None:
        return {"kind": None, "wager": None, "took_place": False, "cost": 0}
    price = wager_price(settlement.state, wager)
    if settlement.turn.balance(player) < price:
        # The balance fell below the price after submission (a season garnet trade): no answer
        # without payment, and nothing is owed.
        return lapsed(wager, "insufficient_garnets")
    answer = ANSWERS[wager.kind](settlement, player, wager, deal)
    if answer is None:
        return lapsed(wager, "no_letter")
    return {"kind": wager.kind, "wager": wager_data(wager), "took_place": True, "cost": price,
            **answer}


def lapsed(wager: Wager, reason: str) -> Answer:
    return {"kind": wager.kind, "wager": wager_data(wager), "took_place": False, "cost": 0,
            "lapsed": reason}


def snake(settlement: Settlement, player: str, wager: Wager, deal: SnakeDeal) -> Answer | None:
    letter = deal.assigned.get(player)
    if letter is None:
        return None
    hint = settlement.state.hint(letter)
    made = settlement.balloon(player, SNAKE, hint.lift)
    return {
        "letter": letter,
        "bumped": letter != wager.letter,
        "hint": hint.text,
        "lift": hint.lift,
        "balloon": made["id"],
    }


def wolf(settlement: Settlement, player: str, wager: Wager, deal: SnakeDeal) -> Answer:
    weights = settlement.state.weights
    first, second = wager.totems
    difference = abs(weights[first] - weights[second]) % settlement.state.setup.wolf_modulus
    lift = settlement.drawn_lift(WOLF_LIFTS, "wolf_lift", player)
    return {"answer": difference, "balloon": settlement.balloon(player, WOLF, lift)["id"]}


def bear(settlement: Settlement, player: str, wager: Wager, deal: SnakeDeal) -> Answer:
    total = sum(settlement.state.weights[totem] for totem in wager.totems)
    width = 5 if wager.fine else 10
    low = ((total - 1) // width) * width + 1
    return {"answer": [low, low + width - 1]}


def fox(settlement: Settlement, player: str, wager: Wager, deal: SnakeDeal) -> Answer:
    total = sum(settlement.state.weights[totem] for totem in wager.totems)
    if wager.payment == "garnets":
        return {"answer": total, "balloon": None}
    lift = settlement.drawn_lift(FOX_LIFTS, "fox_lift", player)
    return {"answer": total, "balloon": settlement.balloon(player, FOX, lift)["id"]}


ANSWERS = {SNAKE: snake, WOLF: wolf, BEAR: bear, FOX: fox}
