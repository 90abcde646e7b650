"""Reading what a person types or pastes: command arguments, rounds, pasted checkpoints.

KEY=VALUE arguments are read by the kind the game's `COMMANDS` gives each argument
(`domain.decider.Arg`): a list is `a,b` (or a JSON array), an integer or a truth value is read
as JSON, a text or a player id is taken as typed. Where the game names no kind, a value that
reads as JSON is taken as JSON (3, ["a","b"], true) and anything else as text; a text holding
commas is then also offered split into a list, which the command line sends only when the rules
refuse the text (`Parsed.split`). docs/cli.md describes it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.errors import RuleViolation

AS_JSON = ("int", "bool", "object")


@dataclass(frozen=True)
class Parsed:
    """The arguments as read, and (when no spec said, and some text held commas) the same
    arguments with those texts split into lists."""

    args: dict[str, Any]
    split: dict[str, Any] | None = None


def parse_args(pairs: tuple[str, ...] | list[str], spec: Any = None) -> Parsed:
    """KEY=VALUE pairs, read by `spec` (a `CommandSpec`) when the game declares one."""
    kinds = {name: arg for name, arg in getattr(spec, "args", {}).items()}
    args: dict[str, Any] = {}
    guessed: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise RuleViolation("invalid_input", f"{pair!r} is not KEY=VALUE")
        arg = kinds.get(key)
        if arg is not None:
            args[key] = by_kind(value, arg.kind, arg.items)
            continue
        args[key] = json_or_text(value)
        if isinstance(args[key], str) and "," in value and spec is None:
            guessed[key] = split(value)
    return Parsed(args, {**args, **guessed} if guessed else None)


def by_kind(value: str, kind: str, items: str | None = None) -> Any:
    if kind == "list":
        found = json_or_text(value)
        if isinstance(found, list):
            return found
        return [by_kind(item, items or "text") for item in split(value)]
    if kind in AS_JSON:
        return json_or_text(value)
    if kind in ("text", "player"):
        return text(value)
    return json_or_text(value)


def json_or_text(value: str) -> Any:
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        return value


def text(value: str) -> str:
    """As typed; a JSON string literal ("...") is unquoted, so any text can be sent."""
    if value.startswith('"'):
        found = json_or_text(value)
        if isinstance(found, str):
            return found
    return value


def split(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


def spec_of(game: Any, name: str) -> Any:
    """The game's `CommandSpec` for command `name`, or None when it declares none."""
    from domain.decider import CommandSpec

    commands = getattr(game, "COMMANDS", None)
    found = commands.get(name) if isinstance(commands, Mapping) else None
    return found if isinstance(found, CommandSpec) else None


def read_json(path: str | Path, what: str = "file") -> Any:
    """A JSON file, or the one-line error that says which file is not JSON and where."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise RuleViolation("invalid_file", f"{what} {path} is not JSON: {error.msg} at line "
                            f"{error.lineno} column {error.colno}") from None


def pasted_note(text: str) -> str:
    """A signed note as a person pasted or saved it: a chat that dropped the final newline
    loses nothing the signature covers, so that one newline is put back. Anything else wrong
    with the note is still refused by the strict parser."""
    return text if text.endswith("\n") else text + "\n"
