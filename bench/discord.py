"""Slash commands through `arbiter serve` (a real process, Discord configured by its
environment) against the same votes through the HTTP API, and how long a closed round takes to
reach the channel. Discord is the tests' fake on the loopback (tests/support/fake_discord.py).

    python bench/discord.py [--votes 300] [--pg postgresql://postgres@127.0.0.1:5432/postgres]

One King's Court match of eleven (the seed file's setup), opened; every player linked. Votes go
one after another (a vote is replaceable, so each player votes again and again), first as
signed interactions, then through the API with each player's token. Prints p50/p99 latency in
milliseconds, the ratio Discord / API, and the lag from the host's /close_round answer to the
round's post arriving at the channel's webhook.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit import keys
from bench.http_throughput import served
from bench.stores import SERVER, postgres_url
from commands.cli.matchfile import load
from commands.service.arbiter import Arbiter
from commands.service.discord.links import Links
from commands.service.tokens import Tokens
from commands.store.sealing import make_key
from domain.decider import HOST
from tests.support.fake_discord import FakeDiscord

SEED = load(Path(__file__).resolve().parents[1] / "seeds" / "kings_court-king-win.json")
KEY = Ed25519PrivateKey.generate()
APP = "111111111111111111"


def set_up(url: str, signer: keys.Signer) -> dict[str, str]:
    """Season s, match kc opened, every player linked; each player's API token."""
    app = Arbiter(url, signer=signer)
    try:
        app.create_season("s")
        app.register_all("s", SEED.players)
        app.create_match(match_id="kc", season="s", game="kings_court",
                         setup={"players": SEED.players, **SEED.setup},
                         host_seed=SEED.host_seed, salt_key=SEED.salt_key)
        app.submit("kc", HOST, "open_match", {})
        links = Links(app)
        for i, player in enumerate([*SEED.players, HOST]):
            links.link("s", player, user(i), by="host")
        return Tokens(app).issue_all("kc", SEED.players)
    finally:
        app.close()


def user(i: int) -> str:
    return str(300000000000000000 + i)


def interaction(i: int, n: int, name: str, **options: object) -> tuple[bytes, dict[str, str]]:
    body = json.dumps({
        "type": 2, "id": str(800000000000000000 + n), "application_id": APP,
        "token": f"t{n}", "version": 1, "user": {"id": user(i)},
        "data": {"id": "1", "name": name, "type": 1, "options": [
            {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v}
            for k, v in options.items()]}}).encode()
    stamp = str(int(time.time()))
    return body, {"X-Signature-Ed25519": KEY.sign(stamp.encode() + body).hex(),
                  "X-Signature-Timestamp": stamp, "Content-Type": "application/json"}


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.99) - 1] * 1000


def votes(players: list[str], n: int) -> list[tuple[int, str, str]]:
    """(player index, player, candidate): each for the first player, who votes for the second
    (so the close elects someone, a new round opens and its checkpoint is signed)."""
    return [(i % len(players), players[i % len(players)],
             players[1] if i % len(players) == 0 else players[0]) for i in range(n)]


def run(url: str, n: int, work: Path) -> dict[str, float]:
    signer = keys.generate("bench-host")
    (work / "host.key").unlink(missing_ok=True)
    keys.save(signer, work / "host.key")
    tokens = set_up(url, signer)
    with FakeDiscord() as discord:
        env = {"ARBITER_HOST_KEY": str(work / "host.key"),
               "ARBITER_DISCORD_APPLICATION_ID": APP,
               "ARBITER_DISCORD_PUBLIC_KEY": KEY.public_key().public_bytes(
                   Encoding.Raw, PublicFormat.Raw).hex(),
               "ARBITER_DISCORD_BOT_TOKEN": "bot-token", "ARBITER_DISCORD_API": discord.api,
               "ARBITER_DISCORD_WEBHOOKS": f"s={discord.webhook('s')}"}
        with served(url, 1, env) as (base, _), httpx.Client(base_url=base, timeout=60) as http:
            slash = []
            for n_, (i, _, candidate) in enumerate(votes(SEED.players, n)):
                body, headers = interaction(i, n_, "vote", candidate=candidate)
                began = time.perf_counter()
                answer = http.post("/discord/interactions", content=body, headers=headers)
                slash.append(time.perf_counter() - began)
                assert answer.json()["data"]["content"].startswith("Recorded"), answer.text
            api = []
            for _, player, candidate in votes(SEED.players, n):
                began = time.perf_counter()
                answer = http.post(f"/matches/kc/players/{player}/commands",
                                   json={"command": "vote", "args": {"candidate": candidate}},
                                   headers={"Authorization": f"Bearer {tokens[player]}"})
                api.append(time.perf_counter() - began)
                assert answer.status_code == 200, answer.text
            body, headers = interaction(len(SEED.players), n + 1, "close_round", round=1)
            answer = http.post("/discord/interactions", content=body, headers=headers)
            closed = time.perf_counter()
            assert answer.json()["data"]["content"].startswith("Recorded"), answer.text
            while not any("Signed checkpoint" in m["content"] for m in discord.webhook_messages):
                time.sleep(0.01)
            lag = time.perf_counter() - closed
    s50, s99 = percentiles(slash)
    a50, a99 = percentiles(api)
    return {"slash_p50": s50, "slash_p99": s99, "api_p50": a50, "api_p99": a99,
            "lag": lag * 1000}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--votes", type=int, default=300)
    parser.add_argument("--pg", default=SERVER)
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="arbiter-discord-bench-"))
    os.environ["ARBITER_STORE_KEY"] = str(work / "store.key")
    make_key(str(work / "store.key"))
    print(f"{args.votes} votes one after another, then one close\n")
    print("| store | /vote p50 | /vote p99 | API p50 | API p99 | ratio p50 | close to post |")
    print("|---|---|---|---|---|---|---|")
    try:
        show("SQLite", run(f"sqlite:///{work}/bench.db", args.votes, work))
        if not args.sqlite_only:
            with postgres_url(args.pg) as url:
                show("PostgreSQL", run(url, args.votes, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def show(store: str, r: dict[str, float]) -> None:
    print(f"| {store} | {r['slash_p50']:.1f} ms | {r['slash_p99']:.1f} ms | "
          f"{r['api_p50']:.1f} ms | {r['api_p99']:.1f} ms | "
          f"{r['slash_p50'] / r['api_p50']:.2f} | {r['lag']:.0f} ms |")


if __name__ == "__main__":
    main()
