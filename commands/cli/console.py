"""What every command of the command line shares: the store and the host's key, `--json`, and
the one-line error with exit code 2 for input that cannot be used.

Imports stay light here: `arbiter --help` and the commands that print from a file must not pay
for the store, the HTTP stack or PostgreSQL's driver. Each command imports what it needs.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeGuard

import click

from audit.errors import AuditError
from domain.errors import RuleViolation

if TYPE_CHECKING:
    from commands.service.arbiter import Arbiter
    from commands.service.reading import ReadSide

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def noted(note: str | None) -> None:
    """A line the reader should know beside the answer (where it was read from), on stderr so
    that `--json` output stays one document."""
    if note:
        click.echo(f"note: {note}", err=True)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def db_of(ctx: click.Context) -> str | None:
    return ctx.find_root().obj["db"]


def app_of(ctx: click.Context, signing: bool = True) -> Arbiter:
    """The service on the chosen store, signing each round's checkpoint with the host's key
    (its key file, as `commands.service.keys.signer_from` finds it) when `signing`."""
    from commands.service.arbiter import Arbiter
    from commands.service.keys import signer_from

    return Arbiter(db_of(ctx), signer=signer_from() if signing else None)


def read_side_of(ctx: click.Context) -> ReadSide:
    """What a command that only reads reads: the view tables, the logs opened only if one
    must be read past them (commands.service.reading.read_side)."""
    from commands.service.reading import read_side

    return read_side(db_of(ctx))


def one_line(error: BaseException, url: str | None) -> str | None:
    """`CODE: message` for a failure that is the input's or the store's, not a bug (None).
    The message in plain words (projections/words.py): a command it names as it is typed,
    without backticks; a name in a reader's quotes, not a repr's."""
    if isinstance(error, RuleViolation | AuditError) or _is(error, "audit.notes", "NoteError"):
        from projections.words import plain

        return f"{error.code}: {plain(error.message)}"
    if _is(error, "pydantic", "ValidationError"):
        first = error.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "file"
        return f"invalid_file: {where}: {first['msg']}"
    if isinstance(error, FileNotFoundError):
        return f"no_file: no file {error.filename}"
    if isinstance(error, IsADirectoryError):
        return f"invalid_input: {error.filename} is a folder, not a file"
    if isinstance(error, OSError):
        return f"invalid_input: {error.strerror or error}: {error.filename or ''}".rstrip(": ")
    if isinstance(error, json.JSONDecodeError):
        return f"invalid_input: {error}"
    if _is(error, "eventsourcing.persistence", "OperationalError", "InterfaceError") or \
            _is(error, "psycopg", "OperationalError"):
        from commands.service.writers import REFUSALS
        from commands.store.settings import database_url, store_name

        url = database_url(url)
        why = why_unreachable(url, error)
        if any(sign in why for sign in REFUSALS):
            return f"store_busy: {store_name(url)} refuses more connections: {why}"
        return f"store_unreachable: cannot reach {store_name(url)}: {why}"
    if _is(error, "eventsourcing.persistence", "PersistenceError"):
        from commands.store.settings import database_url, store_name

        return f"store_error: {store_name(database_url(url))}: {error}"
    return None


def why_unreachable(url: str, error: BaseException) -> str:
    """The connection pool only says it waited; one direct attempt says why (the server
    refused, the database does not exist, the password is wrong) within a second."""
    if not url.startswith("postgres"):
        return str(error)
    import psycopg

    from commands.store.settings import persistence_env

    env = persistence_env(url)
    try:
        psycopg.connect(dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"],
                        port=env["POSTGRES_PORT"], user=env["POSTGRES_USER"],
                        password=env["POSTGRES_PASSWORD"], connect_timeout=1).close()
    except psycopg.Error as direct:
        return " ".join(line.strip() for line in str(direct).splitlines())
    return str(error)


def _is(error: BaseException, module: str, *names: str) -> TypeGuard[Any]:
    """Whether `error` is one of a module's exception classes; a module never imported raised
    nothing, so this never imports it (and the class, known by name only, types as Any)."""
    loaded = sys.modules.get(module)
    return loaded is not None and isinstance(error, tuple(getattr(loaded, n) for n in names))
