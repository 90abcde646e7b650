"""More than one machine (issue 26, item 5), run by hand on one: `arbiter serve` processes
sharing one PostgreSQL behind HAProxy, a real load balancer from Debian's packages.

    python bench/two_serves.py [--seconds 20] [--viewers 50] [--pg URL]

HAProxy is not in the project's dependencies: `apt-get install haproxy` (Debian 12's 2.6.12
was installed so on the machine the figures come from). Three phases, each on a fresh
database with King's Court `kc` open, the same load through HAProxy for `--seconds`:

- one:  one serve behind HAProxy;
- two:  two serves, round robin;
- kill: two serves, the first killed with SIGKILL (its whole process tree, as a machine that
        dies) a third of the way in.

The load: the eleven players each vote in a loop (a vote cut by the kill is sent again with
its id, as a client that got no answer does: the id makes it count once); one reader loads
the public match page in a loop; `--viewers` public event streams held open through HAProxy,
each reconnecting with Last-Event-ID when cut, as a browser's EventSource does. At the end
the host closes the round. Per phase: votes/s answered, the page's p50/p99, how many streams
were open at the end and whether each heard every public entry, and what was lost: a vote
answered 200 that the log lacks, or a log holding a vote twice.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack, suppress
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.http_throughput import served
from bench.reliability import PLAYERS, cli_env, log_of, open_round, opened, player_tokens
from bench.stores import SERVER, postgres_url
from bench.viewers import host_token

HAPROXY = """global
    maxconn 4000
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    retries 3
    retry-on conn-failure empty-response
    option redispatch
frontend arbiter
    bind 127.0.0.1:{port}
    default_backend serves
backend serves
    balance roundrobin
    option httpchk GET /openapi.json
{servers}
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def balanced(bases: list[str], folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    servers = "\n".join(f"    server s{i} {base.removeprefix('http://')} check inter 300ms "
                        "fall 2 rise 2" for i, base in enumerate(bases))
    config = folder / "haproxy.cfg"
    config.write_text(HAPROXY.format(port=port, servers=servers))
    proxy = subprocess.Popen(["haproxy", "-db", "-f", str(config)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    while True:
        try:
            if httpx.get(f"{base}/openapi.json", timeout=1).status_code == 200:
                return proxy, base
        except httpx.HTTPError:
            pass
        time.sleep(0.2)


def tree(pid: int) -> list[int]:
    """A process and every process under it (Linux)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            found += tree(int(child))
    return found


class Load:
    def __init__(self, base: str, tokens: dict[str, str]) -> None:
        self.base, self.tokens = base, tokens
        self.answered: set[str] = set()
        self.votes = 0
        self.retried = 0
        self.page: list[float] = []
        self.stop = threading.Event()  # the voters and the reader
        self.viewers_stop = threading.Event()

    def voter(self, c: int) -> None:
        player = PLAYERS[c]
        n = 0
        with httpx.Client(base_url=self.base, timeout=30, headers={
                "Authorization": f"Bearer {self.tokens[player]}"}) as http:
            while not self.stop.is_set():
                n += 1
                body = {"command": "vote", "id": f"{player}-{n}",
                        "args": {"candidate": PLAYERS[(c + 1) % 11]}}
                while not self.stop.is_set():  # the same vote again until it is answered
                    try:
                        answer = http.post(f"/matches/kc/players/{player}/commands", json=body)
                    except httpx.HTTPError:
                        answer = None
                    if answer is not None and answer.status_code == 200:
                        self.answered.add(f"api:{player}:{player}-{n}")
                        self.votes += 1
                        break
                    self.retried += 1
                    time.sleep(0.1)
                time.sleep(0.05)

    def reader(self) -> None:
        with httpx.Client(base_url=self.base, timeout=30) as http:
            while not self.stop.is_set():
                began = time.perf_counter()
                try:
                    if http.get("/m/kc").status_code == 200:
                        self.page.append(time.perf_counter() - began)
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)


async def viewers(base: str, count: int, after: int, stop: threading.Event
                  ) -> tuple[list[int], int]:
    """`count` public streams, each reconnecting after the last id it heard when cut."""
    host, port = base.removeprefix("http://").split(":")
    heard = [0] * count
    open_ = [False] * count

    async def one(i: int) -> None:
        last = after
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(host, int(port))
                writer.write(f"GET /matches/kc/events?after={after} HTTP/1.1\r\nHost: {host}\r\n"
                             f"Last-Event-ID: {last}\r\n\r\n".encode())
                open_[i] = True
                while line := await reader.readline():
                    if line.startswith(b"id: "):
                        last = int(line[4:])
                        heard[i] += 1
                writer.close()
            except OSError:
                pass
            open_[i] = False
            await asyncio.sleep(0.5)

    tasks = [asyncio.ensure_future(one(i)) for i in range(count)]
    while not stop.is_set():
        await asyncio.sleep(0.2)
    still = sum(open_)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return heard, still


def phase(name: str, serves: int, kill: bool, options: argparse.Namespace) -> str:
    folder = Path(tempfile.mkdtemp(prefix="arbiter-two-serves-"))
    env = {"ARBITER_HOST_KEY": cli_env()["ARBITER_HOST_KEY"]}
    with postgres_url(options.pg) as url, ExitStack() as stack:
        opened(url)
        started = [stack.enter_context(served(url, workers=1, env=env)) for _ in range(serves)]
        proxy, base = balanced([base for base, _ in started], folder)
        stack.callback(proxy.wait)
        stack.callback(proxy.terminate)
        load = Load(base, player_tokens(url, base))
        before, handled_before = log_of(url)
        found: dict[str, tuple[list[int], int]] = {}
        watching = threading.Thread(target=lambda: found.setdefault("viewers", asyncio.run(
            viewers(base, options.viewers, before, load.viewers_stop))))
        watching.start()
        time.sleep(3)  # the streams are open
        threads = [threading.Thread(target=load.voter, args=(c,)) for c in range(11)]
        threads.append(threading.Thread(target=load.reader))
        began = time.monotonic()
        for thread in threads:
            thread.start()
        if kill:
            time.sleep(options.seconds / 3)
            for pid in tree(started[0][1].pid):
                with_suppressed_kill(pid)
        time.sleep(max(0.0, options.seconds - (time.monotonic() - began)))
        votes, took = load.votes, time.monotonic() - began
        load.stop.set()
        for thread in threads:
            thread.join()
        version, handled = log_of(url)
        new = handled - handled_before
        # an answered vote the log lacks, or entries beyond two per vote (one held twice)
        lost = len(load.answered - handled) + (version - before - 2 * len(new))
        closed = httpx.post(f"{base}/matches/kc/close", json={"round": open_round(url)},
                            timeout=60, headers={"Authorization": f"Bearer {host_token(url)}"})
        assert closed.status_code == 200, closed.text
        time.sleep(3)  # the close reaches the streams
        load.viewers_stop.set()
        watching.join()
        heard, still = found["viewers"]
        public = heard_by_fresh(base, before)
    ordered = sorted(load.page)
    p99 = ordered[max(0, -(-len(ordered) * 99 // 100) - 1)] * 1000 if ordered else 0.0
    return (f"| {name} | {votes / took:.0f} | {load.retried} | "
            f"{statistics.median(ordered) * 1000:.0f} ms / {p99:.0f} ms | {still} of "
            f"{options.viewers} | {sum(h == public for h in heard)} heard all {public} | "
            f"{lost} |")


def with_suppressed_kill(pid: int) -> None:
    with suppress(ProcessLookupError):  # gone already, with its parent
        os.kill(pid, signal.SIGKILL)


def heard_by_fresh(base: str, after: int) -> int:
    """How many public entries a stream opened now finds after `after` (in 3 seconds)."""
    heard = 0
    try:
        with httpx.stream("GET", f"{base}/matches/kc/events", params={"after": after},
                          timeout=httpx.Timeout(3.0)) as answer:
            for line in answer.iter_lines():
                heard += line.startswith("id: ")
    except httpx.ReadTimeout:
        pass
    return heard


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--pg", default=SERVER)
    parser.add_argument("--phase", action="append", choices=["one", "two", "kill"])
    options = parser.parse_args()
    rows = ["| serves | votes/s | votes sent again | page p50 / p99 | streams open at the end "
            "| streams that heard every public entry | lost |", "|---|---|---|---|---|---|---|"]
    for name in options.phase or ["one", "two", "kill"]:
        rows.append(phase({"one": "one", "two": "two", "kill": "two, one killed"}[name],
                          1 if name == "one" else 2, name == "kill", options))
        print(rows[-1], file=sys.stderr)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
