"""Whole matches worked out by hand, shared by several test files.

`quiet_match`: nobody ever submits. Kong is 0-0 every round, so red (p1, first in the GT)
wins and every ranking follows the GT except the Minus Auction: every tile is a six-way tie
at 0, the front of the order takes it and moves to the back, so tile -k goes to
p((k - 1) mod 6 + 1): p1 -1 -7 -13 -19 -25 -31 (-96), p2 -102, p3 -108, p4 -114, p5 -120,
p6 -6 -12 -18 -24 -30 (-90). MA ranking p6 p1 p2 p3 p4 p5. Everyone takes a tile at least
every other round: no penalty. Match points: p1 20+15+20+20 = 75, p2 15+12+15+15 = 57,
p3 12+10+12+12 = 46, p4 10+8+10+10 = 38, p5 8+4+8+8 = 28, p6 4+20+4+4 = 32.

`tied_bottom_match`: as quiet, but in round 1 p1 p2 p3 play mafia betting $10 and invest $1,
p5 plays beggar betting $1 and invests $1, p4 and p6 play police. Chip Thief: 3 mafia > 0
cartel, 1 chip each, the 2 left go to the lone beggar p5: points p1 p2 p3 10, p5 2, so the CT
ranking is p1 p2 p3 p5 p4 p6. Investments: $1 is shared by four, $0 by two: no token; every
donation is 0 so all six are Misers every round. Snake: 1st p1 (most spent, GT), 6th p6 (less
spent, lower GT), 2nd p2, 5th p4 (spent 0 < 1), 3rd p3 (GT over p5), 4th p5. Match points:
p1 75, p2 57, p3 46, p4 10+8+8+8 = 34, p5 8+4+10+10 = 32, p6 4+20+4+4 = 32: p5 and p6 tie
for fewest and p1 alone wins, so p1 decides the EC.
"""

from __future__ import annotations

from typing import Any

from tests.games.amalgamation.harness import Match


def quiet_match(**options: Any) -> Match:
    match = Match(**options)
    match.play_rounds(7)
    return match


def tied_bottom_match(**options: Any) -> Match:
    match = Match(**options)
    play_tied_bottom_rounds(match)
    return match


def play_tied_bottom_rounds(match: Match, p1_exchanges: int | None = None) -> None:
    """The seven rounds of `tied_bottom_match`; p1 may also exchange garnets in round 1 (which
    changes only his balance)."""
    mafia = {"role": "mafia", "bet": 10, "invest": 1}
    match.play_round(
        p1=mafia | {"garnets": p1_exchanges},
        p2=mafia,
        p3=mafia,
        p4={"role": "police"},
        p5={"role": "beggar", "bet": 1, "invest": 1},
        p6={"role": "police"},
    )
    match.play_rounds(6)
