"""A posted form as a command's arguments, by the kinds the game declares for them.

Nothing here judges a value: a number that is not one goes on as the text it is, so the rules
answer it with their own code, exactly as they answer the API."""

from __future__ import annotations

import re
from typing import Any

from starlette.datastructures import FormData

from commands.web.bounds import loads
from domain.errors import RuleViolation

PREFIX = "arg."
INTEGER = re.compile(r"-?\d{1,16}")


def number_or_text(value: str) -> Any:
    value = value.strip()
    return int(value) if INTEGER.fullmatch(value) else value


def field_kinds(form: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    return {f["name"]: f for f in (form or {}).get("fields", [])}


def args_of(data: FormData, fields: dict[str, dict[str, Any]],
            items: dict[str, str | None]) -> dict[str, Any]:
    """The `arg.NAME` fields of a posted form. `fields`: the form's fields by name;
    `items`: the kind of a list argument's items, where the game declares it."""
    args: dict[str, Any] = {}
    names = {key.removeprefix(PREFIX) for key in data if key.startswith(PREFIX)}
    for name in sorted(names | {n for n, f in fields.items() if f["kind"] == "bool"}):
        kind = fields.get(name, {}).get("kind", "guess")
        values = [v for v in data.getlist(PREFIX + name) if isinstance(v, str)]
        if kind == "bool":
            args[name] = bool(values) and values[-1] not in ("", "false", "off")
            continue
        if not any(v.strip() for v in values):
            continue  # left empty: the rules say whether it was needed
        if kind == "list":
            parts = values if len(values) > 1 else re.split(r"[,\s]+", values[0].strip())
            each = items.get(name)
            args[name] = [number_or_text(p) if each == "int" else p.strip()
                          for p in parts if p.strip()]
        elif kind == "int":
            args[name] = number_or_text(values[-1])
        elif kind in ("object", "guess"):
            args[name] = parsed(name, values[-1], strict=kind == "object")
        else:
            args[name] = values[-1]
    return args


def parsed(name: str, text: str, strict: bool) -> Any:
    """JSON, where the game wants an object; elsewhere JSON if it reads as JSON (3, true,
    ["a", "b"]), else the text itself, as `arbiter match submit KEY=VALUE` reads it."""
    try:
        return loads(text)
    except ValueError:  # not JSON, nested too deep, a number of thousands of digits
        if strict:
            raise RuleViolation("invalid_input", f"{name}: write it as JSON, e.g. "
                                                 '{"alice": 2, "bob": 1}') from None
        return text
