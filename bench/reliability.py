"""The reliability suite of issue 15, run by hand (not in the test suite): each probe prints
how many things it tried, how many failed and how many were lost.

    python bench/reliability.py [--probe NAME ...] [--store sqlite|postgres ...]
                                [--kills 100] [--rounds 4] [--votes 10] [--pg URL]

probe         tried                                 failed                lost
writers-cli   16 CLI processes at once on one       an end other than     a command answered
              match, `--rounds` times               recorded or one line  recorded that the
                                                    `busy` (a traceback,  log lacks, or one
                                                    a hang)               recorded twice
writers-http  16 clients on one match through       a 5xx other than 503  the same
              `serve --workers 2`, `--votes` each   `busy`, a reset
kill9-cli     a CLI vote, spend or close killed     `arbiter check` or a  garnets not
              with -9 at a random moment,           full bundle's verify  conserved (season
              `--kills` times                       fails afterwards      total != grants +
                                                                          match postings)
kill9-serve   a serve worker killed with -9 under   a 5xx other than 503  entries the views
              load, `--kills` / 10 times            busy                  still lack 20 s
                                                                          after the load
hostile-http  huge bodies, unknown keys, bad        a 5xx, a reset, or    a hostile request
              UTF-8 and JSON, bad and missing       a 2xx                 that was recorded
              tokens, floods past the rate limit
abuse-http    issue 25's probes as a hostile      a probe that holds    a hostile request
              player, page and stranger: padded    (each is named)       that was recorded
              tokens, a form flood, 1,000 made-up
              tokens, forced sign-in, deep JSON and
              digits, Host, names, the replacement
              bound
strangers     one player votes for `--seconds`      a vote answered other a vote answered
              alone, then while 16 anonymous        than 200; the loaded  recorded that the
              clients (another process) pull        p99 over VOTE_BUDGET  log lacks
              bundles, the season bundle,
              checkpoints, pages and streams
+ every probe of bench/tampers.py (bundle and store tampers: `arbiter check` must name each)

A store probe runs on SQLite and PostgreSQL (a throwaway database); a bundle probe once.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit import keys
from bench import tampers
from bench.http_throughput import served
from bench.stores import SERVER, postgres_url, sqlite_url
from bench.tampers import Result
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens, new_token
from projections.tables import APPLICATION, open_views

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan",
           "judy", "ken"]
WRITERS = 16
GRANT = 30  # garnets each player starts with
SIGNER = keys.generate("reliability-host")


# -- a store with one open match ------------------------------------------------------------

@contextmanager
def store_url(store: str, options: argparse.Namespace) -> Iterator[str]:
    if store == "sqlite":
        yield sqlite_url()
    else:
        with postgres_url(options.pg) as url:
            yield url


def opened(url: str) -> None:
    """Season `s` of eleven with GRANT garnets each, King's Court `kc` opened."""
    app = Arbiter(url, signer=SIGNER)
    try:
        app.create_season("s")
        app.register_all("s", PLAYERS)
        for player in PLAYERS:
            app.grant("s", player, "garnets", GRANT, "start")
        # The load probes replace one player's vote far past the rules' default bound.
        app.create_match(match_id="kc", season="s", game="kings_court",
                         setup={"players": PLAYERS, "max_replacements": 10_000},
                         host_seed=os.urandom(32).hex(),
                         salt_key=os.urandom(32).hex())
        app.submit("kc", "host", "open_match")
    finally:
        app.close()


def cli_env() -> dict[str, str]:
    folder = Path(tempfile.mkdtemp(prefix="arbiter-reliability-"))
    keys.save(SIGNER, folder / "host.key")
    return {**os.environ, "ARBITER_HOST_KEY": str(folder / "host.key"),
            "ARBITER_KNOWN_KEYS": str(folder / "known")}


def arbiter(url: str, env: dict[str, str], *args: str) -> list[str]:
    return [sys.executable, "-c", "from commands.cli.main import main; main()", "--db", url, *args]


def vote_args(i: int) -> list[str]:
    return ["match", "submit", "kc", "--as", PLAYERS[i % 11], "vote",
            f"candidate={PLAYERS[(i + 1) % 11]}", "--id", f"w{i}"]


def open_round(url: str) -> int:
    """The round a close is aimed at (`close-round --round N`): the open one now."""
    app = Arbiter(url)
    try:
        return app.match("kc").round
    finally:
        app.close()


def log_of(url: str) -> tuple[int, set[str]]:
    app = Arbiter(url)
    try:
        match = app.match("kc")
        return match.version, set(match.handled)
    finally:
        app.close()


def judged_end(result: Result, done: subprocess.CompletedProcess[str] | None) -> bool:
    """Whether a CLI command was recorded; a failure is counted and noted."""
    if done is None:
        result.failed += 1
        result.codes["hang"] += 1
        return False
    if done.returncode == 0:
        return True
    first = (done.stderr.strip().splitlines() or ["(nothing)"])[0]
    if done.returncode == 2 and first.startswith("error: ") and len(
            done.stderr.strip().splitlines()) == 1:
        result.codes[first.removeprefix("error: ").split(":")[0]] += 1
        return False
    result.failed += 1
    result.codes["traceback" if "Traceback" in done.stderr else f"exit {done.returncode}"] += 1
    return False


def ran(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str] | None:
    try:
        return subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True,
                              timeout=120)
    except subprocess.TimeoutExpired:
        return None


# -- writers --------------------------------------------------------------------------------

def writers_cli(store: str, options: argparse.Namespace) -> Result:
    result, env = Result(), cli_env()
    with store_url(store, options) as url:
        opened(url)
        before, _ = log_of(url)
        recorded: set[str] = set()
        for round_ in range(options.rounds):
            ids = range(round_ * WRITERS, (round_ + 1) * WRITERS)
            with ThreadPoolExecutor(WRITERS) as pool:
                ends = list(pool.map(lambda i: ran(arbiter(url, env, *vote_args(i)), env), ids))
            result.tried += WRITERS
            recorded |= {f"w{i}" for i, done in zip(ids, ends, strict=True)
                         if judged_end(result, done)}
        version, handled = log_of(url)
        # Every vote recorded is two entries (its command, its VoteCast), once.
        result.lost += len(recorded - handled) + abs(version - before - 2 * len(recorded))
        result.note(f"recorded {len(recorded)}")
    result.named()
    return result


def writers_http(store: str, options: argparse.Namespace) -> Result:
    result = Result()
    with store_url(store, options) as url:
        opened(url)
        before, _ = log_of(url)
        with served(url, workers=2) as (base, _):
            tokens = player_tokens(url, base)

            def client(c: int) -> set[str]:
                player, done = PLAYERS[c % 11], set()
                with httpx.Client(base_url=base, timeout=60, headers={
                        "Authorization": f"Bearer {tokens[player]}"}) as http:
                    for n in range(options.votes):
                        body = {"command": "vote", "id": f"h{c}-{n}",
                                "args": {"candidate": PLAYERS[(c + 1) % 11]}}
                        if http_judged(result, lambda b=body: http.post(
                                f"/matches/kc/players/{player}/commands", json=b)):
                            done.add(f"api:{player}:h{c}-{n}")
                return done

            with ThreadPoolExecutor(WRITERS) as pool:
                recorded = set().union(*pool.map(client, range(WRITERS)))
        version, handled = log_of(url)
        result.lost += len(recorded - handled) + abs(version - before - 2 * len(recorded))
        result.note(f"recorded {len(recorded)}")
    result.named()
    return result


def player_tokens(url: str, base: str) -> dict[str, str]:
    app = Arbiter(url)
    try:
        host = Tokens(app).set_host()
    finally:
        app.close()
    issued = httpx.post(f"{base}/matches/kc/tokens", json={},
                        headers={"Authorization": f"Bearer {host}"}, timeout=60).json()
    return {t["player"]: t["token"] for t in issued}


def http_judged(result: Result, send: Callable[[], httpx.Response], killing: bool = False
                ) -> bool:
    """Whether the command was recorded. With `killing`, a request cut by the kill of its
    worker is counted (`cut`), not failed: its client cannot know, and sends it again."""
    result.tried += 1
    try:
        answer = send()
    except httpx.HTTPError as error:
        result.failed += not killing
        result.codes["cut" if killing else type(error).__name__] += 1
        return False
    if answer.status_code == 200:
        return True
    code = answer.json().get("error", "?") if answer.headers.get(
        "content-type", "").startswith("application/json") else "?"
    result.codes[f"{answer.status_code} {code}"] += 1
    if answer.status_code >= 500 and code != "busy":
        result.failed += 1
    return False


# -- kill -9 --------------------------------------------------------------------------------

def kill9_cli(store: str, options: argparse.Namespace) -> Result:
    result, env, rng = Result(), cli_env(), random.Random(15)
    with store_url(store, options) as url:
        opened(url)
        for k in range(options.kills):
            player = PLAYERS[k % 11]
            command = rng.choice([vote_args(k), vote_args(k), [
                "match", "spend", "kc", "--as", player, "peek",
                f"target={PLAYERS[(k + 3) % 11]}"],
                ["match", "close-round", "kc", "--round", str(open_round(url))]])
            process = subprocess.Popen(arbiter(url, env, *command), env=env, cwd=ROOT,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0, options.kill_within))
            process.send_signal(signal.SIGKILL)
            process.wait()
            result.tried += 1
        check = ran(arbiter(url, env, "check"), env)
        if not judged_end(result, check):
            result.note(f"check: {check.stderr.strip()[:160] if check else 'hang'}")
        bundle = Path(tempfile.mkdtemp()) / "kc.jsonl"
        for args in (["export", "kc", "--full", "-o", str(bundle)],
                     ["verify", str(bundle), "--key", SIGNER.verifier_key()]):
            if not judged_end(result, ran(arbiter(url, env, *args), env)):
                result.note(f"{args[0]} failed")
        result.lost += unconserved(url)
        version, _ = log_of(url)
        result.note(f"{version} entries")
    result.named()
    return result


def unconserved(url: str) -> int:
    """Garnets the season holds beyond (or short of) its grants and its match's postings."""
    app = Arbiter(url)
    try:
        held = sum(app.season("s").garnets(PLAYERS).values())
        posted = sum(p["amount"] for r in app.match("kc").records for p in r["postings"]
                     if p["asset"] == "garnets")
        return abs(held - (GRANT * len(PLAYERS) + posted))
    finally:
        app.close()


def kill9_serve(store: str, options: argparse.Namespace) -> Result:
    """Workers killed under load; the service starts new ones and the views catch up."""
    result = Result()
    with store_url(store, options) as url:
        opened(url)
        with served(url, workers=2) as (base, master):
            tokens = player_tokens(url, base)
            stop = time.monotonic() + max(1, options.kills // 10) * 4

            def client(c: int) -> None:
                player = PLAYERS[c % 11]
                with httpx.Client(base_url=base, timeout=60, headers={
                        "Authorization": f"Bearer {tokens[player]}"}) as http:
                    while time.monotonic() < stop:
                        http_judged(result, lambda: http.post(
                            f"/matches/kc/players/{player}/commands", json={
                                "command": "vote", "args": {"candidate": PLAYERS[(c + 1) % 11]}}),
                            killing=True)
                        time.sleep(0.05)

            with ThreadPoolExecutor(8) as pool:
                load = [pool.submit(client, c) for c in range(8)]
                for _ in range(max(1, options.kills // 10)):
                    time.sleep(3)
                    workers = children(master.pid)
                    if workers:
                        os.kill(random.choice(workers), signal.SIGKILL)
                for done in load:
                    done.result()
            time.sleep(20)
            result.lost += behind(url)
        result.note(f"killed {max(1, options.kills // 10)} workers")
    result.named()
    return result


def children(pid: int) -> list[int]:
    """The worker processes of uvicorn's supervisor (Linux)."""
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in found  # not multiprocessing's resource tracker
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()]


def behind(url: str) -> int:
    app = Arbiter(url)
    try:
        views = open_views(app.recorder.datastore, app.mapper.cipher)
        return (app.recorder.max_notification_id() or 0) - (
            views.max_tracking_id(APPLICATION) or 0)
    finally:
        app.close()


# -- hostile input --------------------------------------------------------------------------

def hostile_http(store: str, options: argparse.Namespace) -> Result:
    result = Result()
    with store_url(store, options) as url:
        opened(url)
        # A rate low enough for one client to pass it: 2 a second past a burst of 40.
        with served(url, workers=1, env={"ARBITER_RATE": "2", "ARBITER_BURST": "40"}) as (
                base, _):
            tokens = player_tokens(url, base)
            before, _ = log_of(url)
            with httpx.Client(base_url=base, timeout=120) as http:
                for name, (where, headers, body) in hostile_requests(tokens["bob"]).items():
                    wrong = hostile_judged(result, lambda w=where, h=headers, b=body: http.post(
                        w, content=b, headers=h))
                    if wrong:
                        result.note(f"{name}: {wrong}")
                flood = {"Authorization": f"Bearer {tokens['carol']}"}
                answers = [http.get("/matches/kc/players/carol/view", headers=flood).status_code
                           for _ in range(60)]
                result.tried += 1
                if 429 not in answers or any(s >= 500 for s in answers):
                    result.failed += 1
                result.note(f"flood of 60: {answers.count(429)} × 429")
            after, _ = log_of(url)
            result.lost += after - before  # nothing hostile may be recorded
    result.named()
    return result


def hostile_requests(token: str) -> dict[str, tuple[str, dict[str, Any], bytes]]:
    good = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    path = "/matches/kc/players/bob/commands"

    def vote(candidate: bytes, more: bytes = b"") -> bytes:
        return b'{"command": "vote", "args": {"candidate": "' + candidate + b'"' + more + b"}}"

    return {
        "a 30 MB value": (path, good, vote(b"x" * 30_000_000)),
        "a 50 MB body": (path, good, b"{" + b" " * 50_000_000 + b"}"),
        "an unknown 1 MB argument": (path, good, vote(b"carol", b', "pad": "'
                                                      + b"p" * 1_000_000 + b'"')),
        "an unknown argument": (path, good, vote(b"carol", b', "x": 1')),
        "an unknown key": (path, good, b'{"command": "vote", "args": {"candidate": '
                                       b'"carol"}, "x": 1}'),
        "bad UTF-8": (path, good, vote(b"\xff\xfe")),
        "a lone surrogate": (path, good, vote(b"\\ud800")),
        "a NUL": (path, good, vote(b"carol\\u0000")),
        "cut JSON": (path, good, b'{"command": "vote", "args": '),
        "a JSON list": (path, good, b"[]"),
        "not JSON": (path, {**good, "Content-Type": "text/plain"}, b"vote carol"),
        "a 10 kB token": (path, {"Authorization": "Bearer " + "A" * 10_000}, b"{}"),
        "a token in bad UTF-8": (path, {"Authorization": b"Bearer \xff\xfe"}, b"{}"),
        "basic auth": (path, {"Authorization": "Basic Ym9iOmJvYg=="}, b"{}"),
        "no token": (path, {}, vote(b"carol")),
        "another player's path": ("/matches/kc/players/alice/commands", good, vote(b"carol")),
        "a host command": ("/matches/kc/commands", good, b'{"command": "open_match"}'),
        "a 5,000-letter match": ("/matches/" + "k" * 5000 + "/players/bob/commands", good,
                                 b"{}"),
        "a NUL in the path": ("/matches/kc%00/players/bob/commands", good, b"{}"),
    }


def hostile_judged(result: Result, send: Callable[[], httpx.Response]) -> str | None:
    """What was wrong with the answer (None: refused as it should be, a short 4xx)."""
    result.tried += 1
    try:
        answer = send()
    except httpx.HTTPError as error:
        result.failed += 1
        result.codes[type(error).__name__] += 1
        return type(error).__name__
    code: Any = "?"
    with suppress(ValueError, AttributeError):
        code = answer.json().get("error", "?")
    result.codes[f"{answer.status_code} {code}"] += 1
    wrong = ("accepted" if answer.is_success else f"{answer.status_code}"
             if answer.status_code >= 500 else f"{len(answer.content):,} bytes echoed"
             if len(answer.content) > 10_000 else None)
    result.failed += wrong is not None
    return wrong


# -- abuse (issue 25) -----------------------------------------------------------------------

def abuse_http(store: str, options: argparse.Namespace) -> Result:
    """Each probe of issue 25, through `serve` with its limits on (2 a second past a burst of
    40, 20 refused tokens a minute) behind a trusted proxy, so that each probe comes from an
    address of its own (X-Forwarded-For)."""
    result = Result()
    with store_url(store, options) as url:
        opened(url)
        app = Arbiter(url, signer=SIGNER)
        try:  # a match under the rules' default bound on replacements
            app.create_match(match_id="kc-cap", season="s", game="kings_court",
                             setup={"players": PLAYERS}, host_seed=os.urandom(32).hex(),
                             salt_key=os.urandom(32).hex())
            app.submit("kc-cap", "host", "open_match")
            codes = Tokens(app).issue_joins("kc", ["carol", "erin"])
            capped = Tokens(app).issue_all("kc-cap", PLAYERS)
        finally:
            app.close()
        env = {"ARBITER_RATE": "2", "ARBITER_BURST": "40", "ARBITER_TRUSTED_PROXIES": "127.0.0.1",
               "ARBITER_PUBLIC_URL": "https://arbiter.example",
               "ARBITER_HOST_KEY": cli_env()["ARBITER_HOST_KEY"]}
        with served(url, workers=1, env=env) as (base, _):
            tokens = player_tokens(url, base)
            host = host_token(url)
            before, _ = log_of(url)
            accepted = 0
            for n, (name, probe) in enumerate(ABUSES.items()):
                with httpx.Client(base_url=base, timeout=60, headers={
                        "X-Forwarded-For": f"198.51.100.{n + 1}"}) as http:
                    result.tried += 1
                    started = time.monotonic()
                    wrong, recorded = probe(http, Held(tokens, capped, host, codes["carol"],
                                                       codes["erin"]))
                    accepted += recorded
                    if wrong:
                        result.failed += 1
                        result.note(f"{name}: {wrong}")
                    else:
                        result.note(f"{name} held ({time.monotonic() - started:.1f} s)")
            after, _ = log_of(url)
            result.lost += after - before - 2 * accepted  # only what the probes let through
    return result


def host_token(url: str) -> str:
    app = Arbiter(url)
    try:
        return Tokens(app).set_host()
    finally:
        app.close()


@dataclass(frozen=True)
class Held:
    """What the probes hold: kc's player tokens, kc-cap's, the host token, carol's join code
    and erin's."""

    tokens: dict[str, str]
    capped: dict[str, str]
    host: str
    code: str
    other: str


Probe = Callable[[httpx.Client, Held], tuple[str | None, int]]
VIEW, VOTES = "/matches/kc/players/bob/view", "/matches/kc/players/bob/commands"


def padded_tokens(http: httpx.Client, held: Held) -> tuple[str | None, int]:
    """100 of bob's requests, each with his token padded by a Unicode space: none is bob."""
    pads = ["\u00a0", "\u0085", "\u2003", "\u3000"]
    answers = [http.get(VIEW, headers={"Authorization": f"Bearer {held.tokens['bob']}{pads[n % 4]}"
                                       .encode()}).status_code for n in range(100)]
    if any(a == 200 or a >= 500 for a in answers) or 429 not in answers or 403 not in answers:
        return f"{answers.count(200)} × 200, {answers.count(429)} × 429", 0
    return None, 0


def form_flood(http: httpx.Client, held: Held) -> tuple[str | None, int]:
    """300 votes through carol's page form: limited as her API requests are."""
    me = http.post("/m/kc/session", data={"token": held.code}, follow_redirects=True)
    csrf = me.text.split('name="csrf" value="', 1)[-1].split('"', 1)[0]
    answers = [http.post("/m/kc/me/commands", data={
        "csrf": csrf, "command": "vote", "arg.candidate": "dave", "id": f"flood-{n}"},
        follow_redirects=False).status_code for n in range(300)]
    done = answers.count(303)  # her burst (40) and what the rate refilled meanwhile
    if 429 not in answers or any(a >= 500 for a in answers) or not 30 <= done <= 60:
        return f"{done} × 303, {answers.count(429)} × 429", done
    return None, done


def made_up_tokens(http: httpx.Client, held: Held) -> tuple[str | None, int]:
    """1,000 made-up tokens of the right shape: refused, then limited as one address."""
    answers = [http.get(VIEW, headers={"Authorization": f"Bearer {new_token()}"}).status_code
               for _ in range(1000)]
    if any(a not in (403, 429) for a in answers) or not 1 <= answers.count(403) <= 20:
        return f"{answers.count(403)} × 403, {answers.count(429)} × 429", 0
    return None, 0


def forced_sign_in(http: httpx.Client, held: Held) -> tuple[str | None, int]:
    """Another site's page posting a code to /session, or signing the reader out."""
    evil = {"Origin": "https://evil.example"}
    answers = [http.post("/m/kc/session", data={"token": held.code}, headers=evil),
               http.post("/m/kc/logout", headers=evil), http.post("/host/logout", headers=evil)]
    if any(a.status_code != 403 or "set-cookie" in a.headers for a in answers):
        return f"{[a.status_code for a in answers]}", 0
    as_token = http.get("/matches/kc/players/carol/view",
                        headers={"Authorization": f"Bearer {held.code}"})
    return (None if as_token.status_code == 403 else "a join code opened the API"), 0


def copied_cookie(http: httpx.Client, held: Held) -> tuple[str | None, int]:
    """Erin opens her link in two browsers; a copy of the first's cookie after it logs out."""
    with httpx.Client(base_url=http.base_url, headers=http.headers, timeout=60) as laptop:
        pages = [browser.post("/m/kc/session", data={"token": held.other},
                              follow_redirects=True) for browser in (http, laptop)]
        cookies = [browser.cookies.get("arbiter_player") for browser in (http, laptop)]
        if len({*cookies, held.other}) != 3:
            return "the cookie is the code, or one for both browsers", 0
        csrf = pages[0].text.split('name="csrf" value="', 1)[-1].split('"', 1)[0]
        http.post("/m/kc/logout", data={"csrf": csrf})
        with httpx.Client(base_url=http.base_url, headers=http.headers, timeout=60,
                          cookies={"arbiter_player": cookies[0] or ""}) as thief:
            stolen = thief.get("/m/kc/me")
        answers = [stolen.status_code, laptop.get("/m/kc/me").status_code]
    return (None if answers == [401, 200] and "session_ended" in stolen.text
            else f"copied cookie, other browser: {answers}"), 0


def crashing_input(http: httpx.Client, held: Held) -> tuple[str | None, int]:
    """JSON nested 1,000 deep, 5,000 digits, '²', as bodies, Last-Event-IDs and queries."""
    bob = {"Authorization": f"Bearer {held.tokens['bob']}", "Content-Type": "application/json"}
    deep, digits = "[" * 1000 + "]" * 1000, "7" * 5000
    answers = [
        http.post(VOTES, content=deep, headers=bob),
        http.post(VOTES, content=f'{{"command": "vote", "args": {{"n": {digits}}}}}',
                  headers=bob),
        http.get("/matches/kc/events", headers={"Last-Event-ID": "²".encode()}),
        http.get("/matches/kc/events", headers={"Last-Event-ID": digits}),
        http.get("/matches/kc", params={"round": digits}),
        http.get("/m/kc", params={"round": "²"}),
    ]
    if any(a.status_code >= 500 or a.is_success for a in answers):
        return f"{[a.status_code for a in answers]}", 0
    return None, 0


def headers_and_host(http: httpx.Client, held: Held) -> tuple[str | None, int]:
    """/docs framed or sniffed; a forged Host header in the page's links."""
    docs, api = http.get("/docs"), http.get("/matches/kc")
    page = http.get("/m/kc", headers={"Host": "evil.example"})
    if "frame-ancestors 'none'" not in docs.headers.get("content-security-policy", ""):
        return "/docs may be framed", 0
    if api.headers.get("x-content-type-options") != "nosniff":
        return "JSON without nosniff", 0
    return ("the page links to the Host" if "evil.example" in page.text else None), 0


def impersonating_names(http: httpx.Client, held: Held) -> tuple[str | None, int]:
    """Names that break a route or look like bob; a reason with an RLO."""
    auth = {"Authorization": f"Bearer {held.host}"}
    codes = [http.post("/seasons/s/players", json={"players": [name]}, headers=auth)
             .json().get("error") for name in ("a/b", "b\u043eb", "Bob", "..")]
    rlo = http.post("/seasons/s/grants", headers=auth, json={"grants": [
        {"player": "bob", "amount": 1, "reason": "late \u202eeton"}]}).json().get("error")
    wanted = ["invalid_name", "confusable_name", "confusable_name", "invalid_name"]
    return (None if codes == wanted and rlo == "invalid_text" else f"{codes} {rlo}"), 0


def replacement_bound(http: httpx.Client, held: Held) -> tuple[str | None, int]:
    """One player sends 40 votes in one round of a match under the default bound (30)."""
    def vote(voter: str, candidate: str, n: int) -> httpx.Response:
        return http.post(f"/matches/kc-cap/players/{voter}/commands", json={
            "command": "vote", "id": f"cap-{n}", "args": {"candidate": candidate}},
            headers={"Authorization": f"Bearer {held.capped[voter]}"})

    # A voter and a candidate outside the court.
    voter, candidate = next((v, c) for v in PLAYERS for c in PLAYERS
                            if v != c and vote(v, c, 0).status_code == 200)
    answers = [vote(voter, candidate, n).status_code for n in range(1, 40)]
    done = 1 + answers.count(200)
    if done != 31 or answers.count(422) != 9:
        return f"{done} recorded of 40", 0
    return None, 0  # kc-cap's entries are not kc's


ABUSES: dict[str, Probe] = {
    "padded tokens": padded_tokens, "form flood": form_flood, "1,000 made-up tokens":
    made_up_tokens, "forced sign-in": forced_sign_in, "a copied cookie": copied_cookie,
    "crashing input": crashing_input,
    "headers and Host": headers_and_host, "names": impersonating_names,
    "replacement bound": replacement_bound,
}


# -- strangers ------------------------------------------------------------------------------

STRANGERS = 16
VOTE_BUDGET = 0.050  # seconds: a player's vote p99 while strangers pull (docs/deploy.md)


def strangers(store: str, options: argparse.Namespace) -> Result:
    """A player's vote latency alone, then under anonymous load on the demo's season (its
    bundle is the costliest thing a stranger may ask for). The rate limits are off unless
    `--limited`: then they are serve's defaults, and each stranger comes from an address of
    its own behind a trusted proxy, as in production."""
    result, env = Result(), cli_env()
    with store_url(store, options) as url:
        demo = ran(arbiter(url, env, "demo"), env)
        if demo is None or demo.returncode != 0:
            result.failed += 1
            result.note("the demo failed")
            return result
        opened(url)
        before, _ = log_of(url)
        keyed = {"ARBITER_HOST_KEY": env["ARBITER_HOST_KEY"]}
        if options.limited:
            keyed.update({"ARBITER_RATE": "20", "ARBITER_BURST": "40",
                          "ARBITER_TRUSTED_PROXIES": "127.0.0.1"})
        with served(url, workers=2, env=keyed) as (base, _):
            tokens = player_tokens(url, base)
            recorded: set[str] = set()
            timed_votes(result, recorded, base, tokens, 2)  # each worker's first load of kc
            alone = timed_votes(result, recorded, base, tokens, options.seconds)
            beside_alone = beside(recorded, url, options.seconds / 2)
            load = multiprocessing.get_context("spawn").Process(
                target=pull, args=(base, options.seconds + 30, READABLE, options.nice),
                daemon=True)
            load.start()
            with httpx.Client(base_url=base, timeout=60) as http:
                for path in READABLE:  # the first builds are not the steady load's
                    http.get(path)
            time.sleep(2)  # the strangers are all pulling
            loaded = timed_votes(result, recorded, base, tokens, options.seconds)
            beside_loaded = beside(recorded, url, options.seconds / 2)
            load.terminate()
            load.join()
        version, handled = log_of(url)
        result.lost += len(recorded - handled) + abs(version - before - 2 * len(recorded))
        if options.limited:
            result.note("limits on (20/s, 40 at once, per address)")
        if options.nice:
            result.note(f"strangers at nice {options.nice}")
        for name, samples in (("alone", alone), (f"{STRANGERS} strangers", loaded),
                              ("in-process beside serve, alone", beside_alone),
                              (f"in-process beside serve, {STRANGERS} strangers",
                               beside_loaded)):
            ordered = sorted(samples)
            result.note(f"{name}: {len(ordered)} votes, p50 {percentile(ordered, 50):.0f} ms, "
                        f"p99 {percentile(ordered, 99):.0f} ms")
        if percentile(sorted(loaded), 99) > VOTE_BUDGET * 1000:
            result.failed += 1
    result.named()
    return result


def beside(recorded: set[str], url: str, seconds: float) -> list[float]:
    """bob's votes through `Arbiter.submit` in this process, beside serve (its own GIL, no
    HTTP): what the machine itself, shared with the strangers and serve, lets a vote take."""
    app = Arbiter(url, signer=SIGNER)
    samples: list[float] = []
    try:
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            n = len(recorded)
            started = time.perf_counter()
            app.submit("kc", "bob", "vote", {"candidate": PLAYERS[n % 2 + 2]},
                       command_id=f"beside-{n}")
            samples.append(time.perf_counter() - started)
            recorded.add(f"beside-{n}")
            time.sleep(0.05)
    finally:
        app.close()
    return samples


def percentile(ordered: list[float], p: int) -> float:
    return ordered[max(0, -(-len(ordered) * p // 100) - 1)] * 1000 if ordered else 0.0


def timed_votes(result: Result, recorded: set[str], base: str, tokens: dict[str, str],
                seconds: float) -> list[float]:
    """bob votes, one vote at a time, for `seconds`: each vote's time to its answer."""
    samples: list[float] = []
    stop = time.monotonic() + seconds
    with httpx.Client(base_url=base, timeout=60, headers={
            "Authorization": f"Bearer {tokens['bob']}"}) as http:
        while time.monotonic() < stop:
            n = result.tried
            body = {"command": "vote", "id": str(n),
                    "args": {"candidate": PLAYERS[n % 2 + 2]}}
            started = time.perf_counter()
            failed = result.failed
            if http_judged(result, lambda b=body: http.post(
                    "/matches/kc/players/bob/commands", json=b)):
                recorded.add(f"api:bob:{n}")
                samples.append(time.perf_counter() - started)
            else:
                result.failed = failed + 1  # any refusal of a plain vote is a failure
            time.sleep(0.05)
    return samples


READABLE = ["/seasons/spring/bundle", "/matches/spring-totems/bundle", "/matches/kc/bundle",
            "/seasons/spring/checkpoints", "/matches/kc/checkpoints", "/m/kc", "/s/spring",
            "/m/spring-totems", "/matches/kc"]


def pull(base: str, seconds: float, paths: list[str] = READABLE, nice: int = 0) -> None:
    """STRANGERS anonymous clients, each asking in turn for one of `paths` (what anyone may
    read), each from an address of its own; two of them hold a stream open instead. With
    `nice`, they take the cores the service leaves, as clients on other machines would: a
    session of their own (Linux groups a session's processes, and shares the CPU between the
    groups before any niceness counts) of that niceness."""
    if nice:
        os.setsid()
        with suppress(OSError), open("/proc/self/autogroup", "w") as group:
            group.write(str(nice))
        os.nice(nice)
    stop = time.monotonic() + seconds

    def client(c: int) -> None:
        with httpx.Client(base_url=base, timeout=60,
                          headers={"X-Forwarded-For": f"203.0.113.{c + 1}"}) as http:
            if c < 2:
                with suppress(httpx.HTTPError), http.stream("GET", "/matches/kc/events") as sse:
                    for _ in sse.iter_lines():
                        if time.monotonic() > stop:
                            return
                return
            n = c
            while time.monotonic() < stop:
                with suppress(httpx.HTTPError):
                    http.get(paths[n % len(paths)])
                n += 1

    with ThreadPoolExecutor(STRANGERS) as pool:
        list(pool.map(client, range(STRANGERS)))


PROBES: dict[str, Callable[[str, argparse.Namespace], Result]] = {
    "writers-cli": writers_cli,
    "writers-http": writers_http,
    "kill9-cli": kill9_cli,
    "kill9-serve": kill9_serve,
    "hostile-http": hostile_http,
    "abuse-http": abuse_http,
    "strangers": strangers,
    **tampers.PROBES,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--probe", action="append", choices=list(PROBES))
    parser.add_argument("--store", action="append", choices=["sqlite", "postgres"])
    parser.add_argument("--pg", default=SERVER)
    parser.add_argument("--kills", type=int, default=100, help="kill -9 of a CLI command")
    parser.add_argument("--kill-within", type=float, default=5.0,
                        help="seconds after its start a command is killed, at most")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of 16 CLI writers")
    parser.add_argument("--votes", type=int, default=10, help="votes of each HTTP writer")
    parser.add_argument("--seconds", type=float, default=20,
                        help="seconds of votes alone, then under the strangers' load")
    parser.add_argument("--limited", action="store_true",
                        help="strangers: serve's default limits, each stranger its own address")
    parser.add_argument("--nice", type=int, default=0,
                        help="strangers: the niceness of their process (they share this "
                        "machine's cores with the service, as clients elsewhere would not)")
    parser.add_argument("--clear", action="store_true")
    tampers.run(parser.parse_args(), PROBES)


if __name__ == "__main__":
    main()
