"""The `season` commands: a season from its first registration to its champion.

`register(cli)` adds the group to the main one. Every command takes `--json`; a refusal is the
usual one line `error: CODE: message` with exit code 2 (docs/cli.md). Bulk forms (`register
--file`, `grant --file`) record everything in one atomic save, or nothing. The store, the
season log and its standings are imported inside the commands that use them.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from commands.cli import render
from commands.cli.console import app_of, json_option, now
from domain.errors import RuleViolation

if TYPE_CHECKING:
    from rich.table import Table

    from commands.service.outcomes import Grant

# A file argument: a missing one is the usual one-line `no_file`; `-` reads stdin.
in_file = click.Path(dir_okay=False, allow_dash=True)


def register(cli: click.Group) -> None:
    cli.add_command(season)


@click.group(short_help="Seasons: players, assets, match to match.")
def season() -> None:
    """Seasons: players, garnets and Tokens of Life from the first Main Match to the Final."""


@season.command("origin", short_help="Set once, or show, the checkpoint origin.")
@click.argument("prefix", required=False)
@json_option
@click.pass_context
def season_origin(ctx: click.Context, prefix: str | None, as_json: bool) -> None:
    """Set (once) or show the prefix of every checkpoint origin the host signs: its domain,
    say. Seasons started before keep theirs."""
    app = app_of(ctx)
    if prefix is not None:
        app.set_origin_prefix(prefix)
    current = app.origin_prefix()
    render.show({"origin_prefix": current}, as_json, lambda: [
        f"checkpoints are signed as {current}/season/ID and {current}/match/ID"])


@season.command("create", short_help="Start a season.")
@click.argument("name")
@json_option
@click.pass_context
def season_create(ctx: click.Context, name: str, as_json: bool) -> None:
    """Start a season; its checkpoints carry the host's origin prefix."""
    app = app_of(ctx)
    app.create_season(name, at=now())
    origin = app.season(name).origin
    render.show({"season": name, "origin": origin}, as_json,
                lambda: [f"season {name} created ({origin})"])


@season.command("register", short_help="Register players, all in one save.")
@click.argument("season_name", metavar="SEASON")
@click.argument("players", nargs=-1)
@click.option("--file", "file", type=in_file,
              help="Players from a file: a JSON list of ids, or one id a line.")
@json_option
@click.pass_context
def season_register(ctx: click.Context, season_name: str, players: tuple[str, ...],
                    file: str | None, as_json: bool) -> None:
    """Register players in a season: all of them in one save, or none."""
    names = [*players, *(read_players(file) if file else [])]
    if not names:
        raise RuleViolation("invalid_input", "name the players, or give --file")
    app_of(ctx).register_all(season_name, names, at=now())
    render.show({"season": season_name, "registered": names}, as_json,
                lambda: [f"registered {len(names)} in {season_name}: {', '.join(names)}"])


# A negative AMOUNT is written as it is (`grant S alice -3`): unknown options are arguments.
@season.command("grant", short_help="Grant or take an asset, with its reason.",
                context_settings={"ignore_unknown_options": True})
@click.argument("season_name", metavar="SEASON")
@click.argument("player", required=False)
@click.argument("amount", type=int, required=False)
@click.option("--asset", default="garnets", show_default=True)
@click.option("--reason", default=None, help="Why: it is recorded with the grant (with --file, "
                                             "for lines that give none).")
@click.option("--file", "file", type=in_file,
              help="Grants from a file: CSV with a header player,amount[,asset][,reason], or "
                   "a JSON list of {player, amount, asset?, reason?}.")
@json_option
@click.pass_context
def season_grant(ctx: click.Context, season_name: str, player: str | None,
                 amount: int | None, asset: str, reason: str | None, file: str | None,
                 as_json: bool) -> None:
    """Grant (or with a negative AMOUNT, take) an asset with a reason; or a whole file of
    grants in one save, all or none."""
    from commands.service.outcomes import Grant

    if file is not None:
        if player is not None:
            raise RuleViolation("invalid_input", "give PLAYER AMOUNT or --file, not both")
        grants = read_grants(file, asset, reason)
    elif player is None or amount is None:
        raise RuleViolation("invalid_input", "give PLAYER AMOUNT, or --file")
    else:
        grants = [Grant(player, amount, asset, reason or "")]
    app_of(ctx).grant_all(season_name, grants, at=now())
    rows = [{"player": g.player, "change": f"{g.amount:+d} {ASSET_NAMES.get(g.asset, g.asset)}",
             "reason": g.reason or "none given"} for g in grants]
    render.show({"season": season_name, "grants": [vars(g) for g in grants]}, as_json,
                lambda: [render.rows_table(rows, title=f"granted in {season_name}")])


@season.command("transfer", short_help="Trade garnets between two players.")
@click.argument("season_name", metavar="SEASON")
@click.argument("giver")
@click.argument("receiver")
@click.argument("amount", type=int)
@click.option("--reason", default="trade", show_default=True)
@json_option
@click.pass_context
def season_transfer(ctx: click.Context, season_name: str, giver: str, receiver: str,
                    amount: int, reason: str, as_json: bool) -> None:
    """Trade garnets between two players (sealed to the two of them)."""
    app_of(ctx).transfer(season_name, giver, receiver, amount, reason, at=now())
    render.show({"season": season_name, "giver": giver, "receiver": receiver, "amount": amount,
                 "reason": reason}, as_json,
                lambda: [f"{giver} gave {receiver} {amount} garnets ({reason})"])


@season.command("dmo", short_help="Record the Death Match Opponent of an EC.")
@click.argument("season_name", metavar="SEASON")
@click.argument("main", metavar="MAIN")
@click.argument("dmo", metavar="DMO")
@click.option("--ec", default=None, help="The EC it is for, when MAIN has several (or one of "
                                         "King's Court's four early Kings).")
@click.option("--reason", required=True, help="How the DMO was chosen.")
@json_option
@click.pass_context
def season_dmo(ctx: click.Context, season_name: str, main: str, dmo: str, ec: str | None,
               reason: str, as_json: bool) -> None:
    """Record the Death Match Opponent of a Main Match's EC, where its rules leave the choice to
    the host (King's Court names its own with `record_dmo` in the match)."""
    app = app_of(ctx)
    app.record_dmo(season_name, main, dmo, reason, ec=ec, at=now())
    named = " --ec " + ec if ec else ""
    ec = app.season(season_name).ec_of(main, ec)
    render.show({"season": season_name, "match": main, "ec": ec, "dmo": dmo, "reason": reason},
                as_json, lambda: [
                    f"{dmo} is the DMO against {ec} from {main}",
                    f"next: arbiter match create DM --season {season_name} --game tile_joust "
                    f"--from {main}{named}"])


@season.command("rule", short_help="A host ruling where the seeds are silent.")
@click.argument("season_name", metavar="SEASON")
@click.argument("player")
@click.option("--reason", required=True, help="The ruling's reason, as the season's rules "
                                              "give it.")
@click.option("--tol", type=int, default=None, help="Tokens of Life to add (negative: spend).")
@click.option("--opal", type=int, default=None)
@click.option("--moe", type=int, default=None)
@click.option("--eliminate", "status", flag_value="eliminated", help="The player leaves.")
@click.option("--reinstate", "status", flag_value="reinstated", help="The player is back in.")
@json_option
@click.pass_context
def season_rule(ctx: click.Context, season_name: str, player: str, reason: str,
                tol: int | None, opal: int | None, moe: int | None, status: str | None,
                as_json: bool) -> None:
    """A host ruling where the seeds are silent, attributed and public. For example a Token of
    Life spent to stay in: `rule S bob --tol -1 --reinstate --reason "spent a ToL"`."""
    changes = {a: n for a, n in (("tol", tol), ("opal", opal), ("moe", moe)) if n is not None}
    app_of(ctx).rule(season_name, player, reason, changes=changes, status=status, at=now())
    moved = ", ".join(f"{n:+d} {ASSET_NAMES[a]}" for a, n in changes.items())
    render.show({"season": season_name, "player": player, "changes": changes, "status": status,
                 "reason": reason}, as_json, lambda: [
                     f"ruling on {player}: {', '.join(filter(None, [moved, status]))} "
                     f"({reason})"])


@season.command("show", short_help="The season's standings and story.")
@click.argument("season_name", metavar="SEASON")
@click.option("--player", default=None, help="As this player sees it (their garnets too).")
@click.option("--host", is_flag=True, help="As the host sees it (everyone's garnets).")
@json_option
@click.pass_context
def season_show(ctx: click.Context, season_name: str, player: str | None, host: bool,
                as_json: bool) -> None:
    """Standings, who is still in, who left in which match, each match's winners and EC, and
    every player's history. ToL, Opal, MoE and EC are public; garnets only to their owner and
    the host."""
    from domain.decider import HOST, PUBLIC
    from projections.standings import standings

    the_season = app_of(ctx, signing=False).season(season_name)
    if player is not None and player not in the_season.players:
        raise RuleViolation("unknown_player", f"{player!r} is not in season {season_name}")
    data = standings(the_season, HOST if host else player or PUBLIC)
    render.show(data, as_json, lambda: season_text(data))


@season.command("play", short_help="Play a season file into the store.")
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
@click.pass_context
def season_play(ctx: click.Context, file: str, as_json: bool) -> None:
    """Play a season file (docs/match-files.md) into the store, show the season and check its
    expectations: exit 1 naming each mismatch."""
    from commands.cli.seasonfile import load_season, play_season

    data, mismatches = play_season(app_of(ctx), load_season(file), Path(file).parent)
    render.show(data, as_json, lambda: season_text(data))
    for line in mismatches:
        click.echo(f"mismatch: {line}", err=True)
    if mismatches:
        sys.exit(1)


# -- reading files ----------------------------------------------------------------------------

def read_text(file: str) -> str:
    with click.open_file(file, encoding="utf-8") as stream:
        return stream.read()


def read_json_text(file: str, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise RuleViolation("invalid_file", f"{file} is not JSON: {error.msg} at line "
                            f"{error.lineno} column {error.colno}") from None


def read_players(file: str) -> list[str]:
    text = read_text(file)
    if file.endswith(".json"):
        players = read_json_text(file, text)
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RuleViolation("invalid_file", f"{file}: a JSON list of player ids")
        return players
    return [line.strip() for line in text.splitlines() if line.strip()]


def read_grants(file: str, asset: str, reason: str | None) -> list[Grant]:
    """Each line or object: player, amount, and optionally asset and reason (default: the
    command's)."""
    from commands.service.outcomes import Grant

    text = read_text(file)
    if file.endswith(".json"):
        rows = read_json_text(file, text)
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise RuleViolation("invalid_file", f"{file}: a JSON list of grant objects")
    else:
        rows = list(csv.DictReader(io.StringIO(text), skipinitialspace=True))
    grants = []
    for number, row in enumerate(rows, 1):
        extra = set(row) - {"player", "amount", "asset", "reason"}
        if extra or "player" not in row or "amount" not in row:
            raise RuleViolation("invalid_file", f"{file}, grant {number}: needs player and "
                                f"amount, may have asset and reason (not {sorted(extra)})")
        amount = row["amount"]
        if isinstance(amount, str):
            try:
                amount = int(amount)
            except ValueError:
                raise RuleViolation("invalid_file", f"{file}, grant {number}: amount "
                                    f"{amount!r} is not an integer") from None
        grants.append(Grant(row["player"], amount, row.get("asset") or asset,
                            row.get("reason") or reason or ""))
    return grants


# -- text -------------------------------------------------------------------------------------

def season_text(data: dict[str, Any]) -> list[Any]:
    left = len(data["remaining"])
    head = (f"season {data['season']} ({data['origin']}), as {render.seen_by(data['viewer'])} "
            "sees it: " + (f"{data['champion']} won it" if data["champion"]
                           else f"{left} of {len(data['players'])} still in"))
    return [head, standings_table(data), matches_table(data), history_table(data)]


def standings_table(data: dict[str, Any]) -> Table:
    from projections import words
    from projections.standings import by_rank

    garnets = any("garnets" in row for row in data["players"])
    table = render.new_table("player", "status", "ToL", "Opal", "MoE", "EC", "DM",
                             *(["garnets"] if garnets else []), "left in", title="standings")
    table.columns[0].no_wrap = True  # a row name stays whole
    for row in by_rank(data):  # as the season page lists them
        cells = [row["player"], words.standing(row["status"]), *(str(row[a]) for a in
                                                 ("tol", "opal", "moe", "ec", "dm_entrant"))]
        if garnets:
            cells.append(str(row["garnets"]) if "garnets" in row else "")
        table.add_row(*cells, row["left_in"] or ("a ruling" if row["status"] == "out" else ""))
    return table


KINDS = {"main": "Main Match", "death_match": "Death Match", "final_match": "Final Match",
         "single": "on its own"}
ASSET_NAMES = {"garnets": "garnets", "tol": "ToL", "opal": "Opal", "moe": "MoE", "ec": "EC",
               "dm_entrant": "Death Match entrant"}


def matches_table(data: dict[str, Any]) -> Table:
    table = render.new_table("match", "what", "winners", "EC (DMO)", "result", title="matches")
    table.columns[0].no_wrap = True  # an id to type again: whole, never folded
    for m in data["matches"]:
        table.add_row(m["match"], match_kind(m), ", ".join(m["winners"]), pairing(m),
                      match_result(m))
    return table


def match_kind(m: dict[str, Any]) -> str:
    """A Death Match and the Final are Tile Joust's: their kind says it."""
    from projections import words

    if m["from"]:
        return f"{KINDS[m['kind']]} from {m['from']}"
    return KINDS[m["kind"]] if m["kind"] == "final_match" else \
        f"{KINDS[m['kind']]}, {words.game_name(m['game'])}"


def pairing(m: dict[str, Any]) -> str:
    """Each EC (or Death Match entrant) with their DMO once named: `dee (DMO gil)`."""
    if m["ec"]:
        return f"{m['ec']} (DMO {m['dmo']})"
    ecs = m["ecs"] + [e for e in m["entrants"] if e not in m["ecs"]]
    return ", ".join(f"{ec} (DMO {m['dmos'][ec]})" if ec in m["dmos"] else ec for ec in ecs)


def match_result(m: dict[str, Any]) -> str:
    from projections import words

    if m["abandoned"]:
        return "abandoned"
    if not m["ended"]:
        return "under way"
    # The winners have their column: an outcome that only names the winner is not repeated.
    told = [] if m["outcome"] in m["winners"] else \
        [words.match_outcome(m["game"], m["outcome"], m["winners"]) or ""]
    return "; ".join(filter(None, [*told, f"{m['loser']} lost" if m["loser"] else ""])) or "over"


def history_table(data: dict[str, Any]) -> Table:
    table = render.new_table("player", "#", "what", title="history")
    table.columns[0].no_wrap = True
    lines = sorted(data["history"], key=lambda line: (data_order(data, line["player"]),
                                                      line["seq"]))
    previous = None
    for line in lines:
        if previous is not None and line["player"] != previous:
            table.add_section()
        table.add_row(line["player"] if line["player"] != previous else "", str(line["seq"]),
                      what(line))
        previous = line["player"]
    return table


def data_order(data: dict[str, Any], player: str) -> int:
    from projections.standings import by_rank

    names = [row["player"] for row in by_rank(data)]
    return names.index(player) if player in names else len(names)


def what(line: dict[str, Any]) -> str:
    from projections import words

    kind, cause = line["kind"], line.get("cause") or {}
    if kind == "PlayerRegistered":
        return "registered"
    if kind in ("Granted", "Transferred", "Posted"):
        where = (f"{cause['match']} #{cause['seq']}: {words.code_or_text(cause['reason'])}"
                 if "match" in cause else
                 f"{next(iter(cause))}: {words.code_or_text(next(iter(cause.values())))}")
        return f"{line['amount']:+d} {ASSET_NAMES[line['asset']]} ({where})"
    if kind == "MatchAdded":
        return f"plays {line['match']}"
    if kind == "DmoRecorded":
        return f"DMO against {line['ec']} from {line['match']} ({cause['ruling']})"
    if kind == "Eliminated":
        return f"eliminated in {line['match']}"
    if kind == "SeasonWon":
        return f"won the season in {line['match']}"
    moved = [f"{n:+d} {ASSET_NAMES[a]}" for a, n in line["changes"].items()]
    return f"ruling: {', '.join([*moved, *filter(None, [line['status']])])} ({cause['ruling']})"
