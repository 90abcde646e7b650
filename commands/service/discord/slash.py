"""Slash commands drawn from each game's declared commands (`COMMANDS`), and the options of an
invocation turned back into the command's arguments.

One slash command a command name, over every game: a name two games declare (King's Court's
`vote` of a candidate, The Merchants' Guild's `vote` of bills) takes the options of both, each
required only where every game requires it, and the match's own game then refuses what it
does not take, in its words. Discord has no list option and no object option, so:

- a list of at most `NUMBERED` items is that many options `NAME_1`, `NAME_2`, ... (the first
  one required when the list is), each typed and completed like one item;
- a longer list is one text option, its items separated by commas;
- an object is one text option holding it as JSON.

A player argument is a text option completed from the match's players (autocomplete: the
players differ from match to match); a number an integer option within the rules' range where
the game declares it (`Arg.minimum`, `Arg.maximum`), else Discord's. Every game command takes
an optional `match` (needed only by a player of several running matches), a close its `round`
(as `arbiter match close --round`), and a spend a `confirm` (a spend is never given back).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.decider import Arg, CommandSpec, Game
from domain.edge import NAME_MAX
from domain.errors import RuleViolation
from domain.games import game_ids, get_game
from projections import story

# Discord's option types (application-commands#application-command-object-option-type).
STRING, INTEGER, BOOLEAN = 3, 4, 5
CHAT_INPUT = 1  # a slash command
GUILD, BOT_DM = 0, 1  # interaction contexts: a server's channels, the bot's DMs
GUILD_INSTALL = 0
NUMBERED = 4  # a list of at most this many items becomes that many options
DESCRIPTION_MAX = 100  # characters of a command's or an option's description
TEXT_MAX = 6000  # characters Discord lets a text option hold
INT_MIN, INT_MAX = -(2**53) + 1, 2**53 - 1  # Discord's INTEGER option holds no more

# Arbiter's own commands, beside the games'.
OWN = ("join", "status", "rules")


@dataclass(frozen=True)
class Declared:
    """A command name and every game that declares it."""

    name: str
    specs: Mapping[str, CommandSpec]  # game id -> its declaration


def described(text: str) -> str:
    text = " ".join(text.split()) or "—"
    return text if len(text) <= DESCRIPTION_MAX else text[:DESCRIPTION_MAX - 1] + "…"


def declared(games: Iterable[str] | None = None) -> list[Declared]:
    names: dict[str, dict[str, CommandSpec]] = {}
    for game_id in game_ids() if games is None else games:
        for name, spec in getattr(get_game(game_id), "COMMANDS", {}).items():
            names.setdefault(name, {})[game_id] = spec
    return [Declared(name, specs) for name, specs in sorted(names.items())]


def item_type(kind: str | None) -> int:
    return {"int": INTEGER, "bool": BOOLEAN}.get(kind or "text", STRING)


def arg_options(name: str, arg: Arg, required: bool) -> list[dict[str, Any]]:
    """The options standing for one argument (module docstring)."""
    about = arg.label or name.replace("_", " ")
    if arg.kind == "list" and arg.max_items is not None and arg.max_items <= NUMBERED:
        return [option(f"{name}_{i}", described(f"{about} ({i} of up to {arg.max_items})"),
                       arg.items, required and i == 1)
                for i in range(1, arg.max_items + 1)]
    if arg.kind == "list":
        return [{"type": STRING, "name": name, "required": required, "max_length": TEXT_MAX,
                 "description": described(f"{about}, separated by commas")}]
    if arg.kind == "object":
        return [{"type": STRING, "name": name, "required": required, "max_length": TEXT_MAX,
                 "description": described(f"{about}, as JSON: {{\"key\": value}}")}]
    found = option(name, described(about), arg.kind, required)
    if arg.kind == "text":
        found["max_length"] = min(arg.max_length or NAME_MAX, TEXT_MAX)
    if arg.kind == "int":  # the rules' range where they fix it, else any whole number
        found["min_value"] = INT_MIN if arg.minimum is None else arg.minimum
        found["max_value"] = INT_MAX if arg.maximum is None else arg.maximum
    return [found]


def option(name: str, description: str, kind: str | None, required: bool) -> dict[str, Any]:
    found: dict[str, Any] = {"type": item_type(kind), "name": name, "description": description,
                             "required": required}
    if kind == "player":
        found["autocomplete"] = True
    return found


def game_command(command: Declared) -> dict[str, Any]:
    """The slash command of one declared command name."""
    specs = command.specs
    first = next(iter(specs.values()))
    if len(specs) == 1:
        about = first.label or command.name.replace("_", " ")
    else:
        about = f"{command.name.replace('_', ' ')} ({', '.join(story.game_name(g) for g in specs)})"
    options: dict[str, dict[str, Any]] = {}
    for spec in specs.values():
        for name, arg in spec.args.items():
            everywhere = all(name in s.args and s.args[name].required for s in specs.values())
            for found in arg_options(name, arg, arg.required and everywhere):
                known = options.setdefault(found["name"], found)
                if known["type"] != found["type"]:
                    raise ValueError(f"{command.name}.{found['name']}: two games give it "
                                     "different types")
    extra = [{"type": STRING, "name": "match", "required": False, "autocomplete": True,
              "description": "which of your matches (needed only when you play in several)"}]
    if any(command.name in get_game(g).CLOSES for g in specs):
        extra.insert(0, {"type": INTEGER, "name": "round", "required": True, "min_value": 0,
                         "description": "the round you mean to close (the open one)"})
    prices: set[int] = {getattr(get_game(g), "SPENDS", {})[command.name] for g in specs
                        if command.name in getattr(get_game(g), "SPENDS", {})}
    if prices:
        costs = " or ".join(str(p) for p in sorted(prices))
        extra.insert(0, {"type": BOOLEAN, "name": "confirm", "required": True,
                         "description": described(f"True to spend {costs} garnets: a spend "
                                                  "is never given back")})
    listed = [*options.values(), *extra]
    listed.sort(key=lambda o: not o["required"])  # Discord: required options first
    return slash(command.name, described(about), listed)


def slash(name: str, description: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    return {"name": name, "type": CHAT_INPUT, "description": description, "options": options,
            "contexts": [GUILD, BOT_DM], "integration_types": [GUILD_INSTALL]}


def own_commands() -> list[dict[str, Any]]:
    which = {"type": STRING, "name": "match", "required": False, "autocomplete": True,
             "description": "which of your matches (needed only when you play in several)"}
    return [
        slash("join", "Link your Discord account to your player, with the personal link the "
              "host sent you", [{"type": STRING, "name": "link", "required": True,
                                 "max_length": 500,
                                 "description": "your personal link (…/m/MATCH/join#CODE)"}]),
        slash("status", "Your match now: your role, garnets, what you sent and the deadline",
              [which]),
        slash("rules", "The game's rules, and what you may send now", [which]),
    ]


def commands(games: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Every slash command, as Discord's bulk overwrite takes them."""
    found = [*own_commands(), *(game_command(c) for c in declared(games))]
    clash = {c["name"] for c in found[:len(OWN)]} & {c["name"] for c in found[len(OWN):]}
    if clash:
        raise ValueError(f"a game declares {', '.join(sorted(clash))}, one of Arbiter's own")
    return found


# -- an invocation's options, back into a command's arguments ------------------------------

def given(options: list[dict[str, Any]] | None) -> dict[str, Any]:
    """The options of an invocation, by name (Discord sends only those the user filled)."""
    return {o["name"]: o.get("value") for o in options or () if isinstance(o, dict)
            and isinstance(o.get("name"), str)}


def arguments(game: Game, name: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of `name` in `game` from the options given; an option the game's command
    does not take is passed on under its argument's name, for the edge to refuse in words."""
    spec = getattr(game, "COMMANDS", {}).get(name)
    args: dict[str, Any] = {}
    taken = {"match", "round", "confirm"}
    for arg_name, arg in (spec.args.items() if spec else ()):
        numbered = [f"{arg_name}_{i}" for i in range(1, (arg.max_items or 0) + 1)]
        if arg.kind == "list" and arg.max_items is not None and arg.max_items <= NUMBERED:
            taken.update(numbered)
            items = [options[n] for n in numbered if options.get(n) not in (None, "")]
            if items or arg.required:
                args[arg_name] = items
        elif arg_name in options:
            taken.add(arg_name)
            args[arg_name] = parsed(arg, arg_name, options[arg_name])
    for other, value in options.items():
        if other not in taken:
            base, _, index = other.rpartition("_")
            args.setdefault(base if index.isdigit() else other, value)
    return args


def parsed(arg: Arg, name: str, value: Any) -> Any:
    if not isinstance(value, str) or arg.kind not in ("list", "object"):
        return value
    if arg.kind == "object":
        try:
            found = json.loads(value)
        except ValueError:
            raise RuleViolation("invalid_input", f"{name}: write it as JSON, "
                                "{\"key\": value}") from None
        if not isinstance(found, dict):
            raise RuleViolation("invalid_input", f"{name}: write it as a JSON object")
        return found
    items = [item.strip() for item in value.split(",") if item.strip()]
    if arg.items == "int":
        try:
            return [int(item) for item in items]
        except ValueError:
            raise RuleViolation("invalid_input", f"{name}: whole numbers separated by "
                                "commas") from None
    return items
