"""The match commands: create, submit, spend, host commands, closes, corrections, the end; a
match as one viewer sees it; match files.

`register(cli)` adds them to the main group. docs/cli.md describes the conventions.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from commands.cli import render
from commands.cli.console import app_of, json_option, noted, now, read_side_of
from domain.errors import RuleViolation

if TYPE_CHECKING:
    from commands.cli.inputs import Parsed
    from commands.service.arbiter import Arbiter
    from commands.service.outcomes import Outcome
    from commands.service.reading import Now

pairs_argument = click.argument("pairs", nargs=-1, metavar="[KEY=VALUE]...")
receipt_option = click.option(
    "--receipt", "receipt_file", type=click.Path(dir_okay=False), default=None,
    help="Save the receipt (the proof of what was sent) to this file, for `arbiter receipt "
         "verify`.")


def register(cli: click.Group) -> None:
    for command in (match_group, view_command, play_command):
        cli.add_command(command)


class GameHelp(click.Command):
    """`--help` after MATCH also lists the commands its game takes from `actor`."""

    def __init__(self, *args: Any, actor: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.actor = actor

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Note MATCH before anything runs: `--help` is answered before the arguments are."""
        try:
            values, _, _ = self.make_parser(ctx).parse_args(list(args))
        except click.UsageError:
            values = {}
        found = values.get("match_id")
        ctx.meta["arbiter.match"] = found if isinstance(found, str) else None
        return super().parse_args(ctx, args)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        match_id = ctx.meta.get("arbiter.match")
        if not match_id:
            formatter.write_paragraph()
            formatter.write_text("Give MATCH with --help to list its game's commands; "
                                 "arbiter games GAME lists any game's.")
            return
        try:
            game = game_of(app_of(ctx, signing=False), match_id)
        except Exception:  # help never fails: the store may be unreachable or the match unknown
            return
        from commands.cli.games import commands_of, usage

        rows = [(usage(name, spec), spec.label) for name, spec in commands_of(game).items()
                if spec.actor == self.actor]
        with formatter.section(f"Commands of {game.GAME_ID} ({self.actor})"):
            formatter.write_dl(rows or [("none declared", f"see docs/games/{game.GAME_ID}.md")])


def game_of(app: Arbiter, match_id: str) -> Any:
    """The game a match plays, read from its first entry alone (no replay of the match)."""
    return app.match(match_id, version=1).game


# -- sending commands -----------------------------------------------------------------------

def send(app: Arbiter, match_id: str, actor: str, name: str, parsed: Parsed,
         command_id: str | None = None,
         wrap: Callable[[dict[str, Any]], dict[str, Any]] = lambda args: args) -> Outcome:
    """One command, its arguments as read; when the rules refuse a text holding commas and no
    spec said what it is, the same command again with that text as a list (docs/cli.md)."""
    try:
        return app.submit(match_id, actor, name, wrap(parsed.args), at=now(),
                          command_id=command_id)
    except RuleViolation as refusal:
        if parsed.split is None:
            raise
        try:
            return app.submit(match_id, actor, name, wrap(parsed.split), at=now(),
                              command_id=command_id)
        except RuleViolation:
            raise refusal from None


def read_args(app: Arbiter, match_id: str, name: str, pairs: tuple[str, ...]) -> Parsed:
    """The arguments, read by the kinds the match's game gives them (KEY=VALUE is checked
    before the store is asked)."""
    from commands.cli.inputs import parse_args, spec_of

    plain = parse_args(pairs)
    spec = spec_of(game_of(app, match_id), name) if pairs else None
    return plain if spec is None else parse_args(pairs, spec)


def told(app: Arbiter, result: Outcome, actor: str, name: str, as_json: bool,
         receipt_file: str | None = None) -> None:
    """What was recorded: with --json the receipt and the entries as they are; else in the
    story's words, as `actor` reads the match now (their view, read only to print it)."""
    receipt = result.receipt.as_dict() if result.receipt else None
    if receipt_file and receipt:
        Path(receipt_file).write_text(json.dumps(receipt, indent=2, sort_keys=True) + "\n",
                                      encoding="utf-8")
    data = {"receipt": receipt, "told": result.told}
    render.show(data, as_json, lambda: render.outcome(
        result, actor, name, app.view(result.match, actor).view))
    if receipt_file and not as_json:
        click.echo(f"receipt saved to {receipt_file}", err=True)


def submitting(ctx: click.Context, match_id: str, actor: str, action: str,
               pairs: tuple[str, ...], command_id: str | None, as_json: bool,
               receipt_file: str | None) -> None:
    app = app_of(ctx)
    result = send(app, match_id, actor, action, read_args(app, match_id, action, pairs),
                  command_id)
    told(app, result, actor, action, as_json, receipt_file)


# -- the match group ------------------------------------------------------------------------

@click.group("match", short_help="Create and run matches.")
def match_group() -> None:
    """Matches: create, submit, spend, close rounds, correct, end."""


@match_group.command("create", short_help="Open a match of a game for some players.")
@click.argument("match_id", metavar="MATCH")
@click.option("--season", "season_name", required=True)
@click.option("--game", required=True, help="The game id (`arbiter games` lists them).")
@click.option("--players", default=None,
              help="Player ids in seat order: a,b,c (a Death Match's and the Final's come "
                   "from the season).")
@click.option("--setup", "setup_text", default="{}",
              help="The game's setup as JSON, or @FILE.")
@click.option("--host-seed", default=None, help="Secret seed (default: 256 random bits).")
@click.option("--salt-key", default=None, help="64 hex digits (default: random).")
@click.option("--from", "from_match", default=None, metavar="MAIN",
              help="A Death Match: MAIN's EC against its DMO (tile_joust).")
@click.option("--ec", default=None, help="With --from: which EC, when MAIN has several.")
@click.option("--final", is_flag=True, help="The Final Match of the last two (tile_joust).")
@click.option("--unsigned", is_flag=True,
              help="Run the match without signed checkpoints (its genesis entry says so); "
                   "without it, the host's key must exist (`arbiter init`).")
@json_option
@click.pass_context
def match_create(ctx: click.Context, match_id: str, season_name: str, game: str,
                 players: str | None, setup_text: str, host_seed: str | None,
                 salt_key: str | None, from_match: str | None, ec: str | None, final: bool,
                 unsigned: bool, as_json: bool) -> None:
    """Open a match of GAME for PLAYERS in a season. It commits to the secret seed and the
    hidden setup in its first two entries; the host's key signs every round's close. With
    --from MAIN, the Death Match of MAIN's EC against its DMO; with --final, the Final Match of
    the last two: the season names their players."""
    if setup_text.startswith("@"):
        from commands.cli.inputs import read_json

        setup = read_json(setup_text[1:], "setup file")
    else:
        try:
            setup = json.loads(setup_text)
        except json.JSONDecodeError as error:
            raise RuleViolation("invalid_setup", f"--setup is not JSON: {error}") from None
    if not isinstance(setup, dict):
        raise RuleViolation("invalid_setup", "the setup must be a JSON object")
    if players is not None:
        setup["players"] = [p.strip() for p in players.split(",") if p.strip()]
    elif from_match is None and not final:
        raise RuleViolation("invalid_input", "--players is required (but for --from and --final)")
    import secrets

    app = app_of(ctx)
    result = app.create_match(
        match_id=match_id, season=season_name, game=game, setup=setup,
        host_seed=host_seed or secrets.token_hex(32), salt_key=salt_key or secrets.token_hex(32),
        at=now(), unsigned=unsigned, from_match=from_match, ec=ec, final=final)
    genesis = result.told[0]["data"]
    data = {"match": match_id, "game": game, "season": season_name,
            "players": genesis["players"], "seed_commitment": genesis["seed_commitment"],
            "from": from_match, "final": final, "unsigned": unsigned,
            "host_key": None if unsigned or app.signer is None else app.signer.verifier_key()}
    from projections.words import game_name

    what = (f"the Death Match from {from_match}" if from_match else
            "the Final Match" if final else "a match")
    render.show(data, as_json, lambda: [
        f"match {match_id} created: {what} of {game_name(game)} for {len(data['players'])} "
        "players in "
        f"season {season_name}",
        render.pairs([("players", data["players"]),
                      ("seed commitment", data["seed_commitment"]),
                      ("checkpoints", "none: the match is unsigned" if unsigned else
                       f"signed at every round close by {data['host_key']}")]),
        f"next: arbiter match host {match_id} open_match"])


@match_group.command("submit", cls=GameHelp, actor="player",
                     short_help="Submit a player's command.")
@click.argument("match_id", metavar="MATCH")
@click.argument("action")
@pairs_argument
@click.option("--as", "actor", required=True, help="The acting player.")
@click.option("--id", "command_id", default=None, help="Client id: a repeat is answered once.")
@receipt_option
@json_option
@click.pass_context
def match_submit(ctx: click.Context, match_id: str, action: str, pairs: tuple[str, ...],
                 actor: str, command_id: str | None, receipt_file: str | None,
                 as_json: bool) -> None:
    """Submit a player's command ACTION with its arguments as KEY=VALUE pairs, for example
    `vote candidate=bob` or `king_learn targets=alice,ken` (a list is written a,b)."""
    submitting(ctx, match_id, actor, action, pairs, command_id, as_json, receipt_file)


@match_group.command("spend", cls=GameHelp, actor="player",
                     short_help="Submit a command that costs garnets.")
@click.argument("match_id", metavar="MATCH")
@click.argument("action")
@pairs_argument
@click.option("--as", "actor", required=True, help="The spending player.")
@click.option("--id", "command_id", default=None, help="Client id: a repeat is answered once.")
@receipt_option
@json_option
@click.pass_context
def match_spend(ctx: click.Context, match_id: str, action: str, pairs: tuple[str, ...],
                actor: str, command_id: str | None, receipt_file: str | None,
                as_json: bool) -> None:
    """Spend garnets on ACTION, for example `peek target=bob`. Refused if it costs nothing,
    so a typo never spends by accident."""
    spends = getattr(game_of(app_of(ctx, signing=False), match_id), "SPENDS", {})
    if action not in spends:
        raise RuleViolation("not_a_spend",
                            f"{action} costs no garnets; spends: {', '.join(spends) or 'none'}")
    submitting(ctx, match_id, actor, action, pairs, command_id, as_json, receipt_file)


@match_group.command("close-round", short_help="Close the open round (or phase).")
@click.argument("match_id", metavar="MATCH")
@click.option("--round", "round_", type=int, required=True,
              help="The round you mean (the open one): refused, nothing recorded, once it has "
                   "moved on.")
@click.option("--phase", default=None,
              help="The phase of that round you mean, in the game's name for it (tiebreak, "
                   "king_gift, ...); default: the phase the round opened with.")
@click.option("--command", "name", default=None,
              help="A close command of the game (close_tiebreak, ...); default: the game's "
                   "closes in turn until the rules accept one.")
@json_option
@click.pass_context
def match_close(ctx: click.Context, match_id: str, round_: int, phase: str | None,
                name: str | None, as_json: bool) -> None:
    """Close round N (or its --phase): defaults fill the gaps, results are revealed, and the
    host's key signs the round's checkpoint. A close typed twice never closes the next round
    or the tie-break the first one opened: it is refused (round_moved)."""
    from domain.decider import HOST

    app = app_of(ctx)
    if phase is None and name is None:
        phase = app.phase(match_id, round_)
    closes = [name] if name else list(game_of(app, match_id).CLOSES)
    refusals = []
    for close in closes:
        try:
            result = app.submit(match_id, HOST, close, {}, at=now(), expect_round=round_,
                                expect_phase=phase)
        except RuleViolation as error:  # not this phase's close
            if error.code in ("no_host_key", "round_moved", "invalid_round",
                              "round_not_reached"):
                raise
            refusals.append(error)
            continue
        told(app, result, HOST, close, as_json)
        return
    raise refusals[0] if refusals else RuleViolation("wrong_state", "this game has no closes")


@match_group.command("host", cls=GameHelp, actor="host", short_help="Send a host command.")
@click.argument("match_id", metavar="MATCH")
@click.argument("action")
@pairs_argument
@click.option("--id", "command_id", default=None, help="Client id: a repeat is answered once.")
@receipt_option
@json_option
@click.pass_context
def match_host(ctx: click.Context, match_id: str, action: str, pairs: tuple[str, ...],
               command_id: str | None, receipt_file: str | None, as_json: bool) -> None:
    """Send the host command ACTION with its KEY=VALUE arguments, for example `open_match`
    or `record_dmo dmo=bob`."""
    from domain.decider import HOST

    submitting(ctx, match_id, HOST, action, pairs, command_id, as_json, receipt_file)


@match_group.command("deadline", short_help="Set the open round's deadline.")
@click.argument("match_id", metavar="MATCH")
@click.argument("deadline")
@json_option
@click.pass_context
def match_deadline(ctx: click.Context, match_id: str, deadline: str, as_json: bool) -> None:
    """Set the open round's DEADLINE (ISO 8601, UTC when it names no zone), or `now`:
    `arbiter serve` closes the round then. A time already past is refused (deadline_past):
    say `now` to close at once."""
    from domain.decider import HOST

    app = app_of(ctx)
    result = app.submit(match_id, HOST, "set_deadline", {"deadline": deadline}, at=now())
    told(app, result, HOST, "set_deadline", as_json)


@match_group.command("correct", short_help="Void a submission, or enter one for a player.")
@click.argument("match_id", metavar="MATCH")
@click.option("--reason", required=True, help="Why: it is recorded with the correction.")
@click.option("--void", "void", type=int, default=None, help="Void the submission at SEQ.")
@click.option("--as", "player", default=None, help="Enter a command for this player.")
@click.argument("action", required=False)
@pairs_argument
@json_option
@click.pass_context
def match_correct(ctx: click.Context, match_id: str, reason: str, void: int | None,
                  player: str | None, action: str | None, pairs: tuple[str, ...],
                  as_json: bool) -> None:
    """A host correction, attributed and with a reason: void a player's submission
    (--void SEQ), or enter a command for them (--as PLAYER ACTION KEY=VALUE...)."""
    from commands.cli import inputs
    from domain.decider import HOST

    app = app_of(ctx)
    if void is not None:
        result = send(app, match_id, HOST, "correct",
                      inputs.Parsed({"void": void, "reason": reason}))
    elif player and action:
        result = send(app, match_id, HOST, "correct", read_args(app, match_id, action, pairs),
                      wrap=lambda args: {"as": player, "command": action, "args": args,
                                         "reason": reason})
    else:
        raise RuleViolation("invalid_correction", "give --void SEQ, or --as PLAYER ACTION")
    told(app, result, HOST, "correct", as_json)


@match_group.command("end", short_help="End a match before its rules finish it.")
@click.argument("match_id", metavar="MATCH")
@click.option("--reason", required=True, help="Why: it is recorded with the end.")
@json_option
@click.pass_context
def match_end(ctx: click.Context, match_id: str, reason: str, as_json: bool) -> None:
    """End a match before its rules finish it: no awards beyond those already given; the seed
    is revealed."""
    from domain.decider import HOST

    app = app_of(ctx)
    result = app.submit(match_id, HOST, "end", {"reason": reason}, at=now())
    told(app, result, HOST, "end", as_json)


# -- reading --------------------------------------------------------------------------------

@click.command("view", short_help="A match as one viewer sees it.")
@click.argument("match_id", metavar="MATCH")
@click.option("--public", "public", is_flag=True, help="What everyone sees (the default).")
@click.option("--player", default=None, help="What this player sees.")
@click.option("--host", is_flag=True, help="Everything.")
@click.option("--round", "round_", type=int, default=None,
              help="As of the end of round N (0 is the setup).")
@json_option
@click.pass_context
def view_command(ctx: click.Context, match_id: str, public: bool, player: str | None,
                 host: bool, round_: int | None, as_json: bool) -> None:
    """A match as one viewer sees it (the public, a player or the host), now or as of the end
    of a round: the game's summary, then every event that viewer may see."""
    from domain.audiences import HOST, PUBLIC

    if sum([public, player is not None, host]) > 1:
        raise RuleViolation("invalid_input", "choose one of --public, --player, --host")
    viewer = HOST if host else (player or PUBLIC)
    seen = read_side_of(ctx).view(match_id, viewer, round_)
    noted(seen.note())
    data = seen.view
    render.show(data, as_json, lambda: render.view(data, when(seen.now, round_,
                                                              data["as_of"]["seq"])))


def when(match: Now, round_: int | None, entries: int) -> str:
    """When a view stands, in words that agree with the summary under it."""
    if round_ is None:
        if match.ended:
            return f"sees it now: the match has ended ({entries} entries)"
        if match.phase == "configured":
            return f"sees it now: the match has not opened yet ({entries} entries)"
        return f"sees it now: round {match.round} is open ({entries} entries)"
    if round_ == match.round and not match.ended:
        return f"sees round {round_} so far: it is still open ({entries} entries)"
    return f"saw it at the end of round {round_} ({entries} entries)"


@click.command("play", short_help="Play a match file into the store.")
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
@click.pass_context
def play_command(ctx: click.Context, file: str, as_json: bool) -> None:
    """Play a match file into the store, print the results and check its expectations
    (docs/match-files.md): exit 1 naming each mismatch."""
    from commands.cli.matchfile import load, play

    outcome, mismatches = play(app_of(ctx), load(file))
    render.show(outcome, as_json, lambda: render.results(outcome))
    if mismatches:
        for line in mismatches:
            click.echo(f"mismatch: {line}", err=True)
        sys.exit(1)
