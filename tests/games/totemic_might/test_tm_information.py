"""Information release (rules 7): one audience per event, exactly as the table says, and a public
log whose shape does not depend on what anyone did in secret."""

from __future__ import annotations

import pytest

from domain.decider import HOST, PUBLIC
from domain.games import totemic_might as tm
from tests.games.totemic_might.harness import (
    P6_BALANCED,
    PLAYERS,
    Match,
    after_round_one,
    final_challenge,
)

PUBLIC_KINDS = {
    "GameOpened", "RoundOpened", "SpiritTotemGranted", "SeriesResolved", "ChipsUpdated",
    "PriorityListUpdated", "SpiritTotemsOwed", "AuctionsEnded", "FinalChallengeOpened",
    "MatchResults", "SetupRevealed",
}
HOST_KINDS = {"SecretSetupRecorded", "SpiritGrantResolved", "SeriesBidsRecorded", "WagersSettled"}
ONE_PLAYER_KINDS = {
    "StartingTotemDealt", "SpiritPoolShown", "BetPlaced", "PickOrderSet", "SpiritChoiceMade",
    "WeighingPerformed", "WeighingsAnswered", "WagerPlaced", "WagerCancelled",
    "SpiritTotemReceived", "TrialCopiesDestroyed", "TransfersSettled", "WagerSettled",
    "FinalPiecesIssued", "BalanceAttempted", "GuessRecorded", "GuessWithdrawn",
}


def busy_match() -> Match:
    """Most kinds of event: a lone owed choice, weighings, every wager, a gift and a trade,
    attempts and guesses."""
    match = after_round_one(starting_chips=40)
    match.do("p7", "choose_spirit_totem", totem="Void-Sky")
    match.do("p1", "weigh", left=["T:Summer-Creature"])
    match.do("p1", "place_wager", kind="snake", letter="A")
    match.do("p2", "place_wager", kind="wolf", totems=["Void-Sky", "Winter-Sky"])
    match.do("p3", "place_wager", kind="bear", totems=["Void-Sky"])
    match.do("p4", "place_wager", kind="fox", totems=["Summer-Secret", "Void-Creature",
                                                      "Spring-Future"], payment="balloon")
    match.do("p4", "cancel_wager")
    match.do("p1", "give", to="p3", pieces=["T:Winter-Secret"])
    match.do("p2", "propose_trade", **{"with": "p3"}, give=["T:Spring-Secret"],
             receive=["T:Void-Land"])
    match.do("p2", "place_bet", series="A", amount=2)
    match.to_final_challenge()
    match.do("p1", "guess_starting_totem", target="p2", totem="Void-Creature")
    match.do("p1", "withdraw_guess", target="p2")
    match.host("final_deadline")
    return match


def test_each_kind_has_the_audience_of_the_table():
    match = busy_match()
    seen = set()
    for event in match.log:
        seen.add(event.kind)
        if event.kind in PUBLIC_KINDS:
            assert event.audience == PUBLIC, event.kind
        elif event.kind in HOST_KINDS:
            assert event.audience == HOST, event.kind
        elif event.kind in ONE_PLAYER_KINDS:
            assert isinstance(event.audience, tuple) and len(event.audience) == 1, event.kind
            assert event.audience[0] == event.data["player"], event.kind
        else:
            assert event.kind in ("TransferProposed", "TransferCancelled"), event.kind
    assert seen >= PUBLIC_KINDS | HOST_KINDS | (ONE_PLAYER_KINDS - {
        "WeighingsAnswered", "BalanceAttempted"})


def test_garnet_postings_sit_on_events_their_owner_may_see():
    match = busy_match()
    for event in match.log:
        for posting in event.postings:
            assert event.audience == PUBLIC or event.audience == (posting.player,)


SECRET_ACTIONS = [
    ("p2", "give", {"to": "p3", "pieces": ["T:Summer-Future"]}),
    ("p2", "propose_trade", {"with": "p3", "give": ["T:Summer-Future"],
                             "receive": ["T:Void-Land"]}),
    ("p2", "place_wager", {"kind": "snake", "letter": "E"}),
    ("p2", "place_wager", {"kind": "bear", "totems": ["Void-Sky"], "fine": True}),
    ("p2", "place_wager", {"kind": "wolf", "totems": ["Void-Sky", "Winter-Sky"]}),
    ("p2", "weigh", {"left": ["T:Summer-Future"]}),
    ("p2", "cancel_wager", {}),
    ("p2", "set_pick_order", {"series": "B", "order": [
        "GARNET", "Void-Secret", "Spring-Creature", "Winter-Creature", "Void-Future",
        "Spring-Land"]}),
]


def shape(match: Match) -> tuple[list[str], int]:
    return ([e.kind for e in match.log if e.audience == PUBLIC],
            sum(e.audience != PUBLIC for e in match.log))


@pytest.mark.parametrize("action", SECRET_ACTIONS, ids=[a[1] for a in SECRET_ACTIONS])
def test_the_public_log_has_the_same_shape_whatever_a_player_did_in_secret(action):
    """One submission each, then the deadline: the same public kinds in the same order, and the
    same number of sealed events, as a plain cancel of no wager."""
    baseline = after_round_one()
    baseline.do("p2", "cancel_wager")
    baseline.deadline()
    match = after_round_one()
    actor, name, args = action
    match.do(actor, name, **args)
    match.deadline()
    assert shape(match) == shape(baseline)


def test_the_pool_and_the_grant_stay_hidden_from_the_public():
    match = after_round_one()
    match.do("p7", "choose_spirit_totem", totem="Void-Sky")
    match.deadline()
    for event in match.public():
        assert "Void-Sky" not in str(event.data) or event.kind in ("SeriesResolved",
                                                                   "RoundOpened", "GameOpened")
    assert match.last("SpiritTotemGranted").data["recipients"] == ["p7"]


def test_the_summary_of_a_player_holds_only_what_reached_them():
    match = busy_match()
    view = tm.summarize(match.seen_by("p2"), "p2")
    assert view["starting_totems"]["p2"] == {"totem": "Void-Creature", "weight": 7}
    assert view["starting_totems"]["p1"] == {"totem": "Summer-Secret"}  # from the results
    assert [a["kind"] for a in view["wager_answers"] if a["kind"]] == ["wolf"]
    assert view["setup"]["weights"]["Void-Sky"] == 10  # opened at the end
    public = tm.summarize(match.public(), "public")
    assert public["wager_answers"] == [] and public["weighings"] == []
    assert public["chips"] == match.state.chips
    host = tm.summarize(match.log, HOST)
    assert [a["player"] for a in host["wager_answers"]] == ["p1", "p2", "p3"]  # p4 cancelled
    assert [t["player"] for t in host["transfers"]] == ["p1", "p2", "p3"]


def test_final_challenge_summary_for_each_player():
    match = final_challenge()
    match.do("p6", "attempt_balance", sides=P6_BALANCED)
    for player in PLAYERS:
        view = tm.summarize(match.seen_by(player), player)
        assert list(view["final_pieces"]) == [player]
        assert bool(view["attempts"]) == (player == "p6")
