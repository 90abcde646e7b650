"""Hearing that the views grew, from whichever process wrote them, on any host.

On PostgreSQL the projection's write sends a NOTIFY on the views' channel as it commits
(`ArbiterViews.channel`), so a listener reads the entries as soon as they can be read. The
log's own channel (the NOTIFY of each save, which wakes the projection runner) comes too
early for that: the views do not hold the entry yet.

`watch` keeps one connection LISTENing and calls `look` at each NOTIFY, and every `interval`
seconds whatever comes: the poll stays as the fallback, and carries on alone while the
connection is lost, until it is made again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from time import monotonic

import psycopg
from psycopg.sql import SQL, Identifier

from projections.sole import conninfo

SLICE = 0.5  # seconds at most between looks at `stop` while waiting for a NOTIFY
RETRY = 1.0  # seconds between tries to listen again after the connection was lost
APPLICATION_NAME = "arbiter-streams"  # how the listening session shows in pg_stat_activity
log = logging.getLogger("arbiter.streams")


def watch(env: Mapping[str, str], channel: str, stop: threading.Event, interval: float,
          look: Callable[[], None]) -> None:
    """Call `look` at each NOTIFY on `channel` and every `interval` seconds, until `stop`."""
    due = monotonic() + interval
    while not stop.is_set():
        try:
            with psycopg.connect(conninfo(env), autocommit=True,
                                 application_name=APPLICATION_NAME) as conn:
                conn.execute(SQL("LISTEN {0}").format(Identifier(channel)))
                due = looked(look, interval)  # what was written while nobody listened
                while not stop.is_set():
                    wait = min(SLICE, max(0.0, due - monotonic()))
                    told = any(True for _ in conn.notifies(timeout=wait, stop_after=1))
                    if told or monotonic() >= due:
                        due = looked(look, interval)
        except psycopg.Error as error:
            log.warning("listening for new entries stopped (%s); polling every %s s and "
                        "listening again in %s s", " ".join(str(error).split())[:300],
                        interval, RETRY)
        retry = monotonic() + RETRY  # meanwhile the poll goes on
        while monotonic() < retry:
            if stop.wait(max(0.0, min(retry, due) - monotonic())):
                return
            if monotonic() >= due:
                due = looked(look, interval)


def looked(look: Callable[[], None], interval: float) -> float:
    """Look once (a failure is said, and the next look tries again); when to look next."""
    try:
        look()
    except Exception as error:
        log.warning("reading the views for new entries failed (%s)",
                    " ".join(str(error).split())[:300])
    return monotonic() + interval
