"""The match aggregate: one event stream per match, any game's decider run the same way.

Every accepted command appends a `command` entry (what was sent, sealed to its sender unless
the host sent it) followed by the `fact` entries the rules decided. Each entry is one stored
event, so an entry's seq is the aggregate version. State is never stored: replay folds the
game's `evolve` over the facts, exactly as the live match did.

The public shape of a sealed command's entries is the same whatever they hide: every run of
sealed facts in its batch (after its command entry, and after each public fact) is filled up
with `padding` entries to the game's SEALED_RUN, so the public sees the command entry, then
SEALED_RUN sealed entries, then each public fact followed by SEALED_RUN sealed entries.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from copy import deepcopy
from dataclasses import dataclass
from hashlib import sha256
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, MutableOrImmutableAggregate, event
from eventsourcing.domain import Snapshot as BaseSnapshot
from eventsourcing.utils import get_topic
from pydantic import ValidationError

from domain.canonical import NotCanonical, canonical, check
from domain.decider import HOST, PUBLIC, SYSTEM, Command, Event, Game
from domain.edge import (
    MATCH_SPECS,
    check_args,
    check_command_id,
    check_name,
    check_required,
    excerpt,
)
from domain.envelope import GENESIS_PREV, known_entry_bytes, salt, seal_entry
from domain.errors import RuleViolation
from domain.frozen import freeze, thaw
from domain.games import get_game
from domain.logs import CONFIGURED, ENDED, OPEN, check_plays, match_log
from domain.merkle import TreeBuilder
from domain.records import (
    PADDING,
    audience_of,
    headline,
    padded,
    padding_part,
    posting_dict,
    to_event,
)
from domain.rng import Rng, match_seed, seed_commitment
from domain.setup import SetupBase

MATCH_COMMANDS = ("contribute", "open_match", "set_deadline", "correct", "end")
PLAYER_COMMAND, HOST_COMMAND, FACT, META, PADDED = b"chfmp"  # an entry's shape, a byte each
# Host commands that touch no submission: a void may still follow them.
BOOKKEEPING = ("set_deadline", "correct")
class Reading:
    """What readers ask of a match, the live aggregate and a snapshot alike."""

    match_id: str
    season: str
    salt_key: str
    records: Sequence[dict[str, Any]]
    handled: Mapping[str, list[int]]
    voided: AbstractSet[int]
    version: int
    game_id: str
    host_seed: str
    contributions: Mapping[str, str]
    players: list[str]
    phase: str
    state: Any
    unsigned: bool  # the host created it without signed checkpoints (its genesis entry says so)

    @property
    def game(self) -> Game:
        return get_game(self.game_id)

    @property
    def seed(self) -> str:
        return match_seed(self.host_seed, [self.contributions.get(p) for p in self.players])

    @property
    def round(self) -> int:
        return 0 if self.state is None else self.game.round_of(self.state)

    def record(self, seq: int) -> dict[str, Any]:
        """The record of entry `seq` (a snapshot holds every record from the first)."""
        return self.records[seq - 1]

    @property
    def ended(self) -> bool:
        return self.phase == ENDED

    def results(self) -> dict[str, Any] | None:
        return None if self.state is None else self.game.results(self.state)


class Match(Reading, Aggregate):
    class Snapshot(BaseSnapshot):
        """What the store keeps of a long match every SNAPSHOT_EVERY entries: its state and the
        entries since its last turn, as plain JSON (`Match.frozen`)."""

        @classmethod
        def take(cls, aggregate: MutableOrImmutableAggregate[UUID]) -> Match.Snapshot:
            assert isinstance(aggregate, Match)  # the library's signature names any aggregate
            return cls(originator_id=aggregate.id, originator_version=aggregate.version,
                       timestamp=cls.create_timestamp(), topic=get_topic(type(aggregate)),
                       state=aggregate.frozen())

        def mutate(self, _: None) -> Match:
            return Match.thawed(self.originator_id, self.originator_version, self.state)

    @staticmethod
    def create_id(match_id: str) -> UUID:
        return match_log(match_id)

    @event("Created")
    def __init__(self, match_id: str, season: str, game_id: str, salt_key: str,
                 record: dict[str, Any]):
        self.match_id = match_id
        self.season = season
        self.game_id = game_id
        self.salt_key = salt_key
        self.records: list[dict[str, Any]] = []
        self.phase = CONFIGURED
        self.players: list[str] = []
        self.setup: Any = None
        self.host_seed = ""
        self.contributions: dict[str, str] = {}
        self.state: Any = None
        self.handled: dict[str, list[int]] = {}
        self.sent: dict[str, str] = {}  # command id -> fingerprint of the command it named
        self.resent: dict[str, int] = {}  # command name -> times it was sent, by player
        self.resent_round = 0  # ... in this round
        self.voided: set[int] = set()
        self.opened: set[int] = set()
        self.unsigned = bool(record["entry"]["public"].get("unsigned"))
        # What the rules look back at, kept as the log grows so no command re-reads old entries:
        self.first_seq = 1  # of records[0]: a match restored from a snapshot holds a suffix
        self.tree = TreeBuilder()  # the log's Merkle root, for each round's checkpoint
        self.shapes = bytearray()  # per entry: player command, host command, fact or meta
        self.moved: dict[int, int] = {}  # command seq -> first entry of its batch with postings
        self.turns: list[list[Any]] = []  # [seq, name] of host commands a submission cannot outlive
        self.sealed: dict[str, dict[str, Any]] = {}  # event kind -> its latest sealed {seq, part}
        self.window_start = 0  # seq of the last turn: voids are refolded from there
        self.window_state: Any = None  # the game state just before it
        self._apply(record)

    # -- creating -------------------------------------------------------------------------

    @classmethod
    def configure(
        cls,
        *,
        match_id: str,
        season: str,
        game_id: str,
        setup: Mapping[str, Any],
        host_seed: str,
        salt_key: str,
        garnets: Mapping[str, int],
        at: str | None = None,
        allow_weak_seed: bool = False,
        unsigned: bool = False,
    ) -> Match:
        """Create the match: a public genesis entry, then the host's sealed setup. A seed under
        128 bits is refused unless the host allows it; the genesis entry then says so. So it
        does of a match the host chose to run without signed checkpoints."""
        check_name(match_id, "match id")
        game = get_game(game_id)
        parsed = parse_setup(game, setup)
        weak = check_host_seed(host_seed, allow_weak_seed)
        key = parse_salt_key(salt_key)
        created: dict[str, Any] = {
            "game": game_id,
            "rules_version": game.RULES_VERSION,
            "season": season,
            "players": parsed.players,
            "seed_commitment": seed_commitment(host_seed),
        }
        if weak:
            created["weak_seed"] = True
        if unsigned:
            created["unsigned"] = True
        genesis = seal_entry(
            match=match_id, seq=1, round=0, prev=GENESIS_PREV, salt_key=key,
            public=_public("MatchCreated", HOST, at, created), parts=[],
        )
        record: dict[str, Any] = {"entry": genesis, "parts": [], "postings": [], "role": "meta",
                  "batch": None, "command_id": None}
        match = cls(match_id=match_id, season=season, game_id=game_id, salt_key=salt_key,
                    record=record)
        secret = MatchFact("SetupCommitted", {
            "setup": parsed.recorded(),
            "host_seed": host_seed,
            "garnets": {p: garnets.get(p, 0) for p in parsed.players},
        }, audience=HOST, actor=HOST)
        match._record(secret, role="meta", at=at, batch=1, command_id=None)
        return match

    # -- commands -------------------------------------------------------------------------

    def handle(self, command: Command, *, at: str | None = None,
               command_id: str | None = None) -> list[int]:
        """Run one command; returns the seqs it appended. Raises RuleViolation, appending
        nothing. A command id already handled returns the original seqs."""
        check_command_id(command_id)
        if command_id is not None and command_id in self.handled:
            self.check_same_command(command, command_id)
            return self.handled[command_id]
        check_name(command.name, "command")
        self.check_actor_is_known(command.actor)
        self.check_replacements_left(command)
        facts = self._decide_plain(command)
        roles = ["meta" if isinstance(fact, MatchFact) else "fact" for fact in facts]
        for fact, role in zip(facts, roles, strict=True):
            if role == "fact" and fact.kind in MATCH_FACT_KINDS:
                # A bug in a game, not bad input: auditors read these kinds as the match's own.
                raise ValueError(f"{self.game_id} emitted {fact.kind}, a kind the match reserves")
        sealed = self.command_is_sealed(command)
        if sealed:
            self.check_runs_fit(command, facts)
        batch = Batch(first=self.version + 1, round=self.round, at=at, command_id=command_id,
                      padded=sealed, run=_first_run(command))
        self._record_command(command, at, command_id, batch.round)
        for fact, role in zip(facts, roles, strict=True):
            self._add(batch, fact, role)
            for opened in self._openings(fact.opens):
                self._add(batch, opened, "meta")
        # The end carries the round open now: the last close may have moved it.
        if self.phase == OPEN and self.game.finished(self.state):
            ended = MatchFact("MatchEnded", {"results": self.game.results(self.state)},
                              actor=SYSTEM)
            self._add(batch, ended, "meta", round=self.round)
            self._add(batch, self._seed_reveal(), "meta", round=self.round)
        elif facts and isinstance(facts[-1], MatchFact) and facts[-1].kind == "MatchAbandoned":
            self._add(batch, self._seed_reveal(), "meta", round=self.round)
        self._pad(batch)
        return list(range(batch.first, self.version + 1))

    def _decide_plain(self, command: Command) -> list[Event]:
        """The rules see a command first, so a float where they want an integer gets their own
        code; what they accept must still be plain JSON, because the log holds nothing else."""
        plain = args_are_plain_json(command.args)
        try:
            facts = self._decide(command)
        except RuleViolation:
            raise
        except (TypeError, ValueError, ArithmeticError):
            if plain is None:
                raise  # a bug in the rules, not bad input
            raise RuleViolation("invalid_command", plain) from None
        if plain is not None:
            raise RuleViolation("invalid_command", plain)
        return facts

    def _decide(self, command: Command) -> list[Event]:
        spec = MATCH_SPECS.get(command.name) or getattr(self.game, "COMMANDS", {}).get(
            command.name)
        check_args(command.name, spec, command.args)
        if self.phase == ENDED:
            return self._decide_after_end(command)
        if command.name in MATCH_COMMANDS:  # the host's commands name what they lack themselves
            decided: list[Event] = getattr(self, f"_decide_{command.name}")(command)
            return decided
        check_required(command.name, spec, command.args)
        if self.phase == CONFIGURED:
            if command.actor == HOST:
                raise RuleViolation("wrong_state", "the host has not opened the match")
            raise RuleViolation("match_not_started", "the host has not opened the match")
        return self.game.decide(self.state, command)

    def _decide_after_end(self, command: Command) -> list[Event]:
        """A game that ended by its rules answers late commands with its own code (a closed
        window is `phase_closed` in one game, `WRONG_PHASE` in another); whatever it would still
        accept, and everything after an abandon, is refused by the match."""
        code = "match_over" if command.actor != HOST else "wrong_state"
        if command.name not in MATCH_COMMANDS and self.game.finished(self.state):
            self.game.decide(self.state, command)
        raise RuleViolation(code, "the match has ended")

    def _decide_contribute(self, command: Command) -> list[Event]:
        self.check_actor_is_a_player(command.actor)
        if self.phase != CONFIGURED:
            raise RuleViolation("contributions_closed", "the setup has been drawn already")
        if command.actor in self.contributions:
            raise RuleViolation("already_contributed", "one contribution per player")
        text = command.args.get("text")
        if not isinstance(text, str) or not text:
            raise RuleViolation("invalid_contribution", "give a non-empty text")
        return [MatchFact("SeedContributed", {"player": command.actor, "text": text},
                      actor=command.actor)]

    def _decide_open_match(self, command: Command) -> list[Event]:
        self.check_actor_is_host(command)
        if self.phase != CONFIGURED:
            raise RuleViolation("wrong_state", "the match is open already")
        seed = self.seed
        opened = MatchFact("MatchOpened", {"contributions": len(self.contributions)}, actor=HOST)
        state = self.game.initial_state(self.setup, Rng(self.game_id, seed))
        return [opened, *self.game.decide(state, command)]

    def _decide_set_deadline(self, command: Command) -> list[Event]:
        self.check_actor_is_host(command)
        deadline = command.args.get("deadline")
        if not isinstance(deadline, str) or not deadline:
            raise RuleViolation("invalid_deadline", "give the deadline as an ISO 8601 text")
        return [MatchFact("DeadlineSet", {"round": self.round, "deadline": deadline}, actor=HOST)]

    def _decide_correct(self, command: Command) -> list[Event]:
        self.check_actor_is_host(command)
        reason = command.args.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise RuleViolation("reason_required", "a correction needs a reason")
        if "void" in command.args:
            seq = command.args["void"]
            self.check_can_void(seq)
            return [MatchFact("SubmissionVoided", {"seq": seq, "reason": reason},
                          audience=HOST, actor=HOST)]
        player, name = command.args.get("as"), command.args.get("command")
        if not isinstance(player, str) or not isinstance(name, str):
            raise RuleViolation("invalid_correction", "give void=SEQ, or as=PLAYER and command")
        self.check_actor_is_a_player(player)
        if name in MATCH_COMMANDS:
            raise RuleViolation("invalid_correction", f"{name} cannot be entered for a player")
        args = command.args.get("args") or {}
        if not isinstance(args, Mapping):
            raise RuleViolation("invalid_correction", "args must be an object")
        on_behalf = Command(name, player, args, command.garnets)
        entered = MatchFact("SubmissionEntered", {"player": player, "command": name,
                                              "args": dict(args), "reason": reason},
                        audience=HOST, actor=HOST)
        return [entered, *self._decide(on_behalf)]

    def _decide_end(self, command: Command) -> list[Event]:
        self.check_actor_is_host(command)
        reason = command.args.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise RuleViolation("reason_required", "ending a match early needs a reason")
        return [MatchFact("MatchAbandoned", {"reason": reason}, actor=HOST)]

    # -- guards ---------------------------------------------------------------------------

    def check_same_command(self, command: Command, command_id: str) -> None:
        """A command id answers for one command only: the same name, arguments and sender."""
        known = self.sent.get(command_id)
        if known is not None and known != fingerprint(command.actor, command.name,
                                                      command.args):
            raise RuleViolation("id_reused", f"command id {excerpt(command_id)} was used for "
                                "another command: give this one its own id")

    def check_actor_is_known(self, actor: str) -> None:
        check_plays(actor, self.players, "this match", (HOST,))

    def check_actor_is_a_player(self, actor: str) -> None:
        check_plays(actor, self.players, "this match")

    def check_actor_is_host(self, command: Command) -> None:
        if command.actor != HOST:
            raise RuleViolation("host_only", f"only the host may {command.name}")

    def check_can_void(self, seq: object) -> None:
        """Only a player's submission with no consequence yet: nothing but other players'
        submissions and host bookkeeping since, and no season assets moved."""
        if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq <= self.version:
            raise RuleViolation("unknown_seq", f"no entry {excerpt(seq)} in this match")
        if self.shapes[seq - 1] != PLAYER_COMMAND:
            raise RuleViolation("not_voidable", "only a player's submission can be voided")
        if seq in self.voided:
            raise RuleViolation("not_voidable", f"entry {seq} is voided already")
        if seq in self.moved:
            raise RuleViolation("not_voidable", f"entry {seq} moved season assets at entry "
                                f"{self.moved[seq]}")
        if seq >= self.first_seq and headline(self.record(seq))["data"]["name"] == "contribute":
            # Else a host could void contributions until the seed suited them.
            raise RuleViolation("not_voidable", "a seed contribution stays in the seed")
        later = bisect_right(self.turns, seq, key=lambda turn: turn[0])
        if later < len(self.turns):
            turn, name = self.turns[later]
            raise RuleViolation("not_voidable", f"entry {seq} has had consequences: the host's "
                                f"{name} at entry {turn} came after it")

    def host_command_is_sealed(self, name: str) -> bool:
        return name == "correct" or name in getattr(self.game, "SEALED_HOST_COMMANDS", ())

    def command_is_sealed(self, command: Command) -> bool:
        """Whether the command's entry is sealed: every player's, and the host's that carry
        what the rules keep from the players."""
        return command.actor != HOST or self.host_command_is_sealed(command.name)

    @property
    def sealed_run(self) -> int:
        """The most sealed facts the game's rules emit in a row for one sealed command."""
        return getattr(self.game, "SEALED_RUN", 1)

    def check_runs_fit(self, command: Command, facts: list[Event]) -> None:
        """A sealed command's facts fit the padding: no run of sealed facts longer than the
        game's SEALED_RUN. A longer one is a bug in the game, not bad input."""
        run = _first_run(command)
        for fact in facts:
            run = 0 if fact.audience == PUBLIC else run + 1
            if run > self.sealed_run:
                raise ValueError(f"{self.game_id}'s {command.name} emitted more than "
                                 f"SEALED_RUN = {self.sealed_run} sealed events in a row")

    # -- recording ------------------------------------------------------------------------

    def _record_command(self, command: Command, at: str | None, command_id: str | None,
                        round: int) -> None:
        sent = {"name": command.name, "args": dict(command.args)}
        context: dict[str, Any]
        context = {"audience": HOST, "kind": "CommandContext", "actor": SYSTEM, "at": at,
                   "data": {"garnets": dict(command.garnets)}, "postings": []}
        if not self.command_is_sealed(command):
            public, parts = _public("CommandAccepted", HOST, at, sent), [context]
        else:
            # A player's submission is theirs alone; a correction may name a player's vote, and
            # some host commands carry what the rules keep from the players (a timeout).
            audience = HOST if command.actor == HOST else [command.actor]
            own: dict[str, Any] = {"audience": audience, "kind": "CommandAccepted",
                   "actor": command.actor, "at": at, "data": sent, "postings": []}
            public, parts = None, [own, context]
        self._seal_and_append(public, parts, [], role="command", batch=self.version + 1,
                              command_id=command_id, round=round)

    def _add(self, batch: Batch, fact: Event, role: str, round: int | None = None) -> None:
        """Record one fact of the batch (in the batch's round unless told otherwise); in a
        sealed command's batch, a public fact first closes the run of sealed entries before
        it."""
        if batch.padded and fact.audience == PUBLIC:
            self._pad(batch)
        elif batch.padded:
            batch.run += 1
        self._record(fact, role=role, at=batch.at, batch=batch.first,
                     command_id=batch.command_id, round=batch.round if round is None else round)

    def _pad(self, batch: Batch) -> None:
        """Fill the run of sealed entries up to SEALED_RUN with padding entries, each in the
        round of the entry before it."""
        if not batch.padded:
            return
        for _ in range(self.sealed_run - max(batch.run, 0)):
            self._seal_and_append(None, [padding_part()], [], role=PADDING, batch=batch.first,
                                  command_id=batch.command_id,
                                  round=self.record(self.version)["entry"]["round"])
        batch.run = 0

    def _record(self, fact: Event, *, role: str, at: str | None, batch: int,
                command_id: str | None, round: int | None = None) -> None:
        postings = [posting_dict(p) for p in fact.postings]
        if fact.audience == PUBLIC:
            public, parts = _public(fact.kind, fact.actor, at, dict(fact.data), postings), []
        else:
            public = None
            parts = [{"audience": audience_of(fact), "kind": fact.kind, "actor": fact.actor,
                      "at": at, "data": dict(fact.data), "postings": postings}]
        self._seal_and_append(public, parts, postings, role=role, batch=batch,
                              command_id=command_id,
                              round=self.round if round is None else round)

    def _seal_and_append(self, public: dict[str, Any] | None, parts: list[dict[str, Any]],
                         postings: list[dict[str, Any]], *, role: str, batch: int | None,
                         command_id: str | None, round: int) -> None:
        """Append one entry; a sealed one carries exactly SEALS commitments, so its seal count
        says nothing of what it holds."""
        seq = self.version + 1
        parts = parts if public is not None else padded(parts)
        entry = seal_entry(match=self.match_id, seq=seq, round=round,
                           prev=self.record(self.version)["entry"]["hash"],
                           salt_key=parse_salt_key(self.salt_key), public=public, parts=parts)
        # The library's event itself: its decorated method would first sort out arguments.
        self.trigger_event(self.Appended, record={  # type: ignore[attr-defined]
            "entry": entry, "parts": parts, "postings": postings, "role": role,
            "batch": batch, "command_id": command_id})

    def _openings(self, kinds: tuple[str, ...]) -> list[MatchFact]:
        """A SealOpened for the latest sealed game event of each of these kinds, unless it is
        open already (earlier ones stay sealed: King's Court opens only the last game's roles)."""
        key = parse_salt_key(self.salt_key)
        opened = []
        for kind in kinds:
            latest = self.sealed.get(kind)
            if latest is not None and latest["seq"] not in self.opened:
                seq = latest["seq"]
                opened.append(MatchFact("SealOpened", {
                    "seq": seq, "index": 0, "salt": salt(key, seq, 0).hex(),
                    "part": deepcopy(latest["part"])}, actor=SYSTEM))
        return opened

    def _seed_reveal(self) -> Event:
        return MatchFact("SeedRevealed", {"host_seed": self.host_seed,
                                      "contributions": self.contributions,
                                      "seed": self.seed}, actor=SYSTEM)

    @event("Appended")
    def _appended(self, record: dict[str, Any]) -> None:
        self._apply(record)

    # -- evolving -------------------------------------------------------------------------

    def _apply(self, record: dict[str, Any]) -> None:
        """Fold one record into the match. Runs live and on replay alike."""
        self.records.append(record)
        self.tree.append(known_entry_bytes(record["entry"]))
        seq, role = record["entry"]["seq"], record["role"]
        if record["command_id"] is not None and role == "command":
            self.handled[record["command_id"]] = [seq]
            head = headline(record)
            self.sent[record["command_id"]] = fingerprint(
                head["actor"], head["data"]["name"], head["data"]["args"])
        elif record["command_id"] is not None:
            self.handled[record["command_id"]].append(seq)
        if record["postings"] and record["batch"] is not None:
            self.moved.setdefault(record["batch"], seq)
        if role == "command":
            self._note_command(record)
            return
        if role == PADDING:
            self.shapes.append(PADDED)
            return
        self.shapes.append(FACT if role == "fact" else META)
        fact = to_event(record)
        if role == "meta":
            self._apply_meta(fact)
        else:
            if record["entry"]["kind"] is None:
                self.sealed[fact.kind] = {"seq": seq, "part": record["parts"][0]}
            self.state = self.game.evolve(self.state, fact)

    def _note_command(self, record: dict[str, Any]) -> None:
        """A command entry: who sent it, and whether a submission before it can still be
        voided (a host command other than bookkeeping is a consequence of everything before)."""
        head = headline(record)
        if head["actor"] != HOST:
            self.shapes.append(PLAYER_COMMAND)
            self._count_sent(record["entry"]["round"], head["actor"], head["data"]["name"])
            return
        self.shapes.append(HOST_COMMAND)
        if head["data"]["name"] not in BOOKKEEPING:
            seq = record["entry"]["seq"]
            self.turns.append([seq, head["data"]["name"]])
            self.window_start, self.window_state = seq, self.state

    def _count_sent(self, round: int, player: str, name: str) -> None:
        if round != self.resent_round:
            self.resent, self.resent_round = {}, round
        key = f"{player}\x00{name}"
        self.resent[key] = self.resent.get(key, 0) + 1

    def check_replacements_left(self, command: Command) -> None:
        """A player sends one command at most 1 + the setup's `replacements` times a round:
        nobody can grow a log without bound by replacing a vote."""
        if command.actor in (HOST, SYSTEM) or self.setup is None or self.phase != OPEN:
            return
        sent = self.resent.get(f"{command.actor}\x00{command.name}", 0) \
            if self.resent_round == self.round else 0
        if sent > self.setup.replacements:
            raise RuleViolation("too_many_replacements", f"{command.name} was sent "
                                f"{sent} times this round: a submission may be replaced "
                                f"{self.setup.replacements} times a round in this match")

    @property
    def log_root(self) -> bytes:
        """The Merkle root of the log as it stands (RFC 9162), what each checkpoint signs."""
        return self.tree.root()

    def held(self) -> int:
        """How many entries a snapshot of the match holds: every one since the last turn."""
        return len(self.records) - (self.kept_from() - self.first_seq)

    def kept_from(self) -> int:
        return max(self.window_start, self.first_seq)

    def frozen(self) -> dict[str, Any]:
        """Everything the next command needs, as plain JSON: no entry before the last turn.
        Nothing in it is the match's own: the match may go on while it is being stored."""
        keep = self.kept_from()
        return {
            "match_id": self.match_id, "season": self.season, "game_id": self.game_id,
            "salt_key": self.salt_key, "phase": self.phase, "players": list(self.players),
            "setup": None if self.setup is None else self.setup.recorded(),
            "host_seed": self.host_seed, "contributions": dict(self.contributions),
            "state": freeze(self.state),
            "handled": {command_id: list(seqs) for command_id, seqs in self.handled.items()},
            "sent": dict(self.sent), "resent": dict(self.resent),
            "resent_round": self.resent_round,
            "voided": sorted(self.voided), "opened": sorted(self.opened),
            "unsigned": self.unsigned, "first_seq": keep,
            "records": self.records[keep - self.first_seq:], "tree": self.tree.state(),
            "shapes": self.shapes.decode(), "moved": {str(k): v for k, v in self.moved.items()},
            "turns": list(self.turns), "sealed": dict(self.sealed),
            "window_start": self.window_start,
            "window_state": freeze(self.window_state),
        }

    @classmethod
    def thawed(cls, aggregate_id: UUID, version: int, frozen: dict[str, Any]) -> Match:
        """The match `frozen` describes, as of `version`."""
        match = object.__new__(cls)
        state = dict(frozen)
        game = get_game(state["game_id"])
        state["setup"] = None if state["setup"] is None else \
            game.Setup.model_validate(state["setup"])
        state["state"], state["window_state"] = thaw(state["state"]), thaw(state["window_state"])
        state["voided"], state["opened"] = set(state["voided"]), set(state["opened"])
        state["tree"] = TreeBuilder.from_state(state["tree"])
        state["shapes"] = bytearray(state["shapes"].encode())
        state["moved"] = {int(k): v for k, v in state["moved"].items()}
        state.setdefault("sent", {})  # a store snapshot taken before command fingerprints
        state.setdefault("resent", {})  # ... or before the bound on replacements: it counts
        state.setdefault("resent_round", 0)  # from the snapshot on
        state.update(_id=aggregate_id, _version=version, _pending_events=[])
        object.__setattr__(match, "__dict__", state)
        return match

    def record(self, seq: int) -> dict[str, Any]:
        """The record of entry `seq` (those before `first_seq` are not kept after a restore)."""
        return self.records[seq - self.first_seq]

    def _apply_meta(self, fact: Event) -> None:
        """The match's own facts; a game's event of the same kind is the game's business."""
        if fact.kind == "MatchCreated":
            self.players = list(fact.data["players"])
        elif fact.kind == "SetupCommitted":
            self.setup = self.game.Setup.model_validate(fact.data["setup"])
            self.host_seed = fact.data["host_seed"]
        elif fact.kind == "SeedContributed":
            self.contributions[fact.data["player"]] = fact.data["text"]
        elif fact.kind == "MatchOpened":
            self.phase = OPEN
            self.state = self.game.initial_state(self.setup, Rng(self.game_id, self.seed))
        elif fact.kind == "SubmissionVoided":
            self.voided.add(fact.data["seq"])
            self.state = self._refold()
        elif fact.kind == "SealOpened":
            self.opened.add(fact.data["seq"])
        elif fact.kind in ("MatchEnded", "MatchAbandoned"):
            self.phase = ENDED

    def _refold(self) -> Any:
        """The game state with voided submissions left out: refolded from the last turn, since
        no submission before it can be voided."""
        state = self.window_state
        start = max(self.window_start, self.first_seq)
        for record in self.records[start - self.first_seq:]:
            if record["role"] == "meta" and record["entry"]["kind"] == "MatchOpened":
                state = self.game.initial_state(self.setup, Rng(self.game_id, self.seed))
            elif record["role"] == "fact" and record["batch"] not in self.voided:
                state = self.game.evolve(state, to_event(record))
        return state

    # -- reading ---------------------------------------------------------------------------

    def snapshot(self) -> MatchSnapshot:
        """The match as it stands, for readers: the append-only records are shared (a
        reference to each, never a copy of one) and the game state is a frozen value, so a
        writer going on cannot change what a reader holds."""
        if self.first_seq != 1:
            raise ValueError("a match restored from a store snapshot holds only its last entries")
        return MatchSnapshot(
            match_id=self.match_id, season=self.season, game_id=self.game_id,
            salt_key=self.salt_key, records=tuple(self.records), phase=self.phase,
            players=list(self.players), setup=self.setup, host_seed=self.host_seed,
            contributions=dict(self.contributions), state=self.state,
            handled={k: list(v) for k, v in self.handled.items()},
            voided=frozenset(self.voided), opened=frozenset(self.opened),
            version=self.version, unsigned=self.unsigned, log_root=self.tree.root())


@dataclass(frozen=True)
class MatchSnapshot(Reading):
    """A match as of one version, never changed: what every read of the service returns."""

    match_id: str
    season: str
    game_id: str
    salt_key: str
    records: tuple[dict[str, Any], ...]
    phase: str
    players: list[str]
    setup: Any
    host_seed: str
    contributions: Mapping[str, str]
    state: Any
    handled: Mapping[str, list[int]]
    voided: frozenset[int]
    opened: frozenset[int]
    version: int
    unsigned: bool
    log_root: bytes  # the Merkle root of the log as of `version`


MATCH_FACT_KINDS = frozenset({
    "MatchCreated", "SetupCommitted", "SeedContributed", "MatchOpened", "DeadlineSet",
    "SubmissionVoided", "SubmissionEntered", "MatchAbandoned", "MatchEnded", "SeedRevealed",
    "SealOpened", "Padding"})


def _first_run(command: Command) -> int:
    """Where a batch's first run of sealed facts starts counting: a correction's own fact (the
    submission voided or entered) fills none of it, so the rest of a correction's batch is
    laid out as a player's command would be."""
    return -1 if command.name == "correct" else 0


@dataclass
class Batch:
    """The entries one command appends, as they are recorded: where they start, the round and
    time they carry, and (for a sealed command) the run of sealed facts since the last public
    entry."""

    first: int
    round: int
    at: str | None
    command_id: str | None
    padded: bool
    run: int = 0


class MatchFact(Event):
    """A fact of the match itself (opening, seed, corrections, the end), not of its game."""


def fingerprint(actor: object, name: object, args: Mapping[str, Any]) -> str:
    """What a command id stands for; a command the log could not hold matches none."""
    try:
        sent = canonical({"actor": actor, "name": name, "args": dict(args)})
    except (NotCanonical, TypeError, ValueError):
        return ""
    return sha256(sent).hexdigest()


def args_are_plain_json(args: Mapping[str, Any]) -> str | None:
    """Why the arguments cannot go into the log (it holds integers, texts, booleans, lists and
    objects: nothing else), or None when they can."""
    try:
        check(dict(args))
    except (NotCanonical, TypeError, ValueError) as error:
        return str(error)
    return None


def _public(kind: str, actor: str, at: str | None, data: dict[str, Any],
            postings: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"kind": kind, "actor": actor, "at": at, "data": data, "postings": postings or []}


def parse_setup(game: Game, setup: Mapping[str, Any]) -> SetupBase:
    try:
        return game.Setup.model_validate(dict(setup))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "setup"
        code = getattr(game, "SETUP_ERROR", "invalid_setup")
        raise RuleViolation(code, f"{where}: {first['msg']}") from None


STRONG_SEED = 32  # characters: 128 bits as hex digits, the least the randomness rules ask


def check_host_seed(host_seed: str, allow_weak: bool = False) -> bool:
    """Any non-empty text may seed a match (the rules' worked examples use `example-seed`), but
    one under 128 bits can be brute-forced from its commitment: only on the host's say-so.
    Returns whether the seed is weak."""
    if not isinstance(host_seed, str) or not host_seed:
        raise RuleViolation("invalid_setup", "host_seed must be a non-empty text")
    weak = len(host_seed) < STRONG_SEED
    if weak and not allow_weak:
        raise RuleViolation("weak_seed", f"host_seed has {len(host_seed)} characters; give at "
                            f"least {STRONG_SEED} (128 bits), or allow a weak seed explicitly")
    return weak


def parse_salt_key(salt_key: str) -> bytes:
    try:
        key = bytes.fromhex(salt_key)
    except (TypeError, ValueError):
        key = b""
    if len(key) != 32:
        raise RuleViolation("invalid_setup", "salt_key must be 64 hex digits")
    return key
