"""Replay and disputes, over a verified bundle: a match as one viewer saw it at the end of a
round, what changed between two rounds, and where two versions of a match first disagree.

Every view goes through projections.views.view, so through the one gate domain.records.may_see.
A full bundle is re-run into a Match, so any viewer can be shown; a public bundle is read as a
log whose sealed entries only the host may see, so it shows the public view and nothing else.
"""

from __future__ import annotations

from typing import Any

from audit.errors import AuditError
from audit.verify import Audit
from domain.decider import HOST, PUBLIC
from domain.logs import READERS, check_plays
from domain.match import Match
from domain.records import may_see, shown
from projections.story import told_by
from projections.views import RecordsLog, view

REDACTED = {"audience": HOST, "kind": None, "actor": None, "at": None, "data": None}


def log_of(audit: Audit) -> Match | RecordsLog:
    """The re-run match of a full bundle, or the public log of a public one."""
    if audit.match is not None:
        return audit.match
    records = [{"entry": e, "parts": [] if e["kind"] is not None else [REDACTED],
                "postings": [], "role": "command" if e["kind"] == "CommandAccepted" else "fact"}
               for e in audit.kept]
    return RecordsLog(audit.header.match, audit.header.game, records)


def replay(audit: Audit, round: int, viewer: str) -> dict[str, Any]:
    """What `viewer` knew at the end of `round`, with the round's log and state roots (when the
    round has closed; a state root needs a full bundle or a signed checkpoint)."""
    log = log_of(audit)
    _check_viewer(audit, viewer)
    last = log.records[-1]["entry"]["round"]
    # The codes every entry point gives a bad round (commands/service/rounds.py).
    if round < 0:
        raise AuditError("invalid_round", f"round {round}: rounds count from 0 (the setup)")
    if round > last:
        raise AuditError("round_not_reached", f"round {round} is not in this log (rounds 0 "
                         f"to {last})")
    data = view(log, viewer, round)
    mark = audit.marks.get(round)
    data["log_root"] = mark.log_root if mark else None
    data["state_root"] = mark.state_root if mark else None
    return data


def diff(audit: Audit, start: int, end: int, viewer: str) -> dict[str, Any]:
    """What `viewer` learnt between the end of round `start` and the end of round `end`."""
    check_order(start, end)
    return changes(audit.header.match, viewer, replay(audit, start, viewer),
                   replay(audit, end, viewer))


def check_order(start: int, end: int) -> None:
    if start > end:
        raise AuditError("invalid_input", f"--from {start} is after --to {end}")


def changes(match_id: str, viewer: str, before: dict[str, Any],
            after: dict[str, Any]) -> dict[str, Any]:
    """What `viewer` learnt from one replayed round's end (`before`, as `replay` gives it) to
    a later one's (`after`): each summary entry that changed, the new events, and what they
    add to the story, told as `view` tells it (`told`: chapters of sentences)."""
    keys = [*before["summary"], *(k for k in after["summary"] if k not in before["summary"])]
    new = [e for e in after["events"] if e["seq"] > before["as_of"]["seq"]]
    return {
        "match": match_id,
        "viewer": viewer,
        "from": _point(before),
        "to": _point(after),
        "events": new,
        "told": told_by(after, [e["seq"] for e in new]),
        "summary": {k: {"from": before["summary"].get(k), "to": after["summary"].get(k)}
                    for k in keys if before["summary"].get(k) != after["summary"].get(k)},
    }


def bisect(a: Audit, b: Audit) -> dict[str, Any]:
    """Where two versions of one match part: the first entry they disagree on, the first round
    whose signed-or-replayed log root differs, and the first round whose state roots differ,
    with what each version's viewer saw differently at the end of that round.

    Both bundles were verified and every round's roots computed on the way, so instead of
    probing rounds one by one like an interactive bisection, this reads the first disagreement
    off both lists. The viewer is the host when both bundles are full, else the public.
    """
    if a.header.match != b.header.match:
        raise AuditError("different_matches",
                         f"{a.header.match!r} and {b.header.match!r} are different matches")
    log_a, log_b = log_of(a), log_of(b)
    viewer = HOST if a.match is not None and b.match is not None else PUBLIC
    hashes_a = [r["entry"]["hash"] for r in log_a.records]
    hashes_b = [r["entry"]["hash"] for r in log_b.records]
    seq = next((i + 1 for i, (x, y) in enumerate(zip(hashes_a, hashes_b, strict=False)) if x != y),
               None if len(hashes_a) == len(hashes_b) else min(len(hashes_a), len(hashes_b)) + 1)
    rounds = sorted(set(a.marks) & set(b.marks))
    log_round = next((r for r in rounds if a.marks[r].log_root != b.marks[r].log_root), None)
    state_round = next((r for r in rounds if None not in (a.marks[r].state_root,
                                                          b.marks[r].state_root)
                        and a.marks[r].state_root != b.marks[r].state_root), None)
    result: dict[str, Any] = {"match": a.header.match, "viewer": viewer,
                              "agree": seq is None and state_round is None,
                              "entries": {"a": len(hashes_a), "b": len(hashes_b)},
                              "seq": seq, "log_round": log_round, "state_round": state_round}
    if seq is not None:
        result["entry"] = {"a": _entry_at(log_a, seq, viewer), "b": _entry_at(log_b, seq, viewer)}
    if state_round is not None:
        summary_a = view(log_a, viewer, state_round)["summary"]
        summary_b = view(log_b, viewer, state_round)["summary"]
        result["state"] = {
            "a": a.marks[state_round].state_root, "b": b.marks[state_round].state_root,
            "summary": {k: {"a": summary_a.get(k), "b": summary_b.get(k)}
                        for k in {*summary_a, *summary_b}
                        if summary_a.get(k) != summary_b.get(k)}}
    return result


def _check_viewer(audit: Audit, viewer: str) -> None:
    check_plays(viewer, audit.header.players, audit.header.match, READERS, AuditError)
    if audit.match is None and viewer != PUBLIC:
        raise AuditError("needs_full_bundle", "a public bundle shows only the public view")


def _point(data: dict[str, Any]) -> dict[str, Any]:
    return {"round": data["as_of"]["round"], "seq": data["as_of"]["seq"],
            "log_root": data["log_root"], "state_root": data["state_root"]}


def _entry_at(log: Match | RecordsLog, seq: int, viewer: str) -> dict[str, Any] | None:
    """The entry at `seq` as `viewer` reads it; only its seq and round when sealed to them."""
    if seq > len(log.records):
        return None
    record = log.records[seq - 1]
    if may_see(record, viewer):
        return shown(record)
    return {"seq": seq, "round": record["entry"]["round"], "sealed": True}
