"""The floor under bench/http_throughput.py's HTTP figure: the same Python clients (threads,
each with its keep-alive `httpx.Client`, bodies encoded beforehand) posting the same votes to
an app that does nothing (FastAPI under uvicorn, as `arbiter serve` runs, one worker): how many
answers a second the HTTP stack and the clients alone allow on this machine, and what each
answer cost the CPUs.

    python bench/http_floor.py [--clients 4] [--requests 2000]

docs/service.md ("Any client") compares it with a vote's rate in-process.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI, Request

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cputime import Spent
from bench.http_throughput import ROOT, percentiles, run, vote, wait_for

app = FastAPI()


@app.post("/matches/{match}/players/{player}/commands")
async def command(match: str, player: str, request: Request) -> dict[str, Any]:
    sent = await request.json()  # read as the service reads it
    return {"match": match, "seqs": [1, 2], "receipt": {"entry": {}, "salts": {}, "parts": {}},
            "told": [], "command": sent["command"]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--requests", type=int, default=2000, help="each client's")
    args = parser.parse_args()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-c", "import uvicorn; uvicorn.run('bench.http_floor:app', "
         f"port={port}, log_level='warning', access_log=False)"], cwd=ROOT)
    try:
        wait_for(base)
        bodies = [vote("bob", n) for n in range(1, args.requests + 1)]

        def client(c: int) -> list[float]:
            samples = []
            with httpx.Client(base_url=base, headers={"Content-Type": "application/json"}) as http:
                for body in bodies:
                    started = time.perf_counter()
                    http.post("/matches/m/players/alice/commands", content=body).raise_for_status()
                    samples.append(time.perf_counter() - started)
            return samples

        with Spent(server.pid, None) as spent:
            rate, samples = run(args.clients, client)
    finally:
        server.terminate()
        server.wait(timeout=30)
    p50, p99 = percentiles(samples)
    cpu = spent.per(len(samples))
    print(f"{args.clients} httpx clients, an app that does nothing: {rate:.0f} answers/s "
          f"(p50 {p50:.1f} ms, p99 {p99:.1f} ms); CPU ms an answer: clients "
          f"{cpu['client']:.2f}, server {cpu['workers']:.2f}")


if __name__ == "__main__":
    main()
