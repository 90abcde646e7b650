"""The uniform surface every game implements, and the values that cross it.

A game is a module with:

- `GAME_ID: str`, `RULES_VERSION: str`
- `Setup`: a pydantic model with at least `players: list[str]` (seat order), extending
  domain.setup.SetupBase
- `initial_state(setup, rng) -> State`            (called when the host opens the match)
- `decide(state, command) -> list[Event]`         (raises RuleViolation, emits nothing then)
- `evolve(state, event) -> State`                 (pure, total, never validates)
- `round_of(state) -> int`                        (the match-wide round now open, monotonic)
- `finished(state) -> bool`                       (nothing but host bookkeeping can follow)
- `results(state) -> dict`                        (outcome, ranks and game details)
- `summary_start(viewer) -> dict`, `summary_step(view, event) -> None`
                                                  (a readable fold of the events a viewer saw,
                                                   one event at a time; `view["phase"]` names
                                                   the phase now open in the game's words)
- `summarize(events, viewer) -> dict`             (`fold_summary` over the two above)
- `CLOSES: tuple[str, ...]`                       (host commands that close the open phase)
- `COMMANDS: Mapping[str, CommandSpec]`           (every command `decide` accepts, its args)
- `narrate(events, viewer) -> list[Chapter]`      (the match told in words, round by round)
- `picture(view) -> str | None`                   (an SVG drawn from a viewer's summary)
- `forms(view, viewer) -> list[Form]`             (what the viewer may send now, as forms)

The summary, the story and the forms receive only what the viewer may see, so they cannot
leak by construction. docs/writing-a-game.md says more of each.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from domain.audiences import HOST as HOST
from domain.audiences import PUBLIC as PUBLIC
from domain.audiences import SYSTEM as SYSTEM

if TYPE_CHECKING:
    from domain.rng import Rng
    from domain.setup import SetupBase


@dataclass(frozen=True)
class Command:
    """What an actor asks for. `garnets` holds the live season balance of every player
    of the match, filled in by the application so that rules can check spends."""

    name: str
    actor: str
    args: Mapping[str, Any] = field(default_factory=dict)
    garnets: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Posting:
    """A change to the season ledger caused by a match event.

    asset: `garnets`, `tol`, `opal`, `moe`, `ec` (named Elimination Candidate),
    `dm_entrant` (sent to a Death Match without being the EC), `trade_freeze` (+1 starts,
    -1 ends a freeze on garnet trades for that player)."""

    player: str
    asset: str
    amount: int
    reason: str


@dataclass(frozen=True)
class Event:
    """A domain event as the rules see it.

    audience: PUBLIC (everyone), HOST (host only) or a tuple of player ids (those players
    and the host). Anything not public is sealed whole in the log: kind, actor and data.
    opens: kinds of this game's earlier sealed events that this event makes public; the match
    then discloses the latest one of each kind, plaintext and salt (a public SealOpened), so
    anyone can check that what is revealed now is what was committed then.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    audience: str | tuple[str, ...] = PUBLIC
    actor: str = SYSTEM
    postings: tuple[Posting, ...] = ()
    opens: tuple[str, ...] = ()

    def seen_by(self, viewer: str) -> bool:
        if viewer == HOST or self.audience == PUBLIC:
            return True
        return isinstance(self.audience, tuple) and viewer in self.audience


def to_player(recipient: str, kind: str, /, actor: str = SYSTEM, **data: Any) -> Event:
    return Event(kind, data, audience=(recipient,), actor=actor)


def to_host(kind: str, /, actor: str = SYSTEM, **data: Any) -> Event:
    return Event(kind, data, audience=HOST, actor=actor)


def to_all(kind: str, /, actor: str = SYSTEM, **data: Any) -> Event:
    return Event(kind, data, audience=PUBLIC, actor=actor)


@dataclass(frozen=True)
class Arg:
    """One argument of a command. kind: "int", "bool", "text", "player" (a player id of the
    match), "list" (of `items`, each of those kinds) or "object" (string keys, `items`
    values). The rules check values themselves, with their own codes; the framework uses this
    to refuse unknown arguments, bound sizes (domain.edge: a text at most `max_length`
    characters, 100 unless said; lists at most 100 items, `max_items` being the rules' bound),
    document the API and draw forms. `minimum` and `maximum` state an "int"'s range where the
    rules fix it whatever the setup (a bill number 1 to 60): shown to players (Discord's
    options), never checked here: the rules check it with their code."""

    kind: str
    required: bool = True
    items: str | None = None
    max_items: int | None = None
    label: str = ""
    max_length: int | None = None
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class CommandSpec:
    """A command of the game: who sends it ("player" or "host"), its arguments, and one line
    saying what it does in the game's words."""

    actor: str
    args: Mapping[str, Arg] = field(default_factory=dict)
    label: str = ""


def fold_summary(game: Game, events: Sequence[Event], viewer: str) -> dict[str, Any]:
    """A game's summary of `events`: start, then one step per event (the projections keep the
    view and take the steps as entries arrive)."""
    view = game.summary_start(viewer)
    for event in events:
        game.summary_step(view, event)
    return view


class Game(Protocol):
    GAME_ID: str
    RULES_VERSION: str
    Setup: type[SetupBase]
    CLOSES: tuple[str, ...]
    COMMANDS: Mapping[str, CommandSpec]

    def __hash__(self) -> int: ...  # a module: read-side caches key on it

    def initial_state(self, setup: Any, rng: Rng) -> Any: ...
    def decide(self, state: Any, command: Command) -> list[Event]: ...
    def evolve(self, state: Any, event: Event) -> Any: ...
    def round_of(self, state: Any) -> int: ...
    def finished(self, state: Any) -> bool: ...
    def results(self, state: Any) -> dict[str, Any]: ...
    def summarize(self, events: Sequence[Event], viewer: str) -> dict[str, Any]: ...
    def summary_start(self, viewer: str) -> dict[str, Any]: ...
    def summary_step(self, view: dict[str, Any], event: Event) -> None: ...
