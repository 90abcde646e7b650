"""Season standings as one viewer may see them.

ToLs, Opals, MoEs and ECs are public; garnets only to their owner and the host, because a
public balance would betray a secret spend (a King's Court peek).
"""

from __future__ import annotations

from typing import Any

from domain.decider import HOST
from domain.season import Season

PUBLIC_ASSETS = ("ec", "moe", "tol", "opal", "dm_entrant")


def standings(season: Season, viewer: str | None) -> dict[str, Any]:
    rows = []
    for player in season.players:
        row = {"player": player, **{a: season.balances[player][a]
                                    for a in ("tol", "opal", "moe", "ec")}}
        if viewer in (HOST, player):
            row["garnets"] = season.balances[player]["garnets"]
        rows.append(row)
    history = [
        {"player": h["player"], "asset": h["asset"], "amount": h["amount"], "cause": h["cause"]}
        for h in season.history
        if h["asset"] in PUBLIC_ASSETS
        or (h["asset"] == "garnets" and viewer in (HOST, h["player"]))
    ]
    return {"season": season.name, "players": rows, "matches": season.matches,
            "history": history}
