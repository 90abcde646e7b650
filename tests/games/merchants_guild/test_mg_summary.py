"""summarize: each viewer's fold holds what reached them and nothing else."""

from __future__ import annotations

from domain.games import merchants_guild as mg
from tests.games.merchants_guild.mg_harness import ALIGNMENTS, Match


def view(match: Match, viewer: str) -> dict:
    return mg.summarize(match.seen_by(viewer), viewer)


def test_views_in_week_two():
    match = Match()
    match.do("p1", "vote", bills=[1])
    match.do("p1", "reveal_partner", bill=20)
    match.do("p2", "nominate", bill=30, direction="forward")
    match.week()

    public = view(match, "public")
    assert public["phase"] == "week" and public["week"] == 2
    assert public["ballot"] == [[7, 8], [9, 10], [29, 30]]
    assert public["alignments"] == {} and public["pairs"] == [] and public["receipts"] == []
    assert public["weeks"][0]["passed"] == [1] and len(public["bills"]) == 60
    assert public["votes"] == {} and public["priorities"] == []

    p1 = view(match, "p1")
    assert p1["alignments"] == {"p1": ["red", "green", "blue"]}
    assert p1["votes"] == {"1": {"p1": [1]}}
    assert p1["pairs"] == [[19, 20]]
    assert p1["receipts"] == [{"kind": "partner_lookup", "week": 1, "player": "p1", "bill": 20}]
    assert p1["garnets"] == {"p1": [{"amount": -1, "reason": "reveal_partner"}]}

    host = view(match, "host")
    assert host["alignments"] == ALIGNMENTS
    assert len(host["pairs"]) == 30 and host["votes"]["1"]["p1"] == [1]
    assert host["priorities"] == [{"bill": 30, "priority": 1}]


def test_the_end_is_public_and_each_player_keeps_their_own_totals():
    match = Match()
    match.skip_to(8)
    match.week()
    public = view(match, "public")
    assert public["phase"] == "over"
    assert public["alignments"] == ALIGNMENTS and len(public["pairs"]) == 30
    assert public["settlement"]["outcome"] == "all_tied" and public["totals"] == {}
    assert list(view(match, "p3")["totals"]) == ["p3"]
    assert view(match, "p3")["totals"]["p3"]["garnets_gained"] == 7
