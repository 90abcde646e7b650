"""What one stored event changes in the view tables, as (statement, parameters) pairs.

Every row is computed from the aggregate as it stood right after the event, through the
same functions the rest of the read side uses (`views`, `may_see`), so the tables hold
exactly what each viewer may see. The tables themselves are in `projections.tables`.
"""

from __future__ import annotations

from typing import Any

from domain.checkpoints import MatchCheckpoints
from domain.decider import HOST, PUBLIC
from domain.match import Reading
from domain.records import headline, is_fact, may_see, shown
from domain.season import Season
from projections.follow import MatchFollower, dumps
from projections.inbox import receipt, sender
from projections.standings import standings

Changes = list[tuple[str, dict[str, Any]]]


def fact_of(record: dict[str, Any]) -> dict[str, Any] | None:
    """What a summary folds of an entry (as `domain.records.to_event` reads it), or None for
    a command entry."""
    if not is_fact(record):
        return None
    head = headline(record)
    return {"kind": head["kind"], "data": head["data"], "audience": head["audience"],
            "actor": head["actor"], "postings": record["postings"]}


def match_rows(follower: MatchFollower, record: dict[str, Any]) -> Changes:
    """The match's next entry, which `follower` has not taken yet: the entry itself, who may
    read it, the summaries and entries of a round it closes, the sender's receipt, the match's
    position and the host's dashboard. Nothing here grows with the length of the match (a
    round's close, with the length of that round)."""
    match = follower.match
    first = follower.first
    closed = follower.take(record)
    seq = record["entry"]["seq"]
    key = {"match_id": match.match_id}
    entry = record["entry"]
    fact = fact_of(record)
    changes: Changes = [
        ("summary", {**key, "viewer": viewer, "round": round, "seq": upto,
                     "summary": summary})
        for viewer, round, upto, summary in closed]
    if closed:
        changes += round_rows(match, key, first, closed)
    changes += [
        ("entry", {**key, "seq": seq, "round": entry["round"],
                   "is_public": int(may_see(record, PUBLIC)), "entry": dumps(entry),
                   "shown": dumps(shown(record) if may_see(record, HOST) else None),
                   "fact": None if fact is None else dumps(fact)}),
        ("match", {**key, "season": match.season, "game": match.game_id,
                   "players": dumps(match.players), "round": match.round,
                   "last_round": entry["round"], "seq": seq, "ended": int(match.ended)}),
        ("dashboard", {**key, "dashboard": dumps(follower.dashboard())}),
    ]
    changes += [("reader", {**key, "viewer": viewer, "seq": seq})
                for viewer in (PUBLIC, *match.players) if may_see(record, viewer)]
    if record["role"] == "meta" and headline(record)["kind"] == "MatchEnded":
        results = headline(record)["data"]["results"]
        changes.append(("results", {**key, "results": dumps(results)}))
    player = sender(record, match.players)
    if player is not None:
        changes.append(("receipt", {**key, "seq": seq, "player": player,
                                    "receipt": dumps(receipt(match, seq, player))}))
    deadline = follower.open_deadline()
    if deadline is None or deadline["closed"]:
        changes.append(("no_deadline", key))
    else:
        changes.append(("deadline", {**key, "round": deadline["round"],
                                     "deadline": deadline["deadline"]}))
    return changes


def round_rows(match: Reading, key: dict[str, Any], first: int,
               closed: list[tuple[str, int, int, str]]) -> Changes:
    """The entries of the round that just ended (seqs `first` to the end of it), as each
    viewer reads them, in one row: a view as of a later round reads one row a round, not one
    an entry. The texts are the entries' own "shown", so the view reads the same bytes."""
    _, round, last, _ = closed[0]
    texts = [(record, dumps(shown(record))) for record in match.records[first - 1:last]
             if may_see(record, HOST)]
    return [("round", {**key, "viewer": viewer, "round": round, "first_seq": first,
                       "seq": last, "shown": ",".join(text for record, text in texts
                                                      if may_see(record, viewer))})
            for viewer, *_ in closed]


def other_rows(aggregate: Any, version: int) -> Changes:
    """A season's or a match's checkpoints' event."""
    if isinstance(aggregate, Season):
        return season_rows(aggregate)
    if isinstance(aggregate, MatchCheckpoints) and version > 1:
        return checkpoint_rows(aggregate, version)
    return []


def season_rows(season: Season) -> Changes:
    return [("standings", {"season": season.name, "viewer": viewer,
                           "standings": dumps(standings(season, viewer))})
            for viewer in (PUBLIC, HOST, *season.players)]


def checkpoint_rows(checkpoints: MatchCheckpoints, version: int) -> Changes:
    note = checkpoints.notes[version - 2]
    return [("checkpoint", {"match_id": checkpoints.match_id, "idx": version - 1,
                            "round": note["round"], "size": note["size"],
                            "note": note["note"]})]
