"""The `arbiter` command line: thin handlers over the application service.

Every command prints text for a person, or JSON with `--json`; input that cannot be used, or a
store that cannot be reached, is one line `error: CODE: message` on stderr and exit code 2.
docs/cli.md has the conventions. Commands import what they need when they run, so a command
that does not serve never loads the HTTP stack, nor PostgreSQL's driver for an SQLite store.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from commands.cli.console import fail, one_line

# Each module of the command line, with the commands its `register(cli)` adds. A module is
# imported when one of its commands runs, so `arbiter verify` loads no store, no HTTP stack and
# no rules it does not need; `--help`, or a name no module lists, imports them all.
MODULES = {
    "commands.cli.match": ("match", "view", "play"),
    "commands.cli.games": ("games",),
    "commands.cli.start": ("init", "demo"),
    "commands.cli.audit": ("keys", "checkpoint", "export", "check"),
    "commands.cli.verify": ("verify", "receipt"),
    "commands.cli.publish": ("publish",),
    "commands.cli.disputes": ("replay", "diff", "bisect"),
    "commands.cli.serve": ("serve", "projections", "tokens"),
    "commands.cli.store": ("store",),
    "commands.cli.season": ("season",),
    "commands.cli.announce": ("announce",),
    "commands.cli.discord": ("discord",),
    "commands.cli.witness": ("witness",),
}


class Arbitrated(click.Group):
    """Turns expected failures into one line on stderr and exit code 2, usage errors too.
    Loads each command's module when it is asked for (`MODULES`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        for module in MODULES:
            self._load(module)
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            named = [m for m, names in MODULES.items() if cmd_name in names]
            for module in named or MODULES:
                self._load(module)
        return super().get_command(ctx, cmd_name)

    def _load(self, module: str) -> None:
        if module not in self.loaded:
            self.loaded.add(module)
            importlib.import_module(module).register(self)

    @property
    def loaded(self) -> set[str]:
        return self.__dict__.setdefault("_loaded", set())

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
            click.echo(f"error: invalid_usage: {error.format_message()} (see `{where} "
                       "--help`)", err=True)
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




def main() -> None:
    cli(prog_name="arbiter")
