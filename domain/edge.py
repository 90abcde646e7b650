"""The domain's edge: every command checked against its declared arguments before the rules.

Whatever sends it (the command line, HTTP, a match file, the Python API), a command's
arguments are refused here when a key is not declared (`unknown_argument`), a value is too big
(`too_large`: texts, lists, objects, nesting) or a text holds what no log line should (a
control character, a lone surrogate: `invalid_text`). The rules then judge the values with
their own codes; numbers are theirs alone (each game bounds its own, and the log refuses what
it cannot hold after them). Errors quote at most `EXCERPT` characters of what was sent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from domain.decider import Arg, CommandSpec
from domain.errors import RuleViolation

NAME_MAX = 100  # an id, a player, a command name, a short text a game takes
TEXT_MAX = 2000  # a reason, a contribution to the seed
LIST_MAX = 100  # items of a list (a game's max_items is its rules'), keys of an object
DEPTH_MAX = 4  # lists and objects nested in an argument
ID_MAX = 300  # a command id, the service's namespace prefix included
EXCERPT = 60
# A text holds no control character but newline and tab, and no lone surrogate: Unicode's
# categories Cc (a fixed set of 65) and Cs, as one search rather than a lookup a character.
UNFIT = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")

# The match's own commands, beside each game's COMMANDS.
MATCH_SPECS: dict[str, CommandSpec] = {
    "contribute": CommandSpec("player", {"text": Arg("text", max_length=TEXT_MAX)}),
    "open_match": CommandSpec("host"),
    "set_deadline": CommandSpec("host", {"deadline": Arg("text", max_length=64)}),
    "correct": CommandSpec("host", {
        "reason": Arg("text", max_length=TEXT_MAX), "void": Arg("int", required=False),
        "as": Arg("player", required=False), "command": Arg("text", required=False),
        "args": Arg("object", required=False)}),
    "end": CommandSpec("host", {"reason": Arg("text", max_length=TEXT_MAX)}),
}


def excerpt(value: object) -> str:
    """`value` as Python writes it, cut to EXCERPT characters."""
    text = repr(value) if not isinstance(value, str) or len(value) <= EXCERPT else \
        repr(value[:EXCERPT])
    return text if len(text) <= EXCERPT + 2 else text[:EXCERPT] + "…"


def check_name(value: object, what: str) -> str:
    """An id or a command name: a text of 1 to NAME_MAX printable characters."""
    if not isinstance(value, str):
        raise RuleViolation("invalid_text", f"{what} must be a text")
    if len(value) > NAME_MAX:
        raise RuleViolation("too_large", f"{what} {excerpt(value)} has {len(value)} "
                            f"characters; at most {NAME_MAX}")
    if not value or not value.isprintable() or value != value.strip():
        raise RuleViolation("invalid_text", f"{what} {excerpt(value)}: printable characters "
                            "without surrounding spaces")
    return value


def check_text(value: str, where: str, limit: int) -> None:
    if len(value) > limit:
        raise RuleViolation("too_large", f"{where}: {len(value)} characters; at most {limit}")
    if UNFIT.search(value):
        raise RuleViolation("invalid_text", f"{where}: {excerpt(value)} holds a control "
                            "character or a lone surrogate")


def check_command_id(command_id: object) -> None:
    if command_id is None:
        return
    if not isinstance(command_id, str):
        raise RuleViolation("invalid_text", "a command id must be a text")
    if len(command_id) > ID_MAX:
        raise RuleViolation("too_large", f"command id of {len(command_id)} characters; at "
                            f"most {ID_MAX}")
    if not command_id or not command_id.isprintable():
        raise RuleViolation("invalid_text", f"command id {excerpt(command_id)}: printable "
                            "characters only")


def check_args(name: str, spec: CommandSpec | None, args: Mapping[str, Any]) -> None:
    """Refuse an undeclared key, an oversized value or an unfit text. A command nobody
    declared is left to the rules (they name it), its arguments bounded all the same."""
    declared = None if spec is None else spec.args
    if len(args) > LIST_MAX:
        raise RuleViolation("too_large", f"{name}: {len(args)} arguments")
    for key, value in args.items():
        if not isinstance(key, str):
            raise RuleViolation("invalid_command", "argument names must be texts")
        if declared is not None and key not in declared:
            known = ", ".join(declared) or "none"
            raise RuleViolation("unknown_argument", f"{name} takes no argument "
                                f"{excerpt(key)} (it takes: {known})")
        check_text(key, f"{name}: an argument name", NAME_MAX)
        arg = None if declared is None else declared[key]
        check_value(value, arg, f"{name}.{key}", 1)


def check_required(name: str, spec: CommandSpec | None, args: Mapping[str, Any]) -> None:
    """Refuse a command sent without an argument its declaration requires, naming it (the
    rules would read it as missing: "None is not a player"). A match that has ended answers
    with its rules' code first (`Match._decide_after_end`), and the match's own commands name
    what they lack in their own codes (`reason_required`)."""
    for key, arg in (spec.args if spec is not None else {}).items():
        if arg.required and key not in args:
            what = f" ({arg.label})" if arg.label else ""
            raise RuleViolation("missing_argument", f"{name} needs {key}{what}")


def check_value(value: Any, arg: Arg | None, where: str, depth: int) -> None:
    """Bound one value by its declaration (an undeclared one by the defaults)."""
    if depth > DEPTH_MAX:
        raise RuleViolation("too_large", f"{where}: nested more than {DEPTH_MAX} deep")
    if isinstance(value, str):
        limit = arg.max_length if arg is not None and arg.max_length else NAME_MAX
        check_text(value, where, limit)
    elif isinstance(value, list | tuple):
        # A game's own max_items is its rules' to enforce, with their code (too_many_votes).
        if len(value) > LIST_MAX:
            raise RuleViolation("too_large", f"{where}: {len(value)} items; at most {LIST_MAX}")
        for item in value:
            check_value(item, None, f"{where}[]", depth + 1)
    elif isinstance(value, Mapping):
        if len(value) > LIST_MAX:
            raise RuleViolation("too_large", f"{where}: {len(value)} keys; at most {LIST_MAX}")
        for key, item in value.items():
            if isinstance(key, str):
                check_text(key, f"{where}: a key", NAME_MAX)
            check_value(item, None, f"{where}.{excerpt(key)}", depth + 1)
