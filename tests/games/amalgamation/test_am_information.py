"""Information release (rulebook section 8, AM-R46): one audience per event, exactly as the
rulings say, and a log whose public shape does not depend on what the public may not know."""

from __future__ import annotations

from domain.decider import HOST, PUBLIC, Event
from domain.games import amalgamation as am
from domain.games.amalgamation.evolve import HANDLERS
from tests.games.amalgamation.harness import PLAYERS, Match, kinds
from tests.games.amalgamation.scenarios import play_tied_bottom_rounds

OWN = "own"
AUDIENCES = {
    "AmalgamationOpened": PUBLIC,
    "GarnetsHeld": OWN,
    "GarnetRateSubmitted": OWN,
    "MinusAuctionOrderSubmitted": OWN,
    "TeamsSubmitted": OWN,
    "SetupDrawn": HOST,
    "PregameSettled": HOST,
    "PregameClosed": PUBLIC,
    "RoundOpened": PUBLIC,
    "RoundSubmissionAccepted": OWN,
    "RoundLocked": PUBLIC,
    "SubmissionLocked": OWN,
    "DefaultsApplied": HOST,
    "MoneySpent": OWN,
    "KongRoundResolved": PUBLIC,
    "KongRoundTotals": HOST,
    "MinusAuctionTileAwarded": PUBLIC,
    "MinusAuctionTileBids": HOST,
    "MinusAuctionRoundClosed": PUBLIC,
    "InvestmentTokensAwarded": PUBLIC,
    "InvestmentAmounts": HOST,
    "ChipThiefRoundResolved": PUBLIC,
    "ChipThiefBets": HOST,
    "ChipThiefPointsNoted": OWN,
    "MinusAuctionPenaltiesApplied": PUBLIC,
    "BalancesBeforePenalties": HOST,
    "BalancesRevealed": PUBLIC,
    "SubgameRanked": PUBLIC,
    "SubgameSpending": HOST,
    "MatchScored": PUBLIC,
    "EcDecisionOpened": PUBLIC,
    "EcChosen": OWN,
    "EcChoicesCounted": HOST,
    "EcDetermined": PUBLIC,
    "GarnetsAwarded": PUBLIC,
    "GarnetLedgerClosed": OWN,
}
# Public payloads: exactly these fields, none of them an amount the rules keep secret.
PUBLIC_FIELDS = {
    "AmalgamationOpened": {
        "players",
        "starting_money",
        "rounds",
        "gamewide_tiebreak",
        "mm_winner",
        "dm_winner",
        "variants",
    },
    "PregameClosed": {"gamewide_tiebreak", "teams", "ma_initial_order", "garnet_rate"},
    "RoundOpened": {"round", "tiles", "ma_order"},
    "RoundLocked": {"round"},
    "KongRoundResolved": {"round", "result", "losing_team_total", "tie_total", "points"},
    "MinusAuctionTileAwarded": {"round", "tile", "winner"},
    "MinusAuctionRoundClosed": {"round", "order_after"},
    "InvestmentTokensAwarded": {"round", "top_investor", "misers"},
    "ChipThiefRoundResolved": {"round", "roles", "chips"},
    "MinusAuctionPenaltiesApplied": {"round", "penalised", "amount", "dry_rounds"},
    "BalancesRevealed": {"round", "balances"},
    "SubgameRanked": {"subgame", "ranking", "scores"},
    "MatchScored": {"match_points", "winners", "tols", "tols_invalidated", "ec_candidates"},
    "EcDecisionOpened": {"candidates", "deciders"},
    "EcDetermined": {"ec", "decided_by"},
    "GarnetsAwarded": {"awards"},
}


def eventful_match() -> Match:
    """Every kind of event: rates, both twists, an exchange, defaults, an EC choice. The twists
    repeat the standard order and teams, so the rounds play as in tied_bottom_match."""
    match = Match(garnets={"p1": 2}, close_pregame=False, mm_winner="p2", dm_winner="p3")
    match.do("p1", "submit_garnet_rate", rate=10)
    match.do("p2", "submit_ma_order", order=PLAYERS)
    match.do("p3", "submit_teams", red=["p1", "p2", "p3"], white=["p4", "p5", "p6"])
    match.host("close_pregame")
    play_tied_bottom_rounds(match, p1_exchanges=1)
    match.do("p1", "choose_ec", candidate="p6")
    match.host("close_ec_decision")
    return match


def audience_kind(event: Event) -> str:
    return event.audience if event.audience in (PUBLIC, HOST) else OWN


def test_every_event_has_the_audience_of_the_rulings():
    match = eventful_match()
    seen = {event.kind for event in match.log}
    assert seen == set(AUDIENCES)
    for event in match.log:
        assert audience_kind(event) == AUDIENCES[event.kind], event.kind


def test_the_table_names_every_event_the_state_folds():
    assert set(HANDLERS) <= set(AUDIENCES)


def test_own_events_go_to_the_player_they_are_about():
    for event in eventful_match().log:
        if audience_kind(event) == OWN:
            about = event.data.get("player", event.data.get("winner"))
            assert event.audience == (about,), event


def test_public_payloads_hold_nothing_secret():
    for event in eventful_match().log:
        if event.audience == PUBLIC:
            assert set(event.data) == PUBLIC_FIELDS[event.kind], event.kind


def test_the_shape_of_a_round_does_not_show_who_submitted_or_exchanged():
    """Everyone submits (two exchange garnets, one replaces twice) v nobody submits: the round
    close has the same public kinds and the same number of sealed events."""
    busy = Match(garnets=3)
    for player in PLAYERS:
        busy.submit(player, kd=5, garnets=1 if player in ("p2", "p5") else None)
    busy.submit("p4", kd=6)
    busy.submit("p4", kd=7, garnets=2)
    quiet = Match(garnets=3)
    shapes = []
    for match in (busy, quiet):
        events = match.host("close_round")
        public = [e.kind for e in events if e.audience == PUBLIC]
        sealed = sum(e.audience != PUBLIC for e in events)
        shapes.append((public, sealed))
    assert shapes[0] == shapes[1]


def test_every_player_gets_a_spending_notice_every_round():
    match = Match(garnets={"p3": 1})
    match.submit("p3", garnets=1)
    match.host("close_round")
    notices = match.all("MoneySpent")
    assert [e.audience for e in notices] == [(p,) for p in PLAYERS]
    assert [e.data["garnets_exchanged"] for e in notices] == [0, 0, 1, 0, 0, 0]


def test_summaries_show_each_viewer_only_what_reached_him():
    match = eventful_match()
    for viewer in ("public", "host", *PLAYERS):
        visible = [e for e in match.log if e.seen_by(viewer)]
        view = am.summarize(visible, viewer)
        assert view["viewer"] == viewer
    p1 = am.summarize(match.seen_by("p1"), "p1")
    assert {s.get("player", s.get("winner")) for s in p1["submissions"]} == {"p1"}
    assert set(p1["garnets_held"]) == {"p1"}
    assert p1["host_notes"] == []
    public = am.summarize([e for e in match.log if e.audience == PUBLIC], "public")
    assert public["submissions"] == [] and public["spending"] == []
    assert public["end"]["ec"] == "p6"
    host = am.summarize(match.log, "host")
    assert {note["kind"] for note in host["host_notes"]} >= {"SetupDrawn", "MinusAuctionTileBids"}
    assert kinds(match.log)[0] == "AmalgamationOpened"
