"""The public shape of sealed entries: what an onlooker of the public log sees of a sealed
command (the seal count of each entry, the seqs it takes, the kinds of the public entries)
does not depend on what it hides.

Each game's seed matches are the scripts (and one of tests/support/whispers.py, whose commands
hide none, one or two sealed events): at a random moment of one, a player sends one of the
commands the rules let them send then (their forms filled at random, or the seed's own
arguments of those commands), or the host one of its sealed commands; two of those whose
public facts are of the same kinds are compared, with the other players' commands of the seed
after them up to the host's next command, until a public fact tells the two apart by its data
(from there on the public knows what differs, by the rules).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import hypothesis
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commands.cli.matchfile import MatchFile, Step, load
from domain.decider import HOST, PUBLIC, Command
from domain.envelope import SEALS
from domain.errors import RuleViolation
from domain.match import Match
from domain.records import PADDING
from projections.follow import MatchFollower
from projections.views import view

ROOT = Path(__file__).resolve().parents[1]
SEEDS = sorted((ROOT / "seeds").glob("*.json"))
# The seeds, and a match of a game whose commands hide none, one or two sealed events.
FILES = {path.stem: load(path) for path in [*SEEDS, ROOT / "tests" / "data" / "whispers.json"]}
SETTINGS = settings(max_examples=25, deadline=None)


@dataclass(frozen=True)
class Moment:
    """A seed match just before one of its steps: the match as a store snapshot would keep
    it, the live garnet balances, and what each player (and the host) may send then."""

    version: int
    frozen: dict[str, Any]
    garnets: dict[str, int]
    forms: dict[str, list[dict[str, Any]]]

    @classmethod
    def of(cls, table: Table, forms: dict[str, list[dict[str, Any]]] | None = None) -> Moment:
        match = table.match
        frozen = {k: list(v) if k == "records" else copy.deepcopy(v)
                  for k, v in match.frozen().items()}
        return cls(match.version, frozen, dict(table.garnets), forms or {})


class Table:
    """One match of a seed file on a bare Match (no store), with the garnet balances the
    service would hand the rules."""

    def __init__(self, file: MatchFile, match: Match, garnets: dict[str, int]) -> None:
        self.file, self.match, self.garnets = file, match, garnets
        self.taken: list[int] = []  # how many entries each accepted command took

    @classmethod
    def new(cls, file: MatchFile) -> Table:
        match = Match.configure(
            match_id=file.match, season=file.season, game_id=file.game,
            setup={"players": file.players, **file.setup}, host_seed=file.host_seed,
            salt_key=file.salt_key, garnets=file.garnets, at=file.created_at,
            allow_weak_seed=file.allow_weak_seed)
        return cls(file, match, {p: file.garnets.get(p, 0) for p in file.players})

    @classmethod
    def at(cls, file: MatchFile, moment: Moment) -> Table:
        """A table of its own at `moment` (the records are shared: they are never changed)."""
        frozen = {k: list(v) if k == "records" else copy.deepcopy(v)
                  for k, v in moment.frozen.items()}
        match = Match.thawed(Match.create_id(file.match), moment.version, frozen)
        return cls(file, match, dict(moment.garnets))

    def send(self, actor: str, name: str, args: dict[str, Any], at: str | None = None) -> bool:
        try:
            seqs = self.match.handle(Command(name, actor, args, dict(self.garnets)), at=at)
        except RuleViolation:
            return False
        for seq in seqs:
            for posting in self.match.record(seq)["postings"]:
                if posting["asset"] == "garnets":
                    self.garnets[posting["player"]] += posting["amount"]
        self.taken.append(len(seqs))
        return True

    def step(self, step: Step) -> bool:
        return self.send(step.actor, step.do, step.args, step.at)

    def public_log(self, after: int) -> list[tuple]:
        """The public log after seq `after`: each entry's kind (None when sealed), seal count,
        round and public data."""
        entries = [self.match.record(seq)["entry"]
                   for seq in range(after + 1, self.match.version + 1)]
        return [(e["kind"], len(e["seals"]), e["round"], e["public"]) for e in entries]


def steps_of(file: MatchFile) -> list[Step]:
    return file.steps


@cache
def moments(name: str) -> list[Moment]:
    """The seed played once, kept before each of its steps."""
    file = FILES[name]
    table = Table.new(file)
    follower = MatchFollower(table.match)
    follower.catch_up(table.match.records)
    kept = []
    for step in steps_of(file):
        match = table.match
        kept.append(Moment.of(table, {viewer: match.game.forms(follower.summary(viewer), viewer)
                                      for viewer in (*file.players, HOST)}))
        before = match.version
        table.step(step)
        follower.catch_up(match.records[before:])
    return kept


# -- what may be sent at a moment --------------------------------------------------------------

def fill(draw, form: dict[str, Any], examples: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Arguments for one form: its choices drawn at random; a field without choices takes a
    value the seed file gave that command, or a small number."""
    args: dict[str, Any] = {}
    for field in form["fields"]:
        choices, name = field["choices"], field["name"]
        if choices and field["kind"] == "list":
            args[name] = draw(st.permutations(choices))[:draw(st.integers(0, len(choices)))]
        elif choices:
            args[name] = draw(st.sampled_from(choices))
        elif any(name in example for example in examples):
            args[name] = draw(st.sampled_from([e[name] for e in examples if name in e]))
        elif field["kind"] == "int":
            args[name] = draw(st.integers(0, 10))
        elif field["required"]:
            return None
    return args


def candidates(draw, file: MatchFile, moment: Moment, player: str,
               sealed_host: frozenset[str]) -> list[tuple[str, str, dict[str, Any]]]:
    """What `player` may send now (their forms, filled at random, and the seed's own arguments
    of those commands), and the host's sealed commands about that player (a timeout of theirs
    must look like their own pass): (actor, name, args)."""
    found = []
    for actor in (player, HOST):
        for form in moment.forms[actor]:
            name = form["command"]
            if actor == HOST and name not in sealed_host:
                continue
            examples = [s.args for s in file.commands if s.do == name]
            filled = [fill(draw, form, examples) for _ in range(2)]
            if examples:
                filled.append(draw(st.sampled_from(examples)))
            found += [(actor, name, args) for args in filled if args is not None
                      and (actor == player or player in args.values())]
    return found


def shape(log: list[tuple]) -> list[tuple]:
    return [entry[:3] for entry in log]


def public_kinds(log: list[tuple]) -> tuple:
    return tuple(kind for kind, *_ in log if kind is not None)


def told_apart(first: Table, second: Table, after: int) -> bool:
    """Whether a public entry already tells the twins apart by its data."""
    return first.public_log(after) != second.public_log(after)


# -- the property --------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(FILES))
@SETTINGS
@given(data=st.data())
def test_the_public_cannot_tell_apart_two_sealed_commands_of_the_same_moment(name, data):
    file = FILES[name]
    steps = steps_of(file)
    cut = data.draw(st.integers(0, len(steps) - 1), label="cut")
    moment = moments(name)[cut]
    player = data.draw(st.sampled_from(file.players), label="player")
    probe = Table.at(file, moment)
    sealed_host = frozenset(n for n in probe.match.game.COMMANDS
                            if probe.match.host_command_is_sealed(n))
    after = moment.version
    twins: dict[tuple, list[tuple[Table, str]]] = {}
    for actor, command, args in candidates(data.draw, file, moment, player, sealed_host):
        twin = Table.at(file, moment)
        if twin.send(actor, command, args):
            twins.setdefault(public_kinds(twin.public_log(after)), []).append((twin, command))
    groups = [group for group in twins.values() if len(group) > 1]
    if not groups:
        hypothesis.event("no two commands with public facts of the same kinds")
        return
    group = data.draw(st.sampled_from(groups), label="group")
    (first, one), (second, other) = data.draw(st.permutations(group), label="twins")[:2]
    hypothesis.event(f"{one} vs {other}")
    compared = 1  # commands whose entries are compared: the twins' own so far
    for step in steps[cut:]:
        if step.actor == HOST or told_apart(first, second, after):
            break
        if step.actor != player:
            assert first.step(step) == second.step(step), step
            compared = min(len(first.taken), len(second.taken))
    a, b = first.public_log(after), second.public_log(after)
    differ = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
    if differ is None:
        assert shape(a) == shape(b)
    else:  # a public fact tells them apart: the same entries up to it, of the same shape
        assert shape(a[:differ + 1]) == shape(b[:differ + 1])
        compared -= 1  # the command it belongs to may take other entries after it
    assert first.taken[:compared] == second.taken[:compared]


def test_a_vote_a_spend_and_a_look_up_of_one_player_at_one_moment_look_the_same():
    """King's Court, round 1 of the king-win seed: alice may vote, pay 8 to peek, or pay 3 for
    an annoyed check. The Merchants' Guild, week 1: bob may vote, pay 1 to push a bill, or pay
    1 to learn a bill's partner. Each is a command entry and one sealed entry, two seals each."""
    for name, player, commands in [
        ("kings_court-king-win", "alice", [("vote", {"candidate": "bob"}),
                                           ("peek", {"target": "grace"}),
                                           ("annoyed_check", {})]),
        ("merchants_guild-blackmail", "bob", [("vote", {"bills": [2]}),
                                              ("paid_push", {"bill": 20, "direction": "forward"}),
                                              ("reveal_partner", {"bill": 50})]),
    ]:
        file = FILES[name]
        opened = next(i for i, s in enumerate(steps_of(file)) if s.do == "open_match") + 1
        moment = moments(name)[opened]
        logs = []
        for command, args in commands:
            twin = Table.at(file, moment)
            assert twin.send(player, command, args), (name, command)
            logs.append(shape(twin.public_log(moment.version)))
        assert logs == [[(None, SEALS, 1), (None, SEALS, 1)]] * len(commands), name


# -- the layout, on a game whose commands hide different numbers of sealed events ------------

def whispers() -> Table:
    """A match of tests/support/whispers.py between ann and bob, open in round 1."""
    file = MatchFile(format="arbiter-match/1", match="w", season="s", game="whispers",
                     players=["ann", "bob"], garnets={"ann": 3, "bob": 3},
                     host_seed="whispers-" + "0" * 32, salt_key="ab" * 32, commands=[])
    table = Table.new(file)
    assert table.send(HOST, "open_match", {})
    return table


def hidden(table: Table, after: int) -> list[str]:
    """What the entries after `after` hold, as the host reads them (padding included)."""
    records = [table.match.record(seq) for seq in range(after + 1, table.match.version + 1)]
    return [r["parts"][0]["kind"] if r["parts"] else r["entry"]["kind"] for r in records]


def test_commands_that_hide_none_one_or_two_sealed_events_look_the_same():
    """listen records nothing but the command, ask one answer, buy a spend and an answer: to
    the public each is a command entry and SEALED_RUN = 2 sealed entries, of two seals each."""
    base = whispers()
    after = base.match.version
    logs, kept = [], []
    for command in ("listen", "ask", "buy"):
        twin = Table.at(base.file, Moment.of(base))
        assert twin.send("ann", command, {})
        logs.append(shape(twin.public_log(after)))
        kept.append(hidden(twin, after))
    assert logs == [[(None, SEALS, 1)] * 3] * 3
    assert kept == [["CommandAccepted", "Padding", "Padding"],
                    ["CommandAccepted", "Answered", "Padding"],
                    ["CommandAccepted", "AnswerBought", "Answered"]]


def test_a_public_fact_shows_and_the_sealed_entries_around_it_keep_their_number():
    base = whispers()
    after = base.match.version
    logs, kept = [], []
    for echo in (False, True):
        twin = Table.at(base.file, Moment.of(base))
        assert twin.send("ann", "shout", {"echo": echo})
        logs.append([(kind, seals) for kind, seals, _, _ in twin.public_log(after)])
        kept.append(hidden(twin, after))
    assert logs[0] == logs[1] == [(None, SEALS)] * 3 + [("Shouted", 0)] + [(None, SEALS)] * 2
    assert kept[0][3:] == ["Shouted", "Padding", "Padding"]
    assert kept[1][3:] == ["Shouted", "Echoed", "Padding"]


def test_a_correction_voids_or_enters_in_one_shape_one_entry_longer_than_a_command():
    """The host's correction: its own sealed fact (the submission voided, or entered for a
    player), then what a player's command takes."""
    base = whispers()
    assert base.send("ann", "ask", {})
    asked = base.match.version - 2  # ann's command entry
    after = base.match.version
    logs, kept = [], []
    for args in ({"void": asked, "reason": "sent twice"},
                 {"as": "bob", "command": "buy", "reason": "sent by mail"}):
        twin = Table.at(base.file, Moment.of(base))
        assert twin.send(HOST, "correct", args)
        logs.append(shape(twin.public_log(after)))
        kept.append(hidden(twin, after))
    assert logs == [[(None, SEALS, 1)] * 4] * 2
    assert kept == [["CommandAccepted", "SubmissionVoided", "Padding", "Padding"],
                    ["CommandAccepted", "SubmissionEntered", "AnswerBought", "Answered"]]


def test_a_game_that_emits_more_sealed_events_in_a_row_than_it_declared_records_nothing():
    table = whispers()
    before = table.match.version
    with pytest.raises(ValueError, match="SEALED_RUN = 2"):
        table.send("ann", "flood", {})
    assert table.match.version == before


def test_host_commands_stay_public_and_unpadded():
    table = whispers()
    after = table.match.version
    assert table.send(HOST, "close_round", {})
    assert shape(table.public_log(after)) == [("CommandAccepted", 1, 1), ("RoundClosed", 0, 1)]


# -- every script --------------------------------------------------------------------------

def played(name: str) -> Table:
    file = FILES[name]
    table = Table.new(file)
    for step in steps_of(file):
        table.step(step)
    return table


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_sealed_command_of_every_script_takes_its_games_layout(name):
    """Every sealed entry carries SEALS commitments, a public command one, a public fact none;
    every sealed command's batch shows its command entry and SEALED_RUN sealed entries, then
    each public fact followed by SEALED_RUN sealed entries (the seeds hold no correction)."""
    table = played(name)
    match = table.match
    run = match.sealed_run
    batches: dict[int, list[dict]] = {}
    for record in match.records:
        e = record["entry"]
        due = SEALS if e["kind"] is None else int(e["kind"] == "CommandAccepted")
        assert len(e["seals"]) == due, e["seq"]
        if record["batch"] is not None:
            batches.setdefault(record["batch"], []).append(e)
    sealed = [entries for entries in batches.values() if entries[0]["kind"] is None
              and entries[0]["seq"] > 2]
    assert sealed
    for entries in sealed:
        publics = [e["kind"] for e in entries if e["kind"] is not None]
        layout = [None] * (1 + run) + [x for kind in publics for x in (kind, *[None] * run)]
        assert [e["kind"] for e in entries] == layout, entries[0]["seq"]


@pytest.mark.parametrize("name", ["tile_joust-dm-ec-outscores", "kings_court-king-win"])
def test_padding_is_nobodys_to_read(name):
    """No view shows a padding entry, not even the host's; the host's view holds every other
    fact."""
    match = played(name).match
    padding = {r["entry"]["seq"] for r in match.records if r["role"] == PADDING}
    assert padding
    facts = [r["entry"]["seq"] for r in match.records if r["role"] in ("fact", "meta")]
    for viewer in (PUBLIC, HOST, *match.players):
        seen = view(match, viewer)
        assert not padding & {event["seq"] for event in seen["events"]}, viewer
        assert "Padding" not in str(seen["summary"]), viewer
    assert [event["seq"] for event in view(match, HOST)["events"]
            if event["kind"] != "CommandAccepted"] == facts
