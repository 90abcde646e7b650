"""A match followed entry by entry: what the read side keeps of it between two entries.

Each viewer's summary is stepped as the entries they may see arrive, and the host dashboard's
counters are kept current, so taking one more entry costs the same at entry 10 as at entry
100,000. The view tables (`projections.rows`) and the reference functions (`views`,
`dashboard`) both read a follower, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from domain.decider import HOST, PUBLIC, Event, Game, fold_summary
from domain.logs import CONFIGURED, OPEN
from domain.match import Reading
from domain.records import headline, is_fact, may_see, to_event

Record = dict[str, Any]


def deadline_command_id(match_id: str, round: int, deadline: str) -> str:
    """The command id of a close at a deadline: a restart or a second worker sending it again
    gets the first answer back (command ids are idempotent), so a close is never doubled."""
    return f"deadline:{match_id}:{round}:{deadline}"


def submitter(record: Record) -> str | None:
    """The player a command entry is from: its sender, or the player a correction entered."""
    head = headline(record)
    actor: str = head["actor"]
    if actor != HOST:
        return actor
    sent = head["data"]
    entered: str | None = sent["args"].get("as") if sent["name"] == "correct" else None
    return entered


class Fold:
    """One viewer's summary of the facts they may see, one step per fact."""

    def __init__(self, game: Game, viewer: str) -> None:
        self.game = game
        self.viewer = viewer
        self.view = game.summary_start(viewer)

    def step(self, event: Event) -> None:
        self.game.summary_step(self.view, event)


class MatchFollower:
    """The read side's running fold of one match. `match` is the aggregate (or a snapshot)
    that already holds every record the follower is given; `take(record)` folds the next."""

    def __init__(self, match: Reading, viewers: Iterable[str] | None = None) -> None:
        self.match = match
        self.game = match.game
        self.folds = {viewer: Fold(self.game, viewer) for viewer in
                      ((PUBLIC, HOST, *match.players) if viewers is None else viewers)}
        self.round: int | None = None  # the round of the last entry taken
        self.first = 0  # the seq of that round's first entry
        self.seq = 0
        self.deadlines: list[dict[str, Any]] = []
        self.done: dict[str, None] = {}  # who submitted in the open phase, in order
        self.voided: set[int] = set()
        self.phase_records: list[Record] = []  # command entries of that phase
        self.opening: str | None = None  # the phase the round of the last entry opened with
        self.phase_was: str | None = None  # the host's phase after the last entry

    def catch_up(self, records: Iterable[Record]) -> None:
        for record in records:
            self.take(record)

    def take(self, record: Record) -> list[tuple[str, int, int, str]]:
        """Fold the next record. Returns the summaries of a round that this record closed:
        (viewer, round, seq, summary as JSON text) for every viewer, as of the record before."""
        entry = record["entry"]
        closed = []
        if self.round is not None and entry["round"] != self.round:
            closed = [(viewer, self.round, self.seq, dumps(fold.view))
                      for viewer, fold in self.folds.items()]
        if entry["round"] != self.round:
            self.done, self.phase_records = {}, []
            self.first = entry["seq"]
            self.opening = self.host_phase()
        self.round, self.seq = entry["round"], entry["seq"]
        if is_fact(record):
            event = to_event(record)
            for viewer, fold in self.folds.items():
                if may_see(record, viewer):
                    fold.step(event)
        self._count(record)
        phase = self.host_phase()
        if phase != self.phase_was:  # a close (or a player's last move) opened another phase
            self.done, self.phase_records, self.phase_was = {}, [], phase
        return closed

    def host_phase(self) -> str | None:
        """The phase the host's summary names now (None when the host's is not folded)."""
        fold = self.folds.get(HOST)
        return None if fold is None else fold.view.get("phase")

    def _count(self, record: Record) -> None:
        """The dashboard's counters: deadlines set, and who has submitted in this phase."""
        head = headline(record)
        if record["role"] == "command":
            self.phase_records.append(record)
            player = submitter(record)
            if player is not None:
                self.done[player] = None
        elif record["role"] == "meta" and head["kind"] == "DeadlineSet":
            self.deadlines.append({"seq": record["entry"]["seq"], **head["data"]})
        elif record["role"] == "meta" and head["kind"] == "SubmissionVoided":
            self.voided.add(head["data"]["seq"])
            self.done = dict.fromkeys(
                p for r in self.phase_records
                if r["entry"]["seq"] not in self.voided and (p := submitter(r)) is not None)

    # -- what the follower shows ------------------------------------------------------------

    def summary(self, viewer: str) -> dict[str, Any]:
        return self.folds[viewer].view

    def open_deadline(self) -> dict[str, Any] | None:
        """The last deadline the host set for the open round, and whether it has closed it."""
        match = self.match
        if match.phase != OPEN:
            return None
        latest = next((d["deadline"] for d in reversed(self.deadlines)
                       if d["round"] == match.round), None)
        if latest is None:
            return None
        command_id = deadline_command_id(match.match_id, match.round, latest)
        return {"round": match.round, "deadline": latest, "command_id": command_id,
                "closed": command_id in match.handled}

    def phase(self) -> str:
        """The game's own name for the phase open now (from the host's summary), or the
        match's before the opening and after the end."""
        if self.match.phase == OPEN:
            return self.summary(HOST).get("phase") or OPEN
        return self.match.phase

    def opening_phase(self) -> str:
        """The phase the open round opened with: a close aimed at "round N" means it."""
        if self.round == self.match.round and self.opening is not None and \
                self.match.phase == OPEN:
            return self.opening
        return self.phase()

    def acting(self) -> list[str] | None:
        """Who the open phase waits on, as the game says from the host's summary (None: the
        game does not say; then every player)."""
        said = getattr(self.game, "acting", None)
        if said is None or self.match.phase != OPEN:
            return None
        return [p for p in said(self.summary(HOST)) if p in self.match.players]

    def dashboard(self) -> dict[str, Any]:
        match = self.match
        done = set() if match.ended or self.round != match.round else set(self.done)
        acting = self.acting()
        return {
            "match": match.match_id,
            "game": match.game_id,
            "season": match.season,
            "phase": self.phase(),
            "opening": self.opening_phase(),
            "round": match.round,
            "seq": self.seq,
            "deadline": self.open_deadline(),
            "deadlines": list(self.deadlines),
            "acting": acting,
            "submitted": [p for p in match.players if p in done],
            "waiting": [] if match.ended or match.phase == CONFIGURED
            else [p for p in (match.players if acting is None else acting) if p not in done],
        }


def dumps(value: Any) -> str:
    """The view tables' JSON text: sorted keys, no spaces."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def follow(match: Reading, viewers: Iterable[str] | None = None) -> MatchFollower:
    """A follower that has taken every record of `match`, folding the summaries of `viewers`
    (default: every viewer)."""
    follower = MatchFollower(match, viewers)
    follower.catch_up(match.records)
    return follower


def summary_of(game: Game, records: Iterable[Record], viewer: str) -> dict[str, Any]:
    """The viewer's summary of the given records (those they may see), in one fold."""
    return fold_summary(game, [to_event(r) for r in records if is_fact(r)], viewer)
