"""What one stored event changes in the view tables, as (statement, parameters) pairs.

Every row is computed from the aggregate as it stood right after the event, through the
same functions the rest of the read side uses (`views`, `may_see`), so the tables hold
exactly what each viewer may see. The tables themselves are in `projections.tables`.
"""

from __future__ import annotations

import json
from typing import Any

from domain.checkpoints import MatchCheckpoints
from domain.decider import HOST, PUBLIC
from domain.match import Match
from domain.records import headline, may_see, shown
from domain.season import Season
from projections.dashboard import dashboard, open_deadline
from projections.inbox import receipt, sender
from projections.standings import standings
from projections.views import summary, visible

Changes = list[tuple[str, dict[str, Any]]]


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def rows_for(aggregate: Any, version: int) -> Changes:
    if isinstance(aggregate, Match):
        return match_rows(aggregate, version)
    if isinstance(aggregate, Season):
        return season_rows(aggregate)
    if isinstance(aggregate, MatchCheckpoints) and version > 1:
        return checkpoint_rows(aggregate, version)
    return []


def match_rows(match: Match, seq: int) -> Changes:
    """Entry `seq` of the match: the entry itself, who may read it, the summaries it changes,
    the sender's receipt, the match's position and the host's dashboard."""
    record = match.records[seq - 1]
    key = {"match_id": match.match_id}
    entry = record["entry"]
    changes: Changes = [
        ("entry", {**key, "seq": seq, "round": entry["round"],
                   "is_public": int(may_see(record, PUBLIC)), "entry": dumps(entry),
                   "shown": dumps(shown(record))}),
        ("match", {**key, "season": match.season, "game": match.game_id,
                   "players": dumps(match.players), "round": match.round,
                   "last_round": entry["round"], "seq": seq, "ended": int(match.ended)}),
        ("dashboard", {**key, "dashboard": dumps(dashboard(match))}),
    ]
    changes += [("reader", {**key, "viewer": viewer, "seq": seq})
                for viewer in (PUBLIC, *match.players) if may_see(record, viewer)]
    changes += [("summary", {**key, "viewer": viewer,
                             "summary": dumps(summary(match, visible(match.records, viewer),
                                                      viewer))})
                for viewer in (PUBLIC, HOST, *match.players) if may_see(record, viewer)]
    if record["role"] == "meta" and headline(record)["kind"] == "MatchEnded":
        results = headline(record)["data"]["results"]
        changes.append(("results", {**key, "results": dumps(results)}))
    player = sender(record, match.players)
    if player is not None:
        changes.append(("receipt", {**key, "seq": seq, "player": player,
                                    "receipt": dumps(receipt(match, seq, player))}))
    deadline = open_deadline(match)
    if deadline is None or deadline["closed"]:
        changes.append(("no_deadline", key))
    else:
        changes.append(("deadline", {**key, "round": deadline["round"],
                                     "deadline": deadline["deadline"]}))
    return changes


def season_rows(season: Season) -> Changes:
    return [("standings", {"season": season.name, "viewer": viewer,
                           "standings": dumps(standings(season, viewer))})
            for viewer in (PUBLIC, HOST, *season.players)]


def checkpoint_rows(checkpoints: MatchCheckpoints, version: int) -> Changes:
    note = checkpoints.notes[version - 2]
    return [("checkpoint", {"match_id": checkpoints.match_id, "idx": version - 1,
                            "round": note["round"], "size": note["size"],
                            "note": note["note"]})]
