"""A host's first commands: `init` (the store, the signing key, the HTTP token) and `demo` (the
sample matches and seasons of seeds/, played into the store the host goes on with).

`register(cli)` adds them to the main group. Both can be run again: what exists is kept.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from commands.cli import render
from commands.cli.console import db_of, json_option
from domain.errors import RuleViolation

if TYPE_CHECKING:
    from audit.keys import Signer
    from commands.service.arbiter import Arbiter


def register(cli: click.Group) -> None:
    for command in (init_command, demo_command):
        cli.add_command(command)


@dataclass(frozen=True)
class HostKey:
    signer: Signer
    path: Path
    created: bool


def host_key(path: str | None, name: str | None) -> HostKey:
    """The host's key from its key file (`--key`, $ARBITER_HOST_KEY, ./arbiter-host.key),
    made there (mode 0600) when there is none yet."""
    from audit import keys
    from commands.service.keys import DEFAULT_KEY, KEY_VARIABLE

    file = Path(path or os.environ.get(KEY_VARIABLE) or DEFAULT_KEY)
    if file.exists():
        return HostKey(keys.load(file), file, created=False)
    signer = keys.generate(name)
    keys.save(signer, file)
    return HostKey(signer, file, created=True)


def open_store(url: str | None, signer: Signer) -> tuple[Arbiter, bool]:
    """The service on the store, its tables made if missing; and whether it was empty."""
    from commands.service.arbiter import Arbiter

    app = Arbiter(url, signer=signer)
    return app, not app.recorder.max_notification_id()


key_option = click.option(
    "--key", "key_path", envvar="ARBITER_HOST_KEY", default=None, metavar="PATH",
    help="The host's key file (default ./arbiter-host.key, or $ARBITER_HOST_KEY).")
name_option = click.option(
    "--name", default=None,
    help="A new key's name in every signature and the prefix of every checkpoint origin (no "
         "spaces or '+'), e.g. the host's domain; default: arbiter- and 12 hex digits of the "
         "key's own, no other host's.")


# -- init -----------------------------------------------------------------------------------

@click.command("init", short_help="Set up a host: the store, the key, the token.")
@key_option
@name_option
@json_option
@click.pass_context
def init_command(ctx: click.Context, key_path: str | None, name: str | None,
                 as_json: bool) -> None:
    """Set up a host: create the store's tables, the host's signing key (mode 0600), the
    checkpoint origin prefix no other host has (the key's name) and the host token of the
    HTTP API, and print the verifier key to publish. Run again, it keeps what exists and says
    so."""
    from commands.service.tokens import HostToken, Tokens
    from commands.store.raw import store_key_for
    from commands.store.settings import database_url

    key = host_key(key_path, name)
    url = database_url(db_of(ctx))
    store_key = store_key_for(url)
    app, empty = open_store(db_of(ctx), key.signer)
    token = None if HostToken.create_id() in app.repository else Tokens(app).set_host()
    prefix, chosen = app.choose_origin_prefix()
    data = {"store": {"url": url, "created": empty},
            "key": {"file": str(key.path), "created": key.created,
                    "verifier_key": key.signer.verifier_key()},
            "origin": {"prefix": prefix, "chosen": chosen},
            "store_key": store_key,
            "host_token": {"created": token is not None, "token": token}}
    render.show(data, as_json, lambda: init_text(data))


def init_text(data: dict[str, Any]) -> list[Any]:
    from commands.store.settings import store_name

    store, key, token = data["store"], data["key"], data["host_token"]
    rows = [
        ("store", f"{store_name(store['url'])}: "
                  + ("ready, empty" if store["created"] else "kept: it holds events already")),
        ("host key", f"{key['file']}: " + ("created (mode 0600): keep it secret, back it up"
                                           if key["created"] else "kept")),
        ("store key", store_key_text(data["store_key"])),
        ("origins", origin_text(data["origin"])),
        ("host token", f"{token['token']}  (shown once: keep it for the HTTP API)"
         if token["created"] else "kept (arbiter tokens host makes a new one)"),
    ]
    return [render.pairs(rows),
            "publish this verifier key where your players read: every checkpoint is signed "
            "with its key",
            key["verifier_key"],
            "next:",
            render.pairs([
                ("a season", "arbiter season create autumn"),
                ("its players", "arbiter season register autumn alice bob carol ..."),
                ("a match", "arbiter match create kc-1 --season autumn --game kings_court "
                            "--players alice,bob,carol,..."),
                ("the games", "arbiter games"),
                ("all of it", "README.md, \"Your first hour\"")])]


def origin_text(origin: dict[str, Any]) -> str:
    prefix = origin["prefix"]
    said = (f"{prefix}/season/ID and {prefix}/match/ID: " + (
        "chosen now, no other host's (arbiter season origin DOMAIN puts your domain in its "
        "place for the seasons to come)" if origin["chosen"] else "kept"))
    return said


def store_key_text(store_key: dict[str, Any]) -> str:
    if store_key["clear"]:
        return ("none: the store holds events written in the clear; arbiter store encrypt "
                f"makes {store_key['file']} and encrypts them")
    return f"{store_key['file']}: " + (
        "created (mode 0600): every event is encrypted with it; keep it secret, back it up"
        if store_key["created"] else "kept")


# -- demo -----------------------------------------------------------------------------------

@click.command("demo", short_help="Play the sample matches into the store, and audit them.")
@click.option("--seeds", "seeds_dir", default=None,
              help="A folder of match files (and season files in its seasons/).")
@key_option
@name_option
@json_option
@click.pass_context
def demo_command(ctx: click.Context, seeds_dir: str | None, key_path: str | None,
                 name: str | None, as_json: bool) -> None:
    """Play every match file of seeds/ into the store (./arbiter.db unless --db says), signed
    with the host's key (made as `arbiter init` makes it, if there is none), check each
    against its expectations, and verify each match's full audit bundle offline; then the
    same for each season file of seeds/seasons/, from its first Main Match to its champion,
    with its full season bundle. A match or season already in the store is not played again:
    it is checked and verified again."""
    from commands.store.settings import database_url, store_name

    folder = Path(seeds_dir) if seeds_dir else default_seeds()
    files = sorted(folder.glob("*.json"))
    if not files:
        raise RuleViolation("no_seeds", f"no match files in {folder}")
    from commands.store.raw import store_key_for

    key = host_key(key_path, name)
    url = database_url(db_of(ctx))
    store_key = store_key_for(url)
    app, _ = open_store(db_of(ctx), key.signer)
    prefix, chosen = app.choose_origin_prefix()
    say: Callable[..., None] = (lambda *_: None) if as_json else render.out
    say(render.pairs([
        ("store", store_name(url)),
        ("host key", f"{key.path}: " + ("created as arbiter init makes it (mode 0600)"
                                        if key.created else "kept")),
        ("store key", store_key_text(store_key)),
        ("origins", origin_text({"prefix": prefix, "chosen": chosen}))]),
        "verifier key (every checkpoint is signed with its key):", key.signer.verifier_key())
    played = [demo_match(app, path, key.signer, say) for path in files]
    failed = [m["match"] for m in played if m["mismatches"] or not m["audit"]["verified"]]
    seasons = demo_seasons(app, key.signer, folder, say)
    missed = [s["season"] for s in seasons if s["mismatches"] or not s["audit"]["verified"]]
    data = {"store": url, "key_file": str(key.path), "key_created": key.created,
            "store_key": store_key, "verifier_key": key.signer.verifier_key(),
            "origin": {"prefix": prefix, "chosen": chosen},
            "matches": played, "seasons": seasons}
    if as_json:
        render.show(data, True, list)
    else:
        say("", f"{len(played)} matches, {len(played) - len(failed)} as expected and verified"
            + (f"; {len(seasons)} season{'s' * (len(seasons) != 1)}, "
               f"{len(seasons) - len(missed)} as expected and verified" if seasons else ""))
        # One line each, never wrapped by the terminal's width: every command copies whole.
        click.echo("\n".join(next_steps(played, seasons, url)))
    if failed or missed:
        sys.exit(1)


def demo_match(app: Arbiter, path: Path, signer: Signer,
               say: Callable[..., None]) -> dict[str, Any]:
    from commands.cli.matchfile import compare, load, play
    from projections.results import results

    file = load(path)
    try:
        app.match(file.match)
    except RuleViolation:
        outcome, mismatches = play(app, file)
        again = False
    else:
        outcome = results(app.match(file.match))
        mismatches = compare(file.expect, outcome) if file.expect else []
        again = True
    audit = audit_of(app, file.match, signer)
    say("", f"== {path.name}" + (": in the store already, not played again" if again else ""),
        *render.results(outcome, reveals=False),
        *(f"mismatch: {line}" for line in mismatches),
        f"audit: {audit['summary']}")
    return {"file": path.name, "match": file.match, "played_before": again,
            "outcome": outcome, "mismatches": mismatches, "audit": audit}


def audit_of(app: Arbiter, match_id: str, signer: Signer) -> dict[str, Any]:
    """The match's full bundle, exported in memory and verified offline."""
    from audit.bundle import FULL, export
    from audit.errors import AuditError
    from audit.verify import verify

    notes = [n["note"] for n in app.checkpoints(match_id).notes]
    bundle = "".join(export(app.match(match_id), notes, FULL, signer.verifier_key()))
    try:
        found = verify(line.encode() + b"\n" for line in bundle.splitlines())
    except AuditError as error:
        return {"verified": False, "code": error.code,
                "summary": f"FAILED {error.code}: {error.message}"}
    return {"verified": True, "entries": found.entries, "checkpoints": len(found.checkpoints),
            "summary": f"full bundle verified offline ({found.entries} entries, "
                       f"{len(found.checkpoints)} signed checkpoints, every result re-run)"}


def demo_seasons(app: Arbiter, signer: Signer, folder: Path,
                 say: Callable[..., None]) -> list[dict[str, Any]]:
    """`arbiter demo`'s season part: each season file of FOLDER/seasons played (a season in the
    store already is not played again: it is checked again), its story told and its full
    season bundle verified offline."""
    return [demo_season(app, path, signer, say)
            for path in sorted((folder / "seasons").glob("*.json"))]


def demo_season(app: Arbiter, path: Path, signer: Signer,
                say: Callable[..., None]) -> dict[str, Any]:
    from commands.cli.season import season_text
    from commands.cli.seasonfile import compare, load_season, play_season
    from domain.decider import HOST
    from projections.standings import standings

    file = load_season(path)
    try:
        app.season(file.season)
    except RuleViolation:
        data, mismatches = play_season(app, file, path.parent)
        again = False
    else:
        data = standings(app.season(file.season), HOST)
        mismatches = compare(file.expect, data) if file.expect else []
        again = True
    audit = season_audit(app, file.season, signer)
    say("", f"== seasons/{path.name}" + (": in the store already, not played again"
                                         if again else ""),
        *season_text(data), *(f"mismatch: {line}" for line in mismatches),
        f"audit: {audit['summary']}")
    return {"file": f"seasons/{path.name}", "season": file.season, "played_before": again,
            "standings": data, "mismatches": mismatches, "audit": audit}


def season_audit(app: Arbiter, name: str, signer: Signer) -> dict[str, Any]:
    """The season's full bundle, exported in memory and verified offline."""
    from audit.errors import AuditError
    from audit.season_bundle import FULL
    from audit.season_verify import verify_season

    bundle = "".join(app.season_bundle(name, FULL, signer.verifier_key()))
    try:
        found = verify_season(line.encode() + b"\n" for line in bundle.splitlines())
    except AuditError as error:
        return {"verified": False, "code": error.code,
                "summary": f"FAILED {error.code}: {error.message}"}
    return {"verified": True, "entries": found.entries, "checkpoints": len(found.checkpoints),
            "cited": found.cited,
            "summary": f"full season bundle verified offline ({found.entries} entries, "
                       f"{len(found.checkpoints)} signed season checkpoints, {found.cited} "
                       "match entries checked against their matches' signed checkpoints, every "
                       "standing recomputed)"}


def next_steps(played: list[dict[str, Any]], seasons: list[dict[str, Any]],
               url: str) -> list[str]:
    from commands.store.settings import DEFAULT_URL

    match = played[-1]["match"]
    player = played[-1]["outcome"]["players"][0]["player"]
    steps = [("the public view", f"arbiter view {match}"),
             (f"{player}'s view", f"arbiter view {match} --player {player}"),
             ("its audit bundle", f"arbiter export {match} --full -o {match}.jsonl"),
             ("checked offline", f"arbiter verify {match}.jsonl"),
             ("its page", f"arbiter serve   (then http://127.0.0.1:8000/m/{match})"),
             ("the host's pages", "arbiter tokens host   (then open its link, once served)")]
    if seasons:
        season = seasons[-1]["season"]
        steps += [("the season", f"arbiter season show {season}"),
                  ("its bundle", f"arbiter export --season {season} --full -o {season}.jsonl"),
                  ("its page", f"http://127.0.0.1:8000/s/{season}, once served")]
    store = "" if url == DEFAULT_URL else " (each with the same --db or ARBITER_DATABASE_URL)"
    return [f"next, try{store}:", *(f"  {what}: {command}" for what, command in steps)]


def default_seeds() -> Path:
    here = Path("seeds")
    return here if here.is_dir() else Path(__file__).resolve().parents[2] / "seeds"
