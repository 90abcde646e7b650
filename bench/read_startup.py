"""The start-up of the commands that read: `verify` of a public and of a full bundle, `view`,
`checkpoint` and `receipt verify`, each a whole new process, against `python -c pass`; and
`view long --round 3 --json` of a King's Court match of about 20,000 entries.

    python bench/read_startup.py [--runs 15] [--source DIR] [--folder DIR] [--size 20000]
                                 [--pg SERVER_URL] [--pg-only]

Each command is timed by hyperfine (`hyperfine -N -w 3 -r RUNS`, which must be installed),
in the folder of its store: the demo's (`arbiter demo`, no view tables: a view reads the log),
a copy of it whose view tables were rebuilt, and the long match's (bench/disputes.py writes
it, the view tables rebuilt). With --source, the commands run the project's code in DIR
instead (a checkout of another commit, put first on PYTHONPATH): the same stores and files,
so two commits are measured alike. Then the floors: the imports alone that each kind of read
cannot do without (click, the store key's AES-GCM, the Ed25519 check and the canonical
readers, rich for text; the event-sourcing library and pydantic for a read of the log, the
rules' setup being a pydantic model). Prints a markdown table: mean wall time and its spread,
CPU time (user + system, the steadier figure on a shared machine), the ratio of each to
`python -c pass`, and the load average before and after.

With --pg, the same reads of a PostgreSQL store too (`--db URL`): the demo in a database of
its own (no view tables), the demo in another with its tables rebuilt, and the long match,
made on the server once and named in the folder's `pg.json` (so that two commits are measured
on the same databases; `dropdb` them when done), and the floor of a view from the tables
there, PostgreSQL's driver added.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ARBITER = str(Path(sys.executable).with_name("arbiter"))
MATCH = "kings-court-king-win"


def arbiter(folder: Path, *args: str) -> str:
    done = subprocess.run([ARBITER, *args], cwd=folder, capture_output=True, text=True,
                          check=True, env=without_store_key())
    return done.stdout


def without_store_key() -> dict[str, str]:
    """Each store's key is the file beside it (./arbiter-store.key), as `arbiter init` makes."""
    return {k: v for k, v in os.environ.items() if k != "ARBITER_STORE_KEY"}


def prepare(folder: Path, size: int) -> dict[str, Path]:
    """The stores and files the commands read, made once in `folder`."""
    demo, tables, long = folder / "demo", folder / "tables", folder / "long"
    if not (demo / "arbiter.db").exists():
        demo.mkdir(parents=True, exist_ok=True)
        arbiter(demo, "demo")
        arbiter(demo, "export", MATCH, "--public", "-o", "public.jsonl")
        arbiter(demo, "export", MATCH, "--full", "-o", "full.jsonl")
        write_receipt(demo)
    if not (tables / "arbiter.db").exists():
        shutil.copytree(demo, tables, dirs_exist_ok=True)
        arbiter(tables, "projections", "rebuild")
    if not (long / "arbiter.db").exists():
        long.mkdir(parents=True, exist_ok=True)
        write_long(long, size)
    return {"demo": demo, "tables": tables, "long": long}


def prepare_pg(folder: Path, server: str, size: int) -> dict[str, tuple[Path, str]]:
    """The PostgreSQL stores the commands read (made once, named in `pg.json`): each a
    folder to run in (its keys) and a database URL."""
    import psycopg

    names = folder / "pg.json"
    made: dict[str, str] = json.loads(names.read_text()) if names.exists() else {}
    where = {}
    for store in ("demo", "tables", "long"):
        home = folder / f"pg-{store}"
        if store not in made:
            name = f"arbiter_read_startup_{store}_{os.urandom(4).hex()}"
            with psycopg.connect(server, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
            url = server.rsplit("/", 1)[0] + f"/{name}"
            home.mkdir(parents=True, exist_ok=True)
            if store == "long":
                write_long(home, size, url)
            else:
                arbiter(home, "--db", url, "demo")
                if store == "tables":
                    arbiter(home, "--db", url, "projections", "rebuild")
            made[store] = url
            names.write_text(json.dumps(made))
        where[store] = (home, made[store])
    return where


def write_receipt(demo: Path) -> None:
    """The receipt of a vote, kept as `match submit --receipt` keeps it: the seed match played
    again in a season of its own in the demo's store, the bundle of that match beside it."""
    from commands.cli.matchfile import load
    from commands.service.arbiter import Arbiter
    from commands.service.keys import signer_from
    from tests.support.seed_receipt import played_keeping_a_receipt

    match = "receipt-kc"
    file = load(Path(__file__).resolve().parents[1] / "seeds" / "kings_court-king-win.json")
    file = file.model_copy(update={"match": match, "season": "receipts"})
    before = Path.cwd()
    os.chdir(demo)
    try:
        os.environ.pop("ARBITER_STORE_KEY", None)
        app = Arbiter("sqlite:///arbiter.db", signer=signer_from())
        kept = played_keeping_a_receipt(app, file).as_dict()
        Path("receipt.json").write_text(json.dumps(kept))
        Path("receipt-bundle.jsonl").write_text("".join(app.bundle(match, "public")))
        app.close()
    finally:
        os.chdir(before)


def write_long(folder: Path, size: int, url: str = "sqlite:///arbiter.db") -> None:
    from bench.disputes import project, write_match
    from commands.store.sealing import make_key

    before = Path.cwd()
    os.chdir(folder)
    try:
        os.environ.pop("ARBITER_STORE_KEY", None)
        make_key("arbiter-store.key")
        write_match(url, size)
        project(url)
    finally:
        os.chdir(before)


def timed(name: str, command: list[str], cwd: Path, runs: int,
          source: str | None) -> dict[str, float]:
    """hyperfine's mean wall time, its standard deviation and the mean CPU time, in ms."""
    env = without_store_key()
    if source:
        env["PYTHONPATH"] = source
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run(["hyperfine", "-N", "-w", "3", "-r", str(runs), "--export-json",
                        out.name, "--command-name", name, " ".join(command)],
                       cwd=cwd, env=env, check=True, capture_output=True)
        found = json.loads(Path(out.name).read_text())["results"][0]
    return {"mean": found["mean"] * 1000, "stddev": found["stddev"] * 1000,
            "cpu": (found["user"] + found["system"]) * 1000}


def load_average() -> str:
    return " ".join(f"{n:.2f}" for n in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--source", default=None, help="Run the project's code in this folder.")
    parser.add_argument("--folder", default=None, help="Where the stores are (made once).")
    parser.add_argument("--size", type=int, default=20_000)
    parser.add_argument("--pg", default=None, metavar="SERVER_URL",
                        help="Also a PostgreSQL server's stores (its maintenance database).")
    parser.add_argument("--pg-only", action="store_true",
                        help="Only the PostgreSQL stores' reads (and `python -c pass`).")
    args = parser.parse_args()
    folder = Path(args.folder or tempfile.mkdtemp(prefix="arbiter-read-startup-"))
    where: dict[str, Path] = prepare(folder, args.size)
    py = sys.executable
    pg: list[tuple[str, list[str], str]] = []
    if args.pg:
        for store, (home, url) in prepare_pg(folder, args.pg, args.size).items():
            where[f"pg-{store}"] = home
            pg.append((store, ["--db", url], f"pg-{store}"))
    commands = [
        ("`python -c pass`", [py, "-c", "pass"], "demo"),
        ("`python -c 'import click'`", [py, "-c", "'import click'"], "demo"),
        ("`verify` public bundle", [ARBITER, "verify", "public.jsonl"], "demo"),
        ("`verify --json` public bundle", [ARBITER, "verify", "public.jsonl", "--json"], "demo"),
        ("`verify` full bundle", [ARBITER, "verify", "full.jsonl"], "demo"),
        ("`view MATCH --json`, no view tables", [ARBITER, "view", MATCH, "--json"], "demo"),
        ("`view MATCH --json`, tables current", [ARBITER, "view", MATCH, "--json"], "tables"),
        ("`view MATCH`, tables current", [ARBITER, "view", MATCH], "tables"),
        ("`checkpoint MATCH --round 3`, no view tables",
         [ARBITER, "checkpoint", MATCH, "--round", "3"], "demo"),
        ("`checkpoint MATCH --round 3`, tables current",
         [ARBITER, "checkpoint", MATCH, "--round", "3"], "tables"),
        ("`receipt verify R --bundle B`",
         [ARBITER, "receipt", "verify", "receipt.json", "--bundle", "receipt-bundle.jsonl"],
         "demo"),
        (f"`view long --round 3 --json`, {args.size // 1000}k entries",
         [ARBITER, "view", "long", "--round", "3", "--json"], "long"),
    ]
    # The floors: what each kind of read must import whatever the project's code does.
    floors = {
        "view from the tables": "click, json, sqlite3, hmac, orjson, "
                                "cryptography.hazmat.primitives.ciphers.aead",
        "verify, a public bundle": "click, json, hashlib, msgspec, orjson, rfc8785, "
                                   "cryptography.hazmat.primitives.asymmetric.ed25519",
        "... and its text report": "click, json, hashlib, msgspec, orjson, rfc8785, "
                                   "cryptography.hazmat.primitives.asymmetric.ed25519, "
                                   "rich.console, rich.table",
        "a read of the log": "click, eventsourcing.application, eventsourcing.sqlite, "
                             "cryptography.hazmat.primitives.ciphers.aead, pydantic",
    }
    commands += [(f"floor: {what} (`import {modules}`)",
                  [py, "-c", f"'import {modules}'"], "demo") for what, modules in floors.items()]
    if pg:
        (_, demo, at_demo), (_, tables, at_tables), (_, long, at_long) = pg
        pg_commands = [
            ("PG: `view MATCH --json`, no view tables",
             [ARBITER, *demo, "view", MATCH, "--json"], at_demo),
            ("PG: `view MATCH --json`, tables current",
             [ARBITER, *tables, "view", MATCH, "--json"], at_tables),
            ("PG: `view MATCH --round 3 --json`, tables current",
             [ARBITER, *tables, "view", MATCH, "--round", "3", "--json"], at_tables),
            ("PG: `view MATCH`, tables current", [ARBITER, *tables, "view", MATCH], at_tables),
            ("PG: `checkpoint MATCH --round 3`, no view tables",
             [ARBITER, *demo, "checkpoint", MATCH, "--round", "3"], at_demo),
            ("PG: `checkpoint MATCH --round 3`, tables current",
             [ARBITER, *tables, "checkpoint", MATCH, "--round", "3"], at_tables),
            (f"PG: `view long --round 3 --json`, {args.size // 1000}k entries",
             [ARBITER, *long, "view", "long", "--round", "3", "--json"], at_long),
            ("floor: a view from the tables on PostgreSQL (`import click, json, psycopg, "
             "hmac, orjson, cryptography.hazmat.primitives.ciphers.aead`)",
             [py, "-c", "'import click, json, psycopg, hmac, orjson, "
                        "cryptography.hazmat.primitives.ciphers.aead'"], "demo"),
            ("floor: `import psycopg`", [py, "-c", "'import psycopg'"], "demo"),
        ]
        commands = commands[:1] + pg_commands if args.pg_only else commands + pg_commands
    print(f"load before: {load_average()}; source: {args.source or 'this checkout'}")
    print("| command | mean wall (ms) | x pass | CPU (ms) | x pass |")
    print("|---|---|---|---|---|")
    bare: dict[str, float] = {}
    for name, command, store in commands:
        found = timed(name, command, where[store], args.runs, args.source)
        bare = bare or found
        print(f"| {name} | {found['mean']:.1f} ± {found['stddev']:.1f} | "
              f"{found['mean'] / bare['mean']:.1f} | {found['cpu']:.1f} | "
              f"{found['cpu'] / bare['cpu']:.1f} |", flush=True)
    print(f"load after: {load_average()}")


if __name__ == "__main__":
    main()
