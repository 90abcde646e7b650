"""Where a Discord user's command goes: the running match of a season where their linked
player (or the season's host) may send it. An unlinked user, a user in no such match, a match
they do not play in, a host command from a player: each refused in words."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from commands.service.arbiter import Arbiter
from commands.service.discord.links import Links
from commands.service.discord.slash import declared
from domain.decider import HOST
from domain.edge import excerpt
from domain.errors import RuleViolation
from domain.games import get_game


@dataclass(frozen=True)
class Seat:
    """Where a linked user sits: a player (or the host) of a running match of a season."""

    season: str
    match: str
    game: str
    player: str  # or HOST


class Seats:
    def __init__(self, arbiter: Arbiter, links: Links, seasons: Callable[[], list[str]]) -> None:
        """`seasons` lists the seasons (the views')."""
        self.arbiter, self.links, self.seasons = arbiter, links, seasons

    def linked(self, user: str) -> dict[str, str]:
        """season -> the player (or HOST) `user` is linked to there."""
        found = {}
        for season in self.seasons():
            player = self.links.of(season).get(user)
            if player is not None:
                found[season] = player
        return found

    def of(self, user: str, name: str | None) -> list[Seat]:
        """The running matches where `user` may send `name` (None: any of their matches)."""
        found = []
        for season_name, player in self.linked(user).items():
            season = self.arbiter.season(season_name)
            for match_id, m in season.matches.items():
                if m["ended"] or (player != HOST and player not in m["players"]):
                    continue
                spec = getattr(get_game(m["game"]), "COMMANDS", {}).get(name)
                side = "host" if player == HOST else "player"
                if name is None or (spec is not None and spec.actor == side):
                    found.append(Seat(season_name, match_id, m["game"], player))
        return found

    def seat(self, user: str, name: str | None, match: object) -> Seat:
        """Where `name` (None: /status, /rules) from `user` goes: the one running match
        that takes it, or the one `match` names; refused in words otherwise."""
        if not self.linked(user):
            raise RuleViolation("not_linked", "your Discord account is not linked to a "
                                "player: send /join with the personal link the host sent you")
        seats = self.of(user, name)
        command = f"/{name}" if name else "this"
        if isinstance(match, str) and match:
            chosen = [s for s in seats if s.match == match]
            if not chosen:
                anywhere = self.of(user, None)
                if any(s.match == match for s in anywhere):
                    raise RuleViolation("wrong_command", f"{command} is not a command of your "
                                        f"side in {excerpt(match)}")
                raise RuleViolation("not_your_match", f"you do not play in a running match "
                                    f"{excerpt(match)}")
            return chosen[0]
        if not seats:
            if name is not None and self.host_only(name) and \
                    HOST not in self.linked(user).values():
                raise RuleViolation("host_only", f"{command} is the host's: it needs the "
                                    "Discord account the host linked as host")
            raise RuleViolation("no_match", f"none of your running matches takes {command}")
        if len({s.match for s in seats}) > 1:
            which = f"that take {command}" if name else "running"
            raise RuleViolation("which_match", f"you play in several matches {which}: add "
                                f"match: one of {', '.join(s.match for s in seats)}")
        return seats[0]

    @staticmethod
    def host_only(name: str) -> bool:
        specs = next((d.specs for d in declared() if d.name == name), {})
        return bool(specs) and all(s.actor == "host" for s in specs.values())
