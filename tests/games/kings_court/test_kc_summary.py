"""summarize folds exactly the events a viewer saw."""

from __future__ import annotations

from domain.games import kings_court as kc
from tests.games.kings_court.kc_harness import LISTS, PLAYERS, Match


def played() -> Match:
    match = Match()
    match.do("p1", "peek", target="p5")  # the annoyed Duke: shown as a noble
    match.round({"p2": "p1"})
    match.do("p1", "pair_check", targets=["p2", "p10"])
    match.round({"p3": "p2", "p4": "p2"})  # court of 2: name 1 of every list
    return match


def test_a_players_summary_holds_their_own_secrets_only():
    match = played()
    view = kc.summarize(match.seen_by("p1"), "p1")
    assert (view["viewer"], view["game"], view["round"], view["phase"]) == ("p1", 1, 3, "election")
    assert view["court"] == ["p1", "p2"]
    assert view["roles"] == {"1": {"p1": "duke"}}
    assert view["annoyed"] == {}
    assert view["list_names"] == {"1": {"p1": [LISTS["p1"][0]]}}
    assert [(a["kind"], a.get("role_shown"), a.get("result")) for a in view["answers"]] == [
        ("peek", "noble", None),
        ("pair_check", None, "same"),  # p2 a Duke, p10 the annoyed Noble shown as a duke
    ]
    assert view["garnets"] == {
        "p1": [{"amount": -8, "reason": "peek"}, {"amount": -1, "reason": "missed_vote"}]
    }
    assert [(r["round"], r["joined"]) for r in view["rounds"]] == [(1, "p1"), (2, "p2")]
    assert view["rounds"][1]["counts"]["p2"] == 2
    assert view["votes"] == []  # p1 never voted


def test_the_public_summary_has_no_roles_until_the_end():
    match = played()
    public = kc.summarize(match.public(), "public")
    assert public["roles"] == {} and public["answers"] == [] and public["garnets"] == {}
    for player in ("p3", "p4", "p11"):
        match.elect(player)
    public = kc.summarize(match.public(), "public")
    assert public["roles"]["1"]["p11"] == "king"
    assert public["annoyed"] == {"1": {"duke": "p5", "noble": "p10"}}
    assert public["kings"] == [{"game": 1, "king": "p11", "early": False}]
    assert public["end"]["winner"] == "dukes"
    assert public["phase"] == "ec_vote"


def test_the_host_summary_holds_everything():
    match = played()
    host = kc.summarize(match.log, "host")
    assert host["roles"]["1"] == {
        **{p: "duke" for p in PLAYERS[:5]},
        **{p: "noble" for p in PLAYERS[5:10]},
        "p11": "king",
    }
    assert host["list_names"]["1"] == LISTS
    assert len(host["votes"]) == 3
    assert len(host["missed_votes"]) == 10 + 8  # round 1: all but p2; round 2: p2, p5-p11


def test_the_king_left_alone_does_not_replace_the_last_rounds_joiner():
    match = Match()
    for player in PLAYERS[:10]:
        match.elect(player)
    view = kc.summarize(match.public(), "public")
    assert view["rounds"][-1]["joined"] == "p10"
    assert view["court"] == PLAYERS
    assert view["kings"] == [{"game": 1, "king": "p11", "early": False}]
    assert view["end"]["winner"] == "king" and view["phase"] == "king_gift"
