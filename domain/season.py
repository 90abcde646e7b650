"""The season aggregate: players and what they carry from match to match.

Balances per player and asset (garnets, tol, opal, moe, ec, dm_entrant). Every change is an
event that names its cause: a host grant with a reason, a match posting (match and seq), or
a transfer between players.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.errors import RuleViolation

ASSETS = ("garnets", "tol", "opal", "moe", "ec", "dm_entrant")


class Season(Aggregate):
    @staticmethod
    def create_id(name: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"arbiter/season/{name}")

    @event("Started")
    def __init__(self, name: str) -> None:
        self.name = name
        self.players: list[str] = []
        self.balances: dict[str, dict[str, int]] = {}
        self.frozen: dict[str, int] = {}
        self.matches: list[dict[str, str]] = []
        self.history: list[dict[str, Any]] = []

    # -- commands -------------------------------------------------------------------------

    def register(self, player: str) -> None:
        self.check_player_id_is_valid(player)
        if player in self.balances:
            raise RuleViolation("player_exists", f"{player!r} is registered already")
        self._registered(player=player)

    def grant(self, player: str, asset: str, amount: int, reason: str) -> None:
        """A host grant (or fine, when negative) with its reason."""
        self.check_is_registered(player)
        self.check_asset_is_known(asset)
        if not isinstance(amount, int) or isinstance(amount, bool) or amount == 0:
            raise RuleViolation("invalid_amount", "the amount must be a non-zero integer")
        if not reason.strip():
            raise RuleViolation("reason_required", "a grant needs a reason")
        self.check_covers(player, asset, -amount)
        self._granted(player=player, asset=asset, amount=amount, reason=reason)

    def transfer(self, giver: str, receiver: str, amount: int, reason: str) -> None:
        """A garnet trade between players."""
        self.check_is_registered(giver)
        self.check_is_registered(receiver)
        if giver == receiver:
            raise RuleViolation("invalid_transfer", "a player cannot trade with themselves")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise RuleViolation("invalid_amount", "the amount must be a positive integer")
        for player in (giver, receiver):
            if self.frozen.get(player, 0) > 0:
                raise RuleViolation("garnet_trades_frozen",
                                    f"garnet trades involving {player} are frozen")
        self.check_covers(giver, "garnets", amount)
        self._transferred(giver=giver, receiver=receiver, amount=amount, reason=reason)

    def add_match(self, match_id: str, game_id: str, players: Iterable[str]) -> None:
        for player in players:
            self.check_is_registered(player)
        if any(m["match"] == match_id for m in self.matches):
            raise RuleViolation("match_exists", f"match {match_id!r} exists already")
        self._match_added(match=match_id, game=game_id)

    def post(self, match_id: str, seq: int, postings: list[dict[str, Any]]) -> None:
        """Apply a match entry's postings. The rules clamp their own debits; a spend the
        player cannot afford was refused by the rules before it got here."""
        if postings:
            self._posted(match=match_id, seq=seq, postings=postings)

    # -- guards ---------------------------------------------------------------------------

    def check_player_id_is_valid(self, player: str) -> None:
        if not isinstance(player, str) or not player or player in ("host", "system", "public"):
            raise RuleViolation("invalid_player", f"{player!r} cannot be a player id")

    def check_is_registered(self, player: str) -> None:
        if player not in self.balances:
            raise RuleViolation("unknown_player", f"{player!r} is not in season {self.name}")

    def check_asset_is_known(self, asset: str) -> None:
        if asset not in ASSETS:
            raise RuleViolation("unknown_asset", f"{asset!r}; known: {', '.join(ASSETS)}")

    def check_covers(self, player: str, asset: str, amount: int) -> None:
        if amount > 0 and self.balances[player][asset] < amount:
            raise RuleViolation("insufficient_" + asset,
                                f"{player} has {self.balances[player][asset]} {asset}")

    # -- events ---------------------------------------------------------------------------

    @event("PlayerRegistered")
    def _registered(self, player: str) -> None:
        self.players.append(player)
        self.balances[player] = dict.fromkeys(ASSETS, 0)

    @event("Granted")
    def _granted(self, player: str, asset: str, amount: int, reason: str) -> None:
        self.balances[player][asset] += amount
        self.history.append({"player": player, "asset": asset, "amount": amount,
                             "cause": {"grant": reason}})

    @event("Transferred")
    def _transferred(self, giver: str, receiver: str, amount: int, reason: str) -> None:
        self.balances[giver]["garnets"] -= amount
        self.balances[receiver]["garnets"] += amount
        cause = {"transfer": reason}
        self.history.append({"player": giver, "asset": "garnets", "amount": -amount,
                             "cause": cause})
        self.history.append({"player": receiver, "asset": "garnets", "amount": amount,
                             "cause": cause})

    @event("MatchAdded")
    def _match_added(self, match: str, game: str) -> None:
        self.matches.append({"match": match, "game": game})

    @event("Posted")
    def _posted(self, match: str, seq: int, postings: list[dict[str, Any]]) -> None:
        for p in postings:
            if p["asset"] == "trade_freeze":
                self.frozen[p["player"]] = self.frozen.get(p["player"], 0) + p["amount"]
                continue
            self.balances[p["player"]][p["asset"]] += p["amount"]
            self.history.append({"player": p["player"], "asset": p["asset"],
                                 "amount": p["amount"],
                                 "cause": {"match": match, "seq": seq, "reason": p["reason"]}})

    # -- reading --------------------------------------------------------------------------

    def garnets(self, players: Iterable[str]) -> dict[str, int]:
        return {p: self.balances[p]["garnets"] for p in players if p in self.balances}
