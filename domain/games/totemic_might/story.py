"""The story of a match for one viewer: `narrate` (the rounds in words), `scoreboard` (the live
standings) and `forms` (what the viewer may send now). Each reads only what the viewer may see:
the shown events, or the viewer's own summary.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from textwrap import wrap
from typing import Any

from domain.decider import HOST
from domain.games.totemic_might.command_specs import COMMANDS
from domain.games.totemic_might.grid import GARNET, LETTERS, SERIES, TOTEMS
from domain.games.totemic_might.sentences import LONGEST, SENTENCES, Told
from domain.games.totemic_might.wagers import KINDS as KINDS_OF_WAGER

View = Mapping[str, Any]
Chapter = dict[str, Any]

TITLES = {"auction": "auction", "final_weighing": "final weighing",
          "final_challenge": "final challenge"}


# narrate


def narrate(events: Sequence[Mapping[str, Any]], viewer: str) -> list[Chapter]:
    """One chapter per round with something to tell: round 0 is the opening; an event belongs
    to the round its data names (a deadline opens the next round), else to the last one named.
    The match's own entries are the framework's to tell. A sentence too long for one line
    (long ids, a long hint) goes on over the next."""
    chapters: dict[int, Chapter] = {}
    told: Told = {"round_types": {}}
    current = 0
    for entry in events:
        sentences = SENTENCES.get(entry["kind"])
        if sentences is None:
            continue
        data = entry["data"]
        current = data["round"] if isinstance(data.get("round"), int) else current
        if entry["kind"] in ("RoundOpened", "FinalChallengeOpened"):
            kind = data.get("round_type", "final_challenge")
            told["round_types"][current] = kind
        lines = [part for line in sentences(data, viewer, told)
                 for part in wrap(line, LONGEST, break_on_hyphens=False)]
        if entry["kind"] == "MatchResults":
            told["results_in"] = current
        if lines:
            chapter = chapters.setdefault(current, {"round": current, "title": "", "lines": []})
            chapter["lines"].extend(lines)
    for number, chapter in chapters.items():
        chapter["title"] = title(number, told)
    return [chapters[number] for number in sorted(chapters)]


def title(number: int, told: Told) -> str:
    if number == 0:
        return "Opening"
    kind = TITLES.get(told["round_types"].get(number, ""), "round")
    ending = " and results" if told.get("results_in") == number else ""
    return f"Round {number}: {kind}{ending}"


# scoreboard


def scoreboard(view: View) -> dict[str, Any] | None:
    """The final ranking once published; before, chips, priority and what each player won."""
    if view.get("results"):
        return final_table(view["results"])
    if not view.get("chips"):
        return None
    won = {player: {"totems": 0, "garnets": 0} for player in view["chips"]}
    for series in view["auctions"]:
        for player, item in series["allocation"].items():
            if item is not None:
                won[player]["garnets" if item == GARNET else "totems"] += 1
    place = {player: index + 1 for index, player in enumerate(view["priority_list"])}
    rows = [[player, view["chips"][player], place.get(player, "-"), won[player]["totems"],
             won[player]["garnets"]] for player in view["priority_list"] or view["chips"]]
    return {"title": f"Round {view['round']}: chips and priority",
            "columns": ["Player", "Chips", "Priority", "Totems won", "Series garnets"],
            "rows": rows}


def final_table(results: Mapping[str, Any]) -> dict[str, Any]:
    rows = []
    for player in results["ranking"]:
        row = results["players"][player]
        rows.append([row["rank"], player, row["failure_marks"], row["final_weight"],
                     -row["penalty"], row["final_score"], row["correct_guesses"],
                     row["wagers_taken"], row["end_garnets"],
                     awards_of(player, results)])
    return {"title": "Final ranking",
            "columns": ["Rank", "Player", "Failure marks", "Final weight", "Penalty", "Score",
                        "Correct guesses", "Wagers taken", "Garnets", "Awards"],
            "rows": rows}


def awards_of(player: str, results: Mapping[str, Any]) -> str:
    prizes = results["awards"].get(player, {})
    words = []
    if prizes.get("tol"):
        words.append(f"{prizes['tol']} ToL, Opal")
    if prizes.get("opal_challenge"):
        words.append("Opal (challenge)")
    if prizes.get("ec"):
        words.append("EC")
    return ", ".join(words)


# forms


def forms(view: View, viewer: str) -> list[dict[str, Any]]:
    """The commands of the open phase (rules 4), with choices where the viewer's summary
    knows them. A convenience for pages: `decide` still answers everything."""
    phase = view.get("phase")
    if viewer == HOST:
        closes = {"auction": "deadline", "final_weighing": "deadline",
                  "final_challenge": "final_deadline"}
        return [form(closes[phase])] if phase in closes else []
    if viewer not in view.get("chips", {}):
        return []  # the public, or someone who is not a player
    if phase == "auction":
        return [*bidding_forms(view, viewer), *spirit_forms(view), *scale_forms(),
                *transfer_forms(view, viewer)]
    if phase == "final_weighing":
        return [*spirit_forms(view), *scale_forms()]
    if phase == "final_challenge":
        return challenge_forms(view, viewer)
    return []


def form(name: str, **choices: list[Any] | None) -> dict[str, Any]:
    spec = COMMANDS[name]
    fields = [{"name": arg_name, "kind": arg.kind, "label": arg.label,
               "required": arg.required, "choices": choices.get(arg_name)}
              for arg_name, arg in spec.args.items() if arg_name != "params"]
    return {"command": name, "label": spec.label, "fields": fields}


def bidding_forms(view: View, viewer: str) -> list[dict[str, Any]]:
    """With 2 chips or more both series, with 1 only A, with none no bet (TM-R7)."""
    chips = view["chips"][viewer]
    series = list(SERIES) if chips >= 2 else ["A"] if chips == 1 else []
    bets = [form("place_bet", series=series)] if series else []
    return [*bets, form("set_pick_order", series=list(SERIES))]


def spirit_forms(view: View) -> list[dict[str, Any]]:
    """Only the lone owed player is shown the pool, and only they may choose."""
    pool = view.get("pool_shown")
    return [form("choose_spirit_totem", totem=list(pool))] if pool else []


def scale_forms() -> list[dict[str, Any]]:
    return [form("weigh"),
            form("place_wager", kind=list(KINDS_OF_WAGER), letter=list(LETTERS),
                 totems=list(TOTEMS), payment=["garnets", "balloon"]),
            form("cancel_wager")]


def transfer_forms(view: View, viewer: str) -> list[dict[str, Any]]:
    others = [player for player in view["chips"] if player != viewer]
    pending = pending_transfers(view, viewer)
    cancel = [form("cancel_transfer", id=pending)] if pending else []
    return [form("give", to=others), form("propose_trade", **{"with": others}), *cancel]


def pending_transfers(view: View, viewer: str) -> list[int]:
    """The numbers of the viewer's own gifts and trades of the open round not cancelled (a
    proposal is listed under its kind, `gift` or `trade`)."""
    mine: list[int] = []
    for sent in view["submissions"]:
        if sent.get("round") != view["round"] or sent.get("proposer") != viewer:
            continue
        if sent["kind"] in ("gift", "trade"):
            mine.append(sent["id"])
        elif sent["kind"] == "cancel_transfer" and sent["id"] in mine:
            mine.remove(sent["id"])
    return mine


def challenge_forms(view: View, viewer: str) -> list[dict[str, Any]]:
    others = [player for player in view["chips"] if player != viewer]
    balanced = any(attempt["balanced"] for attempt in view["attempts"]
                   if attempt["player"] == viewer)
    attempt = [] if balanced else [form("attempt_balance")]
    standing = standing_guesses(view, viewer)
    withdraw = [form("withdraw_guess", target=standing)] if standing else []
    return [*attempt, form("guess_starting_totem", target=others, totem=list(TOTEMS)),
            *withdraw]


def standing_guesses(view: View, viewer: str) -> list[str]:
    """The players the viewer has a guess on now, in the order first guessed."""
    standing: list[str] = []
    for sent in view["submissions"]:
        if sent.get("player") != viewer:
            continue
        if sent["kind"] == "guess" and sent["target"] not in standing:
            standing.append(sent["target"])
        elif sent["kind"] == "withdraw_guess" and sent["target"] in standing:
            standing.remove(sent["target"])
    return standing


# the host's words: the phase open now, who it waits on, what its deadline does

PHASES = {
    "not_started": "waiting for the opening",
    "auction": "an auction round",
    "final_weighing": "the final weighing round",
    "final_challenge": "the final challenge",
    "over": "over",
}


def acting(view: Mapping[str, Any]) -> list[str]:
    """Every player may act in every open round (rulebook 3.5)."""
    return list(view["chips"]) if view["phase"] not in ("not_started", "over") else []


def on_close(view: Mapping[str, Any], waiting: Sequence[str]) -> str | None:
    """What the host's deadline does now, in a sentence (the page asks before it is sent)."""
    phase, missing = view["phase"], len(waiting)
    have = "s have" if missing != 1 else " has"
    if phase == "auction":
        if not missing:
            return "Everyone has sent something: the auction is resolved and the next round opens."
        return (f"{missing} player{have} sent nothing this round: each bets 1 chip on each series "
                "they can bid in and their picks are drawn; the auction is resolved and the next "
                "round opens.")
    if phase == "final_weighing":
        return ("The final weighing round closes: the final challenge opens, with the final "
                "pieces issued.")
    if phase == "final_challenge":
        return ("The final deadline: every player not balanced gets one more failure mark and a "
                "final weight of 0; the match is over.")
    return None
