"""`arbiter verify` and `arbiter receipt verify`: a bundle, or one submission, checked offline
by anyone, with no store and no network. docs/audit.md has the formats and failure codes.
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from audit.errors import AuditError
from commands.cli import render
from commands.cli.audit import in_file, judged, progress_bar, vkey_of, vkey_option
from commands.cli.console import json_option
from commands.cli.tiled import is_tiled, tiled_source

if TYPE_CHECKING:
    from audit.tiles_bundle import TiledSource


def register(cli: click.Group) -> None:
    for command in (verify_command, receipt_group):
        cli.add_command(command)


@click.command("verify", short_help="Verify an audit bundle or a tiled log.")
@click.argument("file", metavar="FILE|TILES")
@vkey_option
@click.option("--witnesses", "witnesses_file", type=in_file, default=None,
              help="A file of witnesses' verifier keys (type 0x04), one a line, or a season "
                   "bundle: the keys its players' browsers registered.")
@click.option("--quorum", type=click.IntRange(1), default=None,
              help="How many of them must have cosigned the newest checkpoint "
                   "(default: all, with --witnesses).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes for a public match bundle file (one per core).")
@json_option
def verify_command(file: str, vkey: str | None, witnesses_file: str | None,
                   quorum: int | None, jobs: int, as_json: bool) -> None:
    """Verify an audit bundle (a match's or a season's) offline, with no store and no network:
    exit 0 with a report, or 1 naming the first failure (docs/audit.md lists the codes).

    TILES is a log published as c2sp.org/tlog-tiles instead: a folder `arbiter publish`
    wrote (DIR/match/ID, DIR/season/ID) or its URL (https://HOST/logs/match/ID). Its public
    bundle is read back from the tiles and checked the same way.

    As a witness would, it remembers each origin it verified: the key that signed it (the
    first time, --key or the key the bundle names) and its largest checkpoint. A later bundle
    of that origin signed by another key, or rolled back to an older checkpoint, fails
    (the file: $ARBITER_KNOWN_KEYS, else ~/.config/arbiter/known_origins).

    With --witnesses, every cosignature by a listed witness must hold and --quorum of them
    must have cosigned the newest checkpoint (c2sp.org/tlog-cosignature), else
    `quorum_not_met` (docs/audit.md, "Witnesses").

    --jobs N splits a public match bundle file's hashing and signature checks over N worker
    processes; the checks, their order and the codes are the same."""
    from audit import witness

    if quorum is not None and witnesses_file is None:
        raise click.UsageError("--quorum needs --witnesses FILE")
    listed = witnesses_of(witnesses_file) if witnesses_file else None

    path = witness.known_origins_file()
    known = witness.load(path)
    tiled = tiled_source(file) if is_tiled(file) else None
    origin, named = header_claims(file) if tiled is None else tiled_claims(tiled)
    seen = known.get(origin) if origin else None
    key = vkey_of(vkey)
    if key is not None:
        source, how = "key", "pinned with --key"
    elif seen is not None:
        source, how = "known", f"pinned: the key {origin} was first verified with ({path})"
    else:
        source, how = "first_use", ("trusted on first use: named by the header, remembered "
                                    f"for {origin} in {path}; pass --key to pin the key the "
                                    "host published")

    def check() -> Any:
        if key is not None:
            witness.check_key(seen, str(key), "--key", path)
        elif seen is not None:
            witness.check_key(seen, named, "the key the bundle's header names", path)
        pinned = key or (vkey_of(seen.key) if seen is not None else None)
        with ExitStack() as stack:
            if tiled is None:
                from audit.parallel_verify import verify_file

                return verify_file(file, pinned, jobs, progress_bar(stack), seen)
            from audit.any_bundle import verify_any
            from audit.tiles_bundle import bundle_lines

            return verify_any(bundle_lines(tiled), pinned, progress=progress_bar(stack),
                              seen=seen)

    audit = judged(check, as_json)
    cosigned = None
    if listed:
        from audit import cosign  # the witnesses' checks: only with --witnesses

        cosigned = judged(lambda: cosign.check_quorum(
            newest_notes(audit), listed, quorum or len(listed)), as_json)
    signed = signed_checkpoint(audit)
    if origin and signed is not None:
        witness.save(path, witness.remembered(known, origin, str(audit.signer), *signed))
        audit.key_source = how
    data = verified_data(audit)
    data["key_source"] = source if signed is not None else None
    witnessed: list[tuple[str, str]] = []
    if cosigned is not None:
        data["cosigned_by"] = list(cosigned.cosigned_by)
        data["witnesses"], data["quorum"] = cosigned.witnesses, cosigned.quorum
        witnessed.append(("witnesses", f"the newest checkpoint is cosigned by "
                         f"{len(cosigned.cosigned_by)} of the {cosigned.witnesses} listed "
                         f"({', '.join(cosigned.cosigned_by)}); {cosigned.quorum} required"))
    render.show(data, as_json, lambda: [
        title_words(audit), render.pairs(findings_words(audit, data) + witnessed),
        *([standings_words(data["standings"])] if "standings" in data else []),
        "verified"])


def title_words(audit: Any) -> str:
    """The bundle's title, its game named as people name it. A season's audit is told from a
    match's by the match's class: the season's module loads the season's rules."""
    from audit.verify import Audit
    from projections import words

    if not isinstance(audit, Audit):
        return str(audit.title())
    h = audit.header
    version = str(h.rules_version).rsplit("/", 1)[-1]
    return (f"{h.kind} bundle of match {h.match}: {words.game_name(h.game)} (rules version "
            f"{version}), season {h.season}, {len(h.players)} players")


def findings_words(audit: Any, data: dict[str, Any]) -> list[tuple[str, str]]:
    """What was checked; the outcome as the pages say it, not its code."""
    from projections import words

    found = list(audit.findings())
    results = data.get("results") or {}
    said = words.outcome(data.get("game", ""), results)
    if said is not None:
        ranks = ", ".join(f"{p} {r}" for p, r in results.get("ranks", {}).items())
        found = [(what, f"{said}; ranks {ranks}" if what == "outcome" else finding)
                 for what, finding in found]
    return found


def standings_words(rows: list[dict[str, Any]]) -> Any:
    """The season's standings as recomputed from the bundle, in the season's words."""
    from projections import words

    table = render.new_table("player", "status", "left in", "ToL", "Opal", "MoE", "EC",
                             title="standings, recomputed")
    for row in rows:
        table.add_row(row["player"], words.standing(row["status"]), row.get("left_in") or "",
                      *(str(row.get(a, 0)) for a in ("tol", "opal", "moe", "ec")))
    return table


def tiled_claims(source: TiledSource) -> tuple[str | None, str | None]:
    """The origin and host key a tiled log's arbiter/log.json names (None where it names
    none, or cannot be read: verify says what is wrong)."""
    try:
        header = source.document()[0]["header"]
    except AuditError:
        return None, None
    origin, key = header.get("origin"), header.get("host_key")
    return (origin if isinstance(origin, str) else None), (key if isinstance(key, str) else None)


def header_claims(file: str) -> tuple[str | None, str | None]:
    """The origin and host key a bundle's header names (None where it names none: verify
    says what is wrong with it)."""
    with open(file, "rb") as stream:
        first = stream.readline()
    try:
        header = json.loads(first)["header"]
        origin, key = header.get("origin"), header.get("host_key")
    except (ValueError, KeyError, TypeError, AttributeError):
        return None, None
    return (origin if isinstance(origin, str) else None), (key if isinstance(key, str) else None)


def witnesses_of(path: str) -> list[Any]:
    """The witness keys a file names: one vkey a line, or a season bundle, verified first,
    whose players registered their browsers' keys in it."""
    from audit import cosign
    from audit.any_bundle import verify_any
    from audit.verify import Audit

    text = Path(path).read_text(encoding="utf-8")
    if not text.startswith('{"header":'):
        return cosign.read_witnesses(text, path)
    with open(path, "rb") as stream:
        audit = verify_any(stream)
    if isinstance(audit, Audit):
        raise AuditError("invalid_input", f"{path} is a match's bundle: give a season's, or a "
                         "file of witness keys")
    keys = "".join(f"{key}\n" for key in audit.rebuilt.witnesses.values())
    if not keys:
        raise AuditError("invalid_input", f"no player of season {audit.header.season} "
                         "registered a witness key")
    return cosign.read_witnesses(keys, path)


def newest_notes(audit: Any) -> list[str]:
    """A verified bundle's checkpoint notes, as held (a season's: its newest only)."""
    from audit.verify import Audit

    if isinstance(audit, Audit):
        return [c.note for c in audit.checkpoints]
    return [audit.signed_note] if audit.signed_note is not None else []


def signed_checkpoint(audit: Any) -> tuple[int, bytes] | None:
    """The size and root of a verified bundle's last signed checkpoint, if it has one."""
    from audit.verify import Audit

    if isinstance(audit, Audit):
        return (audit.checkpoints[-1].size, audit.checkpoints[-1].root) if audit.checkpoints \
            else None
    root = audit.signed_root  # a season's, set with every checkpoint
    return (audit.checkpoints[-1], root) if audit.checkpoints and root is not None else None


def verified_data(audit: Any) -> dict[str, Any]:
    """What `verify --json` prints of a verified match bundle or season bundle."""
    from audit.verify import Audit

    h = audit.header
    found = {"verified": True, "kind": h.kind, "entries": audit.entries,
             "checkpoints": len(audit.checkpoints),
             "signed_by": str(audit.signer) if audit.checkpoints else None,
             "pinned": audit.pinned, "findings": dict(audit.findings())}
    if not isinstance(audit, Audit):  # a season's
        return {**found, "season": h.season, "origin": h.origin, "matches": h.matches,
                "match_checkpoints": audit.match_notes, "cited": audit.cited,
                "standings": audit.standings()}
    return {**found, "match": h.match, "game": h.game, "rules_version": h.rules_version,
            "season": h.season, "players": h.players, "unsigned": bool(h.unsigned),
            "weak_seed": bool(h.weak_seed), "ended": audit.ended, "results": audit.results}


@click.group("receipt", short_help="Check the receipt of a submission.")
def receipt_group() -> None:
    """Receipts of submissions: prove what was sent, and that it is in the signed log."""


@receipt_group.command("verify", short_help="Check a receipt against a bundle or a proof.")
@click.argument("receipt_file", metavar="RECEIPT", type=in_file)
@click.option("--bundle", "bundle_file", type=in_file,
              help="A bundle of the match (public is enough): the proof is made from it.")
@click.option("--proof", "proof_file", type=in_file,
              help="A saved c2sp.org/tlog-proof instead of a bundle (needs --key).")
@click.option("--tiles", "tiles", default=None, metavar="TILES",
              help="The match's log as tiles (a folder `arbiter publish` wrote, or its URL) "
                   "instead of a bundle: only the tiles the proof needs are fetched.")
@click.option("--checkpoint", "checkpoint_file", type=in_file,
              help="With --bundle or --tiles: prove under this checkpoint as it was published "
                   "(default: the log's first checkpoint covering the entry).")
@click.option("--save-proof", type=click.Path(dir_okay=False), default=None,
              help="Write the tlog-proof to this file.")
@vkey_option
@json_option
def receipt_verify(receipt_file: str, bundle_file: str | None, proof_file: str | None,
                   tiles: str | None, checkpoint_file: str | None, save_proof: str | None,
                   vkey: str | None, as_json: bool) -> None:
    """Check a receipt (`match submit --receipt FILE` saves one; `--json` prints it): each
    sealed part opens to what was sent, and the entry is in a log the host signed. Exit 1
    naming what fails."""
    from audit.receipts import prove, prove_from_tiles, verify_proof
    from commands.cli.inputs import pasted_note, read_json

    if sum(given is not None for given in (bundle_file, proof_file, tiles)) != 1:
        raise AuditError("invalid_input", "give one of --bundle FILE, --tiles TILES and "
                         "--proof FILE")
    data = read_json(receipt_file, "receipt")
    receipt = data["receipt"] if isinstance(data, dict) and "receipt" in data else data
    key = vkey_of(vkey)
    if proof_file is not None:
        if key is None:
            raise AuditError("no_host_key", "a proof alone names no key: pass --key VKEY")
        text = pasted_note(Path(proof_file).read_text(encoding="utf-8"))
        proven = judged(lambda: verify_proof(receipt, text, key), as_json)
    else:
        note = pasted_note(Path(checkpoint_file).read_text(encoding="utf-8")) \
            if checkpoint_file else None
        if tiles is not None:
            source = tiled_source(tiles)
            proven = judged(lambda: prove_from_tiles(receipt, source, key, note), as_json)
        else:
            assert bundle_file is not None  # one of the three (above)
            with open(bundle_file, "rb") as stream:
                proven = judged(lambda: prove(receipt, stream, key, note), as_json)
    if save_proof:
        Path(save_proof).write_text(proven.proof, encoding="utf-8")
    result = {"verified": True, "match": proven.match, "seq": proven.seq, "hash": proven.hash,
              "size": proven.size, "round": proven.round, "signed_by": str(proven.signer),
              "opened": {str(i): part for i, part in proven.opened.items()},
              "proof": proven.proof}
    game = header_game(bundle_file) if bundle_file else ""
    render.show(result, as_json, lambda: [*receipt_words(proven, game), proven.report()[0]])


def header_game(file: str) -> str:
    """The game a bundle's header names ("" when it names none)."""
    with open(file, "rb") as stream:
        first = stream.readline()
    try:
        game = json.loads(first)["header"]["game"]
    except (ValueError, KeyError, TypeError):
        return ""
    return game if isinstance(game, str) else ""


def receipt_words(proven: Any, game: str) -> list[str]:
    """ "bob's vote for carol, entry #17, is in the log under the checkpoint of round 2", and
    each other part the receipt opens, in words."""
    from projections import words

    lines = []
    for part in proven.opened.values():
        data = part.get("data") or {}
        if part.get("kind") == "CommandAccepted":
            lines.append(words.receipt(str(part.get("actor")), game, str(data.get("name", "")),
                                       data.get("args") or {}, proven.seq, proven.round) + ".")
        else:
            lines.append(words.sentence(f"entry #{proven.seq} also opens its "
                                        f"{words.readable(str(part.get('kind')))}: "
                                        f"{words.value(data)}"))
    return lines or [f"Entry #{proven.seq} is in the log under the checkpoint of "
                     f"{words.round_name(proven.round)}."]
