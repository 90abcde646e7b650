"""The `season` commands: a season from its first registration to its champion.

`register(cli)` adds the group to the main one. Every command takes `--json`; a refusal is the
usual one line `error: CODE: message` with exit code 2. Bulk forms (`register --file`, `grant
--file`) record everything in one atomic save, or nothing.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from audit.keys import Signer
from audit.season_bundle import FULL
from audit.season_verify import verify_season
from commands.app import Arbiter, Grant
from commands.audit_cli import signer_from
from commands.seasonfile import load_season, play_season
from domain.decider import HOST, PUBLIC
from domain.errors import RuleViolation
from domain.season import ELIMINATED, REINSTATED
from projections.standings import standings

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def register(cli: click.Group) -> None:
    cli.add_command(season)


def app_of(ctx: click.Context) -> Arbiter:
    """The service, signing each change's checkpoint when the host's key file exists."""
    return Arbiter(ctx.obj["db"], signer=signer_from())


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def emit(data: Any, as_json: bool, *text: Any) -> None:
    """JSON, or sentences and rich tables."""
    if as_json:
        click.echo(json.dumps(data, indent=2, sort_keys=True))
        return
    console = Console(width=None if sys.stdout.isatty() else 120)
    for part in text:
        console.print(part)


@click.group()
def season() -> None:
    """Seasons: players, garnets and Tokens of Life from the first Main Match to the Final."""


@season.command("origin")
@click.argument("prefix", required=False)
@json_option
@click.pass_context
def season_origin(ctx: click.Context, prefix: str | None, as_json: bool) -> None:
    """Set (once) or show the prefix of every checkpoint origin you sign, e.g. your domain."""
    app = app_of(ctx)
    if prefix is not None:
        app.set_origin_prefix(prefix)
    current = app.origin_prefix()
    emit({"origin_prefix": current}, as_json,
         f"checkpoints are signed as {current}/season/ID and {current}/match/ID")


@season.command("create")
@click.argument("name")
@json_option
@click.pass_context
def season_create(ctx: click.Context, name: str, as_json: bool) -> None:
    """Start a season (its checkpoints carry the host's origin prefix)."""
    app = app_of(ctx)
    app.create_season(name, at=now())
    origin = app.season(name).origin
    emit({"season": name, "origin": origin}, as_json, f"season {name} created ({origin})")


@season.command("register")
@click.argument("season_name", metavar="SEASON")
@click.argument("players", nargs=-1)
@click.option("--file", "file", type=click.Path(exists=True, dir_okay=False, allow_dash=True),
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
    emit({"season": season_name, "registered": names}, as_json,
         f"registered {len(names)}: {', '.join(names)}")


@season.command("grant")
@click.argument("season_name", metavar="SEASON")
@click.argument("player", required=False)
@click.argument("amount", type=int, required=False)
@click.option("--asset", default="garnets", show_default=True)
@click.option("--reason", default=None, help="Why: it is recorded with the grant (with --file, "
                                             "for lines that give none).")
@click.option("--file", "file", type=click.Path(exists=True, dir_okay=False, allow_dash=True),
              help="Grants from a file: CSV with a header player,amount[,asset][,reason], or "
                   "a JSON list of {player, amount, asset?, reason?}.")
@json_option
@click.pass_context
def season_grant(ctx: click.Context, season_name: str, player: str | None,
                 amount: int | None, asset: str, reason: str | None, file: str | None,
                 as_json: bool) -> None:
    """Grant (or with a negative AMOUNT, take) an asset with a reason; or a whole file of
    grants in one save, all or none."""
    if file is not None:
        if player is not None:
            raise RuleViolation("invalid_input", "give PLAYER AMOUNT or --file, not both")
        grants = read_grants(file, asset, reason)
    elif player is None or amount is None:
        raise RuleViolation("invalid_input", "give PLAYER AMOUNT, or --file")
    else:
        grants = [Grant(player, amount, asset, reason or "")]
    app_of(ctx).grant_all(season_name, grants, at=now())
    table = Table("player", "amount", "asset", "reason", title=f"granted in {season_name}")
    for g in grants:
        table.add_row(g.player, f"{g.amount:+d}", g.asset, g.reason)
    emit({"season": season_name, "grants": [vars(g) for g in grants]}, as_json, table)


@season.command("transfer")
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
    emit({"season": season_name, "giver": giver, "receiver": receiver, "amount": amount,
          "reason": reason}, as_json, f"{giver} gave {receiver} {amount} garnets ({reason})")


@season.command("dmo")
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
    emit({"season": season_name, "match": main, "ec": ec, "dmo": dmo, "reason": reason},
         as_json, f"{dmo} is the DMO against {ec} from {main}: `arbiter match create DM "
                  f"--season {season_name} --game tile_joust --from {main}{named}` creates "
                  "their Death Match")


@season.command("rule")
@click.argument("season_name", metavar="SEASON")
@click.argument("player")
@click.option("--reason", required=True, help="The ruling's reason, as the season's rules "
                                              "give it.")
@click.option("--tol", type=int, default=None, help="Tokens of Life to add (negative: spend).")
@click.option("--opal", type=int, default=None)
@click.option("--moe", type=int, default=None)
@click.option("--eliminate", "status", flag_value=ELIMINATED, help="The player leaves.")
@click.option("--reinstate", "status", flag_value=REINSTATED, help="The player is back in.")
@json_option
@click.pass_context
def season_rule(ctx: click.Context, season_name: str, player: str, reason: str,
                tol: int | None, opal: int | None, moe: int | None, status: str | None,
                as_json: bool) -> None:
    """A host ruling where the seeds are silent, e.g. a Token of Life spent to stay in:
    `rule S bob --tol -1 --reinstate --reason "spent a ToL"`. Attributed and public."""
    changes = {a: n for a, n in (("tol", tol), ("opal", opal), ("moe", moe)) if n is not None}
    app_of(ctx).rule(season_name, player, reason, changes=changes, status=status, at=now())
    moved = ", ".join(f"{n:+d} {a}" for a, n in changes.items())
    emit({"season": season_name, "player": player, "changes": changes, "status": status,
          "reason": reason}, as_json,
         f"ruling on {player}: {', '.join(filter(None, [moved, status]))} ({reason})")


@season.command("show")
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
    the_season = app_of(ctx).season(season_name)
    if player is not None and player not in the_season.players:
        raise RuleViolation("unknown_player", f"{player!r} is not in season {season_name}")
    data = standings(the_season, HOST if host else player or PUBLIC)
    emit(data, as_json, *season_text(data))


@season.command("play")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@json_option
@click.pass_context
def season_play(ctx: click.Context, file: str, as_json: bool) -> None:
    """Play a season file (docs/match-files.md) into the store, show the season, check its
    expectations (exit 1 naming each mismatch)."""
    data, mismatches = play_season(app_of(ctx), load_season(file), Path(file).parent)
    emit(data, as_json, *season_text(data))
    for line in mismatches:
        click.echo(f"mismatch: {line}", err=True)
    if mismatches:
        sys.exit(1)


def demo_seasons(app: Arbiter, signer: Signer, folder: Path) -> int:
    """`arbiter demo`'s season part: play each season file of FOLDER/seasons, tell its story and
    verify its full season bundle offline. Returns how many did not go as expected."""
    failed = 0
    for path in sorted((folder / "seasons").glob("*.json")):
        data, mismatches = play_season(app, load_season(path), path.parent)
        click.echo(f"\n== seasons/{path.name}")
        emit(data, False, *season_text(data))
        for line in mismatches:
            click.echo(f"mismatch: {line}")
        bundle = "".join(app.season_bundle(data["season"], FULL, signer.verifier_key()))
        audit = verify_season(line.encode() + b"\n" for line in bundle.splitlines())
        click.echo(f"  audit: full season bundle verified offline ({audit.entries} entries, "
                   f"{len(audit.checkpoints)} signed season checkpoints, {audit.cited} match "
                   "entries checked against their matches' signed checkpoints, every standing "
                   "recomputed)")
        failed += bool(mismatches)
    return failed


# -- reading files ------------------------------------------------------------------------

def read_text(file: str) -> str:
    return click.open_file(file, encoding="utf-8").read()


def read_players(file: str) -> list[str]:
    text = read_text(file)
    if file.endswith(".json"):
        players = json.loads(text)
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RuleViolation("invalid_file", f"{file}: a JSON list of player ids")
        return players
    return [line.strip() for line in text.splitlines() if line.strip()]


def read_grants(file: str, asset: str, reason: str | None) -> list[Grant]:
    """Each line or object: player, amount, and optionally asset and reason (default: the
    command's)."""
    text = read_text(file)
    if file.endswith(".json"):
        rows = json.loads(text)
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


# -- text -----------------------------------------------------------------------------------

def season_text(data: dict[str, Any]) -> list[Any]:
    left = len(data["remaining"])
    head = (f"season {data['season']} ({data['origin']}), as {data['viewer']} sees it: "
            + (f"{data['champion']} won it" if data["champion"]
               else f"{left} of {len(data['players'])} still in"))
    return [head, standings_table(data), matches_table(data), history_table(data)]


def standings_table(data: dict[str, Any]) -> Table:
    garnets = any("garnets" in row for row in data["players"])
    table = Table("player", "status", "ToL", "Opal", "MoE", "EC", "DM", title="standings")
    if garnets:
        table.add_column("garnets", justify="right")
    table.add_column("left in")
    for row in data["players"]:
        cells = [row["player"], row["status"], *(str(row[a]) for a in
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
    table = Table("match", "what", "winners", "EC", "DMO", "result", title="matches")
    for m in data["matches"]:
        ec = m["ec"] or ", ".join(m["ecs"] + [e for e in m["entrants"] if e not in m["ecs"]])
        result = "abandoned" if m["abandoned"] else (
            f"{m['outcome']}" + (f"; {m['loser']} lost" if m["loser"] else "")
            if m["ended"] else "under way")
        what = f"{KINDS[m['kind']]}, {m['game']}" + (f", from {m['from']}" if m["from"] else "")
        dmo = m["dmo"] or ", ".join(f"{d} for {e}" for e, d in m["dmos"].items())
        table.add_row(m["match"], what, ", ".join(m["winners"]), ec, dmo, result)
    return table


def history_table(data: dict[str, Any]) -> Table:
    table = Table("player", "seq", "what", title="history")
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
    names = [row["player"] for row in data["players"]]
    return names.index(player) if player in names else len(names)


def what(line: dict[str, Any]) -> str:
    kind, cause = line["kind"], line.get("cause") or {}
    if kind == "PlayerRegistered":
        return "registered"
    if kind in ("Granted", "Transferred", "Posted"):
        where = (f"{cause['match']} #{cause['seq']}: {cause['reason']}" if "match" in cause
                 else f"{next(iter(cause))}: {next(iter(cause.values()))}")
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
