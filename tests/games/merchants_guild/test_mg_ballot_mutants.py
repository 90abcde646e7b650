"""The first week's ballot (merchants_guild-decisions.md): a host lead that a drawn pairing
made the partner of an earlier lead is on the ballot already and is skipped; the leads after
it still lead, and the standard selection (priority 0: lowest free number) fills the rest.
Three pairs a week; pairs (1,2), (3,4), ..., (59,60)."""

from __future__ import annotations

from domain.games.merchants_guild.ballot import first_week

PARTNERS = {n: n + 1 if n % 2 else n - 1 for n in range(1, 61)}


def test_a_lead_already_on_the_ballot_is_skipped_and_later_leads_still_lead():
    assert first_week([1, 2, 7], PARTNERS) == [(1, 2), (7, 8), (3, 4)]


def test_the_standard_selection_never_repeats_a_bill_of_an_earlier_lead():
    assert first_week([1, 5], PARTNERS) == [(1, 2), (5, 6), (3, 4)]
