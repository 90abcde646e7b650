"""A view told for people: chapters of sentences, a picture, a scoreboard and the forms a viewer
may send now, each drawn from one viewer's view and nothing else.

Each game tells its own rounds (`narrate`, `picture`, `scoreboard`, `forms`: docs/writing-a-
game.md); this module adds what the match itself does (creation, opening, deadlines,
corrections, the end, the seed reveal) and falls back to a plain telling of the viewer's events
for a game that has not written its own yet. The public page, the player's page, the host's
dashboard and `arbiter announce` all print these same words.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from domain.decider import HOST
from domain.games import get_game
from projections import words as said

LINE = 200  # characters in one sentence, at most (docs/writing-a-game.md)
# The match's own kinds: told here, never by a game.
OPENING = ("MatchCreated", "SeedContributed", "MatchOpened", "DeadlineSet")
CLOSING = ("SubmissionVoided", "SubmissionEntered", "SealOpened", "MatchAbandoned",
           "MatchEnded", "SeedRevealed")
UNTOLD = ("CommandAccepted", "CommandContext", "SetupCommitted")


game_name = said.game_name
names = said.names
winners = said.winners


def words(kind: str) -> str:
    """VotesTallied -> Votes tallied."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", kind)
    return spaced[:1].upper() + spaced[1:].lower()


def short(text: str) -> str:
    return text if len(text) <= LINE else text[:LINE - 1] + "…"


def compact(value: Any) -> str:
    """A value in words: never None, a repr or JSON."""
    if isinstance(value, dict):
        return ", ".join(f"{said.readable(k)} {compact(v)}"
                         for k, v in sorted(value.items())) or "none"
    return said.value(value)


# -- the match's own events -----------------------------------------------------------------

def match_line(event: dict[str, Any], viewer: str, game_id: str = "") -> str | None:
    data, kind = event["data"], event["kind"]
    if kind == "MatchCreated":
        weak = " (a weak seed, allowed by the host)" if data.get("weak_seed") else ""
        return (f"The host created the match for {len(data['players'])} players: "
                f"{names(data['players'])}, and committed to a secret seed (hash "
                f"{data['seed_commitment'][:16]}…){weak}.")
    if kind == "SeedContributed":
        return f"{data['player']} added “{data['text']}” to the seed."
    if kind == "MatchOpened":
        mixed = data["contributions"]
        if not mixed:
            return "The host opened the match; no player added to the seed before the draw."
        return (f"The host opened the match; {said.plural(mixed, 'player contribution')} "
                "mixed into the seed before the draw.")
    if kind == "DeadlineSet":
        return (f"The host set the deadline of round {data['round']}: "
                f"{said.instant(data['deadline'])}.")
    if kind == "SubmissionVoided":
        return f"The host voided entry #{data['seq']}: {data['reason']}"
    if kind == "SubmissionEntered":
        return (f"The host entered {data['player']}'s "
                f"{said.command(game_id, data['command'], data['args'])}: {data['reason']}")
    if kind == "SealOpened":
        return (f"Sealed entry #{data['seq']} is opened: its {said.readable(data['part']['kind'])} "
                "can now be checked against the commitment made then.")
    if kind == "MatchAbandoned":
        return f"The host ended the match early: {data['reason']}"
    if kind == "MatchEnded":
        return ended_line(data["results"], game_id)
    if kind == "SeedRevealed":
        return (f"The host's seed is revealed ({data['host_seed']}): anyone can now re-derive "
                "every draw of the match.")
    return None


def ended_line(results: dict[str, Any], game_id: str = "") -> str:
    return said.sentence(f"the match is {said.ended(game_id, results)}")


# -- chapters -------------------------------------------------------------------------------

def generic_chapters(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For a game that does not narrate yet: each of its events in plain words."""
    rounds: dict[int, list[str]] = {}
    for event in events:
        if event["kind"] in (*OPENING, *CLOSING, *UNTOLD):
            continue
        who = "" if event["actor"] in ("system", HOST) else f" ({event['actor']})"
        told = compact(event["data"])
        rounds.setdefault(event["round"], []).append(
            short(f"{words(event['kind'])}{who}{': ' + told if told else ''}."))
    return [{"round": n, "title": default_title(n), "lines": lines}
            for n, lines in sorted(rounds.items())]


def default_title(round: int) -> str:
    return "The opening" if round == 0 else f"Round {round}"


def settled(value: Any) -> Any:
    """`value` with every object's keys in order, as the view tables hand it out: a view
    replayed from the log and one read from the tables then tell the same words."""
    return json.loads(json.dumps(value, sort_keys=True))


def chapters(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The match as `view`'s viewer may read it, one chapter per round with something told."""
    game = get_game(view["game"])
    events, viewer = settled(view["events"]), view["viewer"]
    narrate = getattr(game, "narrate", None)
    told = narrate(events, viewer) if narrate else generic_chapters(events)
    by_round = {c["round"]: {"round": c["round"], "title": c["title"],
                             "lines": [short(line) for line in c["lines"]]} for c in told}
    before: dict[int, list[str]] = {}
    after: dict[int, list[str]] = {}
    for event in events:
        line = match_line(event, viewer, view["game"])
        if line is not None:
            side = before if event["kind"] in OPENING else after
            side.setdefault(event["round"], []).append(short(line))
    for n in {*before, *after}:
        by_round.setdefault(n, {"round": n, "title": default_title(n), "lines": []})
    for n, chapter in by_round.items():
        chapter["lines"] = [*before.get(n, []), *chapter["lines"], *after.get(n, [])]
    return [by_round[n] for n in sorted(by_round) if by_round[n]["lines"]]


def told_by(view: dict[str, Any], seqs: Iterable[int]) -> list[dict[str, Any]]:
    """What entries `seqs` (those one command just recorded) add to `view`'s story: the lines
    the story tells with them and not before them, under their rounds' titles, as the pages
    and `view` tell the same entries (a command's answer at the terminal)."""
    wanted = sorted(seqs)
    if not wanted:
        return []
    first, last = wanted[0], wanted[-1]
    events = view["events"]
    before = chapters({**view, "events": [e for e in events if e["seq"] < first]})
    after = chapters({**view, "events": [e for e in events if e["seq"] <= last]})
    known = {c["round"]: Counter(c["lines"]) for c in before}
    told = []
    for chapter in after:
        old = known.get(chapter["round"], Counter())
        new = []
        for line in chapter["lines"]:
            if old[line]:
                old[line] -= 1
            else:
                new.append(line)
        if new:
            told.append({**chapter, "lines": new})
    return told


def bullets(lines: Iterable[str]) -> list[list[str]]:
    """A chapter's lines as the bullets a reader sees: a line that begins with a space goes on
    with the one before it (a list too long for one line of LINE characters, its items
    carried over), so one sentence is one bullet, never a second bullet that starts mid-list."""
    items: list[list[str]] = []
    for line in lines:
        if items and line[:1].isspace():
            items[-1].append(line.strip())
        else:
            items.append([line.strip()])
    return items


def told_alone(view: dict[str, Any], told: list[dict[str, Any]],
               every: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The chapters of what only the viewer was told (`told`), each headed as the same round
    is in the whole story (`every`): the private events alone lack the round's context."""
    titles = {c["round"]: c["title"] for c in every}
    return [{**c, "title": titles.get(c["round"], c["title"])}
            for c in chapters({**view, "events": told})]


# -- the rest of the game's surface ---------------------------------------------------------

def picture(view: dict[str, Any], open_round: int | None = None) -> str | None:
    """The game's SVG of the viewer's summary, else the match's timeline (`open_round`: the
    round open at that moment, where the reader knows it)."""
    game = get_game(view["game"])
    draw = getattr(game, "picture", None)
    drawn = draw(settled(view["summary"])) if draw else None
    if drawn is not None:
        return drawn
    from projections.timeline import timeline  # xml's escape loads urllib: pages' alone

    return timeline(view, results_of(view), open_round)


def scoreboard(view: dict[str, Any]) -> dict[str, Any] | None:
    board = getattr(get_game(view["game"]), "scoreboard", None)
    return board(settled(view["summary"])) if board else None


def forms(view: dict[str, Any], viewer: str) -> list[dict[str, Any]]:
    """What `viewer` may send now: the game's forms, else one per command of the game that
    `viewer`'s side sends (the rules answer every command all the same)."""
    game = get_game(view["game"])
    drawn = getattr(game, "forms", None)
    if drawn is not None:
        return drawn(settled(view["summary"]), viewer)
    side = HOST if viewer == HOST else "player"
    players = players_of(view)
    return [{"command": name, "label": spec.label or words(name),
             "fields": [{"name": arg, "kind": a.kind, "label": a.label or arg,
                         "required": a.required,
                         "choices": players if a.kind == "player" else None}
                        for arg, a in spec.args.items()]}
            for name, spec in getattr(game, "COMMANDS", {}).items() if spec.actor == side]


def declared(game_id: str, command: str) -> dict[str, dict[str, Any]]:
    """The kind (and a list's item kind) of each argument of `command`, where the game
    declares them."""
    spec = getattr(get_game(game_id), "COMMANDS", {}).get(command)
    return {} if spec is None else {arg: {"kind": a.kind, "items": a.items}
                                    for arg, a in spec.args.items()}


# -- facts the page shows beside the story --------------------------------------------------

def players_of(view: dict[str, Any]) -> list[str]:
    created = next((e for e in view["events"] if e["kind"] == "MatchCreated"), None)
    return list(created["data"]["players"]) if created else []


def season_of(view: dict[str, Any]) -> str | None:
    created = next((e for e in view["events"] if e["kind"] == "MatchCreated"), None)
    return created["data"]["season"] if created else None


def results_of(view: dict[str, Any]) -> dict[str, Any] | None:
    """The results the match published at its end, if it has ended."""
    ended = next((e for e in reversed(view["events"]) if e["kind"] == "MatchEnded"), None)
    return ended["data"]["results"] if ended else None


def abandoned(view: dict[str, Any]) -> str | None:
    found = next((e for e in view["events"] if e["kind"] == "MatchAbandoned"), None)
    return found["data"]["reason"] if found else None


def deadline_of(view: dict[str, Any]) -> dict[str, Any] | None:
    """The deadline the host last set, unless a close or the end came after it."""
    latest = None
    for event in view["events"]:
        if event["kind"] == "DeadlineSet":
            latest = event["data"]
        elif event["kind"] in ("MatchEnded", "MatchAbandoned") or (
                event["kind"] == "CommandAccepted" and event["actor"] == HOST
                and str(event["data"].get("name", "")).startswith("close_")):
            latest = None
    return latest


def ended(view: dict[str, Any]) -> bool:
    return any(e["kind"] in ("MatchEnded", "MatchAbandoned") for e in view["events"])


def rounds_of(view: dict[str, Any]) -> list[int]:
    """The rounds a reader can step through: 0 (the opening) to the last one logged."""
    last = view["as_of"]["round"] or 0
    return list(range(last + 1))

