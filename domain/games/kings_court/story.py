"""What a viewer reads of the match: the story in words (narrate), the live standings
(scoreboard) and the commands they may send now (forms).

narrate reads the viewer's entries as `domain.records.shown` gives them; scoreboard and forms
read the viewer's summary. Nothing else reaches them, so nothing else can leak.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.decider import HOST, PUBLIC
from domain.games.kings_court.narration import Chapter, Shown, Teller, ordinal
from domain.games.kings_court.phases import (
    AWAITING_DMO,
    DEADLOCK_COIN,
    EC_VOTE,
    ELECTION,
    KING_GIFT,
    TIEBREAK,
)
from domain.games.kings_court.specs import COMMANDS

View = Mapping[str, Any]
Form = dict[str, Any]


def narrate(events: Sequence[Shown], viewer: str) -> list[Chapter]:
    return Teller(viewer).tell(events)


# scoreboard


def scoreboard(view: View) -> dict[str, Any] | None:
    """The EC race after a normal end, the Kings after four early ends, else the votes
    received in the running game; None before the first tally."""
    end = view["end"]
    if "ec_scores" in end:
        return ec_race(view)
    if end.get("death_match"):
        return {
            "title": "Four early Kings: the Main Match is over",
            "columns": ["game", "King", "court when found"],
            "rows": [
                [king["game"], king["king"], len(view["courts"].get(str(king["game"]), []))]
                for king in view["kings"]
            ],
        }
    rounds = [r for r in view["rounds"] if r["game"] == view["game"]]
    if not rounds:
        return None
    totals: dict[str, int] = {}
    for tally in rounds:
        for player, count in tally["counts"].items():
            totals[player] = totals.get(player, 0) + count
    court = view["court"]
    seats = view["players"] or list(rounds[0]["counts"])  # a game's first tally counts all
    return {
        "title": f"Game {view['game']}: votes received and the court",
        "columns": ["player", "votes", "court seat"],
        "rows": [
            [player, totals.get(player, 0), ordinal(court.index(player) + 1) if player in court
             else ""]
            for player in seats
        ],
    }


def ec_race(view: View) -> dict[str, Any]:
    end = view["end"]
    roles = view["roles"].get(str(view["game"]), {})

    def note(player: str) -> str:
        if end.get("ec") == player:
            return "EC"
        return "tied" if player in end["ec_tied"] and len(end["ec_tied"]) > 1 else ""

    return {
        "title": f"Game {view['game']}: the race for the Elimination Candidate",
        "columns": ["player", "role", "votes", "bonus", "EC score", ""],
        "rows": [
            [player, roles.get(player, "").capitalize(), score["votes"], score["bonus"],
             score["score"], note(player)]
            for player, score in end["ec_scores"].items()
        ],
    }


# forms


def forms(view: View, viewer: str) -> list[Form]:
    """What `viewer` may send now, judged from their summary. Never for the public."""
    if viewer == PUBLIC:
        return []
    if viewer == HOST:
        return host_forms(view)
    return player_forms(view, viewer)


def form(command: str, choices: Mapping[str, list[str] | None] | None = None) -> Form:
    spec = COMMANDS[command]
    return {
        "command": command,
        "label": spec.label,
        "fields": [
            {
                "name": name,
                "kind": arg.kind,
                "label": arg.label,
                "required": arg.required,
                "choices": (choices or {}).get(name),
            }
            for name, arg in spec.args.items()
        ],
    }


def host_forms(view: View) -> list[Form]:
    phase, end = view["phase"], view["end"]
    if phase == ELECTION:
        return [form("close_round")]
    if phase == TIEBREAK:
        return [form("close_tiebreak")]
    if phase == KING_GIFT:
        return [form("close_king_gift")]
    if phase == EC_VOTE:
        return [form("close_ec_vote")]
    if phase == DEADLOCK_COIN:
        return [form("record_deadlock_result", {"ec": list(end["deadlock_coin"]["candidates"])})]
    if phase == AWAITING_DMO:
        others = [player for player in view["players"] if player != end["ec"]]
        return [form("record_dmo", {"dmo": others or None})]
    return []


def player_forms(view: View, me: str) -> list[Form]:
    phase, game = view["phase"], str(view["game"])
    role = view["roles"].get(game, {}).get(me)
    others = [player for player in view["players"] if player != me] or None
    found: list[Form] = []
    if phase == ELECTION:
        found += election_forms(view, me, role, others)
    if phase == TIEBREAK and role == "king":
        tied = [player for player in view["rounds"][-1]["tied"] if player != me]
        found.append(form("tiebreak", {"choice": tied}))
    if phase in (ELECTION, TIEBREAK):
        found += paid_forms(view, me, role, others)
    if phase == KING_GIFT and role == "king":
        roles = view["roles"][game]
        dukes = [player for player, has in roles.items() if has == "duke"]
        nobles = [player for player, has in roles.items() if has == "noble"]
        found.append(form("king_gift", {"duke": dukes, "noble": nobles}))
    if phase == EC_VOTE and me in winning_party(view):
        found.append(form("ec_vote", {"candidate": list(view["end"]["ec_tied"])}))
    return found


def election_forms(view: View, me: str, role: str | None, others: list[str] | None) -> list[Form]:
    game, court = view["game"], view["court"]
    found: list[Form] = []
    if me not in court:
        candidates = [player for player in view["players"] if player not in court and player != me]
        found.append(form("vote", {"candidate": candidates or None}))
    last = view["rounds"][-1] if view["rounds"] else None
    joined_last = (
        last is not None
        and last["game"] == game
        and last["round"] == view["round"] - 1
        and last["joined"] == me
    )
    checked = any(
        receipt["kind"] == "pair_check"
        and (receipt["game"], receipt["round"]) == (game, view["round"])
        for receipt in view["receipts"]
    )
    if joined_last and not checked:
        found.append(form("pair_check", {"targets": others}))
    looked = any(answer["kind"] == "king_look" and answer["game"] == game
                 for answer in view["answers"])
    if role == "king" and view["round"] == 1 and not looked:
        found.append(form("king_learn", {"targets": others}))
    return found


def paid_forms(view: View, me: str, role: str | None, others: list[str] | None) -> list[Form]:
    game = view["game"]
    peeked = {
        answer["target"]
        for answer in view["answers"]
        if answer["kind"] == "peek" and answer["game"] == game and answer["peeker"] == me
    }
    targets = [player for player in others or [] if player not in peeked]
    found = [form("peek", {"target": targets or None})] if targets or others is None else []
    checked = any(answer["kind"] == "annoyed_check" and answer["game"] == game
                  for answer in view["answers"])
    if role != "king" and not checked:
        found.append(form("annoyed_check"))
    return found


def winning_party(view: View) -> list[str]:
    """The King alone, or the winning team, by the roles revealed at the end."""
    winner = view["end"].get("winner")
    roles = view["roles"].get(str(view["game"]), {})
    wanted = {"king": "king", "dukes": "duke", "nobles": "noble"}.get(winner or "")
    return [player for player, role in roles.items() if role == wanted]


# the host's words: the phase open now, who it waits on, what its close does

PHASES = {
    "not_started": "waiting for the opening",
    ELECTION: "the election",
    TIEBREAK: "the tie-break",
    "between_games": "between two games",
    KING_GIFT: "the King's gift",
    EC_VOTE: "the EC vote",
    DEADLOCK_COIN: "the deadlock coin, played outside Arbiter",
    AWAITING_DMO: "waiting for the DMO",
    "over": "over",
}


def king_of(view: View) -> list[str]:
    roles = view["roles"].get(str(view["game"]), {})
    return [player for player, role in roles.items() if role == "king"]


def acting(view: View) -> list[str]:
    """Who the open phase waits on, from the host's summary: the voters of an election (every
    player outside the court, the King included), the King in a tie-break and in his gift, the
    winning party in the EC vote; nobody but the host in the deadlock coin and the DMO."""
    phase = view["phase"]
    if phase == ELECTION:
        return [player for player in view["players"] if player not in view["court"]]
    if phase in (TIEBREAK, KING_GIFT):
        return king_of(view)
    if phase == EC_VOTE:
        return winning_party(view)
    return []


def chose(view: View, kind: str) -> bool:
    """Whether the King sent his `kind` choice in the open phase."""
    game, round = view["game"], view["round"]
    return any(r["kind"] == kind
               and (r.get("game"), r.get("round")) in ((game, round), (None, None))
               for r in view["receipts"])


def on_close(view: View, waiting: Sequence[str]) -> str | None:
    """What the host's close does now, in a sentence (the page asks before it is sent)."""
    phase, missing = view["phase"], len(waiting)
    if phase == ELECTION:
        if not missing:
            return "Everyone outside the court has voted: the votes are counted and published."
        return (f"{missing} player{'s have' if missing != 1 else ' has'} not voted: each loses "
                "1 garnet (at most what they hold), then the votes are counted and published.")
    king = ", ".join(king_of(view)) or "the King"
    if phase == TIEBREAK:
        if chose(view, "tiebreak"):
            return f"{king} has chosen: that choice joins the court."
        return (f"{king} has not chosen: the default decides who joins (the next explicit pick "
                "if eligible, else the variant's rule).")
    if phase == KING_GIFT:
        if chose(view, "king_gift"):
            return f"{king} has chosen: that Duke and that Noble get 1 Token of Life each."
        return (f"{king} has not chosen: the earliest-elected Duke and Noble in the court get 1 "
                "Token of Life each.")
    if phase == EC_VOTE:
        if not missing:
            return "The whole winning party has voted: the ballots decide the EC."
        return (f"{missing} of the winning party {'have' if missing != 1 else 'has'} not voted: "
                "each counts as an abstention; the ballots decide the EC, else the garnets, "
                "else the deadlock coin.")
    return None
