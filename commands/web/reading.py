"""Reads: from the view tables when they have caught up, else from the log itself through the
same functions the projection uses, so an answer never depends on where it came from."""

from __future__ import annotations

import time
from functools import partial
from typing import Any

from commands.web.errors import ApiError
from commands.web.worker import Service
from domain.decider import HOST, PUBLIC
from domain.errors import RuleViolation
from domain.logs import READERS
from domain.logs import check_plays as plays
from domain.match import Reading
from projections.dashboard import dashboard
from projections.inbox import inbox
from projections.projection import TOPICS
from projections.standings import standings


def check_plays(match: Reading, viewer: str, also: tuple[str, ...] = READERS) -> None:
    """404 unless `viewer` plays in the match or is one of `also` (the public, the host)."""
    plays(viewer, match.players, match.match_id, also, partial(ApiError, 404))


def read_view(svc: Service, match_id: str, viewer: str, round: int | None) -> dict[str, Any]:
    """The view as of now or as of the end of `round`, as every reader reads it
    (commands.service.reading): every entry the store holds, from the view tables as far as
    they go."""
    try:
        return svc.read_side.view(match_id, viewer, round).view
    except RuleViolation as error:
        if error.code == "unknown_player":
            raise ApiError(404, error.code, error.message) from None
        raise


def read_inbox(svc: Service, match_id: str, player: str, min_seq: int = 0) -> dict[str, Any]:
    """Projected, unless the projection has not reached `min_seq` (a receipt just given)."""
    fresh = not min_seq or svc.views.seqs([match_id]).get(match_id, 0) >= min_seq
    found = svc.views.inbox(match_id, player) if fresh else None
    if found is not None:
        return found
    match = svc.arbiter.match(match_id)
    check_plays(match, player)
    return inbox(match, player)


def read_dashboard(svc: Service, match_id: str, min_seq: int = 0) -> dict[str, Any]:
    found = svc.views.dashboard(match_id)
    if found is None or found["seq"] < min_seq:
        return dashboard(svc.arbiter.match(match_id))
    return found


def read_standings(svc: Service, season: str, viewer: str) -> dict[str, Any]:
    found = svc.views.standings(season, viewer)
    return standings(svc.arbiter.season(season), viewer) if found is None else found


def read_audit(svc: Service, match_id: str) -> dict[str, Any]:
    found = svc.views.audit(match_id)
    if found is not None:
        return found
    entries = [record["entry"] for record in svc.arbiter.match(match_id).records]
    return {"match": match_id, "entries": entries,
            "checkpoints": svc.arbiter.checkpoints(match_id).notes}


def check_viewer(svc: Service, match_id: str, viewer: str) -> None:
    """Before a stream opens: the match exists and the viewer may follow it."""
    if viewer in (PUBLIC, HOST) and svc.views.seqs([match_id]):
        return
    check_plays(svc.arbiter.match(match_id), viewer)


def read_checkpoints(svc: Service, match_id: str) -> list[dict[str, Any]]:
    """The signed checkpoints (`round`, `size`, `note`), oldest first."""
    if svc.views.seqs([match_id]):
        return svc.views.checkpoints(match_id)
    return svc.arbiter.checkpoints(match_id).notes


def read_matches(svc: Service, season: str | None = None) -> list[dict[str, Any]]:
    """Every match (of `season`) the views hold: game, players, open round, whether it ended,
    and its public results."""
    return svc.views.matches(season=season)


def read_match(svc: Service, match_id: str) -> dict[str, Any] | None:
    """One match as `read_matches` lists it, once the views hold it."""
    found = svc.views.matches(match_id=match_id)
    return found[0] if found else None


def read_seasons(svc: Service) -> list[str]:
    return svc.views.seasons()


UNREAD_COUNTED = 1000  # beyond this many entries behind, a page says "more than"


def caught_up(svc: Service, within: float) -> int:
    """Wait up to `within` seconds for the views to read what was just recorded (a page drawn
    right after its form was saved); how many entries are still to read then."""
    deadline = time.monotonic() + within
    while (left := entries_to_read(svc)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return left


def entries_to_read(svc: Service) -> int:
    """How many of the store's entries the views have not read yet: 0 when they are up to
    date (two quick reads), else counted up to `UNREAD_COUNTED` + 1."""
    log, position = svc.positions()
    if log <= position:
        return 0
    return len(svc.arbiter.recorder.select_notifications(
        start=position + 1, limit=UNREAD_COUNTED + 1, topics=TOPICS))
