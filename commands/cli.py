"""The `arbiter` command line: thin handlers over the application service."""

from __future__ import annotations

import json
import secrets
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click
from pydantic import ValidationError

from audit import keys
from audit.bundle import FULL, export
from audit.errors import AuditError
from audit.notes import NoteError
from audit.verify import verify
from commands import render
from commands.app import Arbiter, Outcome
from commands.audit_cli import register, signer_from
from commands.matchfile import load, play
from commands.season_cli import demo_seasons
from commands.season_cli import register as register_season
from commands.service_cli import register as register_service
from domain.decider import HOST, PUBLIC
from domain.errors import RuleViolation
from projections.views import view


class Arbitrated(click.Group):
    """Turns expected failures into one line on stderr and exit code 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (RuleViolation, NoteError, AuditError) as error:
            fail(f"{error.code}: {error.message}")
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(x) for x in first["loc"])
            fail(f"invalid_file: {where}: {first['msg']}")
        except (OSError, json.JSONDecodeError) as error:
            fail(f"invalid_input: {error}")


def fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def app_of(ctx: click.Context) -> Arbiter:
    """The service, signing each round's checkpoint when the host's key file exists."""
    return Arbiter(ctx.obj["db"], signer=signer_from())


def parse_args(pairs: tuple[str, ...]) -> dict[str, Any]:
    """KEY=VALUE pairs; a value that reads as JSON is taken as JSON (3, ["a","b"], true)."""
    args: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise RuleViolation("invalid_input", f"{pair!r} is not KEY=VALUE")
        try:
            args[key] = json.loads(value)
        except json.JSONDecodeError:
            args[key] = value
    return args


@click.group(cls=Arbitrated)
@click.option("--db", envvar="ARBITER_DATABASE_URL", default=None, metavar="URL",
              help="sqlite:///FILE (default sqlite:///arbiter.db) or postgresql://USER@HOST/DB.")
@click.pass_context
def cli(ctx: click.Context, db: str | None) -> None:
    """Arbiter: run mind-game matches on an append-only, verifiable ledger."""
    ctx.obj = {"db": db}


# -- matches ------------------------------------------------------------------------------

@cli.group()
def match() -> None:
    """Matches: create, submit, spend, close rounds, correct, end."""


@match.command("create")
@click.argument("match_id", metavar="MATCH")
@click.option("--season", "season_name", required=True)
@click.option("--game", required=True, help="kings_court, ...")
@click.option("--players", default=None,
              help="Comma-separated player ids in seat order (a Death Match's and the Final's "
                   "come from the season).")
@click.option("--setup", "setup_text", default="{}",
              help="The game's setup as JSON, or @FILE.")
@click.option("--host-seed", default=None, help="Secret seed (default: 256 random bits).")
@click.option("--salt-key", default=None, help="64 hex digits (default: random).")
@click.option("--from", "from_match", default=None, metavar="MAIN",
              help="A Death Match: MAIN's EC against its DMO (tile_joust).")
@click.option("--ec", default=None, help="With --from: which EC, when MAIN has several.")
@click.option("--final", is_flag=True, help="The Final Match of the last two (tile_joust).")
@click.pass_context
def match_create(ctx: click.Context, match_id: str, season_name: str, game: str,
                 players: str | None, setup_text: str, host_seed: str | None,
                 salt_key: str | None, from_match: str | None, ec: str | None,
                 final: bool) -> None:
    """Open a match of GAME for PLAYERS; commits the seed and the hidden setup."""
    if setup_text.startswith("@"):
        setup_text = Path(setup_text[1:]).read_text()
    setup = json.loads(setup_text)
    if not isinstance(setup, dict):
        raise RuleViolation("invalid_setup", "the setup must be a JSON object")
    if players is not None:
        setup["players"] = [p.strip() for p in players.split(",") if p.strip()]
    elif from_match is None and not final:
        raise RuleViolation("invalid_input", "--players is required (but for --from and --final)")
    outcome = app_of(ctx).create_match(
        match_id=match_id, season=season_name, game=game, setup=setup,
        host_seed=host_seed or secrets.token_hex(32), salt_key=salt_key or secrets.token_hex(32),
        at=now(), from_match=from_match, ec=ec, final=final)
    click.echo(f"match {match_id} created; seed commitment "
               f"{outcome.told[0]['data']['seed_commitment']}")


def submit(ctx: click.Context, match_id: str, actor: str, action: str, args: dict[str, Any],
           command_id: str | None, as_json: bool) -> Outcome:
    outcome = app_of(ctx).submit(match_id, actor, action, args, at=now(), command_id=command_id)
    data = {"receipt": outcome.receipt.as_dict() if outcome.receipt else None,
            "told": outcome.told}
    render.emit(data, as_json, render.outcome_text(outcome))
    return outcome


@match.command("submit")
@click.argument("match_id", metavar="MATCH")
@click.argument("action")
@click.argument("pairs", nargs=-1, metavar="[KEY=VALUE]...")
@click.option("--as", "actor", required=True, help="The acting player (or host).")
@click.option("--id", "command_id", default=None, help="Client id: a repeat is answered once.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def match_submit(ctx: click.Context, match_id: str, action: str, pairs: tuple[str, ...],
                 actor: str, command_id: str | None, as_json: bool) -> None:
    """Submit ACTION for a player, e.g. `vote candidate=bob`."""
    submit(ctx, match_id, actor, action, parse_args(pairs), command_id, as_json)


@match.command("spend")
@click.argument("match_id", metavar="MATCH")
@click.argument("action")
@click.argument("pairs", nargs=-1, metavar="[KEY=VALUE]...")
@click.option("--as", "actor", required=True)
@click.option("--id", "command_id", default=None)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def match_spend(ctx: click.Context, match_id: str, action: str, pairs: tuple[str, ...],
                actor: str, command_id: str | None, as_json: bool) -> None:
    """Spend garnets on ACTION (e.g. `peek target=bob`); refused if it costs nothing."""
    game = app_of(ctx).match(match_id).game
    spends = getattr(game, "SPENDS", {})
    if action not in spends:
        raise RuleViolation("not_a_spend",
                            f"{action} costs no garnets; spends: {', '.join(spends) or 'none'}")
    submit(ctx, match_id, actor, action, parse_args(pairs), command_id, as_json)


@match.command("close-round")
@click.argument("match_id", metavar="MATCH")
@click.option("--command", "name", default=None,
              help="A close command of the game (e.g. close_tiebreak); default: the game's "
                   "closes in turn until the rules accept one.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def match_close(ctx: click.Context, match_id: str, name: str | None, as_json: bool) -> None:
    """Close the open round (or phase): defaults fill the gaps, results are revealed."""
    closes = [name] if name else list(app_of(ctx).match(match_id).game.CLOSES)
    refusals = []
    for close in closes:
        try:
            submit(ctx, match_id, HOST, close, {}, None, as_json)
            return
        except RuleViolation as error:  # not this phase's close
            refusals.append(error)
    raise refusals[0] if refusals else RuleViolation("wrong_state", "this game has no closes")


@match.command("host")
@click.argument("match_id", metavar="MATCH")
@click.argument("action")
@click.argument("pairs", nargs=-1, metavar="[KEY=VALUE]...")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def match_host(ctx: click.Context, match_id: str, action: str, pairs: tuple[str, ...],
               as_json: bool) -> None:
    """A host command, e.g. `open_match` or `record_dmo dmo=bob`."""
    submit(ctx, match_id, HOST, action, parse_args(pairs), None, as_json)


@match.command("deadline")
@click.argument("match_id", metavar="MATCH")
@click.argument("deadline")
@click.pass_context
def match_deadline(ctx: click.Context, match_id: str, deadline: str) -> None:
    """Set the open round's deadline (ISO 8601)."""
    submit(ctx, match_id, HOST, "set_deadline", {"deadline": deadline}, None, False)


@match.command("correct")
@click.argument("match_id", metavar="MATCH")
@click.option("--reason", required=True)
@click.option("--void", "void", type=int, default=None, help="Void the submission at SEQ.")
@click.option("--as", "player", default=None, help="Enter a command for this player.")
@click.argument("action", required=False)
@click.argument("pairs", nargs=-1, metavar="[KEY=VALUE]...")
@click.pass_context
def match_correct(ctx: click.Context, match_id: str, reason: str, void: int | None,
                  player: str | None, action: str | None, pairs: tuple[str, ...]) -> None:
    """A host correction, attributed and with a reason: void a submission, or enter one."""
    if void is not None:
        args: dict[str, Any] = {"void": void, "reason": reason}
    elif player and action:
        args = {"as": player, "command": action, "args": parse_args(pairs), "reason": reason}
    else:
        raise RuleViolation("invalid_correction", "give --void SEQ, or --as PLAYER ACTION")
    submit(ctx, match_id, HOST, "correct", args, None, False)


@match.command("end")
@click.argument("match_id", metavar="MATCH")
@click.option("--reason", required=True)
@click.pass_context
def match_end(ctx: click.Context, match_id: str, reason: str) -> None:
    """End a match before its rules finish it (no awards); reveals the seed."""
    submit(ctx, match_id, HOST, "end", {"reason": reason}, None, False)


# -- reading ------------------------------------------------------------------------------

@cli.command("view")
@click.argument("match_id", metavar="MATCH")
@click.option("--public", "public", is_flag=True, help="What everyone sees (the default).")
@click.option("--player", default=None, help="What this player sees.")
@click.option("--host", is_flag=True, help="Everything.")
@click.option("--round", "round_", type=int, default=None, help="As of the end of round N.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def view_command(ctx: click.Context, match_id: str, public: bool, player: str | None,
                 host: bool, round_: int | None, as_json: bool) -> None:
    """A match as one viewer sees it, now or as of the end of a round."""
    if sum([public, player is not None, host]) > 1:
        raise RuleViolation("invalid_input", "choose one of --public, --player, --host")
    the_match = app_of(ctx).match(match_id)
    viewer = HOST if host else (player or PUBLIC)
    if viewer not in (HOST, PUBLIC, *the_match.players):
        raise RuleViolation("unknown_player", f"{viewer!r} does not play in {match_id}")
    data = view(the_match, viewer, round_)
    render.emit(data, as_json, render.view_text(data))


@cli.command("play")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Results as JSON (docs/match-files.md).")
@click.pass_context
def play_command(ctx: click.Context, file: str, as_json: bool) -> None:
    """Play a match file into the store, print the results, check its expectations."""
    outcome, mismatches = play(app_of(ctx), load(file))
    render.emit(outcome, as_json, render.results_text(outcome))
    if mismatches:
        for line in mismatches:
            click.echo(f"mismatch: {line}", err=True)
        sys.exit(1)


@cli.command("demo")
@click.option("--seeds", "seeds_dir", default=None, help="Folder of match files.")
@click.pass_context
def demo(ctx: click.Context, seeds_dir: str | None) -> None:
    """Play every match file in seeds/ into a fresh embedded store, with a throwaway host key
    signing every round; summarise each match and verify its full audit bundle offline."""
    folder = Path(seeds_dir) if seeds_dir else default_seeds()
    files = sorted(folder.glob("*.json"))
    if not files:
        raise RuleViolation("no_seeds", f"no match files in {folder}")
    workdir = Path(tempfile.mkdtemp(prefix="arbiter-demo-"))
    db = ctx.obj["db"] or f"sqlite:///{workdir}/demo.db"
    signer = keys.generate("demo-host")
    app = Arbiter(db, signer=signer)
    click.echo(f"store: {db}\nhost key: {signer.verifier_key()}")
    failed = 0
    for path in files:
        outcome, mismatches = play(app, load(path))
        click.echo(f"\n== {path.name}")
        click.echo(render.results_text(outcome, reveals=False))
        for line in mismatches:
            click.echo(f"mismatch: {line}")
        match_id = outcome["match"]
        notes = [n["note"] for n in app.checkpoints(match_id).notes]
        bundle = "".join(export(app.match(match_id), notes, FULL, signer.verifier_key()))
        audit = verify(line.encode() + b"\n" for line in bundle.splitlines())
        click.echo(f"  audit: full bundle verified offline ({audit.entries} entries, "
                   f"{len(audit.checkpoints)} signed checkpoints, every result re-run)")
        failed += bool(mismatches)
    click.echo(f"\n{len(files)} matches played, {len(files) - failed} as expected")
    failed += demo_seasons(app, signer, folder)
    if failed:
        sys.exit(1)


def default_seeds() -> Path:
    here = Path("seeds")
    return here if here.is_dir() else Path(__file__).resolve().parents[1] / "seeds"


register(cli)
register_service(cli)
register_season(cli)


def main() -> None:
    cli(prog_name="arbiter")

