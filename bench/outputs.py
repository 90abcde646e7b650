"""Every output a person or a program reads from Arbiter, written into one folder, so that two
commits can be compared byte for byte (a move of modules, a refactor that must change nothing):

    python bench/outputs.py OUT_DIR        # then, on the other commit, into OTHER_DIR
    diff -r OUT_DIR OTHER_DIR

In a fresh folder, with a fixed host key and store key, it plays the demo, then writes: the
help of every command; for every match, its views (public, host, each player, now and as of
every round, text and JSON), checkpoints, announcements, bundles (public and full) with their
verification and replays; the season's standings, bundles and verification; the store check;
the games; the OpenAPI document. Run it with the project's environment (`.venv/bin/python`).
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARBITER = Path(sys.executable).with_name("arbiter")
HOST_SEED = bytes(range(32))
STORE_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="  # base64 of bytes 0..31


def run(work: Path, out: Path, name: str, *args: str) -> str:
    """One command's stdout, stderr and exit code, into `name`; returns its stdout."""
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
    done = subprocess.run([str(ARBITER), *args], cwd=work, env=env, capture_output=True,
                          text=True, timeout=600)
    (out / name).write_text(f"$ arbiter {' '.join(args)}\nexit {done.returncode}\n"
                            f"--- stdout\n{done.stdout}--- stderr\n{done.stderr}")
    return done.stdout


def helps(work: Path, out: Path) -> None:
    run(work, out, "games.json", "games", "--json")
    commands: list[list[str]] = [[]]
    seen = 0
    while seen < len(commands):
        path = commands[seen]
        seen += 1
        text = run(work, out, "help-" + "-".join(["arbiter", *path]) + ".txt", *path, "--help")
        if "Commands:" in text:
            listing = text.split("Commands:", 1)[1]
            for line in listing.splitlines():
                if line.startswith("  ") and line.strip() and not line.startswith("   "):
                    commands.append([*path, line.split()[0]])


def keys(work: Path) -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    sys.path.insert(0, str(ROOT))
    from audit import keys as host_keys

    signer = host_keys.Signer("arbiter", Ed25519PrivateKey.from_private_bytes(HOST_SEED))
    host_keys.save(signer, work / "arbiter-host.key")
    (work / "arbiter-store.key").write_text(STORE_KEY + "\n")
    os.chmod(work / "arbiter-store.key", 0o600)


def matches(work: Path, out: Path) -> None:
    for seed in sorted((ROOT / "seeds").glob("*.json")):
        match = json.loads(seed.read_text())["match"]
        view = json.loads(run(work, out, f"{match}-view.json", "view", match, "--host", "--json"))
        players = sorted(json.loads(seed.read_text())["players"])
        last = view["as_of"]["round"]
        run(work, out, f"{match}-view-host.txt", "view", match, "--host")
        for viewer in ["public", *players]:
            flag = ["--public"] if viewer == "public" else ["--player", viewer]
            run(work, out, f"{match}-view-{viewer}.txt", "view", match, *flag)
            for r in range(last + 1):
                run(work, out, f"{match}-view-{viewer}-r{r}.json", "view", match, *flag,
                    "--round", str(r), "--json")
        for r in range(last + 1):
            run(work, out, f"{match}-checkpoint-r{r}.txt", "checkpoint", match, "--round", str(r))
            run(work, out, f"{match}-announce-r{r}.txt", "announce", match, "--round", str(r))
        for kind in ("public", "full"):
            bundle = f"{match}-{kind}.jsonl"
            run(work, out, f"{match}-export-{kind}.txt", "export", match, f"--{kind}",
                "-o", bundle)
            (out / bundle).write_bytes((work / bundle).read_bytes())
            run(work, out, f"{match}-verify-{kind}.txt", "verify", bundle)
            run(work, out, f"{match}-verify-{kind}.json", "verify", bundle, "--json")
        run(work, out, f"{match}-replay-public.txt", "replay", f"{match}-public.jsonl",
            "--round", str(last))
        for viewer in players[:2]:
            run(work, out, f"{match}-replay-{viewer}.json", "replay", f"{match}-full.jsonl",
                "--round", str(last), "--as", viewer, "--json")
        if last >= 1:
            run(work, out, f"{match}-diff.txt", "diff", match, "--from", "0", "--to", str(last))


def seasons(work: Path, out: Path) -> None:
    for file in sorted((ROOT / "seeds" / "seasons").glob("*.json")):
        name = json.loads(file.read_text())["season"]
        run(work, out, f"season-{name}.txt", "season", "show", name)
        run(work, out, f"season-{name}-host.json", "season", "show", name, "--host", "--json")
        for kind in ("public", "full"):
            bundle = f"season-{name}-{kind}.jsonl"
            run(work, out, f"season-{name}-export-{kind}.txt", "export", "--season", name,
                f"--{kind}", "-o", bundle)  # not its bytes: a season's salt key is drawn fresh
            run(work, out, f"season-{name}-verify-{kind}.txt", "verify", bundle)


def openapi(out: Path) -> None:
    sys.path.insert(0, str(ROOT))
    for app, worker in (("commands.web.app", "commands.web.worker"),
                        ("commands.http.app", "commands.http.service")):  # before the rooms
        try:
            module = importlib.import_module(app)
        except ModuleNotFoundError:
            continue
        settings = importlib.import_module(worker).Settings()
        document = module.create_app(settings).openapi()
        (out / "openapi.json").write_text(json.dumps(document, indent=1, sort_keys=True))
        return
    raise SystemExit("no web app found")


def main() -> None:
    out = Path(sys.argv[1]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if len(sys.argv) > 2 and sys.argv[2] == "--openapi":
        openapi(out)
        return
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        keys(work)
        run(work, out, "demo.txt", "demo")
        run(work, out, "demo-again.txt", "demo")
        helps(work, out)
        for game in ("amalgamation", "kings_court", "merchants_guild", "tile_joust",
                     "totemic_might"):
            run(work, out, f"games-{game}.txt", "games", game)
        matches(work, out)
        seasons(work, out)
        run(work, out, "check.txt", "check")
        run(work, out, "check.json", "check", "--json")
    openapi(out)


if __name__ == "__main__":
    main()
