"""Choosing the next ballot (rulebook §3.6 and §7.7, MG-R6, MG-R16) and listing it (MG-R7)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from domain.games.merchants_guild.guild import BILL_NUMBERS, PAIRS_PER_WEEK

Pair = tuple[int, int]  # (lead, mate) in selection order


def select(
    priorities: Mapping[int, int], partners: Mapping[int, int], presented: Collection[int], k: int
) -> list[Pair]:
    """k pairs: each time the unpresented bill of highest priority (ties: lowest number) leads,
    and its partner joins whatever its own priority."""
    taken = set(presented)
    chosen = []
    for _ in range(k):
        lead = min(
            (bill for bill in BILL_NUMBERS if bill not in taken),
            key=lambda bill: (-priorities.get(bill, 0), bill),
        )
        mate = partners[lead]
        taken |= {lead, mate}
        chosen.append((lead, mate))
    return chosen


def first_week(leads: Iterable[int], partners: Mapping[int, int]) -> list[Pair]:
    """The host's leads with their partners, then the standard selection at priority 0.

    A lead that a drawn pairing made the partner of an earlier lead is on the ballot already;
    its place is filled by the standard selection (docs/games/merchants_guild-decisions.md)."""
    taken: set[int] = set()
    chosen = []
    for lead in leads:
        if lead in taken:
            continue
        taken |= {lead, partners[lead]}
        chosen.append((lead, partners[lead]))
    return chosen + select({}, partners, taken, PAIRS_PER_WEEK - len(chosen))


def listing(selection: Iterable[Pair]) -> list[list[int]]:
    """As published: each pair [lower, higher], pairs by ascending lower number."""
    return sorted(sorted(pair) for pair in selection)
