"""A match at the decider level: decide, fold evolve, keep the season ledger the way the
framework would (balances are passed back in Command.garnets).

The standard table: weights follow the grid's canonical order (Summer-Secret 1 ... Winter-Sky
20), so every weighing and wager below can be worked out by hand.
"""

from __future__ import annotations

from typing import Any

from domain.decider import PUBLIC, Event
from domain.games import totemic_might as tm
from domain.games.totemic_might.grid import TOTEMS
from tests.support.deciders import DeciderMatch

PLAYERS = [f"p{i}" for i in range(1, 8)]
WEIGHTS = {totem: index + 1 for index, totem in enumerate(TOTEMS)}
STARTING = {
    "p1": "Summer-Secret",  # 1
    "p2": "Void-Creature",  # 7
    "p3": "Spring-Future",  # 13
    "p4": "Winter-Land",  # 19
    "p5": "Summer-Sky",  # 5
    "p6": "Void-Secret",  # 6
    "p7": "Spring-Creature",  # 12
}
# The 13 others but Winter-Secret, Winter-Creature and Winter-Future, in canonical order.
POOL = [
    "Summer-Creature", "Summer-Future", "Summer-Land", "Void-Future", "Void-Land", "Void-Sky",
    "Spring-Secret", "Spring-Land", "Spring-Sky", "Winter-Sky",
]
SERIES = [
    {"A": ["Summer-Creature", "Summer-Future", "Void-Land", "Spring-Sky", "Winter-Future"],
     "B": ["Void-Sky", "Spring-Secret", "Winter-Secret", "Winter-Sky", "Summer-Land"]},
    {"A": ["Summer-Secret", "Void-Creature", "Spring-Future", "Winter-Land", "Summer-Sky"],
     "B": ["Void-Secret", "Spring-Creature", "Winter-Creature", "Void-Future", "Spring-Land"]},
]
HINTS = [
    {"letter": letter, "text": f"hint {letter}", "lift": 11 + index}
    for index, letter in enumerate("ABCDEFGHIJ")
]
# Priority at the start: p7 (12), p1 (10), p2 and p3 (8, setup order), p4, p5, p6.
GARNETS = {"p1": 10, "p2": 8, "p3": 8, "p4": 5, "p5": 3, "p6": 0, "p7": 12}
ORDER_1A = ["Summer-Creature", "Summer-Future", "Void-Land", "Spring-Sky", "Winter-Future",
            "GARNET"]
ORDER_1B = ["Void-Sky", "Spring-Secret", "Winter-Secret", "Winter-Sky", "Summer-Land", "GARNET"]


def standard_setup(**changes: Any) -> dict[str, Any]:
    setup: dict[str, Any] = {
        "players": PLAYERS,
        "weights": WEIGHTS,
        "starting_totems": STARTING,
        "spirit_pool": POOL,
        "series": SERIES,
        "snake_hints": HINTS,
    }
    setup.update(changes)
    return {key: value for key, value in setup.items() if value is not None}


class Match(DeciderMatch):
    game = tm

    def __init__(
        self,
        garnets: dict[str, int] | None = None,
        seed: str = "totem-test-seed",
        open_match: bool = True,
        **changes: Any,
    ) -> None:
        setup = tm.Setup.model_validate(standard_setup(**changes))
        super().__init__(setup, seed, PLAYERS, GARNETS if garnets is None else garnets,
                         open_match)

    def deadline(self) -> list[Event]:
        return self.host("deadline")

    def to_final_weighing(self) -> None:
        """Deadlines until the auctions end (a match opened with few chips ends quickly)."""
        while self.state.phase == "auction":
            self.deadline()

    def to_final_challenge(self) -> None:
        self.to_final_weighing()
        self.deadline()

    # Reading

    def seen_by(self, viewer: str) -> list[Event]:
        return [event for event in self.log if event.seen_by(viewer)]

    def public(self) -> list[Event]:
        return [event for event in self.log if event.audience == PUBLIC]

    def last(self, kind: str, player: str | None = None) -> Event:
        return self.all(kind, player)[-1]

    def all(self, kind: str, player: str | None = None) -> list[Event]:
        return [
            event for event in self.log
            if event.kind == kind and (player is None or event.data.get("player") == player)
        ]

    def held(self, player: str):
        return self.state.held(player)


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


# Round 1 worked out by hand (used by most tests).
#
# Series 1A: Summer-Creature 2, Summer-Future 3, Void-Land 9, Spring-Sky 15, Winter-Future 18.
# Series 1B: Void-Sky 10, Spring-Secret 11, Winter-Secret 16, Winter-Sky 20, Summer-Land 4.
# Bets A: p1 10, p2 9, p3 8, p4 7, p5 6, p6 5, p7 4 (no ties, so no rotation).
# Bets B: p3 7, p2 6, p1 5, p4 4, p5 3, p6 2, p7 1.
# Everyone ranks the items as ORDER_1A / ORDER_1B, but p5 wants the garnet of B first.
#   A: p1 Summer-Creature, p2 Summer-Future, p3 Void-Land, p4 Spring-Sky, p5 Winter-Future,
#      p6 GARNET, p7 nothing.
#   B: p3 Void-Sky, p2 Spring-Secret, p1 Winter-Secret, p4 Winter-Sky, p5 GARNET,
#      p6 Summer-Land, p7 nothing.
# Chips paid: p1 15, p2 15, p3 15, p4 11, p5 9, p6 7, p7 5.
# p7 gained no totem: the lone owed player of round 2. Garnets: p5 +1, p6 +1.
ROUND_ONE_BETS = {
    "p1": (10, 5), "p2": (9, 6), "p3": (8, 7), "p4": (7, 4), "p5": (6, 3), "p6": (5, 2),
    "p7": (4, 1),
}
ROUND_ONE_HOLDINGS = {
    "p1": {"Summer-Creature": 1, "Winter-Secret": 1},
    "p2": {"Spring-Secret": 1, "Summer-Future": 1},
    "p3": {"Void-Land": 1, "Void-Sky": 1},
    "p4": {"Spring-Sky": 1, "Winter-Sky": 1},
    "p5": {"Winter-Future": 1},
    "p6": {"Summer-Land": 1},
    "p7": {},
}


def play_round_one(match: Match) -> list[Event]:
    for player, (a, b) in ROUND_ONE_BETS.items():
        match.do(player, "place_bet", series="A", amount=a)
        match.do(player, "place_bet", series="B", amount=b)
        match.do(player, "set_pick_order", series="A", order=ORDER_1A)
        order_b = ["GARNET", *ORDER_1B[:-1]] if player == "p5" else ORDER_1B
        match.do(player, "set_pick_order", series="B", order=order_b)
    return match.deadline()


def after_round_one(**options: Any) -> Match:
    match = Match(**options)
    play_round_one(match)
    return match


def final_challenge(**options: Any) -> Match:
    """16 chips: everyone is at 15 or fewer after round 1, so round 2 is the final weighing
    round. p7 chooses Void-Land (9): their pieces weigh 210 + 12 + 9 = 231 = 3 x 77. p6's weigh
    210 + 6 = 216 = 3 x 72."""
    match = after_round_one(starting_chips=16, **options)
    match.do("p7", "choose_spirit_totem", totem="Void-Land")
    match.deadline()
    return match


# p6's pieces in three groups of 72: 20+19+18+15, 17+16+14+13+12, 1..11 and the spirit 6.
P6_BALANCED = [
    ["C:Winter-Sky", "C:Winter-Land", "C:Winter-Future", "C:Spring-Sky"],
    ["C:Winter-Creature", "C:Winter-Secret", "C:Spring-Land", "C:Spring-Future",
     "C:Spring-Creature"],
    ["C:Summer-Secret", "C:Summer-Creature", "C:Summer-Future", "C:Summer-Land", "C:Summer-Sky",
     "C:Void-Secret", "C:Void-Creature", "C:Void-Future", "C:Void-Land", "C:Void-Sky",
     "C:Spring-Secret", "S:Void-Secret"],
]
