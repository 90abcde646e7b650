"""The registry of games under threads: the first commands of a new process, arriving
together, each get the whole game module, never one another thread is still importing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TOGETHER = """
import threading
from domain.games import game_ids, get_game

barrier, failed = threading.Barrier(8), []

def first_use(game_id):
    barrier.wait()
    try:
        get_game(game_id).Setup
    except AttributeError as error:
        failed.append(repr(error))

for game_id in game_ids():
    threads = [threading.Thread(target=first_use, args=(game_id,)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    barrier.reset()
print(failed)
"""


def test_threads_that_ask_for_a_game_at_once_each_get_it_whole():
    for _ in range(3):  # a fresh process each time: the race is on the first import only
        done = subprocess.run([sys.executable, "-c", TOGETHER], cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "[]"
