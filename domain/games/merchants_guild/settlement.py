"""The settlement after the week-8 deadline (rulebook §8, MG-R22..R31): house ranking, gold,
blackmail, tax, losers, garnets and Tokens of Life. A pure computation over the final state;
`deadline.settle` publishes it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.games.merchants_guild.guild import HOUSE_GOLD_BY_RANK, HOUSES, RESOURCES, TAX
from domain.games.merchants_guild.state import State

MOST_GOLD_SINGLE_TOL = 2
MOST_GOLD_MAX_SHARERS = 6  # more players tied at the top than this get nothing (MG-R29)
BILLS_TOL = 1


@dataclass(frozen=True)
class Award:
    player: str
    count: int
    reason: str  # most_gold or bills
    pass_count: int | None = None  # published for the bills ToL only


@dataclass(frozen=True)
class Settlement:
    outcome: str  # non_payers, least_gold or all_tied: who lost and why
    ranking: list[dict[str, Any]]
    gold: list[dict[str, Any]]  # each player's breakdown, seat order
    blackmails: list[dict[str, Any]]
    transfers: list[dict[str, Any]]
    losers: list[str]
    winners: list[str]
    awards: list[Award]

    def gained(self, player: str) -> int:
        gold: int = next(row["gold_after_tax"] for row in self.gold if row["player"] == player)
        return gold


def settle(state: State) -> Settlement:
    players = state.players
    ranks = house_ranks(state)
    house_gold = {house: HOUSE_GOLD_BY_RANK.get(rank, 0) for house, rank in ranks.items()}
    from_houses = {p: sum(house_gold[house] for house in state.alignments[p]) for p in players}
    gold, blackmails, transfers = collect_blackmail(state, from_houses)
    paid = {player: gold[player] >= TAX for player in players}
    taken = {player: tax_taken(state, gold[player]) for player in players}
    left = {player: gold[player] - taken[player] for player in players}
    outcome, losers = find_losers(state, paid, left)
    top = most_gold(players, paid, left)
    awards = most_gold_awards(top) + bills_award(state, paid)
    return Settlement(
        outcome=outcome,
        ranking=ranking_listing(state, ranks, house_gold),
        gold=[
            {
                "player": player,
                "houses": list(state.alignments[player]),
                "gold_from_houses": from_houses[player],
                "blackmail_paid": sum(t["amount"] for t in transfers if t["from"] == player),
                "blackmail_received": sum(t["amount"] for t in transfers if t["to"] == player),
                "gold_before_tax": gold[player],
                "paid_tax": paid[player],
                "tax_taken": taken[player],
                "gold_after_tax": left[player],
            }
            for player in players
        ],
        blackmails=blackmails,
        transfers=transfers,
        losers=losers,
        winners=[] if any(player in losers for player in top) else top,
        awards=awards,
    )


def house_ranks(state: State) -> dict[str, int]:
    return rank_houses(state.houses)


def rank_houses(houses: Mapping[str, Mapping[str, int]]) -> dict[str, int]:
    """Total, then forges, ships, markets; identical vectors share a rank (MG-R24)."""

    def key(house: str) -> tuple[int, ...]:
        values = houses[house]
        return (sum(values[r] for r in RESOURCES), *(values[r] for r in RESOURCES))

    return {house: 1 + sum(key(other) > key(house) for other in HOUSES) for house in HOUSES}


def ranking_listing(
    state: State, ranks: dict[str, int], house_gold: dict[str, int]
) -> list[dict[str, Any]]:
    """By rank, equal ranks in canonical house order (MG-R38)."""
    order = sorted(HOUSES, key=lambda house: (ranks[house], HOUSES.index(house)))
    return [
        {
            "house": house,
            "rank": ranks[house],
            **{r: state.houses[house][r] for r in RESOURCES},
            "total": sum(state.houses[house][r] for r in RESOURCES),
            "gold_per_contact": house_gold[house],
            "contacts": [p for p in state.players if house in state.alignments[p]],
        }
        for house in order
    ]


def collect_blackmail(
    state: State, from_houses: dict[str, int]
) -> tuple[dict[str, int], list[dict[str, Any]], list[dict[str, Any]]]:
    """All or nothing per victim (MG-R22): k blackmailers get 1 gold each only if the victim
    has at least k. Simultaneous: every victim judged on gold from houses; the variant judges
    victims one by one in seat order on the gold they hold by then."""
    players = state.players
    gold = dict(from_houses)
    register, transfers = [], []
    for victim in players:
        blackmailers = [b for b in players if (b, victim) in state.blackmails]
        if not blackmailers:
            continue
        judged = from_houses if state.setup.blackmail_evaluation == "simultaneous" else gold
        pays = judged[victim] >= len(blackmailers)
        register.append({"target": victim, "blackmailers": blackmailers, "paid": pays})
        if pays:
            gold[victim] -= len(blackmailers)
            for blackmailer in blackmailers:
                gold[blackmailer] += 1
                transfers.append({"from": victim, "to": blackmailer, "amount": 1})
    return gold, register, transfers


def tax_taken(state: State, gold: int) -> int:
    """An insolvent player hands over everything (MG-R25), or nothing under the variant."""
    if gold >= TAX:
        return TAX
    return gold if state.setup.insolvent_tax == "take_all" else 0


def find_losers(state: State, paid: dict[str, bool], left: dict[str, int]) -> tuple[str, list[str]]:
    """Non-payers if any (MG-R26); else everyone at the least gold; all ten tied (MG-R27)
    lose all, or none under the variant."""
    players = state.players
    non_payers = [player for player in players if not paid[player]]
    if non_payers:
        return "non_payers", non_payers
    least = min(left.values())
    poorest = [player for player in players if left[player] == least]
    if len(poorest) < len(players):
        return "least_gold", poorest
    return "all_tied", poorest if state.setup.all_tied_losers == "all" else []


def most_gold(players: list[str], paid: dict[str, bool], left: dict[str, int]) -> list[str]:
    payers = [player for player in players if paid[player]]
    if not payers:
        return []
    most = max(left[player] for player in payers)
    return [player for player in payers if left[player] == most]


def most_gold_awards(top: list[str]) -> list[Award]:
    """1 player: 2 ToLs; 2 to 6 tied: 1 each; 7 or more: none (MG-R29)."""
    if len(top) == 1:
        return [Award(top[0], MOST_GOLD_SINGLE_TOL, "most_gold")]
    if len(top) > MOST_GOLD_MAX_SHARERS:
        return []
    return [Award(player, 1, "most_gold") for player in top]


def bills_award(state: State, paid: dict[str, bool]) -> list[Award]:
    """The highest pass count held by exactly one competitor (MG-R30). Payers only compete;
    under the variant everyone competes and a non-paying holder gets nothing."""
    field = state.players
    if state.setup.bills_tol_field == "payers_first":
        field = [player for player in field if paid[player]]
    counts = {player: state.pass_counts.get(player, 0) for player in field}
    for count in sorted(set(counts.values()), reverse=True):
        holders = [player for player in field if counts[player] == count]
        if len(holders) == 1:
            holder = holders[0]
            return [Award(holder, BILLS_TOL, "bills", count)] if paid[holder] else []
    return []
