"""Garnet Chip Thief (rulebook 6.4): five chips to the takers, leftovers to beggars, chips x bet."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from domain.games.amalgamation.draws import BEGGAR, CARTEL, MAFIA, POLICE

CHIPS = 5


def chips(players: Sequence[str], roles: Mapping[str, str]) -> dict[str, int]:
    """AM-R27: the larger of mafia and cartel split the chips, the police when they are level;
    beggars split what is left; every split rounds down and any remainder is lost."""

    def holding(role: str) -> list[str]:
        return [p for p in players if roles[p] == role]

    mafia, cartel = holding(MAFIA), holding(CARTEL)
    if len(mafia) > len(cartel):
        takers = mafia
    elif len(cartel) > len(mafia):
        takers = cartel
    else:
        takers = holding(POLICE)
    received = dict.fromkeys(players, 0)
    each = CHIPS // len(takers) if takers else 0
    for player in takers:
        received[player] = each
    left = CHIPS - each * len(takers)
    beggars = holding(BEGGAR)
    if left and beggars:
        for player in beggars:
            received[player] = left // len(beggars)
    return received


def ranking(
    players: Sequence[str], points: Mapping[str, int], gt_place: Callable[[str], int]
) -> list[str]:
    """Points descending, then higher in the GT (AM-R29)."""
    return sorted(players, key=lambda p: (-points[p], gt_place(p)))
