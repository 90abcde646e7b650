"""How fast the page's verifier (commands/web/static/audit.js) checks public bundles in the
system Chromium, beside `arbiter verify` (audit.verify) on the same bytes.

    python bench/browser_verify.py [--sizes 10000 100000] [--repeat 5]

The bundles: the King's Court seed's public bundle, and synthetic ones of bench/
verify_throughput.py (a round and a signed checkpoint every 1,000 entries). The page is the
seed match's public page on a loopback server; each bundle is verified `--repeat` times in the
page (after one warm-up) and in this process, and the median of each is printed as a table.
Run it by hand; the figures go in docs/audit.md.
"""

from __future__ import annotations

import argparse
import base64
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "service"))

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

import bench.tampers as tampers
from audit.season_verify import verify_any
from bench.verify_throughput import bundle as synthetic
from commands.cli.matchfile import load, play
from commands.service.arbiter import Arbiter
from tests.support.host_key import SIGNER

SEED = Path(__file__).resolve().parents[1] / "seeds" / "kings_court-king-win.json"
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


def in_page(driver: webdriver.Chrome, data: bytes, repeat: int) -> float:
    driver.execute_script("window.__b = Uint8Array.from(atob(arguments[0]), "
                          "(c) => c.charCodeAt(0))", base64.b64encode(data).decode())
    times = driver.execute_async_script("""
        const [repeat, done] = arguments;
        (async () => {
          const times = [];
          for (let i = 0; i <= repeat; i++) {
            const t = performance.now();
            const r = await ArbiterAudit.verifyBundle(window.__b, {});
            if (!r.ok) throw new Error(r.code);
            times.push((performance.now() - t) / 1000);
          }
          return times.slice(1);
        })().then(done, (e) => done([String(e)]));
    """, repeat)
    return statistics.median(times)


def in_python(data: bytes, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        verify_any(io.BytesIO(data))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dir", default=tempfile.gettempdir())
    options = parser.parse_args()
    from service_harness import Server

    bundles = {"King's Court seed": b"".join(tampers.match_bundles()["public"].lines)}
    for size in options.sizes:
        bundles[f"synthetic {size:,}"] = synthetic(Path(options.dir), size).read_bytes()
    folder = tempfile.mkdtemp()
    app = Arbiter(f"sqlite:///{folder}/bench.db", signer=SIGNER)
    play(app, load(SEED))
    app.close()
    chrome = webdriver.ChromeOptions()
    chrome.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--user-data-dir={folder}/profile"):
        chrome.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=chrome)
    driver.set_script_timeout(3600)
    try:
        with Server(f"sqlite:///{folder}/bench.db") as server:
            driver.get(f"{server.url}/m/{load(SEED).match}")
            time.sleep(1)
            print(f"{'bundle':<22} {'entries':>9} {'MiB':>6} {'page s':>8} {'page/s':>9} "
                  f"{'CLI s':>7} {'CLI/s':>9}")
            for name, data in bundles.items():
                entries = verify_any(io.BytesIO(data)).entries
                page, cli = in_page(driver, data, options.repeat), in_python(data, options.repeat)
                print(f"{name:<22} {entries:>9,} {len(data) / 2**20:>6.1f} {page:>8.3f} "
                      f"{entries / page:>9,.0f} {cli:>7.3f} {entries / cli:>9,.0f}")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
