"""Through the real match (an Arbiter on a SQLite file): a float or an out-of-range integer gets
the rules' own code for that argument and records nothing, and every command sent after the
final deadline gets the code the rules name for it (docs/games/totemic_might.md, section 4).

The moments come from the seed match `totemic_might-heavy-sky` (its `notes` tell the story):
- `round_2`: its commands up to round 2's deadline: ada has given bo a copy (ada's transfer 1),
  bo and cy have proposed mirrored trades (each their transfer 1); nobody is owed.
- `final_weighing`: up to round 3's deadline: gus is the lone owed player and has chosen.
- `final_challenge`: up to the final deadline: di and ed have not balanced.
"""

from __future__ import annotations

from typing import Any

import pytest

from commands.cli.matchfile import MatchFile, load, play
from commands.service.arbiter import Arbiter
from domain.errors import RuleViolation
from tests.games.totemic_might.seed_matches import HEAVY_SKY, TIEBREAK, before_close
from tests.support.host_key import SIGNER

# Each moment: heavy-sky's commands up to that deadline (round 2's, round 3's, the final one).
MOMENTS = {"round_2": 2, "final_weighing": 3, "final_challenge": 4}
FOX = ["Summer-Secret", "Void-Creature", "Spring-Future"]
ADA_PIECES = ["S:Void-Secret"]
BIG = 2**64 + 1  # beyond what the log holds, and beyond every limit of the rules


def moment(name: str) -> MatchFile:
    """heavy-sky up to a deadline (`round_2`, ...), or a whole seed match (`over`,
    `over-tiebreak`), each in a season of its own so that garnets never mix."""
    file = load(TIEBREAK if name == "over-tiebreak" else HEAVY_SKY)
    if name in MOMENTS:
        file = before_close(file, MOMENTS[name])
    return file.model_copy(update={"season": f"tm-{name}"})


def match_id(name: str) -> str:
    return moment(name).match


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Arbiter:
    application = Arbiter(f"sqlite:///{tmp_path_factory.mktemp('tm')}/arbiter.db", signer=SIGNER)
    for name in [*MOMENTS, "over", "over-tiebreak"]:
        _, mismatches = play(application, moment(name))
        assert mismatches == []
    yield application
    application.close()


def refusal(app: Arbiter, match: str, actor: str, name: str, args: dict[str, Any]) -> str:
    """The code the match answers; the log must not have grown."""
    before = app.match(match).version
    with pytest.raises(RuleViolation) as caught:
        app.submit(match, actor, name, args)
    assert app.match(match).version == before
    return caught.value.code


# (moment, actor, command, args, code). Where the rules accept a value they then ignore (a
# `fine` that is not `true`, a withdrawal naming nobody), the log refuses the float:
# `invalid_command`, and nothing is recorded either.
NUMBERS: list[tuple[str, str, str, dict[str, Any], str]] = [
    # place_bet: the series first, then "amount not an integer", then the limits.
    ("round_2", "ada", "place_bet", {"series": "A", "amount": 2.0}, "INVALID_AMOUNT"),
    ("round_2", "ada", "place_bet", {"series": "B", "amount": 1e300}, "INVALID_AMOUNT"),
    ("round_2", "ada", "place_bet", {"series": "A", "amount": -0.5}, "INVALID_AMOUNT"),
    ("round_2", "ada", "place_bet", {"series": 1.0, "amount": 2.0}, "UNKNOWN_SERIES"),
    ("round_2", "ada", "place_bet", {"series": "A", "amount": BIG}, "BET_ABOVE_SERIES_MAX"),
    ("round_2", "ada", "place_bet", {"series": "A", "amount": 2**53}, "BET_ABOVE_SERIES_MAX"),
    ("round_2", "ada", "place_bet", {"series": "A", "amount": -BIG}, "BET_BELOW_MIN"),
    # set_pick_order
    ("round_2", "ada", "set_pick_order", {"series": 2.0, "order": []}, "UNKNOWN_SERIES"),
    ("round_2", "ada", "set_pick_order", {"series": "A", "order": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]},
     "INVALID_PICK_ORDER"),
    ("round_2", "ada", "set_pick_order", {"series": "A", "order": 6.0}, "INVALID_PICK_ORDER"),
    # choose_spirit_totem: only the lone owed player gets as far as the totem.
    ("round_2", "ada", "choose_spirit_totem", {"totem": 13.0}, "NOT_OWED_SPIRIT_CHOICE"),
    ("final_weighing", "gus", "choose_spirit_totem", {"totem": 13.0}, "TOTEM_NOT_IN_POOL"),
    ("final_weighing", "gus", "choose_spirit_totem", {"totem": BIG}, "TOTEM_NOT_IN_POOL"),
    # weigh: a number is no piece token.
    ("round_2", "ada", "weigh", {"left": [1.5]}, "UNKNOWN_PIECE"),
    ("round_2", "ada", "weigh", {"left": 2.0}, "UNKNOWN_PIECE"),
    ("round_2", "ada", "weigh", {"left": ADA_PIECES, "right": [BIG]}, "UNKNOWN_PIECE"),
    ("final_weighing", "gus", "weigh", {"left": [20.0]}, "UNKNOWN_PIECE"),
    # place_wager, flat and nested under `params`.
    ("round_2", "ada", "place_wager", {"kind": 1.0}, "UNKNOWN_WAGER"),
    ("round_2", "ada", "place_wager", {"kind": "bear", "totems": [1.0]}, "UNKNOWN_TOTEM"),
    ("round_2", "ada", "place_wager", {"kind": "bear", "params": {"totems": [BIG]}},
     "UNKNOWN_TOTEM"),
    ("round_2", "ada", "place_wager", {"kind": "snake", "letter": 1.0}, "INVALID_LETTER"),
    ("round_2", "ada", "place_wager", {"kind": "wolf", "totems": 2.0}, "WRONG_TOTEM_COUNT"),
    ("round_2", "ada", "place_wager", {"kind": "fox", "totems": FOX, "payment": 4.0},
     "FOX_PAYMENT_REQUIRED"),
    ("final_weighing", "cy", "place_wager",
     {"kind": "bear", "totems": ["Void-Sky"], "fine": 1.0}, "invalid_command"),
    # transfers: the other party, the lists, the id.
    ("round_2", "ada", "give", {"to": 1.0, "pieces": ["T:Spring-Secret"]}, "UNKNOWN_PLAYER"),
    ("round_2", "ada", "give", {"to": "bo", "pieces": [1.0]}, "UNKNOWN_PIECE"),
    ("round_2", "ada", "give", {"to": "bo", "pieces": 1.0}, "UNKNOWN_PIECE"),
    ("round_2", "bo", "propose_trade", {"with": "cy", "give": [1.5], "receive": []},
     "UNKNOWN_PIECE"),
    ("round_2", "bo", "propose_trade",
     {"with": "cy", "give": ["T:Winter-Future"], "receive": [BIG]}, "UNKNOWN_PIECE"),
    ("round_2", "ada", "cancel_transfer", {"id": 1.0}, "UNKNOWN_TRANSFER"),
    ("round_2", "bo", "cancel_transfer", {"id": 1e300}, "UNKNOWN_TRANSFER"),
    ("round_2", "cy", "cancel_transfer", {"id": BIG}, "UNKNOWN_TRANSFER"),
    ("round_2", "cy", "cancel_transfer", {"id": -1}, "UNKNOWN_TRANSFER"),
    ("final_weighing", "ada", "cancel_transfer", {"id": 1.0}, "WRONG_PHASE"),
    # the final challenge
    ("final_challenge", "di", "attempt_balance", {"sides": 3.0}, "WRONG_SIDE_COUNT"),
    ("final_challenge", "di", "attempt_balance", {"sides": [[1.0], [2.0], [3.0]]},
     "PIECES_MISMATCH"),
    ("final_challenge", "di", "attempt_balance", {"sides": [[BIG], [BIG], [BIG]]},
     "PIECES_MISMATCH"),
    ("final_challenge", "di", "guess_starting_totem", {"target": 1.0, "totem": "Void-Secret"},
     "UNKNOWN_PLAYER"),
    ("final_challenge", "di", "guess_starting_totem", {"target": "ada", "totem": 6.0},
     "UNKNOWN_TOTEM"),
    ("final_challenge", "di", "withdraw_guess", {"target": 1.5}, "invalid_command"),
    ("final_challenge", "di", "withdraw_guess", {"target": BIG}, "invalid_command"),
    # host commands take no argument: the match's edge refuses one before the rules
    ("round_2", "host", "deadline", {"round": 2.0}, "unknown_argument"),
    ("final_challenge", "host", "final_deadline", {"round": BIG}, "unknown_argument"),
]


@pytest.mark.parametrize("row", NUMBERS,
                         ids=[f"{m}-{a}-{c}-{code}-{i}" for i, (m, a, c, _, code)
                              in enumerate(NUMBERS)])
def test_a_float_or_a_huge_integer_gets_the_rules_code_and_records_nothing(app, row):
    moment_name, actor, name, args, code = row
    assert refusal(app, match_id(moment_name), actor, name, args) == code


def holds_a_number(value: Any) -> bool:
    """A float or an integer beyond the rules' limits, at any depth."""
    if isinstance(value, list):
        return any(map(holds_a_number, value))
    if isinstance(value, dict):
        return any(map(holds_a_number, value.values()))
    return isinstance(value, float) or value in (BIG, -BIG)


def test_every_integer_argument_of_the_rules_is_in_the_table():
    """The rules' integer arguments: a bet's `amount` and a transfer's `id`; every other argument
    (tokens, totems, letters, players) is a text, and a number there is in the table too."""
    tried = {(name, key) for _, _, name, args, _ in NUMBERS for key, value in args.items()
             if holds_a_number(value)}
    assert {("place_bet", "amount"), ("cancel_transfer", "id")} <= tried
    assert {name for name, _ in tried} >= {
        "place_bet", "set_pick_order", "choose_spirit_totem", "weigh", "place_wager", "give",
        "propose_trade", "cancel_transfer", "attempt_balance", "guess_starting_totem",
        "withdraw_guess", "deadline", "final_deadline"}


# After the final deadline: every window is closed (section 4, WRONG_PHASE); the order of the
# common checks still puts the actor and the command name first (UNKNOWN_PLAYER: the host is
# no player; UNKNOWN_COMMAND: no such command of the game, in any phase).
LATE: list[tuple[str, str, dict[str, Any], str]] = [
    ("PLAYER", "place_bet", {"series": "A", "amount": 1}, "WRONG_PHASE"),
    ("PLAYER", "place_bet", {"series": "A", "amount": 2.0}, "WRONG_PHASE"),
    ("PLAYER", "set_pick_order", {"series": "A", "order": []}, "WRONG_PHASE"),
    ("PLAYER", "choose_spirit_totem", {"totem": "Void-Future"}, "WRONG_PHASE"),
    ("PLAYER", "weigh", {"left": ["S:Void-Secret"]}, "WRONG_PHASE"),
    ("PLAYER", "place_wager", {"kind": "snake", "letter": "D"}, "WRONG_PHASE"),
    ("PLAYER", "cancel_wager", {}, "WRONG_PHASE"),
    ("PLAYER", "give", {"to": "OTHER", "pieces": ["T:Void-Sky"]}, "WRONG_PHASE"),
    ("PLAYER", "propose_trade", {"with": "OTHER", "give": ["T:Void-Sky"],
                                 "receive": ["T:Void-Land"]}, "WRONG_PHASE"),
    ("PLAYER", "cancel_transfer", {"id": 1}, "WRONG_PHASE"),
    ("PLAYER", "attempt_balance", {"sides": [[], [], []]}, "WRONG_PHASE"),
    ("PLAYER", "guess_starting_totem", {"target": "OTHER", "totem": "Void-Sky"}, "WRONG_PHASE"),
    ("PLAYER", "withdraw_guess", {"target": "OTHER"}, "WRONG_PHASE"),
    ("PLAYER", "withdraw_guess", {"target": 1.5}, "WRONG_PHASE"),
    ("PLAYER", "dance", {}, "UNKNOWN_COMMAND"),
    ("PLAYER", "deadline", {}, "UNKNOWN_COMMAND"),
    ("host", "deadline", {}, "WRONG_PHASE"),
    ("host", "final_deadline", {}, "WRONG_PHASE"),
    ("host", "dance", {}, "UNKNOWN_COMMAND"),
    ("host", "weigh", {"left": ["S:Void-Secret"]}, "UNKNOWN_PLAYER"),
    # The match's own command, answered by the match: the host's open_match once it has ended.
    ("host", "open_match", {}, "wrong_state"),
]


@pytest.mark.parametrize("seed", [HEAVY_SKY, TIEBREAK], ids=["heavy-sky", "tiebreak"])
@pytest.mark.parametrize("row", LATE, ids=[f"{a}-{c}-{code}-{i}" for i, (a, c, _, code)
                                           in enumerate(LATE)])
def test_a_command_after_the_final_deadline_gets_the_rules_code(app, seed, row):
    actor, name, args, code = row
    file = load(seed)
    ended = match_id("over" if seed == HEAVY_SKY else "over-tiebreak")
    assert app.match(ended).ended
    actors = file.players if actor == "PLAYER" else [actor]
    for who in actors:
        other = next(p for p in file.players if p != who)
        filled = {key: other if value == "OTHER" else value for key, value in args.items()}
        assert refusal(app, ended, who, name, filled) == code
