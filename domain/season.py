"""The season aggregate: a log like a match's, and what players carry from match to match.

Every change of the season is an entry of its log, hashed and chained like a match entry
(domain.envelope, prefix `arbiter/season/v1`): a registration, a grant with its reason, a
garnet trade, a match added, each match entry that posted something (match and seq), a match's
end, a DMO the host recorded, an elimination, a host ruling with its reason, the champion.
State is never stored: `_apply` folds each entry, live and on replay alike, so standings are
a fold of the log.

An entry is public, or sealed whole to its audience (garnets are seen only by their owner and
the host): a garnet grant is sealed to its player, a trade to its two players, a match entry's
postings go in with that entry's audience.

Each command method checks the season's rules first and appends one entry; nothing else
changes the season. An auditor re-runs a season bundle through these same methods
(`audit.season_verify`), entry by entry.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.decider import HOST, PUBLIC, SYSTEM
from domain.edge import TEXT_MAX, check_name, check_text, excerpt
from domain.envelope import GENESIS_PREV, seal_season_entry
from domain.errors import RuleViolation
from domain.match import parse_salt_key
from domain.origins import DEFAULT_PREFIX as DEFAULT_PREFIX  # re-exported: older imports
from domain.origins import ORIGIN_PREFIX as ORIGIN_PREFIX
from domain.origins import match_origin as match_origin
from domain.origins import season_origin as season_origin

ASSETS = ("garnets", "tol", "opal", "moe", "ec", "dm_entrant")
POSTED_ONLY = ("trade_freeze",)  # a match's freeze on garnet trades, not a balance
RULED_ASSETS = ("tol", "opal", "moe")  # what a host ruling may move
PUBLIC_ASSETS = ("tol", "opal", "moe", "ec", "dm_entrant")  # garnets are their owner's
LIMIT = 10**9  # the largest grant: balances stay far inside the log's integer range

MAIN, DEATH_MATCH, FINAL_MATCH, SINGLE = "main", "death_match", "final_match", "single"
KINDS = (MAIN, DEATH_MATCH, FINAL_MATCH, SINGLE)
DUEL_GAME = "tile_joust"  # the game of Death Matches and of the Final Match
ELIMINATED, REINSTATED = "eliminated", "reinstated"

SEASON_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
RESERVED = (HOST, SYSTEM, PUBLIC)


WITNESS_KEY = re.compile(r"player-[0-9a-f]{12}\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}")  # 0x04 || 32 bytes


def witness_name(season: str, player: str) -> str:
    """The name of a player's witness key: a signed-note key name may hold no space or '+',
    which a player id may, so it is a hash of the two."""
    return "player-" + hashlib.sha256(f"{season}\n{player}".encode()).hexdigest()[:12]


def check_origin_prefix(prefix: object) -> str:
    if not isinstance(prefix, str) or len(prefix) > 200 or not ORIGIN_PREFIX.fullmatch(prefix):
        raise RuleViolation("invalid_origin", f"{excerpt(prefix)}: give a domain, optionally "
                            "with a path (e.g. games.example.org/arbiter): letters, digits, "
                            ". _ ~ - /")
    return prefix


def match_kind(game: str, from_match: str | None, final: bool) -> str:
    """What a new match is to the season. A Tile Joust match is a Death Match when it comes
    from a Main Match, the Final Match when the host says so; otherwise it is played on its
    own and its result moves nothing. Every other game's match is a Main Match."""
    if game != DUEL_GAME:
        if from_match is not None or final:
            raise RuleViolation("not_a_duel_game", f"Death Matches and the Final Match are "
                                f"{DUEL_GAME} matches, not {game}")
        return MAIN
    if from_match is not None and final:
        raise RuleViolation("invalid_input", "a match comes from a Main Match or is the Final "
                            "Match, not both")
    if from_match is not None:
        return DEATH_MATCH
    return FINAL_MATCH if final else SINGLE


class Season(Aggregate):
    @staticmethod
    @lru_cache(maxsize=4096)  # every command of a match names its season
    def create_id(name: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"arbiter/season/{name}")

    @event("Created")
    def __init__(self, name: str, salt_key: str, record: dict[str, Any]) -> None:
        self.name = name
        self.salt_key = salt_key
        self.records: list[dict[str, Any]] = []
        self.origin_prefix = DEFAULT_PREFIX
        self.players: list[str] = []
        self.balances: dict[str, dict[str, int]] = {}
        self.frozen: dict[str, int] = {}
        self.out: dict[str, dict[str, Any]] = {}  # eliminated player -> how they left
        self.matches: dict[str, dict[str, Any]] = {}  # in the order they were added
        self.dmos: dict[str, dict[str, str]] = {}  # main match -> ec -> the DMO the host named
        self.champion: str | None = None
        self.witnesses: dict[str, str] = {}  # player -> their browser's witness key (a vkey)
        self.garnets_seen = True  # False for a reader who sees only the public entries
        self._apply(record)

    @classmethod
    def start(cls, *, name: str, origin_prefix: str, salt_key: str,
              at: str | None = None) -> Season:
        """A new season whose checkpoints are signed under `origin_prefix` (the host's)."""
        if not isinstance(name, str) or not SEASON_ID.fullmatch(name):
            raise RuleViolation("invalid_season", f"{excerpt(name)}: a season id is 1 to 64 "
                                "letters, digits, '.', '_' or '-', starting with a letter or "
                                "digit")
        check_origin_prefix(origin_prefix)
        started = {"season": name, "origin": season_origin(origin_prefix, name),
                   "origin_prefix": origin_prefix}
        genesis = seal_season_entry(season=name, seq=1, prev=GENESIS_PREV,
                                    salt_key=parse_salt_key(salt_key),
                                    public=_public("SeasonStarted", HOST, at, started), parts=[])
        return cls(name=name, salt_key=salt_key, record={"entry": genesis, "parts": []})

    # -- commands -------------------------------------------------------------------------

    def register(self, player: str, *, at: str | None = None) -> None:
        self.check_season_goes_on()
        self.check_player_id_is_valid(player)
        if player in self.balances:
            raise RuleViolation("player_exists", f"{excerpt(player)} is registered already")
        self._append("PlayerRegistered", HOST, at, {"player": player})

    def register_witness(self, player: str, key: str, *, at: str | None = None) -> None:
        """A player's browser becomes a witness of the season's logs: its cosignature key
        (a c2sp.org/signed-note vkey of type 0x04, named `witness_name`), once per player.
        The caller has checked the key's encoding; the name is checked here."""
        self.check_is_registered(player)
        if player in self.witnesses:
            raise RuleViolation("witness_registered", f"{excerpt(player)} registered a witness "
                                "key already (from another browser): only that browser cosigns")
        if not isinstance(key, str) or not WITNESS_KEY.fullmatch(key) or \
                key.split("+")[0] != witness_name(self.name, player):
            raise RuleViolation("invalid_witness_key", f"{excerpt(key)}: a witness key is "
                                f"{witness_name(self.name, player)}+HASH+BASE64")
        self._append("WitnessKeyRegistered", player, at, {"player": player, "key": key})

    def grant(self, player: str, asset: str, amount: int, reason: str, *,
              at: str | None = None) -> None:
        """A host grant (or fine, when negative) with its reason; a garnet grant is sealed to
        its player."""
        self.check_season_goes_on()
        self.check_is_registered(player)
        self.check_asset_is_known(asset)
        self.check_amount(amount, allow_negative=True)
        self.check_reason(reason, "a grant needs a reason")
        self.check_covers(player, asset, -amount)
        audience = [player] if asset == "garnets" else PUBLIC
        self._append("Granted", HOST, at, {"player": player, "asset": asset, "amount": amount,
                                          "reason": reason}, audience)

    def transfer(self, giver: str, receiver: str, amount: int, reason: str, *,
                 at: str | None = None) -> None:
        """A garnet trade between players, sealed to the two of them."""
        self.check_season_goes_on()
        self.check_is_registered(giver)
        self.check_is_registered(receiver)
        if giver == receiver:
            raise RuleViolation("invalid_transfer", "a player cannot trade with themselves")
        self.check_amount(amount, allow_negative=False)
        if not isinstance(reason, str):
            raise RuleViolation("invalid_input", "the reason must be a text")
        check_text(reason, "reason", TEXT_MAX)
        for player in (giver, receiver):
            self.check_is_in(player)
            if self.frozen.get(player, 0) > 0:
                raise RuleViolation("garnet_trades_frozen",
                                    f"garnet trades involving {player} are frozen")
        self.check_covers(giver, "garnets", amount)
        self._append("Transferred", HOST, at, {"giver": giver, "receiver": receiver,
                                              "amount": amount, "reason": reason},
                     [giver, receiver])

    def add_match(self, match: str, game: str, kind: str, players: list[str], genesis: str,
                  *, from_match: str | None = None, ec: str | None = None,
                  dmo: str | None = None, at: str | None = None) -> None:
        """A match of the season, named by the hash of its genesis entry. A Death Match names
        the Main Match it comes from and its EC and DMO; the Final Match is the last two's."""
        self.check_season_goes_on()
        if not isinstance(match, str) or not match:
            raise RuleViolation("invalid_input", "a match needs an id")
        check_name(match, "match id")
        if match in self.matches:
            raise RuleViolation("match_exists", f"match {excerpt(match)} exists already")
        if kind not in KINDS or match_kind(game, from_match, kind == FINAL_MATCH) != kind:
            raise RuleViolation("invalid_input", f"{excerpt(game)} with from="
                                f"{excerpt(from_match)} is no {kind}")
        if not isinstance(players, list) or not players:
            raise RuleViolation("invalid_setup", "a match needs its players")
        for player in players:
            self.check_is_registered(player)
            self.check_is_in(player)
        if kind == DEATH_MATCH:
            if (dmo, ec) != self.death_match_pairing(from_match, ec) or players != [dmo, ec]:
                raise RuleViolation("invalid_setup", f"the Death Match from {from_match} is "
                                    f"{dmo} (DMO) against {ec} (EC)")
        elif from_match is not None or ec is not None or dmo is not None:
            raise RuleViolation("invalid_input", "only a Death Match names an EC and a DMO")
        if kind == FINAL_MATCH:
            self.check_final_two(players)
        self._append("MatchAdded", HOST, at, {
            "match": match, "game": game, "kind": kind, "players": list(players),
            "genesis": genesis, "from": from_match, "ec": ec, "dmo": dmo})

    def post(self, match: str, seq: int, postings: list[dict[str, Any]],
             audience: str | list[str] = PUBLIC, *, at: str | None = None) -> None:
        """A match entry's postings, with that entry's audience. The rules clamp their own
        debits and refuse a spend the player cannot afford; a balance below zero here is
        refused all the same, so the whole command records nothing."""
        self.check_is_a_match(match)
        if audience != PUBLIC and any(p["asset"] != "garnets" for p in postings):
            # A bug in a game, not bad input: public standings must come from public entries.
            raise ValueError(f"{match} #{seq}: a sealed entry may move garnets only")
        moved: dict[tuple[str, str], int] = {}
        for p in postings:
            self.check_is_registered(p["player"])
            if p["asset"] not in ASSETS + POSTED_ONLY:
                raise RuleViolation("unknown_asset", f"{excerpt(p['asset'])}")
            moved[p["player"], p["asset"]] = moved.get((p["player"], p["asset"]), 0) + p["amount"]
        for (player, asset), amount in moved.items():
            if asset in ASSETS:
                self.check_covers(player, asset, -amount)
        self._append("Posted", SYSTEM, at, {"match": match, "seq": seq,
                                            "postings": [dict(p) for p in postings]}, audience)

    def finish_match(self, match: str, seq: int, *, abandoned: bool, outcome: Any,
                     winners: list[str], loser: str | None, dmo: str | None,
                     at: str | None = None) -> None:
        """A match ended (entry `seq` of its log): its outcome, its winners, and what the
        season takes from it (a Tile Joust's loser, a DMO its rules named)."""
        self.check_is_a_match(match)
        if self.matches[match]["ended"]:
            raise RuleViolation("wrong_state", f"match {match} has ended already")
        self._append("MatchFinished", SYSTEM, at, {
            "match": match, "seq": seq, "abandoned": abandoned, "outcome": outcome,
            "winners": list(winners), "loser": loser, "dmo": dmo})

    def eliminate(self, player: str, match: str, *, at: str | None = None) -> None:
        """The loser of a Death Match leaves the season."""
        self.check_is_a_match(match)
        found = self.matches[match]
        if found["kind"] != DEATH_MATCH or not found["ended"] or found["loser"] != player:
            raise RuleViolation("not_eliminated", f"{player} did not lose the Death Match "
                                f"{match}")
        self.check_is_in(player)
        self._append("Eliminated", SYSTEM, at, {"player": player, "match": match})

    def crown(self, player: str, match: str, *, at: str | None = None) -> None:
        """The Final Match's winner is the season's champion; the season is over."""
        self.check_season_goes_on()
        self.check_is_a_match(match)
        found = self.matches[match]
        if found["kind"] != FINAL_MATCH or not found["ended"] or found["winners"] != [player]:
            raise RuleViolation("not_champion", f"{player} did not win the Final Match {match}")
        self._append("SeasonWon", SYSTEM, at, {"player": player, "match": match})

    def record_dmo(self, match: str, dmo: str, reason: str, *, ec: str | None = None,
                   at: str | None = None) -> None:
        """The host names the DMO of a Main Match's EC where the rules leave it to the host
        (every game but King's Court after a normal end), or pairs two of King's Court's four
        early Kings."""
        self.check_season_goes_on()
        main = self.check_is_a_finished_main_match(match)
        ec = self.ec_of(match, ec)
        if ec in main["ecs"] and main["rules_dmo"] is not None:
            raise RuleViolation("dmo_by_rules", f"the rules of {main['game']} named "
                                f"{main['rules_dmo']} the DMO of {match}")
        if ec in self.dmos.get(match, {}):
            raise RuleViolation("dmo_recorded", f"{self.dmos[match][ec]} is the DMO for {ec} "
                                f"in {match} already")
        self.check_is_registered(dmo)
        self.check_is_in(dmo)
        if dmo == ec:
            raise RuleViolation("invalid_dmo", "the DMO cannot be the EC")
        if ec not in main["ecs"] and dmo not in main["entrants"]:
            raise RuleViolation("invalid_dmo", f"{ec}'s opponent must be another of "
                                f"{match}'s Death Match entrants: {', '.join(main['entrants'])}")
        self.check_reason(reason, "say how the DMO was chosen")
        self._append("DmoRecorded", HOST, at, {"match": match, "ec": ec, "dmo": dmo,
                                               "reason": reason})

    def rule(self, player: str, reason: str, *, changes: Mapping[str, int] | None = None,
             status: str | None = None, at: str | None = None) -> None:
        """A host ruling where the seeds are silent (a Token of Life spent to stay in, a
        withdrawal): public, attributed, with its reason; never an edit of the log."""
        self.check_season_goes_on()
        self.check_is_registered(player)
        changes = dict(changes or {})
        if status not in (None, ELIMINATED, REINSTATED):
            raise RuleViolation("invalid_ruling", f"status is {ELIMINATED} or {REINSTATED}")
        if not changes and status is None:
            raise RuleViolation("invalid_ruling", "a ruling moves an asset or a status")
        for asset, amount in changes.items():
            if asset not in RULED_ASSETS:
                raise RuleViolation("invalid_ruling", f"a ruling moves {', '.join(RULED_ASSETS)}"
                                    f" (garnets by a grant), not {excerpt(asset)}")
            self.check_amount(amount, allow_negative=True)
            self.check_covers(player, asset, -amount)
        if status == ELIMINATED:
            self.check_is_in(player)
        if status == REINSTATED and player not in self.out:
            raise RuleViolation("invalid_ruling", f"{player} is still in the season")
        self.check_reason(reason, "a ruling needs its reason")
        self._append("Ruled", HOST, at, {"player": player, "changes": changes,
                                         "status": status, "reason": reason})

    # -- the Death Match and the Final ----------------------------------------------------

    def death_match_pairing(self, match: str | None, ec: str | None = None) -> tuple[str, str]:
        """(DMO, EC) of the Death Match that `match` (a finished Main Match) sends `ec` to:
        the DMO its rules named, else the one the host recorded."""
        match = self.check_is_a_match(match)
        main = self.check_is_a_finished_main_match(match)
        ec = self.ec_of(match, ec)
        dmo = main["rules_dmo"] if ec in main["ecs"] and main["rules_dmo"] is not None else \
            self.dmos.get(match, {}).get(ec)
        if dmo is None:
            raise RuleViolation("no_dmo", f"{match} has no DMO for {ec} yet: the host records "
                                "one (arbiter season dmo)")
        self.check_is_in(ec)
        self.check_is_in(dmo)
        if any(m["kind"] == DEATH_MATCH and m["from"] == match and m["ec"] == ec
               and not m["abandoned"] for m in self.matches.values()):
            raise RuleViolation("death_match_exists", f"{ec}'s Death Match from {match} exists "
                                "already (only an abandoned one may be played again)")
        return dmo, ec

    def ec_of(self, match: str, ec: str | None) -> str:
        """The EC (or Death Match entrant) of a finished Main Match: `ec`, or its only one."""
        main = self.matches[match]
        candidates: list[str] = list(dict.fromkeys(main["ecs"] + main["entrants"]))
        if not candidates:
            raise RuleViolation("no_ec", f"{match} named no Elimination Candidate")
        if ec is None:
            if len(candidates) > 1:
                raise RuleViolation("ec_ambiguous", f"{match} sends several players to a Death "
                                    f"Match ({', '.join(candidates)}): name the EC")
            return candidates[0]
        if ec not in candidates:
            raise RuleViolation("not_an_ec", f"{excerpt(ec)} is not an EC of {match}; its are "
                                f"{', '.join(candidates)}")
        return ec

    def check_final_two(self, players: list[str]) -> None:
        left = self.remaining
        if any(m["kind"] == FINAL_MATCH and not m["abandoned"] for m in self.matches.values()):
            raise RuleViolation("final_exists", "the season has its Final Match already")
        if len(left) != 2 or sorted(players) != sorted(left):
            raise RuleViolation("not_final_two", f"the Final Match is for the last two; "
                                f"{len(left)} are still in: {', '.join(left)}")

    # -- guards ---------------------------------------------------------------------------

    def check_season_goes_on(self) -> None:
        if self.champion is not None:
            raise RuleViolation("season_over", f"season {self.name} is over: {self.champion} "
                                "won it")

    def check_player_id_is_valid(self, player: str) -> None:
        if not isinstance(player, str) or not player or player in RESERVED or \
                player != player.strip() or not player.isprintable() or len(player) > 100:
            raise RuleViolation("invalid_player", f"{excerpt(player)} cannot be a player id")

    def check_is_registered(self, player: str) -> None:
        if not isinstance(player, str) or player not in self.balances:
            raise RuleViolation("unknown_player", f"{excerpt(player)} is not in season {self.name}")

    def check_is_in(self, player: str) -> None:
        if player in self.out:
            left = self.out[player]["match"]
            raise RuleViolation("player_eliminated", f"{player} left the season"
                                + (f" in {left}" if left else " by a ruling"))

    def check_is_a_match(self, match: str | None) -> str:
        if match is None or match not in self.matches:
            raise RuleViolation("unknown_match", f"no match {excerpt(match)} in season {self.name}")
        return match

    def check_is_a_finished_main_match(self, match: str) -> dict[str, Any]:
        self.check_is_a_match(match)
        main = self.matches[match]
        if main["kind"] != MAIN:
            raise RuleViolation("not_a_main_match", f"{match} is a {main['kind']}, not a Main "
                                "Match")
        if not main["ended"] or main["abandoned"]:
            raise RuleViolation("main_not_ended", f"{match} has not ended with a result")
        return main

    def check_asset_is_known(self, asset: str) -> None:
        if asset not in ASSETS:
            raise RuleViolation("unknown_asset", f"{excerpt(asset)}; known: {', '.join(ASSETS)}")

    def check_amount(self, amount: object, *, allow_negative: bool) -> None:
        if not isinstance(amount, int) or isinstance(amount, bool) or amount == 0 or \
                abs(amount) > LIMIT or (amount < 0 and not allow_negative):
            kind = "non-zero" if allow_negative else "positive"
            raise RuleViolation("invalid_amount", f"the amount must be a {kind} integer of at "
                                f"most {LIMIT} (got {excerpt(amount)})")

    def check_reason(self, reason: object, missing: str) -> None:
        if not isinstance(reason, str) or not reason.strip():
            raise RuleViolation("reason_required", missing)
        check_text(reason, "reason", TEXT_MAX)

    def check_covers(self, player: str, asset: str, amount: int) -> None:
        if asset == "garnets" and not self.garnets_seen:
            return  # a reader of the public log, who sees no garnet entry
        if amount > 0 and self.balances[player][asset] < amount:
            raise RuleViolation("insufficient_" + asset,
                                f"{player} has {self.balances[player][asset]} {asset}")

    # -- recording ------------------------------------------------------------------------

    def _append(self, kind: str, actor: str, at: str | None, data: dict[str, Any],
                audience: str | list[str] = PUBLIC) -> None:
        seq = self.version + 1
        if audience == PUBLIC:
            public, parts = _public(kind, actor, at, data), []
        else:
            public = None
            parts = [{"audience": audience, "kind": kind, "actor": actor, "at": at,
                      "data": data}]
        entry = seal_season_entry(season=self.name, seq=seq, prev=self.records[-1]["entry"]
                                  ["hash"], salt_key=parse_salt_key(self.salt_key),
                                  public=public, parts=parts)
        self._appended(record={"entry": entry, "parts": parts})

    @event("Appended")
    def _appended(self, record: dict[str, Any]) -> None:
        self._apply(record)

    # -- evolving -------------------------------------------------------------------------

    def _apply(self, record: dict[str, Any]) -> None:
        """Fold one entry. A sealed entry whose part is not at hand (a public bundle) moves
        only garnets, which that reader may not see anyway."""
        self.records.append(record)
        head = season_headline(record)
        if head is not None:
            getattr(self, f"_on_{head['kind']}")(record["entry"]["seq"], **head["data"])

    def _on_SeasonStarted(self, number: int, season: str, origin: str, origin_prefix: str) -> None:
        self.origin_prefix = origin_prefix

    def _on_PlayerRegistered(self, number: int, player: str) -> None:
        self.players.append(player)
        self.balances[player] = dict.fromkeys(ASSETS, 0)

    def _on_WitnessKeyRegistered(self, number: int, player: str, key: str) -> None:
        self.witnesses[player] = key

    def _on_Granted(self, number: int, player: str, asset: str, amount: int, reason: str) -> None:
        self.balances[player][asset] += amount

    def _on_Transferred(self, number: int, giver: str, receiver: str, amount: int,
                        reason: str) -> None:
        self.balances[giver]["garnets"] -= amount
        self.balances[receiver]["garnets"] += amount

    def _on_MatchAdded(self, number: int, match: str, game: str, kind: str, players: list[str],
                       genesis: str, **pairing: str | None) -> None:
        self.matches[match] = {
            "match": match, "game": game, "kind": kind, "players": list(players),
            "genesis": genesis, "from": pairing["from"], "ec": pairing["ec"],
            "dmo": pairing["dmo"], "ended": False, "abandoned": False, "outcome": None,
            "winners": [], "loser": None, "rules_dmo": None, "ecs": [], "entrants": []}

    def _on_Posted(self, number: int, match: str, seq: int,
                   postings: list[dict[str, Any]]) -> None:
        found = self.matches[match]
        for p in postings:
            player, asset, amount = p["player"], p["asset"], p["amount"]
            if asset == "trade_freeze":
                self.frozen[player] = self.frozen.get(player, 0) + amount
                continue
            self.balances[player][asset] += amount
            named = {"ec": found["ecs"], "dm_entrant": found["entrants"]}.get(asset)
            if named is not None and amount > 0 and player not in named:
                named.append(player)

    def _on_MatchFinished(self, number: int, match: str, seq: int, abandoned: bool,
                          outcome: Any, winners: list[str], loser: str | None,
                          dmo: str | None) -> None:
        self.matches[match].update(ended=True, abandoned=abandoned, outcome=outcome,
                                   winners=list(winners), loser=loser, rules_dmo=dmo)

    def _on_DmoRecorded(self, number: int, match: str, ec: str, dmo: str, reason: str) -> None:
        self.dmos.setdefault(match, {})[ec] = dmo

    def _on_Eliminated(self, number: int, player: str, match: str) -> None:
        self.out[player] = {"match": match, "seq": number}

    def _on_Ruled(self, number: int, player: str, changes: dict[str, int], status: str | None,
                  reason: str) -> None:
        for asset, amount in changes.items():
            self.balances[player][asset] += amount
        if status == ELIMINATED:
            self.out[player] = {"match": None, "seq": number}
        elif status == REINSTATED:
            del self.out[player]

    def _on_SeasonWon(self, number: int, player: str, match: str) -> None:
        self.champion = player

    # -- reading --------------------------------------------------------------------------

    @property
    def origin(self) -> str:
        return season_origin(self.origin_prefix, self.name)

    @property
    def remaining(self) -> list[str]:
        """The players still in the season, in registration order."""
        return [p for p in self.players if p not in self.out]

    def garnets(self, players: Iterable[str]) -> dict[str, int]:
        return {p: self.balances[p]["garnets"] for p in players if p in self.balances}

    def tracks(self, match: str) -> bool:
        return match in self.matches


def public_standings(season: Season) -> dict[str, Any]:
    """What everyone may know of the standings: every asset but garnets, who is still in, the
    champion. Each season checkpoint signs its hash."""
    return {"season": season.name, "champion": season.champion,
            "players": [{"player": p, "in": p not in season.out,
                         **{a: season.balances[p][a] for a in PUBLIC_ASSETS}}
                        for p in season.players]}


def ending(game: str, players: list[str], kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """What the season takes from a match's MatchEnded (or MatchAbandoned) entry: the outcome,
    the winners (rank 1, in seat order), a Tile Joust's loser, a DMO the rules named. The
    service and the auditor read it the same way."""
    if kind == "MatchAbandoned":
        return {"abandoned": True, "outcome": None, "winners": [], "loser": None, "dmo": None}
    results = data["results"]
    details = results.get("details") or {}
    return {"abandoned": False, "outcome": results.get("outcome"),
            "winners": [p for p in players if results.get("ranks", {}).get(p) == 1],
            "loser": details.get("loser") if game == DUEL_GAME else None,
            "dmo": details.get("dmo") if game != DUEL_GAME else None}


def season_headline(record: dict[str, Any]) -> dict[str, Any] | None:
    """An entry's kind, actor, time, audience and data, public or sealed; None when sealed
    and its part is not at hand."""
    entry = record["entry"]
    if entry["kind"] is not None:
        return {"kind": entry["kind"], "actor": entry["actor"], "at": entry["at"],
                "audience": PUBLIC, "data": entry["public"]}
    return record["parts"][0] if record["parts"] else None


def _public(kind: str, actor: str, at: str | None, data: dict[str, Any]) -> dict[str, Any]:
    return {"kind": kind, "actor": actor, "at": at, "data": data}
