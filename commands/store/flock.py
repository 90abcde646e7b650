"""An flock waited for, boundedly: the writer's lock of an SQLite store
(commands.service.writers) and a publish's hold on its folder (commands.store.shelves)."""

from __future__ import annotations

import fcntl
import os
import threading


def waited_for(fd: int, wait: float) -> bool:
    """The flock on `fd`, waited for up to `wait` seconds: taken at once when it is free, else
    by a thread blocked in the kernel's queue for it, so a waiter takes it the moment it is
    released (polling, it came up to a poll's pause late). The waiter blocks on a copy of `fd`
    (the same open file, so the same lock), which it closes once it has the lock: given up and
    closed by the caller, the lock then goes with the file's last reference."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        pass
    taken, settled = threading.Event(), threading.Lock()
    given_up = False

    copy = os.dup(fd)

    def take() -> None:
        try:
            fcntl.flock(copy, fcntl.LOCK_EX)
            with settled:
                if not given_up:
                    taken.set()
        finally:
            os.close(copy)

    threading.Thread(target=take, name="flock-waiter", daemon=True).start()
    if taken.wait(wait):
        return True
    with settled:
        given_up = True
        return taken.is_set()
