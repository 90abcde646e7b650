"""A guild match at the decider level: decide, fold evolve, keep the season ledger the way the
framework would (balances are passed back in Command.garnets).

The standard test guild, used unless a test says otherwise:
- players p1..p10; alignments in combination order: p1 red-green-blue, p2 red-green-black,
  p3 red-green-white, p4 red-blue-black, p5 red-blue-white, p6 red-black-white,
  p7 green-blue-black, p8 green-blue-white, p9 green-black-white, p10 blue-black-white;
- pairs (1,2), (3,4), ..., (59,60);
- bill n adds 1 to one resource of one house: house red, green, blue, black, white for
  n = 1, 2, 3, 4, 5 (mod 5), resource forges for n = 1..5, ships 6..10, markets 11..15, then
  forges again for 16..20 and so on (bill 7: green ships, bill 13: blue markets).
"""

from __future__ import annotations

from typing import Any

from domain.decider import PUBLIC, Event
from domain.games import merchants_guild as mg
from tests.support.deciders import DeciderMatch

PLAYERS = [f"p{i}" for i in range(1, 11)]
HOUSES = ["red", "green", "blue", "black", "white"]
RESOURCES = ["forges", "ships", "markets"]
ALIGNMENTS = {
    "p1": ["red", "green", "blue"],
    "p2": ["red", "green", "black"],
    "p3": ["red", "green", "white"],
    "p4": ["red", "blue", "black"],
    "p5": ["red", "blue", "white"],
    "p6": ["red", "black", "white"],
    "p7": ["green", "blue", "black"],
    "p8": ["green", "blue", "white"],
    "p9": ["green", "black", "white"],
    "p10": ["blue", "black", "white"],
}
PAIRS = [[n, n + 1] for n in range(1, 61, 2)]


def plain_bill(number: int) -> dict[str, Any]:
    house = HOUSES[(number - 1) % 5]
    resource = RESOURCES[((number - 1) // 5) % 3]
    effect = {"op": "add", "house": house, "resource": resource, "amount": 1}
    return {"number": number, "title": f"{house} {resource} {number}", "effects": [effect]}


def catalog(**special: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The standard bills, with `b<n>=[effects]` replacing bill n's effects."""
    bills = [plain_bill(n) for n in range(1, 61)]
    for key, effects in special.items():
        bills[int(key[1:]) - 1]["effects"] = effects
    return bills


def setup(**options: Any) -> mg.Setup:
    fields: dict[str, Any] = {
        "players": PLAYERS,
        "bills": catalog(),
        "pairs": PAIRS,
        "alignments": ALIGNMENTS,
    }
    return mg.Setup.model_validate({**fields, **options})


class Match(DeciderMatch):
    game = mg

    def __init__(
        self,
        garnets: int | dict[str, int] = 10,
        seed: str = "test-seed",
        open_match: bool = True,
        **options: Any,
    ) -> None:
        start = garnets if isinstance(garnets, dict) else dict.fromkeys(PLAYERS, garnets)
        super().__init__(setup(**options), seed, PLAYERS, start, open_match)

    def week(self, votes: dict[str, list[int]] | None = None) -> list[Event]:
        """Cast the given votes and close the week."""
        for voter, bills in (votes or {}).items():
            self.do(voter, "vote", bills=bills)
        return self.host("close_week")

    def skip_to(self, week: int) -> None:
        """Close weeks with no votes until `week` is open."""
        while self.state.week < week:
            self.week()

    # Reading

    def seen_by(self, viewer: str) -> list[Event]:
        return [event for event in self.log if event.seen_by(viewer)]

    def public(self) -> list[Event]:
        return [event for event in self.log if event.audience == PUBLIC]

    def last(self, kind: str, audience: Any = None) -> Event:
        found = [e for e in self.log if e.kind == kind and audience in (None, e.audience)]
        return found[-1]

    def all(self, kind: str) -> list[Event]:
        return [event for event in self.log if event.kind == kind]

    def ballot(self) -> list[list[int]]:
        return [list(pair) for pair in self.state.ballot]


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def houses(**changes: tuple[int, int, int]) -> list[dict[str, Any]]:
    """A published house listing: every house at 1/1/1 except `house=(forges, ships, markets)`."""
    listing = []
    for house in HOUSES:
        forges, ships, markets = changes.get(house, (1, 1, 1))
        listing.append({"house": house, "forges": forges, "ships": ships, "markets": markets})
    return listing
