"""A season as one viewer may see it: the standings, who is still in, who left in which
match, each match with its winners and EC, and every player's history, all read off the
season log.

ToLs, Opals, MoEs and ECs are public; garnets only to their owner and the host, because a
public balance would betray a secret spend (a King's Court peek): a garnet entry is sealed to
its players, and a viewer reads only the entries they may see.
"""

from __future__ import annotations

from typing import Any

from domain.decider import HOST, PUBLIC
from domain.season import PUBLIC_ASSETS, Season, season_headline


def may_read(record: dict[str, Any], viewer: str | None) -> bool:
    if viewer == HOST:
        return True
    audience = (season_headline(record) or {"audience": HOST})["audience"]
    return audience == PUBLIC or (isinstance(audience, list) and viewer in audience)


def standings(season: Season, viewer: str | None) -> dict[str, Any]:
    """`viewer`: HOST, a player id, or None / PUBLIC for anyone."""
    rows = []
    for player in season.players:
        left = season.out.get(player)
        row = {"player": player, "status": status(season, player),
               "left_in": left["match"] if left else None,
               **{asset: season.balances[player][asset] for asset in PUBLIC_ASSETS}}
        if viewer in (HOST, player):
            row["garnets"] = season.balances[player]["garnets"]
        rows.append(row)
    return {
        "season": season.name,
        "origin": season.origin,
        "viewer": viewer or PUBLIC,
        "players": rows,
        "remaining": season.remaining,
        "champion": season.champion,
        "eliminated": [{"player": p, "match": left["match"], "seq": left["seq"]}
                       for p, left in season.out.items()],
        "matches": [match_row(m, season.dmos.get(m["match"], {}))
                    for m in season.matches.values()],
        "history": history(season, viewer),
    }


STANDING = {"champion": 0, "runner_up": 1, "in": 1, "out": 2}


def by_rank(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of `standings` by rank, as the season page and `arbiter season show` list
    them: the champion, then those still in by Tokens of Life, Opals and fewest Marks of
    Elimination; then those out, the last to leave first (those who left at the same moment
    by the same measures)."""
    line = {(h["player"], h["seq"]): h for h in data["history"]}
    left = {e["player"]: line.get((e["player"], e["seq"]), {}).get("at") or ""
            for e in data["eliminated"]}
    rows = data["players"]
    by_assets = sorted(rows, key=lambda r: (-r["tol"], -r["opal"], r["moe"], r["player"]))
    later_first = sorted(by_assets, key=lambda r: left.get(r["player"], ""), reverse=True)
    return sorted(later_first, key=lambda r: STANDING.get(r["status"], 1))


def status(season: Season, player: str) -> str:
    """in, out, and once the Final is won, champion and runner_up."""
    if player in season.out:
        return "out"
    if season.champion is None:
        return "in"
    return "champion" if player == season.champion else "runner_up"


def match_row(m: dict[str, Any], dmos: dict[str, str]) -> dict[str, Any]:
    """A match as the season tells it. A Death Match names its EC and DMO; a Main Match its
    ECs (or Death Match entrants) and the DMO of each, by its rules or the host."""
    named = {ec: m["rules_dmo"] for ec in m["ecs"] if m["rules_dmo"]} | dmos
    return {"match": m["match"], "game": m["game"], "kind": m["kind"], "players": m["players"],
            "from": m["from"], "dmo": m["dmo"], "dmos": named, "ec": m["ec"],
            "ecs": list(m["ecs"]), "entrants": list(m["entrants"]), "ended": m["ended"],
            "abandoned": m["abandoned"], "outcome": m["outcome"], "winners": m["winners"],
            "loser": m["loser"]}


def history(season: Season, viewer: str | None) -> list[dict[str, Any]]:
    """Every entry the viewer may read, as one line per player it concerns, in log order."""
    lines: list[dict[str, Any]] = []
    for record in season.records:
        head = season_headline(record)
        if head is None or not may_read(record, viewer):
            continue
        seq, at, data = record["entry"]["seq"], head["at"], head["data"]
        lines.extend({"seq": seq, "at": at, "kind": head["kind"], **line}
                     for line in lines_of(head["kind"], data))
    return lines


def lines_of(kind: str, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The players an entry concerns and what it did to each."""
    if kind == "PlayerRegistered":
        return [{"player": data["player"]}]
    if kind == "Granted":
        return [{"player": data["player"], "asset": data["asset"], "amount": data["amount"],
                 "cause": {"grant": data["reason"]}}]
    if kind == "Transferred":
        cause = {"transfer": data["reason"]}
        return [{"player": data["giver"], "asset": "garnets", "amount": -data["amount"],
                 "cause": cause},
                {"player": data["receiver"], "asset": "garnets", "amount": data["amount"],
                 "cause": cause}]
    if kind == "MatchAdded":
        return [{"player": p, "match": data["match"]} for p in data["players"]]
    if kind == "Posted":
        return [{"player": p["player"], "asset": p["asset"], "amount": p["amount"],
                 "cause": {"match": data["match"], "seq": data["seq"], "reason": p["reason"]}}
                for p in data["postings"] if p["asset"] != "trade_freeze"]
    if kind == "DmoRecorded":
        return [{"player": data["dmo"], "match": data["match"], "ec": data["ec"],
                 "cause": {"ruling": data["reason"]}}]
    if kind in ("Eliminated", "SeasonWon"):
        return [{"player": data["player"], "match": data["match"]}]
    if kind == "Ruled":
        return [{"player": data["player"], "changes": data["changes"], "status": data["status"],
                 "cause": {"ruling": data["reason"]}}]
    return []  # the season's start and a match's end concern no one player
