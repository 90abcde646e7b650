"""After the final joust every moment is closed: the rules answer any command of the game with
WRONG_PHASE (rulebook section 5: a command outside its moment), through the real match
aggregate, for both seed matches, and nothing is recorded. Only who may send a command is
checked before the moment (a host sending a player's command, a player sending the host's),
and a name that is no command of the game has no moment at all."""

from __future__ import annotations

from copy import deepcopy
from typing import Any

import pytest

from domain.decider import HOST, Command
from domain.errors import RuleViolation
from domain.games import tile_joust as tj
from domain.match import Match
from tests.games.tile_joust.tj_seeds import DM_SEED, FM_SEED, played

# Arguments a command would take at its moment (each seed's own tile and item names).
PLAUSIBLE: dict[str, dict[str, Any]] = {
    "pick_item": {"item": "tile_inversion"},
    "bid": {"amount": 1},
    "fold": {},
    "choose_next_tile": {"label": "M"},
    "keep_leftover": {"tile": "s3x1"},
    "use_items": {"items": []},
    "submit_tile": {"tile": "s3g1M"},
    "pass": {},
}
ENDED = {DM_SEED.stem: played(DM_SEED), FM_SEED.stem: played(FM_SEED)}


def refused(match: Match, actor: str, name: str, args: dict[str, Any]) -> str:
    version, state = match.version, deepcopy(match.state)
    with pytest.raises(RuleViolation) as caught:
        match.handle(Command(name, actor, args))
    assert match.version == version and match.state == state
    return caught.value.code


def test_both_seed_matches_have_ended_and_every_command_is_tried():
    for match in ENDED.values():
        assert match.ended and tj.finished(match.state)
    players = {name for name, spec in tj.COMMANDS.items() if spec.actor == "player"}
    assert set(PLAUSIBLE) == players
    assert {name for name, spec in tj.COMMANDS.items() if spec.actor == "host"} == {"timeout"}


@pytest.mark.parametrize("seed", sorted(ENDED))
@pytest.mark.parametrize("name", sorted(PLAUSIBLE))
def test_every_players_command_after_the_end_is_out_of_its_moment(seed, name):
    match = ENDED[seed]
    for player in match.players:
        assert refused(match, player, name, PLAUSIBLE[name]) == "WRONG_PHASE"


@pytest.mark.parametrize("seed", sorted(ENDED))
def test_the_hosts_timeout_after_the_end_finds_nothing_pending(seed):
    match = ENDED[seed]
    for player in match.players:
        assert refused(match, HOST, "timeout", {"player": player}) == "WRONG_PHASE"


@pytest.mark.parametrize("seed", sorted(ENDED))
def test_who_may_send_a_command_is_checked_before_its_moment(seed):
    match = ENDED[seed]
    player = match.players[0]
    assert refused(match, HOST, "bid", {"amount": 1}) == "NOT_A_PLAYER"
    assert refused(match, HOST, "pass", {}) == "NOT_A_PLAYER"
    assert refused(match, player, "timeout", {"player": player}) == "HOST_ONLY"


@pytest.mark.parametrize("seed", sorted(ENDED))
def test_a_name_that_is_no_command_of_the_game_is_unknown(seed):
    match = ENDED[seed]
    assert refused(match, match.players[1], "dance", {}) == "UNKNOWN_COMMAND"
    assert refused(match, HOST, "close_round", {}) == "UNKNOWN_COMMAND"


@pytest.mark.parametrize("seed", sorted(ENDED))
def test_the_matchs_own_commands_are_answered_by_the_match(seed):
    match = ENDED[seed]
    assert refused(match, match.players[0], "contribute", {"text": "late"}) == "match_over"
    assert refused(match, HOST, "open_match", {}) == "wrong_state"
    assert refused(match, HOST, "set_deadline", {"deadline": "2027-01-01T00:00:00Z"}) == (
        "wrong_state"
    )
    assert refused(match, HOST, "end", {"reason": "late"}) == "wrong_state"
