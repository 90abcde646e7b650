"""The tamper probes of the reliability suite: every way of changing a bundle or the store
that issue 15 tried as an attacker, run by hand and printed as one table (the shape of
bench/reliability.py, so its PROBES can take these).

    python bench/tampers.py [--probe NAME ...] [--store sqlite|postgres ...] [--pg URL]

probe              tried                                  failed               lost
bundle-fields      every envelope field of every entry    a variant that       a variant
                   (public bundle; every 6th entry of     verifies (or a       verified that
                   the full one) changed, the header's    crash)               holds fewer
                   fields, an opening's part and salt                          entries or signed
bundle-lines       each entry dropped, doubled, swapped                        checkpoints than
                   with the next; cut after every line,                        the original
                   mid-line, without its last newline
bundle-signatures  the trailing checkpoint dropped, the
                   lines after the last entry cut, each
                   middle checkpoint dropped, re-keyed
                   (pinned, and remembered), rolled back
                   to each checkpoint with a fixed header
                   (remembered), another history
season-bundle      the same classes on the seed season's
                   bundle
store-rows         each stored row of a live match, its   `arbiter check`      where a load
                   season and their checkpoints           passes               must refuse the
                   scribbled (no key)
store-forged       an entry edited with every key, the                         change: a read
                   hashes after it recomputed (no load                         that shows it,
                   can tell: only the signatures)                              or a command
store-deleted      a middle row deleted; the last 1-3                          recorded on top
                   rows under a signed checkpoint                              of it
store-swapped      two adjacent rows exchanged

The match is King's Court (seeds/kings_court-king-win.json), signed with a key made for the
run; the store probes play it to its 60th command, so it is still open and a command can be
tried on top of each change. A bundle probe runs once (its store column says -).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit import keys, witness
from audit.any_bundle import verify_any
from audit.bundle import CHECKPOINT, FULL, HEADER, OPENING, PUBLIC, export, line
from audit.errors import AuditError
from audit.notes import parse_checkpoint, parse_note, parse_verifier_key
from audit.verify import ENVELOPE
from bench.stores import SERVER, postgres_url, sqlite_url
from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from commands.service.check import StoreFault, check_store
from domain.checkpoints import MatchCheckpoints, SeasonCheckpoints
from domain.envelope import commitment, entry_hash, salt
from domain.errors import RuleViolation
from domain.match import Match, parse_salt_key
from domain.season import Season
from tests.support import tamper

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "seeds" / "kings_court-king-win.json"
SIGNER = keys.generate("tamper-host")
MALLORY = keys.generate("tamper-host")  # the same name, another key
VKEY = parse_verifier_key(SIGNER.verifier_key())


@dataclass
class Result:
    tried: int = 0
    failed: int = 0
    lost: int = 0
    notes: list[str] = field(default_factory=list)
    codes: Counter = field(default_factory=Counter)

    def note(self, text: str) -> None:
        self.notes.append(text)

    def named(self) -> None:
        """The codes the variants were named by, most common first."""
        if self.codes:
            self.note(", ".join(f"{code} {n}" for code, n in self.codes.most_common(6))
                      + (" ..." if len(self.codes) > 6 else ""))


# -- bundles --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Bundle:
    lines: list[bytes]
    entries: int
    checkpoints: int
    origin: str


def bundle(lines: list[bytes]) -> Bundle:
    found = verify_any(iter(lines), VKEY)
    return Bundle(lines, found.entries, len(found.checkpoints),
                  json.loads(lines[0])[HEADER]["origin"])


@contextmanager
def played_match(commands: int | None = None) -> Iterator[Arbiter]:
    app = Arbiter("sqlite:///:memory:", signer=SIGNER)
    file = load(SEED)
    if commands is not None:
        file = file.model_copy(update={"commands": file.commands[:commands], "expect": None})
    play(app, file)
    try:
        yield app
    finally:
        app.close()


def match_bundles() -> dict[str, Bundle]:
    with played_match() as app:
        match = load(SEED).match
        notes = [n["note"] for n in app.checkpoints(match).notes]
        return {kind: bundle([(text + "\n").encode() for text in "".join(
            export(app.match(match), notes, kind, SIGNER.verifier_key())).splitlines()])
            for kind in (PUBLIC, FULL)}


def season_bundles() -> dict[str, Bundle]:
    from commands.cli.start import demo_seasons

    app = Arbiter("sqlite:///:memory:", signer=SIGNER)
    try:
        (season,) = [s["season"] for s in demo_seasons(app, SIGNER, ROOT / "seeds",
                                                       lambda *_: None)]
        return {kind: bundle([(text + "\n").encode() for text in "".join(
            app.season_bundle(season, kind, SIGNER.verifier_key())).splitlines()])
            for kind in (PUBLIC, FULL)}
    finally:
        app.close()


def judged(result: Result, original: Bundle, lines: list[bytes],
           key: Any = VKEY, seen: witness.Seen | None = None) -> None:
    """One variant: verified as `arbiter verify` would (with the witness's memory `seen`)."""
    result.tried += 1
    try:
        if seen is not None:
            named = json.loads(lines[0]).get(HEADER, {}).get("host_key")
            witness.check_key(seen, named, "the header's key", Path("known_origins"))
        found = verify_any(iter(lines), key, seen=seen)
    except AuditError as error:
        result.codes[error.code] += 1
        return
    except Exception as error:  # a crash is what this counts
        result.failed += 1
        result.codes[f"crash {type(error).__name__}"] += 1
        return
    result.failed += 1
    result.codes["verified"] += 1
    if found.entries < original.entries or len(found.checkpoints) < original.checkpoints:
        result.lost += 1


def values(lines: list[bytes]) -> list[dict[str, Any]]:
    return [json.loads(raw) for raw in lines]


def encoded(value: Any) -> bytes:
    return line(value).encode()


def other(value: Any) -> Any:
    """The same kind of value, changed."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return (value[:-1] + ("0" if value[-1:] != "0" else "1")) if value else "x"
    if isinstance(value, list):
        return [*value, value[0]] if value else ["x"]
    if isinstance(value, dict):
        return {**value, "x": 1}
    return "x"  # None


def bundle_fields(store: str, options: argparse.Namespace) -> Result:
    result = Result()
    for kind, original in match_bundles().items():
        lines = original.lines
        for index, value in enumerate(values(lines)):
            if "hash" in value and (kind == PUBLIC or value["seq"] % 6 == 0):
                for name in sorted(ENVELOPE):
                    judged(result, original, [*lines[:index],
                                              encoded({**value, name: other(value[name])}),
                                              *lines[index + 1:]])
            elif HEADER in value:
                for name in sorted(value[HEADER]):
                    header = {**value[HEADER], name: other(value[HEADER][name])}
                    judged(result, original, [encoded({HEADER: header}), *lines[1:]])
            elif OPENING in value and value[OPENING]["seq"] % 6 == 0:
                for name in ("parts", "salts"):
                    opening = copy.deepcopy(value[OPENING])
                    opening[name][0] = other(opening[name][0])
                    judged(result, original, [*lines[:index], encoded({OPENING: opening}),
                                              *lines[index + 1:]])
    result.named()
    return result


def entry_lines(lines: list[bytes]) -> list[int]:
    return [i for i, v in enumerate(values(lines)) if "hash" in v]


def bundle_lines(store: str, options: argparse.Namespace) -> Result:
    result = Result()
    rng = random.Random(15)
    for original in match_bundles().values():
        lines = original.lines
        entries = entry_lines(lines)
        for i in entries[1:]:
            judged(result, original, [*lines[:i], *lines[i + 1:]])  # dropped
            judged(result, original, [*lines[:i + 1], lines[i], *lines[i + 1:]])  # doubled
        for a, b in pairwise(entries[1:]):
            swapped = list(lines)
            swapped[a], swapped[b] = swapped[b], swapped[a]
            judged(result, original, swapped)
        for cut in range(1, len(lines)):
            judged(result, original, lines[:cut])  # after a line
        for _ in range(40):
            at = rng.randrange(1, len(lines))
            judged(result, original, [*lines[:at], lines[at][:rng.randrange(1, len(lines[at]))]])
        judged(result, original, [*lines[:-1], lines[-1][:-1]])  # no last newline
    result.named()
    return result


def signature_variants(result: Result, original: Bundle) -> None:
    """Cut, re-keyed, rolled back: the classes the witness and the checkpoint rules catch."""
    lines = original.lines
    marks = [i for i, v in enumerate(values(lines)) if CHECKPOINT in v]
    last_entry = max(entry_lines(lines))
    judged(result, original, [*lines[:marks[-1]], *lines[marks[-1] + 1:]])  # trailing dropped
    judged(result, original, lines[:last_entry + 1])  # the lines after the last entry cut
    header = values(lines)[0][HEADER]
    for m in marks[:-1]:
        judged(result, original, [*lines[:m], *lines[m + 1:]])  # a middle checkpoint dropped
    rekeyed = []
    for value in values(lines):
        if CHECKPOINT in value:
            text = parse_note(value[CHECKPOINT]["note"]).text
            value = {CHECKPOINT: {**value[CHECKPOINT], "note": MALLORY.sign_note(text)}}
        elif HEADER in value:
            value = {HEADER: {**value[HEADER], "host_key": MALLORY.verifier_key()}}
        rekeyed.append(encoded(value))
    last = parse_checkpoint(parse_note(values(lines)[marks[-1]][CHECKPOINT]["note"]).text)
    seen = witness.Seen(original.origin, SIGNER.verifier_key(), last.size, last.root)
    judged(result, original, rekeyed)  # pinned with --key
    judged(result, original, rekeyed, key=None, seen=seen)  # the key remembered
    for number, m in enumerate(marks[:-1]):
        size = parse_checkpoint(parse_note(values(lines)[m][CHECKPOINT]["note"]).text).size
        fixed = {**header, "entries": size, "checkpoints": number + 1}
        judged(result, original, [encoded({HEADER: fixed}), *lines[1:m + 1]], seen=seen)
    forked = witness.Seen(original.origin, SIGNER.verifier_key(), last.size, bytes(32))
    judged(result, original, lines, seen=forked)  # another history than the one seen


def bundle_signatures(store: str, options: argparse.Namespace) -> Result:
    result = Result()
    for original in match_bundles().values():
        signature_variants(result, original)
    result.named()
    return result


def season_bundle(store: str, options: argparse.Namespace) -> Result:
    result = Result()
    for original in season_bundles().values():
        lines = original.lines
        entries = entry_lines(lines)
        for i in entries:
            value = values(lines)[i]
            for name in sorted(value):
                judged(result, original, [*lines[:i], encoded({**value, name: other(value[name])}),
                                          *lines[i + 1:]])
        for i in entries[1:]:
            judged(result, original, [*lines[:i], *lines[i + 1:]])
        for cut in range(1, len(lines)):
            judged(result, original, lines[:cut])
        signature_variants(result, original)
    result.named()
    return result


# -- the store ------------------------------------------------------------------------------

@contextmanager
def live_store(store: str, options: argparse.Namespace) -> Iterator[str]:
    """A store holding King's Court played to its 60th command (still open), and its season."""
    if store == "sqlite":
        url = sqlite_url()
        yield from _played(url)
    else:
        with postgres_url(options.pg) as url:
            yield from _played(url)


def _played(url: str) -> Iterator[str]:
    app = Arbiter(url, signer=SIGNER)
    file = load(SEED)
    play(app, file.model_copy(update={"commands": file.commands[:60], "expect": None}))
    app.close()
    yield url


MATCH_ID = Match.create_id(load(SEED).match)
SEASON_ID = Season.create_id(load(SEED).season)
LOGS = (MATCH_ID, SEASON_ID, MatchCheckpoints.create_id(load(SEED).match),
        SeasonCheckpoints.create_id(load(SEED).season))


@contextmanager
def restored(url: str) -> Iterator[Arbiter]:
    """A service on the store; afterwards, every row of the match and its season as it was."""
    app = Arbiter(url, signer=SIGNER)
    saved = {aggregate: _rows(app, aggregate) for aggregate in LOGS}
    try:
        yield app
    finally:
        table, mark = tamper._table(app.recorder)
        with app.recorder.datastore.transaction(commit=True) as curs:
            for aggregate, rows in saved.items():
                curs.execute(f"DELETE FROM {table} WHERE originator_id = {mark}",
                             (tamper._id(app.recorder, aggregate),))
                for row in rows:
                    columns = ", ".join(row)
                    curs.execute(f"INSERT INTO {table} ({columns}) VALUES "
                                 f"({', '.join([mark] * len(row))})", tuple(row.values()))
        app.close()


def _rows(app: Arbiter, aggregate: Any) -> list[dict[str, Any]]:
    table, mark = tamper._table(app.recorder)
    with app.recorder.datastore.transaction(commit=False) as curs:
        curs.execute(f"SELECT * FROM {table} WHERE originator_id = {mark}",
                     (tamper._id(app.recorder, aggregate),))
        return [dict(row) for row in curs.fetchall()]


def store_judged(result: Result, url: str, load_refuses: bool) -> None:
    """After one change: a fresh service's load (which must refuse it, when `load_refuses`),
    a command on top (which must record nothing), and `arbiter check` (which must name it)."""
    result.tried += 1
    app = Arbiter(url, signer=SIGNER)
    match_id = load(SEED).match
    try:
        caught = None
        try:
            app.match(match_id)
            app.season(load(SEED).season)
        except RuleViolation as error:
            caught = error.code
        if load_refuses and caught is None:
            result.lost += 1  # a read showed the change
        before = _versions(app)
        with suppress(RuleViolation):
            app.submit(match_id, "host", "set_deadline", {"deadline": "2031-01-01T00:00Z"})
        if load_refuses and _versions(app) != before:
            result.lost += 1  # a command recorded on top of a change the loads must see
        try:
            check_store(app, VKEY)
        except StoreFault as fault:
            result.codes[fault.code] += 1
            return
        except RuleViolation as error:
            result.codes[error.code] += 1
            return
        result.failed += 1
        result.codes["intact"] += 1
    finally:
        app.close()


def _versions(app: Arbiter) -> int:
    return len(app.recorder.select_events(MATCH_ID))


def _sample(versions: range, count: int, seed: int) -> list[int]:
    found = list(versions)
    return sorted(random.Random(seed).sample(found, min(count, len(found))))


def store_rows(store: str, options: argparse.Namespace) -> Result:
    result = Result()
    with live_store(store, options) as url:
        with restored(url) as app:
            sizes = {a: len(app.recorder.select_events(a)) for a in LOGS}
        for aggregate, size in sizes.items():
            for version in range(1, size + 1):
                with restored(url) as app:
                    tamper.scribble(app, aggregate, version)
                    store_judged(result, url, load_refuses=True)
    result.named()
    return result


def store_forged(store: str, options: argparse.Namespace) -> Result:
    """A forger holding every key: an entry's public data or sealed part edited (re-sealed),
    every hash after it recomputed. Loads cannot tell; the signed checkpoints can."""
    result = Result()
    with live_store(store, options) as url:
        with restored(url) as app:
            match = app.match(load(SEED).match)
            signed = app.checkpoints(match.match_id).notes[-1]["size"]
        for seq in _sample(range(1, signed + 1), 25, 1):
            with restored(url) as app:
                key = parse_salt_key(match.salt_key)

                def edit(event: Any, seq: int = seq, key: bytes = key) -> None:
                    record = event.record
                    if record["parts"]:
                        record["parts"][0]["at"] = "2031-01-01T00:00:00Z"
                        record["entry"]["seals"][0] = commitment(salt(key, seq, 0),
                                                                 record["parts"][0])
                    else:
                        record["entry"]["at"] = "2031-01-01T00:00:00Z"
                    record["entry"]["hash"] = entry_hash(record["entry"])

                tamper.rewrite(app, MATCH_ID, seq, edit)
                tamper.rechain(app, MATCH_ID, seq)
                store_judged(result, url, load_refuses=False)
    result.named()
    return result


def store_deleted(store: str, options: argparse.Namespace) -> Result:
    result = Result()
    with live_store(store, options) as url:
        with restored(url) as app:
            size = len(app.recorder.select_events(MATCH_ID))
            seasons = len(app.recorder.select_events(SEASON_ID))
        for version in _sample(range(2, size), 25, 2):
            with restored(url) as app:
                tamper.delete(app, MATCH_ID, version)
                store_judged(result, url, load_refuses=True)
        for version in _sample(range(2, seasons), 10, 3):
            with restored(url) as app:
                tamper.delete(app, SEASON_ID, version)
                store_judged(result, url, load_refuses=True)
        for count in (1, 2, 3):  # the last rows, under the match's last signed checkpoint
            with restored(url) as app:
                signed = app.checkpoints(load(SEED).match).notes[-1]["size"]
                extra = range(signed + 1, size + 1)  # entries after it, unsigned
                tamper.delete(app, MATCH_ID, *extra, *range(signed, signed - count, -1))
                store_judged(result, url, load_refuses=True)
    result.named()
    return result


def store_swapped(store: str, options: argparse.Namespace) -> Result:
    result = Result()
    with live_store(store, options) as url:
        with restored(url) as app:
            size = len(app.recorder.select_events(MATCH_ID))
        for version in _sample(range(2, size), 25, 4):
            with restored(url) as app:
                tamper.swap(app, MATCH_ID, version, version + 1)
                store_judged(result, url, load_refuses=True)
    result.named()
    return result


BUNDLE_PROBES = ("bundle-fields", "bundle-lines", "bundle-signatures", "season-bundle")
PROBES: dict[str, Callable[[str, argparse.Namespace], Result]] = {
    "bundle-fields": bundle_fields,
    "bundle-lines": bundle_lines,
    "bundle-signatures": bundle_signatures,
    "season-bundle": season_bundle,
    "store-rows": store_rows,
    "store-forged": store_forged,
    "store-deleted": store_deleted,
    "store-swapped": store_swapped,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--probe", action="append", choices=list(PROBES))
    parser.add_argument("--store", action="append", choices=["sqlite", "postgres"])
    parser.add_argument("--pg", default=SERVER)
    parser.add_argument("--clear", action="store_true",
                        help="Stores without a store key (as before stores had one).")
    run(parser.parse_args(), PROBES)


def run(options: argparse.Namespace, probes: dict[str, Callable[[str, argparse.Namespace],
                                                                Result]]) -> None:
    """Each probe on each store it takes, a line as it ends, then the table in markdown."""
    if not options.clear:  # encrypted at rest, as `arbiter init` makes a store
        from commands.store.sealing import make_key

        key = Path(tempfile.mkdtemp(prefix="arbiter-tampers-")) / "store.key"
        make_key(str(key))
        os.environ["ARBITER_STORE_KEY"] = str(key)
    else:
        os.environ.pop("ARBITER_STORE_KEY", None)
    rows = []
    print(f"{'probe':<18} {'store':<9} {'tried':>6} {'failed':>6} {'lost':>5}  notes",
          flush=True)
    for name in options.probe or probes:
        stores = ["-"] if name in BUNDLE_PROBES else options.store or ["sqlite", "postgres"]
        for store in stores:
            started = time.monotonic()
            found = probes[name](store, options)
            found.note(f"{time.monotonic() - started:.0f} s")
            rows.append((name, store, found))
            print(f"{name:<18} {store:<9} {found.tried:>6} {found.failed:>6} {found.lost:>5}  "
                  f"{'; '.join(found.notes)}", flush=True)
    print("\n| probe | store | tried | failed | lost | notes |\n|---|---|---|---|---|---|")
    for name, store, found in rows:
        print(f"| {name} | {store} | {found.tried} | {found.failed} | {found.lost} | "
              f"{'; '.join(found.notes)} |")


if __name__ == "__main__":
    main()
