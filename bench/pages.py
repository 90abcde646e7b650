"""Server time of the pages: every seed match played into a fresh store, then each finished
match's public page (from the views), the same page as of its middle round (replayed from the
log), the season page and `/`, the host's dashboard, the host's page of the longest match and
of the season, each asked `--repeat` times in-process (the ASGI app, no network), on SQLite and
on PostgreSQL; and the check every page makes of the views' lag (`entries_to_read`).

    python bench/pages.py [--repeat 40] [--pg postgresql://postgres@127.0.0.1:5432/postgres]

Prints p50 and p99 in milliseconds per page. The target: under 100 ms for a finished match.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit import keys
from bench.stores import SERVER, on_both_stores
from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from commands.service.tokens import Tokens
from commands.web.app import create_app
from commands.web.reading import entries_to_read
from commands.web.worker import Settings

ROOT = Path(__file__).resolve().parents[1]
FILES = [load(path) for path in sorted((ROOT / "seeds").glob("*.json"))]


def timed(client: TestClient, path: str, repeat: int) -> tuple[float, float]:
    client.get(path)  # warm: templates compiled, the match in the reader's cache
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        answer = client.get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 200, answer.text
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def run(url: str, repeat: int) -> None:
    signer = keys.generate("bench-host")
    app = Arbiter(url, signer=signer)
    for file in FILES:
        play(app, file)
    with TestClient(create_app(Settings(url=url, signer=signer))) as client:
        views = client.app.state.service.views  # type: ignore[attr-defined]
        wanted = {f.match: app.match(f.match).version for f in FILES}
        deadline = time.monotonic() + 120
        while views.seqs(wanted) != wanted and time.monotonic() < deadline:
            time.sleep(0.1)
        print(f"\n{url.split(':')[0]}: ms per page, p50 / p99 of {repeat}")
        for file in FILES:
            match = app.match(file.match)
            middle = match.records[-1]["entry"]["round"] // 2
            now = timed(client, f"/m/{file.match}", repeat)
            then = timed(client, f"/m/{file.match}?round={middle}", repeat)
            print(f"  {file.match:<40} {len(match.records):>4} entries  "
                  f"now {now[0]:6.1f} / {now[1]:6.1f}   round {middle:>2} "
                  f"{then[0]:6.1f} / {then[1]:6.1f}")
        for path in ("/s/demo", "/"):
            p50, p99 = timed(client, path, repeat)
            print(f"  {path:<40}                  {p50:6.1f} / {p99:6.1f}")
        # The host's pages (behind the host's cookie), and what every page pays to say
        # whether the views are catching up.
        client.post("/host/session", data={"token": Tokens(app).set_host()})
        longest = max(FILES, key=lambda f: app.match(f.match).version).match
        for path in ("/host", f"/host/m/{longest}", "/host/s/demo"):
            p50, p99 = timed(client, path, repeat)
            print(f"  {path:<40}                  {p50:6.1f} / {p99:6.1f}")
        service = client.app.state.service  # type: ignore[attr-defined]
        times = []
        for _ in range(repeat * 10):
            start = time.perf_counter()
            assert entries_to_read(service) == 0
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        print(f"  {'entries_to_read, up to date':<40}                  "
              f"{statistics.median(times):6.2f} / {times[int(len(times) * 0.99)]:6.2f}")
    app.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--pg", default=SERVER)
    args = parser.parse_args()
    on_both_stores(lambda url: run(url, args.repeat), args.pg)


if __name__ == "__main__":
    main()
