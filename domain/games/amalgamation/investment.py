"""Investment & Donation (rulebook 6.3): Top Investor and Miser tokens, the snake placement."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

SNAKE = (1, 6, 2, 5, 3, 4)  # the order the places are filled in


def top_investor(investments: Mapping[str, int], zero_eligible: bool) -> str | None:
    """The first amount, from the highest down, that exactly one player chose (AM-R22)."""
    amounts = sorted(set(investments.values()), reverse=True)
    for amount in amounts:
        if amount == 0 and not zero_eligible:
            break
        chosen = [p for p, invested in investments.items() if invested == amount]
        if len(chosen) == 1:
            return chosen[0]
    return None


def misers(players: Sequence[str], donations: Mapping[str, int]) -> list[str]:
    """Everyone at the round's smallest donation, $0 included (AM-R23)."""
    least = min(donations[p] for p in players)
    return [p for p in players if donations[p] == least]


def snake_ranking(
    players: Sequence[str],
    top_investor_tokens: Mapping[str, int],
    miser_tokens: Mapping[str, int],
    spent: Mapping[str, int],
    gt_place: Callable[[str], int],
) -> list[str]:
    """Places 1st, 6th, 2nd, 5th, 3rd, 4th (AM-R24): the top places to the most Top Investor
    tokens (then more spent, then higher GT); the bottom places to the most Miser tokens (then
    less spent, then lower GT); 4th to whoever is left."""
    unplaced = list(players)
    places: dict[int, str] = {}

    def best(p: str) -> tuple[int, int, int]:
        return (-top_investor_tokens[p], -spent[p], gt_place(p))

    def worst(p: str) -> tuple[int, int, int]:
        return (-miser_tokens[p], spent[p], -gt_place(p))

    for place in SNAKE:
        key = best if place <= 3 else worst
        chosen = min(unplaced, key=key)
        places[place] = chosen
        unplaced.remove(chosen)
    return [places[place] for place in sorted(places)]
