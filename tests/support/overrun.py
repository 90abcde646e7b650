"""The sealed-bid game with the bugs a game could have, for the match to catch: `twice` emits
two sealed events in a row (its SEALED_RUN is 1), `apart` a sealed, a public and a sealed one
(runs of one: fine), `reserved` a kind the match keeps for itself, `compare` an argument
compared with a number without a type check (a TypeError on a list or a set). The host's
`hidden` is a host command the rules keep from the players, so its entry is sealed; `leap`
opens the next round and tells of it after, and `leap_end` opens it and ends the game;
`show` opens the latest sealed event of each kind named in `kinds`. Its setup holds a tuple,
whose Python form is not its JSON form."""

from __future__ import annotations

from domain.decider import Event, to_all
from tests.support import sealed_bid

SEALED_HOST_COMMANDS = ("hidden",)


class Setup(sealed_bid.Setup):
    pair: tuple[int, int] = (0, 9)


def __getattr__(name: str):
    return getattr(sealed_bid, name)


def decide(state, command):
    mine = (command.actor,)
    if command.name == "twice":
        return [Event("Noted", {"n": 1}, audience=mine), Event("Noted", {"n": 2}, audience=mine)]
    if command.name == "apart":
        return [Event("Noted", {"n": 1}, audience=mine), to_all("Shown"),
                Event("Noted", {"n": 2}, audience=mine)]
    if command.name == "hidden":
        return [Event("Noted", {"n": 0}, audience="host")]
    if command.name == "compare":
        return [to_all("Compared", big=command.args.get("x") > 3)]
    if command.name == "leap":
        return [to_all("RoundOpened"), to_all("Shown")]
    if command.name == "leap_end":
        return [to_all("RoundOpened"), Event("GameOver", {"champions": []})]
    if command.name == "show":
        return [Event("Shown", {}, opens=tuple(command.args["kinds"]))]
    if command.name == "reserved":
        return [to_all(command.args.get("kind", "MatchEnded"))]
    return sealed_bid.decide(state, command)
