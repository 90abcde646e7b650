"""The `arbiter` command line: thin handlers over the application service.

Every command prints text for a person, or JSON with `--json`; input that cannot be used, or a
store that cannot be reached, is one line `error: CODE: message` on stderr and exit code 2.
docs/cli.md has the conventions. Commands import what they need when they run, so a command
that does not serve never loads the HTTP stack, nor PostgreSQL's driver for an SQLite store.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from commands.cli.announce import announce
from commands.cli.audit import register as register_audit
from commands.cli.console import fail, one_line
from commands.cli.disputes import register as register_disputes
from commands.cli.games import games_command
from commands.cli.match import register as register_match
from commands.cli.season import register as register_season
from commands.cli.serve import register as register_service
from commands.cli.start import register as register_start
from commands.cli.store import register as register_store
from commands.cli.verify import register as register_verify


class Arbitrated(click.Group):
    """Turns expected failures into one line on stderr and exit code 2, usage errors too."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as error:
            line = one_line(error, ctx.obj["db"] if ctx.obj else None)
            if line is None:
                raise  # a bug: its traceback is the report
            fail(line)

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as error:
            where = error.ctx.command_path if error.ctx else "arbiter"
            click.echo(f"error: invalid_usage: {error.format_message()} (see {where} "
                       "--help)", err=True)
            code = error.exit_code
        except click.ClickException as error:
            error.show()
            code = error.exit_code
        except click.Abort:
            click.echo("Aborted!", err=True)
            code = 1
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=Arbitrated, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", envvar="ARBITER_DATABASE_URL", default=None, metavar="URL",
              help="sqlite:///FILE (default sqlite:///arbiter.db) or postgresql://USER@HOST/DB "
                   "(also ARBITER_DATABASE_URL).")
@click.pass_context
def cli(ctx: click.Context, db: str | None) -> None:
    """Arbiter: run mind-game matches on an append-only, verifiable ledger.

    New here? `arbiter demo` plays the sample matches; `arbiter init` sets up a host (the
    store, the signing key, the HTTP token). README.md walks through a first match.
    """
    ctx.obj = {"db": db}


register_match(cli)
cli.add_command(games_command)
register_start(cli)
register_audit(cli)
register_verify(cli)
register_disputes(cli)
register_service(cli)
register_store(cli)
register_season(cli)
cli.add_command(announce)


def main() -> None:
    cli(prog_name="arbiter")
