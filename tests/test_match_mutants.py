"""The match aggregate driven by hand, no store: the guards and layouts docs/architecture.md
states (corrections, the phases, contributions, seeds), each outcome worked out from the rules
of the small sealed-bid game in tests/support (SEALED_RUN 1).

Entries of a fresh match: 1 genesis, 2 sealed setup. The host's open_match: 3 its public
command, 4 MatchOpened, 5 SecretDrawn (host only), 6 RoundOpened. A bid: its sealed command
entry, then BidPlaced sealed to the bidder (a run of one, so no padding).
"""

from __future__ import annotations

import hashlib
import json

import pytest

from domain import games
from domain.decider import Command
from domain.envelope import salt
from domain.errors import RuleViolation
from domain.match import (
    Match,
    check_host_seed,
    parse_salt_key,
)
from domain.records import headline

PLAYERS = ["ann", "bob", "cy"]
SEED = "s" * 40
GARNETS = {"ann": 5, "bob": 1, "cy": 0}


def new_match(**changes) -> Match:
    options = {"match_id": "m1", "season": "spring", "game_id": "sealed_bid",
               "setup": {"players": PLAYERS, "rounds": 1}, "host_seed": SEED,
               "salt_key": "ab" * 32, "garnets": GARNETS, **changes}
    return Match.configure(**options)


def send(match: Match, actor: str, name: str, args=None, **kwargs) -> list[int]:
    return match.handle(Command(name, actor, args or {}, GARNETS), **kwargs)


def opened() -> Match:
    match = new_match()
    assert send(match, "host", "open_match") == [3, 4, 5, 6]
    return match


def refused(code: str, match: Match, actor: str, name: str, args=None) -> RuleViolation:
    before = match.version
    with pytest.raises(RuleViolation) as caught:
        send(match, actor, name, args)
    assert caught.value.code == code
    assert match.version == before  # a refusal appends nothing
    return caught.value


def kinds(match: Match, seqs) -> list[str | None]:
    return [match.record(s)["entry"]["kind"] for s in seqs]


def heads(match: Match, seqs) -> list[str]:
    return [headline(match.record(s))["kind"] for s in seqs]


# -- voids ------------------------------------------------------------------------------------

def test_voiding_the_latest_submission_brings_back_the_one_before():
    match = opened()
    assert send(match, "ann", "bid", {"amount": 3}) == [7, 8]
    assert send(match, "ann", "bid", {"amount": 7}) == [9, 10]
    assert match.state.bids == {"ann": 7}
    # A correction: its command entry, the sealed SubmissionVoided, one padding entry.
    assert send(match, "host", "correct", {"void": 9, "reason": "typo"}) == [11, 12, 13]
    assert match.state.bids == {"ann": 3}
    assert match.voided == {9}
    assert kinds(match, [11, 12, 13]) == [None, None, None]  # all sealed: nothing shows whose
    assert heads(match, [11, 12, 13]) == ["CommandAccepted", "SubmissionVoided", "Padding"]
    assert headline(match.record(12))["data"] == {"seq": 9, "reason": "typo"}
    assert headline(match.record(12))["audience"] == "host"
    assert match.record(13)["role"] == "padding"
    # Then the other one; nobody has bid any more.
    send(match, "host", "correct", {"void": 7, "reason": "typo too"})
    assert match.state.bids == {}


@pytest.mark.parametrize("seq", [0, -1, 11, "9", 9.0, True, None])
def test_a_void_of_no_entry_is_unknown_seq(seq):
    match = opened()
    send(match, "ann", "bid", {"amount": 3})
    send(match, "ann", "bid", {"amount": 7})
    assert match.version == 10
    refused("unknown_seq", match, "host", "correct", {"void": seq, "reason": "r"})


@pytest.mark.parametrize("seq", [1, 2, 3, 6, 8, 10])
def test_only_a_player_submission_is_voidable(seq):
    # 10, the latest entry, is ann's BidPlaced: it exists, it is not a submission.
    match = opened()
    send(match, "ann", "bid", {"amount": 3})
    send(match, "ann", "bid", {"amount": 7})
    error = refused("not_voidable", match, "host", "correct", {"void": seq, "reason": "r"})
    assert error.message == "only a player's submission can be voided"


def test_a_voided_submission_cannot_be_voided_again():
    match = opened()
    send(match, "ann", "bid", {"amount": 3})
    send(match, "host", "correct", {"void": 7, "reason": "r"})
    error = refused("not_voidable", match, "host", "correct", {"void": 7, "reason": "again"})
    assert error.message == "entry 7 is voided already"


def test_bookkeeping_does_not_block_a_void_but_any_other_host_command_does():
    match = new_match(setup={"players": PLAYERS, "rounds": 2})
    send(match, "host", "open_match")
    send(match, "ann", "bid", {"amount": 3})  # 7, 8
    send(match, "bob", "bid", {"amount": 4})  # 9, 10
    assert send(match, "host", "set_deadline", {"deadline": "2026-12-01T20:00Z"}) == [11, 12]
    send(match, "host", "correct", {"void": 9, "reason": "r"})  # 13, 14, 15
    assert match.state.bids == {"ann": 3}
    # A host command that is neither bookkeeping nor a correction: the round closes.
    assert send(match, "host", "close_round")[0] == 16
    error = refused("not_voidable", match, "host", "correct", {"void": 7, "reason": "late"})
    assert error.message == ("entry 7 has had consequences: the host's close_round at entry 16 "
                             "came after it")


def test_a_submission_after_the_last_host_command_stays_voidable():
    # Two rounds: the close of round 1 blocks voids of what came before it, not after.
    match = new_match(setup={"players": PLAYERS, "rounds": 2})
    send(match, "host", "open_match")
    send(match, "ann", "bid", {"amount": 3})  # 7, 8
    close = send(match, "host", "close_round")[0]
    late = send(match, "bob", "bid", {"amount": 2})[0]
    assert late > close
    refused("not_voidable", match, "host", "correct", {"void": 7, "reason": "r"})
    send(match, "host", "correct", {"void": late, "reason": "r"})
    assert match.state.bids == {}


def test_a_submission_that_moved_garnets_cannot_be_voided():
    match = opened()
    hint = send(match, "ann", "hint")
    assert hint == [7, 8]
    assert match.record(8)["postings"] == [
        {"player": "ann", "asset": "garnets", "amount": -2, "reason": "hint"}]
    error = refused("not_voidable", match, "host", "correct", {"void": 7, "reason": "refund"})
    assert error.message == "entry 7 moved season assets at entry 8"


# -- entering a submission for a player --------------------------------------------------------

def test_an_entered_spend_is_the_player_s_spend_laid_out_as_a_void():
    match = opened()
    seqs = send(match, "host", "correct",
                {"as": "ann", "command": "hint", "reason": "sent by DM"})
    # Command entry, SubmissionEntered (outside the run), HintGiven (a run of one): no padding.
    assert seqs == [7, 8, 9]
    assert heads(match, seqs) == ["CommandAccepted", "SubmissionEntered", "HintGiven"]
    assert kinds(match, seqs) == [None, None, None]
    assert headline(match.record(8))["data"] == {
        "player": "ann", "command": "hint", "args": {}, "reason": "sent by DM"}
    assert match.record(9)["postings"] == [
        {"player": "ann", "asset": "garnets", "amount": -2, "reason": "hint"}]
    # The spend came with the host's command: that entry is not a player's to void.
    refused("not_voidable", match, "host", "correct", {"void": 7, "reason": "r"})


def test_an_entered_spend_checks_the_player_s_purse():
    match = opened()
    refused("insufficient_garnets", match, "host", "correct",
            {"as": "cy", "command": "hint", "reason": "DM"})


def test_an_entered_bid_counts_as_the_player_s():
    match = opened()
    seqs = send(match, "host", "correct",
                {"as": "bob", "command": "bid", "args": {"amount": 6}, "reason": "DM"})
    assert seqs == [7, 8, 9]
    assert heads(match, seqs) == ["CommandAccepted", "SubmissionEntered", "BidPlaced"]
    assert headline(match.record(9))["audience"] == ["bob"]
    assert match.state.bids == {"bob": 6}


@pytest.mark.parametrize(("args", "code"), [
    ({"void": 7}, "reason_required"),
    ({"void": 7, "reason": "  "}, "reason_required"),
    ({"void": 7, "reason": 5}, "reason_required"),
    ({"reason": "r"}, "invalid_correction"),
    ({"as": "ann", "reason": "r"}, "invalid_correction"),
    ({"command": "bid", "reason": "r"}, "invalid_correction"),
    ({"as": "ann", "command": 3, "reason": "r"}, "invalid_correction"),
    ({"as": "zed", "command": "bid", "reason": "r"}, "unknown_player"),
    ({"as": "host", "command": "bid", "reason": "r"}, "unknown_player"),
    ({"as": "ann", "command": "end", "reason": "r"}, "invalid_correction"),
    ({"as": "ann", "command": "contribute", "reason": "r"}, "invalid_correction"),
    ({"as": "ann", "command": "bid", "args": [1], "reason": "r"}, "invalid_correction"),
    ({"as": "ann", "command": "bid", "args": "x", "reason": "r"}, "invalid_correction"),
    ({"as": "ann", "command": "bid", "reason": "r"}, "invalid_bid"),
])
def test_a_malformed_correction_is_refused(args, code):
    match = opened()
    send(match, "ann", "bid", {"amount": 3})
    refused(code, match, "host", "correct", args)


def test_only_the_host_corrects():
    match = opened()
    send(match, "ann", "bid", {"amount": 3})
    refused("host_only", match, "bob", "correct", {"void": 7, "reason": "r"})


# -- phases ------------------------------------------------------------------------------------

def test_before_the_open_players_wait_and_the_host_is_told_it_has_not_opened():
    match = new_match()
    assert match.round == 0 and match.phase == "configured"
    refused("match_not_started", match, "ann", "bid", {"amount": 1})
    refused("wrong_state", match, "host", "close_round")
    refused("unknown_player", match, "zed", "bid", {"amount": 1})


def test_the_open_is_the_host_s_and_happens_once():
    match = new_match()
    refused("host_only", match, "ann", "open_match")
    send(match, "host", "open_match")
    assert match.phase == "open" and match.round == 1
    refused("wrong_state", match, "host", "open_match")


def test_a_finished_game_ends_the_match_and_reveals_the_seed():
    match = opened()
    send(match, "ann", "bid", {"amount": 3})
    seqs = send(match, "host", "close_round")
    # Penalised for bob (cy has no garnets), RoundClosed, GameOver, the opened secret, the end.
    assert kinds(match, seqs) == [
        "CommandAccepted", None, "RoundClosed", "GameOver", "SealOpened", "MatchEnded",
        "SeedRevealed"]
    assert match.phase == "ended" and match.ended
    assert [match.record(s)["role"] for s in seqs] == [
        "command", "fact", "fact", "fact", "meta", "meta", "meta"]
    end = match.record(seqs[-2])["entry"]
    assert end["public"] == {"results": match.results()}
    assert end["round"] == 1
    reveal = match.record(seqs[-1])["entry"]["public"]
    assert reveal == {"host_seed": SEED, "contributions": {}, "seed": SEED}
    # The game ended by its rules: its own code answers its commands, the match's its own.
    refused("match_over", match, "ann", "bid", {"amount": 1})
    refused("match_over", match, "host", "close_round")
    refused("wrong_state", match, "host", "set_deadline", {"deadline": "x"})
    refused("match_over", match, "ann", "contribute", {"text": "x"})


def test_an_abandoned_match_reveals_its_seed_and_refuses_everything():
    match = opened()
    refused("reason_required", match, "host", "end")
    refused("reason_required", match, "host", "end", {"reason": " "})
    refused("host_only", match, "ann", "end", {"reason": "bored"})
    seqs = send(match, "host", "end", {"reason": "server down"})
    assert kinds(match, seqs) == ["CommandAccepted", "MatchAbandoned", "SeedRevealed"]
    assert [match.record(s)["role"] for s in seqs] == ["command", "meta", "meta"]
    assert match.record(seqs[1])["entry"]["public"] == {"reason": "server down"}
    assert match.phase == "ended"
    # The game never finished: the match refuses everything itself.
    refused("match_over", match, "ann", "bid", {"amount": 1})
    refused("wrong_state", match, "host", "close_round")
    refused("wrong_state", match, "host", "end", {"reason": "again"})


def test_a_deadline_is_a_text_for_the_round_set_by_the_host():
    match = opened()
    for bad in ({}, {"deadline": ""}, {"deadline": 5}):
        refused("invalid_deadline", match, "host", "set_deadline", bad)
    refused("host_only", match, "ann", "set_deadline", {"deadline": "soon"})
    seqs = send(match, "host", "set_deadline", {"deadline": "2026-12-01T20:00Z"})
    assert kinds(match, seqs) == ["CommandAccepted", "DeadlineSet"]
    assert match.record(seqs[1])["entry"]["public"] == {"round": 1,
                                                      "deadline": "2026-12-01T20:00Z"}


# -- contributions and seeds -------------------------------------------------------------------

def test_contributions_are_one_non_empty_text_per_player_before_the_open():
    match = new_match()
    for bad in ({}, {"text": ""}, {"text": 7}):
        refused("invalid_contribution", match, "ann", "contribute", bad)
    refused("unknown_player", match, "host", "contribute", {"text": "x"})
    # A sealed command with a public fact: padding closes the run before it and after it.
    assert send(match, "ann", "contribute", {"text": "apple"}) == [3, 4, 5, 6]
    assert kinds(match, [3, 4, 5, 6]) == [None, None, "SeedContributed", None]
    assert [match.record(s)["role"] for s in (4, 6)] == ["padding", "padding"]
    assert match.record(5)["entry"]["public"] == {"player": "ann", "text": "apple"}
    refused("already_contributed", match, "ann", "contribute", {"text": "pear"})
    send(match, "cy", "contribute", {"text": "plum"})
    seqs = send(match, "host", "open_match")
    assert match.record(seqs[1])["entry"]["public"] == {"contributions": 2}
    refused("contributions_closed", match, "bob", "contribute", {"text": "late"})
    # The seed mixes them in roster order, an empty text for bob who sent none.
    joined = "|".join([SEED, "apple", "", "plum"])
    assert match.seed == hashlib.sha256(joined.encode()).hexdigest()


def test_a_seed_contribution_cannot_be_voided():
    """Else a host could void contributions until the seed suited them."""
    match = new_match()
    assert send(match, "ann", "contribute", {"text": "apple"}) == [3, 4, 5, 6]
    error = refused("not_voidable", match, "host", "correct", {"void": 3, "reason": "r"})
    assert "contribution" in error.message
    assert match.contributions == {"ann": "apple"}


def test_a_seed_of_fewer_than_32_characters_is_weak():
    assert check_host_seed("x" * 32) is False
    with pytest.raises(RuleViolation) as caught:
        check_host_seed("x" * 31)
    assert caught.value.code == "weak_seed"
    assert check_host_seed("x" * 31, allow_weak=True) is True
    for bad in ("", None, 7):
        with pytest.raises(RuleViolation) as caught:
            check_host_seed(bad, allow_weak=True)
        assert caught.value.code == "invalid_setup"


def test_a_match_refuses_a_weak_seed_unless_the_host_allows_it():
    with pytest.raises(RuleViolation) as caught:
        new_match(host_seed="x" * 31)
    assert caught.value.code == "weak_seed"


@pytest.mark.parametrize("match_id", [" m1", "m1 ", "m\n1", "", "m" * 101])
def test_a_match_id_is_a_printable_name(match_id):
    with pytest.raises(RuleViolation) as caught:
        new_match(match_id=match_id)
    assert caught.value.code == ("too_large" if len(match_id) > 100 else "invalid_text")


def test_the_genesis_entry_says_when_the_seed_is_weak_or_the_match_unsigned():
    strong = new_match().record(1)["entry"]["public"]
    assert "weak_seed" not in strong and "unsigned" not in strong
    assert strong["players"] == PLAYERS and strong["game"] == "sealed_bid"
    weak = new_match(host_seed="short", allow_weak_seed=True, unsigned=True)
    assert weak.record(1)["entry"]["public"]["weak_seed"] is True
    assert weak.record(1)["entry"]["public"]["unsigned"] is True
    assert weak.unsigned is True and new_match().unsigned is False


@pytest.mark.parametrize("key", ["ab" * 31, "ab" * 33, "zz" * 32, "", None])
def test_a_salt_key_is_64_hex_digits(key):
    with pytest.raises(RuleViolation) as caught:
        parse_salt_key(key)
    assert caught.value.code == "invalid_setup"


def test_a_salt_key_reads_as_its_32_bytes():
    assert parse_salt_key("0f" * 32) == bytes([15]) * 32


def test_an_unknown_setup_field_is_refused_naming_it():
    with pytest.raises(RuleViolation) as caught:
        new_match(setup={"players": PLAYERS, "colour": "red"})
    assert caught.value.code == "invalid_setup"
    assert caught.value.message.startswith("colour: ")


# -- command ids and arguments -----------------------------------------------------------------

def test_a_repeated_command_id_returns_the_first_seqs_and_appends_nothing():
    match = opened()
    first = send(match, "ann", "bid", {"amount": 3}, command_id="c1")
    assert send(match, "ann", "bid", {"amount": 3}, command_id="c1") == first == [7, 8]
    assert match.version == 8 and match.state.bids == {"ann": 3}
    assert match.handled["c1"] == [7, 8]
    # The same id for another command is refused, not answered with the first's seqs.
    with pytest.raises(RuleViolation) as caught:
        send(match, "ann", "bid", {"amount": 9}, command_id="c1")
    assert caught.value.code == "id_reused" and match.version == 8


@pytest.mark.parametrize("extra", [1.5, float("nan"), 2**53])
def test_arguments_the_log_cannot_hold_are_invalid_command(extra):
    # The game reads no argument of a hint: only the log refuses these.
    match = opened()
    refused("invalid_command", match, "ann", "hint", {"note": extra})
    # What the rules refuse first keeps the rules' code.
    refused("invalid_bid", match, "ann", "bid", {"amount": extra})


# -- a game's bugs -----------------------------------------------------------------------------

@pytest.fixture
def overrun(monkeypatch) -> Match:
    monkeypatch.setitem(games._MODULES, "overrun", "tests.support.overrun")
    match = new_match(game_id="overrun")
    send(match, "host", "open_match")
    return match


def test_a_player_s_sealed_events_beyond_the_run_are_a_bug(overrun):
    with pytest.raises(ValueError, match="emitted more than SEALED_RUN = 1 sealed events"):
        send(overrun, "ann", "twice")
    assert overrun.version == 6
    # Sealed, public, sealed: each run holds one, so nothing pads and nothing is refused.
    seqs = send(overrun, "ann", "apart")
    assert kinds(overrun, seqs) == [None, None, "Shown", None]


def test_a_correction_s_own_fact_is_outside_the_run(overrun):
    with pytest.raises(ValueError, match="SEALED_RUN"):
        send(overrun, "host", "correct", {"as": "ann", "command": "twice", "reason": "DM"})
    seqs = send(overrun, "host", "correct", {"as": "ann", "command": "apart", "reason": "DM"})
    assert heads(overrun, seqs) == ["CommandAccepted", "SubmissionEntered", "Noted", "Shown",
                                    "Noted"]


def test_a_public_host_command_is_not_padded_nor_held_to_the_run(overrun):
    seqs = send(overrun, "host", "twice")
    assert heads(overrun, seqs) == ["CommandAccepted", "Noted", "Noted"]
    assert kinds(overrun, seqs) == ["CommandAccepted", None, None]


def test_a_setup_is_kept_in_its_json_form(overrun):
    setup = {"players": PLAYERS, "rounds": 1, "pair": [0, 9]}  # the tuple as JSON has it
    assert headline(overrun.record(2))["data"]["setup"] == setup
    assert overrun.frozen()["setup"] == setup


# Rounds (docs/architecture.md): a command's entries carry the round it arrived in, the end the
# round its last facts leave open.

def test_a_command_that_opens_the_next_round_is_told_in_the_round_it_came_in(overrun):
    assert overrun.round == 1
    seqs = send(overrun, "host", "leap")
    assert kinds(overrun, seqs) == ["CommandAccepted", "RoundOpened", "Shown"]
    assert [overrun.record(s)["entry"]["round"] for s in seqs] == [1, 1, 1]
    assert overrun.round == 2
    assert overrun.record(send(overrun, "ann", "bid", {"amount": 1})[0])["entry"]["round"] == 2


def test_the_end_carries_the_round_the_last_command_left_open(overrun):
    seqs = send(overrun, "host", "leap_end")
    assert kinds(overrun, seqs) == ["CommandAccepted", "RoundOpened", "GameOver", "MatchEnded",
                                    "SeedRevealed"]
    assert [overrun.record(s)["entry"]["round"] for s in seqs] == [1, 1, 1, 2, 2]


def test_a_sealed_event_is_opened_once_and_a_kind_never_sealed_opens_nothing(overrun):
    # The secret (entry 5, sealed to the host) opens with a SealOpened right after the fact.
    seqs = send(overrun, "host", "show", {"kinds": ["SecretDrawn", "NeverSealed"]})
    assert kinds(overrun, seqs) == ["CommandAccepted", "Shown", "SealOpened"]
    assert headline(overrun.record(seqs[2]))["data"]["seq"] == 5
    seqs = send(overrun, "host", "show", {"kinds": ["SecretDrawn"]})
    assert kinds(overrun, seqs) == ["CommandAccepted", "Shown"]  # open already: not again


# The match's own facts (docs/architecture.md): auditors read these kinds as the match's.
RESERVED = ["MatchCreated", "SetupCommitted", "SeedContributed", "MatchOpened", "DeadlineSet",
            "SubmissionVoided", "SubmissionEntered", "MatchAbandoned", "MatchEnded",
            "SeedRevealed", "SealOpened", "Padding"]


@pytest.mark.parametrize("kind", RESERVED)
def test_a_game_emitting_a_kind_the_match_reserves_is_a_bug(overrun, kind):
    with pytest.raises(ValueError, match=f"overrun emitted {kind}, a kind the match reserves"):
        send(overrun, "ann", "reserved", {"kind": kind})
    assert overrun.version == 6 and overrun.phase == "open"


def test_a_game_may_name_its_own_kinds_freely(overrun):
    seqs = send(overrun, "ann", "reserved", {"kind": "MatchEndedSoon"})
    assert "MatchEndedSoon" in heads(overrun, seqs) and overrun.phase == "open"


def test_a_type_error_on_arguments_the_log_cannot_hold_is_bad_input(overrun):
    # A set is no JSON: the rules' TypeError is the sender's invalid_command.
    refused("invalid_command", overrun, "host", "compare", {"x": {1}})
    # A list is JSON: the same TypeError is a bug in the rules, and is raised as one.
    with pytest.raises(TypeError):
        send(overrun, "host", "compare", {"x": [1]})
    assert overrun.version == 6
    seqs = send(overrun, "host", "compare", {"x": 4})
    assert overrun.record(seqs[1])["entry"]["public"] == {"big": True}


# -- restoring and reading ---------------------------------------------------------------------

def restored(match: Match) -> Match:
    """The match as the store restores it from a snapshot: its frozen JSON thawed."""
    frozen = json.loads(json.dumps(match.frozen()))  # plain JSON, as stored
    return Match.thawed(match.id, match.version, frozen)


def test_a_restored_match_goes_on_exactly_as_the_live_one():
    steps = [("ann", "bid", {"amount": 3}), ("bob", "bid", {"amount": 5}),  # 7-8, 9-10
             ("host", "correct", {"void": 9, "reason": "r"}),  # 11-13
             ("host", "close_round", {}),  # 14, bob's penalty, RoundClosed, RoundOpened: 17
             ("ann", "hint", {}), ("cy", "bid", {"amount": 1}),  # 18-19, 20-21
             ("host", "correct", {"void": 20, "reason": "r"}), ("host", "close_round", {})]
    live = new_match(setup={"players": PLAYERS, "rounds": 2})
    send(live, "host", "open_match")
    for actor, name, args in steps:
        copy = restored(live)
        assert send(copy, actor, name, args) == send(live, actor, name, args)
        assert copy.state == live.state and copy.voided == live.voided
        assert copy.log_root == live.log_root and copy.phase == live.phase
        assert copy.record(copy.version) == live.record(live.version)
        assert copy.handled == live.handled and copy.opened == live.opened
        assert (copy.season, copy.unsigned, copy.sent, copy.moved, copy.setup) == \
            (live.season, live.unsigned, live.sent, live.moved, live.setup)
    assert live.version == 32 and live.phase == "ended"
    assert live.state.points == {"ann": 1}
    # A restored match keeps no entry before its last turn: it cannot give a full snapshot.
    with pytest.raises(ValueError, match="holds only its last entries"):
        restored(live).snapshot()
    assert live.snapshot().records == tuple(live.records)


def test_a_restored_match_of_a_spend_knows_what_moved_and_what_each_id_stood_for():
    live = new_match(unsigned=True)
    send(live, "host", "open_match")
    seqs = send(live, "ann", "bid", {"amount": 3}, command_id="c1")
    copy = restored(live)
    assert copy.unsigned is True and copy.season == "spring"
    # The same id for the same command is the first answer; for another one id_reused.
    assert send(copy, "ann", "bid", {"amount": 3}, command_id="c1") == seqs
    with pytest.raises(RuleViolation) as caught:
        send(copy, "ann", "bid", {"amount": 4}, command_id="c1")
    assert caught.value.code == "id_reused"


def test_a_snapshot_from_before_command_fingerprints_still_restores():
    live = new_match()
    send(live, "host", "open_match")
    frozen = json.loads(json.dumps(live.frozen()))
    del frozen["sent"]
    copy = Match.thawed(live.id, live.version, frozen)
    assert copy.sent == {}
    assert send(copy, "ann", "bid", {"amount": 3}) == send(live, "ann", "bid", {"amount": 3})


def test_the_end_opens_the_secret_drawn_at_the_open():
    match = opened()
    seqs = send(match, "host", "close_round")
    opening = next(match.record(s)["entry"] for s in seqs if kinds(match, [s]) == ["SealOpened"])
    secret = match.record(5)
    assert opening["public"] == {"seq": 5, "index": 0,
                                 "salt": salt(parse_salt_key("ab" * 32), 5, 0).hex(),
                                 "part": secret["parts"][0]}
    assert match.opened == {5}


def test_every_record_has_the_same_fields():
    match = opened()
    send(match, "ann", "bid", {"amount": 3})
    for record in match.records:
        assert set(record) == {"entry", "parts", "postings", "role", "batch", "command_id"}
    genesis = match.record(1)
    assert (genesis["parts"], genesis["postings"], genesis["role"]) == ([], [], "meta")
    assert genesis["batch"] is None and genesis["command_id"] is None
    assert match.record(7)["batch"] == 7 and match.record(8)["batch"] == 7


def test_the_sealed_setup_holds_the_setup_the_seed_and_every_player_s_garnets():
    match = new_match(garnets={"ann": 5, "bob": 1})  # cy has none yet
    setup = match.record(2)
    assert match.record(2)["entry"]["kind"] is None  # sealed
    assert (setup["role"], setup["batch"], setup["command_id"]) == ("meta", 1, None)
    head = headline(setup)
    assert head["kind"] == "SetupCommitted" and head["audience"] == "host"
    assert head["data"] == {"setup": {"players": PLAYERS, "rounds": 1}, "host_seed": SEED,
                            "garnets": {"ann": 5, "bob": 1, "cy": 0}}


def test_a_host_command_the_game_seals_is_sealed_and_padded_like_a_player_s(overrun):
    seqs = send(overrun, "host", "hidden")
    assert kinds(overrun, seqs) == [None, None]
    assert heads(overrun, seqs) == ["CommandAccepted", "Noted"]
    assert headline(overrun.record(seqs[0]))["audience"] == "host"
    assert kinds(overrun, send(overrun, "host", "compare", {"x": 1})) == [
        "CommandAccepted", "Compared"]


def test_the_genesis_entry_is_seq_1_of_round_0():
    entry = new_match().record(1)["entry"]
    assert (entry["seq"], entry["round"], entry["kind"]) == (1, 0, "MatchCreated")
    assert new_match().record(2)["entry"]["round"] == 0


def test_the_log_root_is_the_merkle_root_of_the_entries():
    from audit.merkle import root
    from domain.envelope import entry_bytes

    match = opened()
    send(match, "ann", "bid", {"amount": 3})
    assert match.log_root == root(entry_bytes(r["entry"]) for r in match.records)
    assert match.snapshot().log_root == match.log_root


def test_a_command_carries_the_garnets_it_was_decided_on_for_the_host():
    match = opened()
    context = match.record(3)["parts"]  # the host's open_match: public, its context sealed
    assert context == [{"audience": "host", "kind": "CommandContext", "actor": "system",
                        "at": None, "data": {"garnets": GARNETS}, "postings": []}]


def test_a_snapshot_read_cannot_be_changed():
    match = opened()
    snapshot = match.snapshot()
    with pytest.raises(AttributeError):
        snapshot.phase = "ended"  # type: ignore[misc]
    assert snapshot.phase == "open"


def test_a_bad_setup_is_the_game_s_own_setup_code_naming_the_field():
    # Tile Joust names its setup errors in capitals (its rulings); sealed_bid the match's code.
    with pytest.raises(RuleViolation) as caught:
        new_match(game_id="tile_joust", setup={"players": "ann"})
    assert caught.value.code == "INVALID_SETUP" and caught.value.message.startswith("players")
    with pytest.raises(RuleViolation) as caught:
        new_match(setup={"players": PLAYERS, "rounds": "many"})
    assert caught.value.code == "invalid_setup" and caught.value.message.startswith("rounds: ")
