"""A match's results: per player rank and season effects, and each round's public reveals."""

from __future__ import annotations

from typing import Any

from domain.decider import PUBLIC
from domain.match import Reading
from domain.records import headline

EFFECTS = ("tol", "garnets", "opal", "moe")


def effects(match: Reading) -> dict[str, dict[str, int]]:
    """What the match posted to the season, summed per player and asset."""
    totals = {p: dict.fromkeys((*EFFECTS, "ec", "dm_entrant"), 0) for p in match.players}
    for record in match.records:
        for p in record["postings"]:
            if p["asset"] in totals[p["player"]]:
                totals[p["player"]][p["asset"]] += p["amount"]
    return totals


def results(match: Reading) -> dict[str, Any]:
    game_results = match.results() or {"outcome": None, "ranks": {}, "details": {}}
    totals = effects(match)
    return {
        "match": match.match_id,
        "game": match.game_id,
        "ended": match.ended,
        "outcome": game_results["outcome"],
        "players": [
            {"player": p, "rank": game_results["ranks"].get(p), "tol": totals[p]["tol"],
             "garnets": totals[p]["garnets"], "ec": totals[p]["ec"] > 0,
             "opal": totals[p]["opal"], "moe": totals[p]["moe"],
             "dm_entrant": totals[p]["dm_entrant"] > 0}
            for p in match.players
        ],
        "details": game_results["details"],
        "rounds": public_reveals(match),
    }


def public_reveals(match: Reading) -> list[dict[str, Any]]:
    """Each round's public facts, in log order."""
    rounds: dict[int, list[dict[str, Any]]] = {}
    for record in match.records:
        head = headline(record)
        if record["role"] == "fact" and head["audience"] == PUBLIC:
            rounds.setdefault(record["entry"]["round"], []).append(
                {"seq": record["entry"]["seq"], "kind": head["kind"], "data": head["data"]})
    return [{"round": n, "reveals": reveals} for n, reveals in sorted(rounds.items())]
