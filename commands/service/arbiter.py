"""The application service: every command is load -> decide -> one atomic save."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from audit.cosign import witness_key
from audit.keys import SHARED_NAME, Signer, own_name
from audit.notes import NoteError, parse_verifier_key
from audit.season_signing import SeasonTree, sign_season
from audit.signing import sign_round
from commands.service.built import Builds, built_folder
from commands.service.guards import check_aim, deadline_args
from commands.service.keys import check_signed_by
from commands.service.names import (
    check_name_in_address,
    check_not_confusable,
    check_reason,
    check_reasons_in,
)
from commands.service.once import Once, first_sending
from commands.service.outcomes import Grant, Outcome, Receipt, Repeat
from commands.service.tokens import TOKENS_SNAPSHOT_EVERY, HostToken, PlayerTokens
from commands.service.unit_of_work import UnitOfWork
from domain.checkpoints import (
    HostOrigin,
    MatchCheckpoints,
    MatchCosignatures,
    SeasonCheckpoints,
    SeasonCosignatures,
    cosigned,
)
from domain.decider import HOST, Command
from domain.edge import excerpt
from domain.envelope import salt
from domain.errors import RuleViolation
from domain.match import Match, Reading, parse_salt_key
from domain.origins import DEFAULT_PREFIX, ORIGIN_PREFIX, match_origin
from domain.records import headline, may_see, own_parts, shown
from domain.season import DEATH_MATCH, FINAL_MATCH, Season, ending, match_kind
from projections.dashboard import phase_now

if TYPE_CHECKING:
    from commands.service.reading import ReadSide, Seen

ENDINGS = ("MatchEnded", "MatchAbandoned")


class Arbiter(UnitOfWork):
    """The application service: the host's commands, the seasons and their matches; each
    command loads, decides and saves once, through the unit of work it extends.

    The host's `signer` signs a checkpoint at every round close. Without one, a match can
    only be created unsigned (on the host's say-so, recorded in its genesis entry), and a
    round of a signed match does not close: nothing is ever left unsigned by accident."""

    # Each sign-in adds an event to its match's tokens: however many a player makes, a
    # process loads them from the latest snapshot (the number of open sessions is capped).
    snapshotting_intervals: ClassVar[dict[type, int]] = {
        **UnitOfWork.snapshotting_intervals, PlayerTokens: TOKENS_SNAPSHOT_EVERY,
        HostToken: TOKENS_SNAPSHOT_EVERY}

    def __init__(self, url: str | None = None, env: Mapping[str, str] | None = None,
                 signer: Signer | None = None) -> None:
        self.signer = signer
        self._season_trees: dict[str, SeasonTree] = {}
        super().__init__(url, env)
        # what anyone may ask for, once per change (and once for every process, with a folder)
        self.builds = Builds(self.stored_versions, folder=built_folder())

    # -- the host -----------------------------------------------------------------------

    def origin(self) -> tuple[str, bool]:
        """The origin prefix, and whether `arbiter init` chose it (the host may still put
        their domain in its place); the default `arbiter` counts as chosen."""
        try:
            origin: HostOrigin = self.repository.get(HostOrigin.create_id())
        except AggregateNotFoundError:
            return DEFAULT_PREFIX, True
        return origin.prefix, origin.chosen

    def origin_prefix(self) -> str:
        """The prefix of every checkpoint origin this host signs (`arbiter` until it is set)."""
        try:
            return self.repository.get(HostOrigin.create_id()).prefix
        except AggregateNotFoundError:
            return DEFAULT_PREFIX

    def set_origin_prefix(self, prefix: str) -> None:
        """The host's prefix (their domain): set once, or in place of the one `arbiter init`
        chose; setting the same prefix again is a no-op, another one `origin_set`. Seasons
        record the prefix when they start, so older seasons keep theirs."""
        def attempt() -> None:
            try:
                origin: HostOrigin = self.repository.get(HostOrigin.create_id())
            except AggregateNotFoundError:
                self.save(HostOrigin.set(prefix))
                return
            origin.change(prefix)
            self.save(origin)

        self._retrying(attempt, "origin")

    def choose_origin_prefix(self) -> tuple[str, bool]:
        """A prefix of this host's own when none is set (`arbiter init`): the key's name where it
        is one of the host's own and a valid prefix (c2sp.org/tlog-checkpoint: a log's key name
        should be its origin), else one made from the key. (prefix, whether chosen now)."""
        def attempt() -> tuple[str, bool]:
            try:
                return self.repository.get(HostOrigin.create_id()).prefix, False
            except AggregateNotFoundError:
                pass
            if self.signer is None:
                raise RuleViolation("no_host_key", "no host key to name this host's logs after")
            prefix = self.signer.name
            if prefix == SHARED_NAME or not ORIGIN_PREFIX.fullmatch(prefix):
                prefix = own_name(self.signer.public_key)
            self.save(HostOrigin.set(prefix, chosen=True))
            return prefix, True

        return self._retrying(attempt, "origin")

    # -- seasons --------------------------------------------------------------------------

    def create_season(self, name: str, *, salt_key: str | None = None,
                      at: str | None = None, command_id: str | None = None) -> Repeat | None:
        """A new season with its own salt key (its sealed entries' commitments derive from it;
        a host secret, in full season bundles only). With `command_id`, as every season
        command takes it: carried out once across every process sharing the store; sent
        again, it records nothing and returns a `Repeat` (commands.service.once)."""
        once = Once.of(command_id, "create_season", name, {})  # the salt key is not compared
        season = Season.start(name=name, origin_prefix=self.origin_prefix(),
                              salt_key=salt_key or secrets.token_hex(32), at=at)
        checkpoints = SeasonCheckpoints(season=name)
        if self.signer is not None:
            checkpoints.record(size=season.version, note=sign_season(self.signer, season, {}))
        try:
            with self.writers.holding(f"season/{name}"):
                first = first_sending(self, once)
                if first is not None:
                    return first
                self._save_once(once, at, season, checkpoints)
        except IntegrityError:
            first = first_sending(self, once)  # another process spent it a moment earlier
            if first is not None:
                return first
            raise RuleViolation("season_exists", f"season {excerpt(name)} exists already") from None
        return None

    def season(self, name: str) -> Season:
        """The season as the store holds it (a copy); loaded from the store, its log is
        checked against its last signed checkpoint too."""
        season_id = Season.create_id(name)
        cache = self.repository.cache
        stored = cache is None or season_id not in cache.cache
        try:
            season: Season = self.repository.get(season_id)
        except AggregateNotFoundError:
            raise RuleViolation("unknown_season", f"no season {excerpt(name)}") from None
        if stored:
            try:
                self._check_complete(season)
            except RuleViolation:
                self._evict(season_id)
                raise
        return season

    def season_of(self, match_id: str) -> str | None:
        """The season a match plays in (read without a copy; it never changes)."""
        try:
            match: Match = self.repository.get(Match.create_id(match_id),
                                               deepcopy_from_cache=False)
        except AggregateNotFoundError:
            raise RuleViolation("unknown_match", f"no match {excerpt(match_id)}") from None
        return match.season

    def season_matches(self, name: str) -> list[str]:
        """The season's matches, in the order they were added (read without a copy)."""
        try:
            season: Season = self.repository.get(Season.create_id(name),
                                                 deepcopy_from_cache=False)
        except AggregateNotFoundError:
            raise RuleViolation("unknown_season", f"no season {excerpt(name)}") from None
        return list(season.matches)

    def season_checkpoints(self, name: str) -> SeasonCheckpoints:
        try:
            return self.repository.get(SeasonCheckpoints.create_id(name))
        except AggregateNotFoundError:
            raise RuleViolation("unknown_season", f"no season {excerpt(name)}") from None

    def signed_notes(self, name: str) -> list[str]:
        """Every signed checkpoint of the season, oldest first, and of each of its matches."""
        season = self.season(name)
        return [*(n["note"] for n in self.season_checkpoints(name).notes),
                *(n["note"] for m in season.matches for n in self.checkpoints(m).notes)]

    def season_bundle(self, name: str, kind: str, host_key: str | None) -> Iterator[str]:
        """The season's audit bundle (audit.season_bundle): its log, the entries of its
        matches it rests on, and every signed checkpoint."""
        from audit.season_bundle import export_season  # an export's own: not every command's

        season = self.season(name)
        notes = [cosigned(n) for n in self.cosigned_season_notes(name)]
        matches = {m: self.match(m) for m in season.matches}
        match_notes = {m: [n["note"] for n in self.checkpoints(m).notes] for m in matches}
        return export_season(season, notes, matches, match_notes, kind, host_key)

    def bundle(self, match_id: str, kind: str) -> Iterator[str]:
        """The match's audit bundle (audit.bundle), public or full, its header naming this
        host's key; refused (`wrong_host_key`) when another key signed its checkpoints."""
        from audit.bundle import export  # an export's own: not every command's

        match = self.match(match_id)
        checkpoints = self.checkpoints(match_id)
        notes = [cosigned(n) for n in self.cosigned_notes(match_id)]
        host_key = self.signer.verifier_key() if self.signer else None
        if host_key is not None:
            check_signed_by(notes, parse_verifier_key(host_key))
        return export(match, notes, kind, host_key, checkpoints.origin)

    # Each season command takes an optional `command_id` (a host form's one-time id, a chat
    # message's id): carried out at most once across every process sharing the store, the id
    # spent in the same save as the season's change (commands.service.once). Sent again under
    # that id it records nothing and returns a `Repeat` saying what the first sending did;
    # under an id spent by another command it is refused `id_reused`. Otherwise: None.

    def register(self, season: str, player: str, *, at: str | None = None,
                 command_id: str | None = None) -> Repeat | None:
        return self.register_all(season, [player], at=at, command_id=command_id)

    def register_all(self, season: str, players: Sequence[str], *, at: str | None = None,
                     command_id: str | None = None) -> Repeat | None:
        """Register every player in one save: all of them, or none when one is refused."""
        def act(s: Season) -> None:
            for p in players:
                check_name_in_address(p, "player")
                check_not_confusable(p, s.players, "player")
                s.register(p, at=at)

        once = Once.of(command_id, "register_all", season, {"players": list(players)})
        return self._season_act(season, act, once, at)

    def grant(self, season: str, player: str, asset: str, amount: int, reason: str, *,
              at: str | None = None, command_id: str | None = None) -> Repeat | None:
        return self.grant_all(season, [Grant(player, amount, asset, reason)], at=at,
                              command_id=command_id)

    def grant_all(self, season: str, grants: Sequence[Grant], *, at: str | None = None,
                  command_id: str | None = None) -> Repeat | None:
        """Every grant in one save: all of them, or none when one is refused."""
        def act(s: Season) -> None:
            for g in grants:
                check_reason(g.reason)
                s.grant(g.player, g.asset, g.amount, g.reason, at=at)

        once = Once.of(command_id, "grant_all", season, {"grants": [
            [g.player, g.amount, g.asset, g.reason] for g in grants]})
        return self._season_act(season, act, once, at)

    def transfer(self, season: str, giver: str, receiver: str, amount: int,
                 reason: str, *, at: str | None = None,
                 command_id: str | None = None) -> Repeat | None:
        check_reason(reason)
        once = Once.of(command_id, "transfer", season, {
            "giver": giver, "receiver": receiver, "amount": amount, "reason": reason})
        return self._season_act(
            season, lambda s: s.transfer(giver, receiver, amount, reason, at=at), once, at)

    def record_dmo(self, season: str, match: str, dmo: str, reason: str, *,
                   ec: str | None = None, at: str | None = None,
                   command_id: str | None = None) -> Repeat | None:
        """The DMO of a Main Match's EC, where its rules leave the choice to the host."""
        check_reason(reason)
        once = Once.of(command_id, "record_dmo", season,
                       {"match": match, "dmo": dmo, "reason": reason, "ec": ec})
        return self._season_act(
            season, lambda s: s.record_dmo(match, dmo, reason, ec=ec, at=at), once, at)

    def rule(self, season: str, player: str, reason: str, *,
             changes: Mapping[str, int] | None = None, status: str | None = None,
             at: str | None = None, command_id: str | None = None) -> Repeat | None:
        """A host ruling with its reason (e.g. a Token of Life spent to stay in)."""
        check_reason(reason)
        once = Once.of(command_id, "rule", season, {
            "player": player, "reason": reason, "changes": dict(changes or {}),
            "status": status})
        return self._season_act(season, lambda s: s.rule(player, reason, changes=changes,
                                                         status=status, at=at), once, at)

    def register_witness(self, season: str, player: str, key: str, *,
                         at: str | None = None) -> None:
        """A player's browser's cosignature key, recorded once in the season's log."""
        try:
            parsed = witness_key(key)
        except NoteError as error:
            raise RuleViolation("invalid_witness_key", f"{excerpt(key)}: {error.message}") \
                from None
        if str(parsed) != key:
            raise RuleViolation("invalid_witness_key", f"{excerpt(key)}: a witness key is a "
                                "cosignature key (type 0x04) in its one spelling")
        self._season_act(season, lambda s: s.register_witness(player, key, at=at))

    def _season_act(self, name: str, act: Callable[[Season], Any], once: Once | None = None,
                    at: str | None = None) -> Repeat | None:
        """`act` on the season, saved once; with `once`, a command id already spent answers
        as the first sending did, and is otherwise spent in the same save."""
        def attempt() -> Repeat | None:
            with self._writing(Season.create_id(name)) as season_id:
                first = first_sending(self, once)
                if first is not None:
                    return first
                season = self._load(season_id, "unknown_season", name)
                act(season)
                with self._season_saved(season) as changed:
                    self._save_once(once, at, *changed)
                return None

        return self._retrying(attempt, f"season/{name}")

    def _save_once(self, once: Once | None, at: str | None, *changed: Any) -> None:
        """Save `changed` with the command id spent, if there is one, in one transaction: when
        another process spent it first, nothing of it is saved (IntegrityError, retried). The
        spent id is left out of the cache, which keeps the logs."""
        if once is None:
            self.save(*changed)
            return
        self.save(*changed, once.spend(at))
        self._evict(once.id)

    @contextmanager
    def _season_saved(self, season: Season,
                      signed: Mapping[str, str] | None = None) -> Iterator[list[Any]]:
        """What to save with a changed season: the season and, when a key is configured, its
        checkpoints with a note signed over the season as it now stands (`signed` holds the
        match notes signed in this same save)."""
        if self.signer is None:
            yield [season]
            return
        with self._writing(SeasonCheckpoints.create_id(season.name)) as checkpoints_id:
            checkpoints = self._load(checkpoints_id, "unknown_season", season.name)
            latest = {**self._latest_match_notes(season), **(signed or {})}
            tree = self._season_trees.setdefault(season.name, SeasonTree())
            checkpoints.record(size=season.version, note=sign_season(
                self.signer, season, latest, tree.root(season)))
            yield [season, checkpoints]

    def _latest_match_notes(self, season: Season) -> dict[str, str]:
        """Each match's latest signed note. Read from the cached aggregates themselves: a
        match's checkpoints are written only under its season's lock, which the caller holds."""
        latest = {}
        for match_id in season.matches:
            try:
                notes: list[dict[str, Any]] = self.repository.get(
                    MatchCheckpoints.create_id(match_id), deepcopy_from_cache=False).notes
            except AggregateNotFoundError:
                continue
            if notes:
                latest[match_id] = notes[-1]["note"]
        return latest

    # -- matches --------------------------------------------------------------------------

    def create_match(self, *, match_id: str, season: str, game: str, setup: Mapping[str, Any],
                     host_seed: str, salt_key: str, at: str | None = None,
                     allow_weak_seed: bool = False, unsigned: bool = False,
                     from_match: str | None = None, ec: str | None = None,
                     final: bool = False, command_id: str | None = None) -> Outcome:
        """A match of the season. With `from_match`, the Tile Joust Death Match of that Main
        Match's EC (or `ec`, one of several) against its DMO: players, variant and DMO come
        from the season. With `final`, the Final Match of the last two. Without the host's
        signer, only `unsigned` (its genesis entry says so). With `command_id` (a season
        command's, commands.service.once), sent again it creates nothing and returns the first
        sending's outcome."""
        check_name_in_address(match_id, "match")
        once = Once.of(command_id, "create_match", season, {  # not the seed nor the salt key
            "match": match_id, "game": game, "setup": dict(setup), "from_match": from_match,
            "ec": ec, "final": final, "unsigned": unsigned})

        def attempt() -> Outcome:
            if first_sending(self, once) is not None:  # its first two entries, as then
                return self._outcome(self.match(match_id, version=2), HOST, [1, 2])
            if Match.create_id(match_id) in self.repository:
                raise RuleViolation("match_exists", f"match {excerpt(match_id)} exists already")
            if self.signer is None and not unsigned:
                raise RuleViolation("no_host_key", "no host key to sign the match's "
                                    "checkpoints: run `arbiter init` first, or create the "
                                    "match unsigned (--unsigned)")
            with self._writing(Season.create_id(season)) as season_id:
                the_season = self._load(season_id, "unknown_season", season)
                check_not_confusable(match_id, the_season.matches, "match")
                kind = match_kind(game, from_match, final)
                full, pairing = self._season_setup(the_season, kind, setup, from_match, ec)
                players = full.get("players")
                for player in players if isinstance(players, list) else ():
                    the_season.check_is_registered(player)
                    the_season.check_is_in(player)
                match = Match.configure(match_id=match_id, season=season, game_id=game,
                                        setup=full, host_seed=host_seed, salt_key=salt_key,
                                        garnets=the_season.garnets(the_season.players), at=at,
                                        allow_weak_seed=allow_weak_seed, unsigned=unsigned)
                the_season.add_match(match_id, game, kind, match.players,
                                     match.records[0]["entry"]["hash"], at=at, **pairing)
                checkpoints = MatchCheckpoints(
                    match_id=match_id, origin=match_origin(the_season.origin_prefix, match_id))
                with self._season_saved(the_season) as changed:
                    self._save_once(once, at, match, checkpoints, *changed)
                return self._outcome(match, HOST, [1, 2])

        return self._retrying(attempt, f"season/{season}")

    def _season_setup(self, season: Season, kind: str, setup: Mapping[str, Any],
                      from_match: str | None, ec: str | None
                      ) -> tuple[dict[str, Any], dict[str, str | None]]:
        """The setup with what the season decides filled in (the host may state it too, but
        not otherwise), and the Death Match's pairing."""
        full = dict(setup)
        if kind == DEATH_MATCH:
            dmo, ec = season.death_match_pairing(from_match, ec)
            fixed = {"variant": "death_match", "dmo": dmo}
            players = full.setdefault("players", [dmo, ec])
            if not isinstance(players, list) or sorted(players) != sorted([dmo, ec]):
                raise RuleViolation("invalid_setup", f"the Death Match from {from_match} is "
                                    f"{dmo} (DMO) against {ec} (EC)")
        elif kind == FINAL_MATCH:
            fixed = {"variant": "final_match"}
            season.check_final_two(full.setdefault("players", season.remaining))
        else:
            return full, {}
        for key, value in fixed.items():
            if full.setdefault(key, value) != value:
                raise RuleViolation("invalid_setup", f"{key}: the season makes it {excerpt(value)}")
        return full, ({"from_match": from_match, "ec": ec, "dmo": dmo}
                      if kind == DEATH_MATCH else {})

    def submit(self, match_id: str, actor: str, name: str, args: Mapping[str, Any] | None = None,
               *, at: str | None = None, command_id: str | None = None,
               expect_round: int | None = None, expect_phase: str | None = None) -> Outcome:
        """One command from `actor`. A command id seen before returns the first answer.

        A command aimed at a round or a phase carries it: with `expect_round`, it is refused
        (`round_moved`, nothing recorded) unless that round is still the open one, and with
        `expect_phase` unless the game's phase open now has that name (a close typed twice
        must not close the tie-break the first one opened). A host's deadline earlier than
        the command's own time is refused (`deadline_past`): `now` means now (guards.py).

        The season is written only when the command moved a season asset or ended the match;
        then the match entries and the season's entries are saved together, or neither."""
        if not isinstance(actor, str) or not isinstance(name, str):
            raise RuleViolation("invalid_command", "actor and command name must be texts")
        if args is not None and not isinstance(args, Mapping):
            raise RuleViolation("invalid_command", "the arguments must be an object")
        if not all(isinstance(key, str) for key in (args or {})):
            raise RuleViolation("invalid_command", "argument names must be texts")
        check_reasons_in(dict(args or {}))

        def attempt() -> Outcome:
            with self._writing(Match.create_id(match_id)) as mid:
                stored = self._stored_now(mid)
                match = self._load(mid, "unknown_match", match_id, stored)
                fresh = command_id is None or command_id not in match.handled
                if fresh:
                    check_aim(match, expect_round, expect_phase, lambda: self.match(match_id))
                sent = deadline_args(name, actor, dict(args or {}), at, match, command_id)
                with self._writing(Season.create_id(match.season)) as season_id:
                    season = self._load(season_id, "unknown_season", match.season, stored)
                    if not match.ended and command_id not in match.handled:
                        season.check_is_in(actor)  # an ended match answers in its own words
                    command = Command(name, actor, sent, season.garnets(match.players))
                    before, round_before, ended_before = match.version, match.round, match.ended
                    seqs = match.handle(command, at=at, command_id=command_id)
                    changed: list[Any] = [match]
                    signed: dict[str, str] = {}
                    closed = match.round != round_before or match.ended != ended_before
                    if closed and self.signer is None and not match.unsigned:
                        raise RuleViolation("no_host_key", "no host key to sign the checkpoint "
                                            f"of round {round_before} of {match_id}: run "
                                            "`arbiter init` first, or set ARBITER_HOST_KEY to "
                                            "the host's key file")
                    with ExitStack() as held:  # every writer's lock until the one save
                        if closed and self.signer is not None and not match.unsigned:
                            cid = held.enter_context(
                                self._writing(MatchCheckpoints.create_id(match_id)))
                            checkpoints = self._load(cid, "unknown_match", match_id)
                            self._sign_checkpoint(match, checkpoints, round_before)
                            signed[match_id] = checkpoints.notes[-1]["note"]
                            changed.append(checkpoints)
                        if self._post(season, match, before, at, ended_before):
                            changed += held.enter_context(self._season_saved(season, signed))
                        self.save(*changed)
                    return self._outcome(match, actor, seqs)

        return self._retrying(attempt, match_id, Match.create_id(match_id))

    def view(self, match_id: str, viewer: str, round: int | None = None) -> Seen:
        """What `viewer` ("public", "host" or a player) knows of the match, now or as of the
        end of `round`, from the view tables when they hold it; `Seen.behind` says how many
        entries were read from the log past them (commands.service.reading)."""
        return self.read_side.view(match_id, viewer, round)

    @cached_property
    def read_side(self) -> ReadSide:
        from commands.service.reading import ReadSide  # the view tables' drivers, when read

        return ReadSide.of(self)

    def phase(self, match_id: str, round: int) -> str | None:
        """The phase `round` opened with (the game's name for it), while it is the open round:
        a close aimed at "round N" means that phase. None once the round is over."""
        match = self.match(match_id)
        if match.round != round or match.ended:
            return None
        opening: str = phase_now(match)["opening"]
        return opening

    def _post(self, season: Season, match: Match, before: int, at: str | None,
              ended_before: bool) -> bool:
        """Each new entry's postings into the season, with the entry's audience; at the end,
        the match's result, a Death Match's loser out, the Final's winner champion. Whether
        the season changed."""
        version = season.version
        if not season.tracks(match.match_id):
            return False  # a match of a store from before season logs
        new = [match.record(seq) for seq in range(before + 1, match.version + 1)]
        for record in new:
            if record["postings"]:
                season.post(match.match_id, record["entry"]["seq"], record["postings"],
                            headline(record)["audience"], at=at)
        if match.ended and not ended_before:
            ended = next(r for r in reversed(new)
                         if r["role"] == "meta" and r["entry"]["kind"] in ENDINGS)
            found = ending(match.game_id, match.players, ended["entry"]["kind"],
                           ended["entry"]["public"])
            season.finish_match(match.match_id, ended["entry"]["seq"], at=at, **found)
            kind = season.matches[match.match_id]["kind"]
            if kind == DEATH_MATCH and not found["abandoned"] and found["loser"] not in season.out:
                season.eliminate(found["loser"], match.match_id, at=at)
            if kind == FINAL_MATCH and not found["abandoned"] and season.champion is None:
                season.crown(found["winners"][0], match.match_id, at=at)
        return season.version != version

    def checkpoints(self, match_id: str) -> MatchCheckpoints:
        try:
            return self.repository.get(MatchCheckpoints.create_id(match_id))
        except AggregateNotFoundError:
            raise RuleViolation("unknown_match", f"no match {excerpt(match_id)}") from None

    def cosigned_notes(self, match_id: str) -> list[dict[str, Any]]:
        """The match's signed notes, oldest first, each with its witnesses' cosignature
        lines (`cosignatures`)."""
        return self._with_lines(self.checkpoints(match_id).notes,
                                MatchCosignatures.create_id(match_id))

    def cosigned_season_notes(self, name: str) -> list[dict[str, Any]]:
        """The season's signed notes, oldest first, with their cosignature lines."""
        return self._with_lines(self.season_checkpoints(name).notes,
                                SeasonCosignatures.create_id(name))

    def _with_lines(self, notes: list[dict[str, Any]], kept_id: UUID) -> list[dict[str, Any]]:
        try:
            lines: dict[int, list[str]] = self.repository.get(kept_id).lines
        except AggregateNotFoundError:
            lines = {}
        return [{**n, "cosignatures": list(lines.get(n["size"], []))} for n in notes]

    def record_cosignature(self, match_id: str, size: int, line: str) -> None:
        """Keep a witness's cosignature line of the match's checkpoint of `size` entries
        (the caller checked it); one already kept is not kept twice."""
        self._keep_line(self.checkpoints(match_id).notes, size, line, f"match {match_id}",
                        MatchCosignatures.create_id(match_id),
                        lambda: MatchCosignatures(match_id=match_id))

    def record_season_cosignature(self, name: str, size: int, line: str) -> None:
        """Keep a witness's cosignature line of the season's checkpoint of `size` entries."""
        self._keep_line(self.season_checkpoints(name).notes, size, line, f"season {name}",
                        SeasonCosignatures.create_id(name),
                        lambda: SeasonCosignatures(season=name))

    def _keep_line(self, notes: list[dict[str, Any]], size: int, line: str, name: str,
                   kept_id: UUID, started: Callable[[], Any]) -> None:
        if not any(n["size"] == size for n in notes):
            raise RuleViolation("no_checkpoint", f"{excerpt(name)} has no signed checkpoint "
                                f"of {size} entries")

        def attempt() -> None:
            with self._writing(kept_id) as cid:
                try:
                    kept = self._load(cid, "no_cosignatures", name)
                except RuleViolation:  # the first cosignature of this log
                    kept = started()
                if line not in kept.lines.get(size, []):
                    kept.cosign(size=size, line=line)
                    self.save(kept)

        self._retrying(attempt, f"cosignatures/{name}")

    def _sign_checkpoint(self, match: Match, checkpoints: MatchCheckpoints,
                         round: int) -> None:
        """At every round close and at the end: the host signs the log as it now stands, with
        the round and its state root as extension lines (audit.signing)."""
        assert self.signer is not None  # the caller signs only with the host's key
        note = sign_round(self.signer, match, round, checkpoints.origin)
        checkpoints.record(round=round, size=match.version, note=note)

    def _outcome(self, match: Reading, actor: str, seqs: list[int]) -> Outcome:
        """The answer to `actor` for entries `seqs` (of a match read from its first entry,
        or a live one)."""
        records = [match.record(s) for s in seqs]
        first = records[0]
        own = own_parts(first, actor)
        key = parse_salt_key(match.salt_key)
        seq = first["entry"]["seq"]
        receipt = Receipt(first["entry"], {i: salt(key, seq, i).hex() for i in own},
                          {i: first["parts"][i] for i in own})
        told = [shown(r) for r in records if may_see(r, actor)]
        return Outcome(match.match_id, seqs, receipt, told)
