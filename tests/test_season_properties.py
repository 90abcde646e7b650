"""Season invariants under random play: garnets are conserved across grants, trades and match
postings; a refused change changes nothing; an eliminated player never acts again; the
standings are a fold of the season log; the season log and the match logs agree."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from commands.service.arbiter import Arbiter
from commands.service.outcomes import Grant
from domain.decider import HOST, PUBLIC
from domain.errors import RuleViolation
from domain.season import DEATH_MATCH, ELIMINATED, MAIN, REINSTATED, Season, public_standings
from domain.season import season_headline as headline
from tests.support.host_key import SIGNER

PLAYERS = ["ann", "bob", "cy", "dee"]
player = st.sampled_from(PLAYERS)
DUEL_OPS = [  # the Main Match to Death Match path, drawn more often: it takes four steps
    st.tuples(st.just("end_main"), st.integers(0, 3), player),
    st.tuples(st.just("dmo"), st.integers(0, 3), player),
    st.tuples(st.just("duel"), st.integers(0, 3)),
    st.tuples(st.just("end_duel"), st.integers(0, 3), st.booleans()),
]
OPS = st.one_of(*DUEL_OPS, *DUEL_OPS,
    st.tuples(st.just("register"), player),
    st.tuples(st.just("grant"), player, st.sampled_from(["garnets", "tol", "opal"]),
              st.integers(-4, 6)),
    st.tuples(st.just("transfer"), player, player, st.integers(0, 5)),
    st.tuples(st.just("rule"), player, st.integers(-2, 2),
              st.sampled_from([None, ELIMINATED, REINSTATED])),
    st.tuples(st.just("main"), st.lists(player, min_size=2, max_size=4, unique=True)),
    st.tuples(st.just("post"), st.integers(0, 3), player, st.integers(-3, 3), st.booleans()),
    st.tuples(st.just("end_main"), st.integers(0, 3), player),
    st.tuples(st.just("dmo"), st.integers(0, 3), player),
    st.tuples(st.just("duel"), st.integers(0, 3)),
    st.tuples(st.just("end_duel"), st.integers(0, 3), st.booleans()),
)


@dataclass
class Ledger:
    """What the test itself counts, beside the season: garnets in from grants and matches."""

    season: Season
    garnets_in: int = 0
    mains: list[str] = field(default_factory=list)
    duels: list[str] = field(default_factory=list)
    seq: int = 0


def apply(ledger: Ledger, op: tuple) -> None:
    s = ledger.season
    kind, *args = op
    if kind == "register":
        s.register(args[0])
    elif kind == "grant":
        s.grant(args[0], args[1], args[2], "a grant")
        ledger.garnets_in += args[2] if args[1] == "garnets" else 0
    elif kind == "transfer":
        s.transfer(args[0], args[1], args[2], "a trade")
    elif kind == "rule":
        s.rule(args[0], "a ruling", changes={"tol": args[1]} if args[1] else {}, status=args[2])
    elif kind == "main":
        name = f"main{len(ledger.mains)}"
        s.add_match(name, "sealed_bid", MAIN, args[0], "0" * 64)
        ledger.mains.append(name)
    elif kind == "post":
        matches = ledger.mains + ledger.duels
        match = matches[args[0] % len(matches)] if matches else "none"
        ledger.seq += 1
        s.post(match, ledger.seq, [{"player": args[1], "asset": "garnets", "amount": args[2],
                                    "reason": "play"}], PUBLIC if args[3] else [args[1]])
        ledger.garnets_in += args[2]
    elif kind == "end_main":
        match = ledger.mains[args[0] % len(ledger.mains)] if ledger.mains else "none"
        ledger.seq += 1
        s.check_is_a_match(match)
        if s.matches[match]["ended"]:
            raise RuleViolation("wrong_state", "ended")
        if args[1] in s.matches[match]["players"]:
            s.post(match, ledger.seq, [{"player": args[1], "asset": "ec", "amount": 1,
                                        "reason": "elimination_candidate"}])
        s.finish_match(match, ledger.seq + 1, abandoned=False, outcome="over", winners=[],
                       loser=None, dmo=None)
    elif kind == "dmo":
        match = ledger.mains[args[0] % len(ledger.mains)] if ledger.mains else "none"
        s.record_dmo(match, args[1], "the host's draw")
    elif kind == "duel":
        main = ledger.mains[args[0] % len(ledger.mains)] if ledger.mains else "none"
        dmo, ec = s.death_match_pairing(main)
        name = f"duel{len(ledger.duels)}"
        s.add_match(name, "tile_joust", DEATH_MATCH, [dmo, ec], "0" * 64, from_match=main,
                    ec=ec, dmo=dmo)
        ledger.duels.append(name)
    elif kind == "end_duel":
        duel = ledger.duels[args[0] % len(ledger.duels)] if ledger.duels else "none"
        s.check_is_a_match(duel)
        found = s.matches[duel]
        loser = found["players"][int(args[1])]
        winner = next(p for p in found["players"] if p != loser)
        s.check_is_in(loser)
        if found["ended"]:
            raise RuleViolation("wrong_state", "ended")
        s.finish_match(duel, 99, abandoned=False, outcome=winner, winners=[winner],
                       loser=loser, dmo=None)
        s.eliminate(loser, duel)


def acting(record: dict) -> list[str]:
    """The players an entry has act or be put somewhere: a trade, a seat in a match."""
    head = headline(record)
    if head["kind"] == "Transferred":
        return [head["data"]["giver"], head["data"]["receiver"]]
    if head["kind"] == "MatchAdded":
        return list(head["data"]["players"])
    return []


@settings(max_examples=80, deadline=None)
@given(purses=st.lists(st.integers(1, 6), min_size=4, max_size=4),
       ops=st.lists(OPS, min_size=10, max_size=80))
def test_season_invariants_hold_under_any_sequence_of_changes(purses, ops):
    season = Season.start(name="s", origin_prefix="arbiter", salt_key="00" * 32)
    ledger = Ledger(season)
    opening = [op for p, n in zip(PLAYERS, purses, strict=True)
               for op in (("register", p), ("grant", p, "garnets", n))]
    for op in opening + ops:
        before = (season.version, repr(season.balances), repr(season.out), ledger.garnets_in)
        try:
            apply(ledger, op)
        except RuleViolation:
            # A refused change changes nothing (the command wrote its entries last).
            assert (season.version, repr(season.balances), repr(season.out)) == before[:3]
            ledger.garnets_in = before[3]
        # Garnets are conserved: what grants and matches put in, trades only move.
        assert sum(season.garnets(season.players).values()) == ledger.garnets_in
        assert all(n >= 0 for row in season.balances.values() for n in row.values())
    # An eliminated player never acts again until a ruling brings them back.
    out: set[str] = set()
    for record in season.records:
        head = headline(record)
        assert not out & set(acting(record)), head
        if head["kind"] == "Eliminated" or (head["kind"] == "Ruled"
                                            and head["data"]["status"] == ELIMINATED):
            out.add(head["data"]["player"])
        if head["kind"] == "Ruled" and head["data"]["status"] == REINSTATED:
            out.discard(head["data"]["player"])
    assert out == set(season.out)
    # The standings are a fold of the log.
    folded = Season(name="s", salt_key=season.salt_key, record=season.records[0])
    for record in season.records[1:]:
        folded._apply(record)
    assert (folded.balances, folded.out, folded.matches, folded.dmos) == (
        season.balances, season.out, season.matches, season.dmos)
    assert public_standings(folded) == public_standings(season)


SEALED_BID = st.lists(st.one_of(
    st.tuples(st.sampled_from(["ann", "bob", "cy"]), st.just("bid"), st.integers(0, 9)),
    st.tuples(st.sampled_from(["ann", "bob", "cy"]), st.just("hint"), st.just(0)),
    st.tuples(st.just(HOST), st.just("close_round"), st.just(0)),
), max_size=25)


@settings(max_examples=25, deadline=None)
@given(purses=st.tuples(*[st.integers(0, 5)] * 3), commands=SEALED_BID)
def test_the_season_log_and_the_match_log_agree_on_every_posting(purses, commands):
    app = Arbiter("sqlite:///:memory:", signer=SIGNER)
    app.create_season("s")
    app.register_all("s", ["ann", "bob", "cy"])
    app.grant_all("s", [Grant(p, n, reason="purse")
                        for p, n in zip(["ann", "bob", "cy"], purses, strict=True) if n])
    app.create_match(match_id="m", season="s", game="sealed_bid",
                     setup={"players": ["ann", "bob", "cy"], "rounds": 3},
                     host_seed="h" * 40, salt_key="ab" * 32)
    app.submit("m", HOST, "open_match")
    for actor, name, amount in commands:
        before = (app.match("m").version, app.season("s").version)
        try:
            app.submit("m", actor, name, {"amount": amount} if name == "bid" else {})
        except RuleViolation:
            assert (app.match("m").version, app.season("s").version) == before
    match, season = app.match("m"), app.season("s")
    posted = [r for r in match.records if r["postings"]]
    entries = [headline(r) for r in season.records if headline(r)["kind"] == "Posted"]
    # One season entry per match entry that posted, with its postings and its audience.
    assert [(e["data"]["seq"], e["data"]["postings"], e["audience"]) for e in entries] == [
        (r["entry"]["seq"], r["postings"],
         PUBLIC if r["entry"]["kind"] is not None else r["parts"][0]["audience"])
        for r in posted]
    for p, purse in zip(["ann", "bob", "cy"], purses, strict=True):
        moved = sum(x["amount"] for r in posted for x in r["postings"]
                    if x["player"] == p and x["asset"] == "garnets")
        assert season.balances[p]["garnets"] == purse + moved >= 0
