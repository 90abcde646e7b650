"""The words a person reads, in one place: outcomes, results, refusals, phases, commands and
roles, shared by the pages, `arbiter announce` and the command line.

Codes (`joint_winners`, `unknown_target`, `king_gift`) stay what the API, `--json` and the
logs carry; whatever a person reads goes through here first, so a page, a chat message and a
terminal say the same thing (it imports nothing heavy: the command line loads it for every
command). Every function falls back to the code made readable (never the
code itself), so a game added later reads plainly before it writes its own words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

GAMES = {"amalgamation": "The Amalgamation", "kings_court": "King's Court",
         "merchants_guild": "The Merchants' Guild", "tile_joust": "Tile Joust",
         "totemic_might": "Totemic Might"}
MATCH_PHASES = {"configured": "waiting for the opening", "open": "open", "ended": "over",
                "not_started": "waiting for the opening", "over": "over"}


def game_name(game_id: str) -> str:
    return GAMES.get(game_id, readable(game_id).title())


def readable(code: str) -> str:
    """`joint_winners` -> "joint winners"; `VotesTallied` -> "votes tallied"."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", str(code)).replace("_", " ")
    return spaced.lower().strip()


def names(players: Sequence[str]) -> str:
    players = list(players)
    if len(players) <= 1:
        return "".join(players)
    return ", ".join(players[:-1]) + " and " + players[-1]


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count:,} {one if count == 1 else (many or one + 's')}"


# A first word that is a name, not a word of the sentence: a label before a colon, or a word
# holding what a sentence's first word does not (a digit, a dot, an underscore, a hyphen).
NAMED = re.compile(r"\S+:(\s|$)|\S*[\d._/-]\S*(\s|$)")


def plain(text: str) -> str:
    """A message without code marks: no backticks (a command to run reads as itself), and a
    Python repr's quotes ('zed') as a reader's (“zed”)."""
    text = str(text).replace("`", "").strip()
    return re.sub(r"(?<!\w)'([^'\n]{1,80})'(?!\w)", r"“\1”", text)


def sentence(text: str) -> str:
    """A message as a sentence: capital first, a full stop last, in plain words. A message
    that opens with a name (a match, a player, an argument: `kc-1: ...`, `alice: ...`,
    `vote.candidate: ...`) keeps it as it is written: a name is case-sensitive."""
    text = plain(text)
    if not text:
        return text
    if not NAMED.match(text):
        text = text[:1].upper() + text[1:]
    return text if text[-1] in ".!?…" or text.endswith((".)", "?)", "!)")) else text + "."


# -- outcomes and results -------------------------------------------------------------------

def winners(results: Mapping[str, Any] | None) -> list[str]:
    ranks = (results or {}).get("ranks") or {}
    return [p for p, rank in ranks.items() if rank == 1]


def losers(results: Mapping[str, Any]) -> list[str]:
    details = results.get("details") or {}
    found = details.get("losers")
    if isinstance(found, list):
        return [str(p) for p in found]
    ranks = results.get("ranks") or {}
    worst = max(ranks.values(), default=None)
    return [p for p, rank in ranks.items() if rank == worst and worst != 1]


def outcome(game_id: str, results: Mapping[str, Any] | None) -> str | None:
    """How a match ended, as a clause ("the King wins: grace"), from its published results;
    None while it has no outcome."""
    if not results or results.get("outcome") is None:
        return None
    code, first = str(results["outcome"]), winners(results)
    told = OUTCOMES.get((game_id, code))
    if told is not None:
        lost = losers(results)
        return told.format(first=names(first), losers=f" ({names(lost)})" if lost else "",
                           win="wins" if len(first) == 1 else "win")
    players = {p for p in (results.get("ranks") or {})}
    if code in players:  # a game whose outcome is its winner's id
        return f"the winner is {code}"
    if first:
        return f"{readable(code)}, first: {names(first)}"
    return readable(code)


OUTCOMES = {
    ("kings_court", "king"): "the King wins: {first}",
    ("kings_court", "dukes"): "the Dukes win: {first}",
    ("kings_court", "nobles"): "the Nobles win: {first}",
    ("kings_court", "four_early_kings"): "four Kings were found too early: the Main Match "
                                         "ends and they go to a Death Match",
    ("merchants_guild", "non_payers"): "the Guild's non-payers lose{losers}; the richest "
                                       "{win}: {first}",
    ("merchants_guild", "least_gold"): "the poorest lose{losers}; the richest {win}: {first}",
    ("merchants_guild", "all_tied"): "all ten have the same gold",
    ("amalgamation", "winner"): "the winner on match points is {first}",
    ("amalgamation", "joint_winners"): "the joint winners on match points are {first}",
    ("amalgamation", "no_winner"): "nobody wins: four or more share the most match points",
}


def ended(game_id: str, results: Mapping[str, Any] | None) -> str:
    """ "Over: the King wins: grace." for a list of matches."""
    said = outcome(game_id, results)
    if said:
        return f"over: {said}"
    first = winners(results)
    return f"over: {names(first)} {'is' if len(first) == 1 else 'are'} first" if first \
        else "over"


def code_or_text(text: str) -> str:
    """A reason that may be a rules' code (`match_winner`) or a host's words: a code made
    readable, words kept as written."""
    return readable(text) if re.fullmatch(r"[a-z0-9_]+", str(text)) else str(text)


# A player's standing in a season (projections/standings.py).
STANDINGS = {"champion": "champion", "runner_up": "runner-up", "in": "still in", "out": "out"}


def standing(code: str) -> str:
    return STANDINGS.get(code, readable(code))


def match_outcome(game_id: str, code: Any, winners: Sequence[str]) -> str | None:
    """A match's outcome as a season lists it (its code and its winners)."""
    return None if code is None else \
        outcome(game_id, {"outcome": code, "ranks": {w: 1 for w in winners}})


# -- phases and rounds ----------------------------------------------------------------------

def phase(game_id: str, code: str) -> str:
    """A phase in the game's words ("the tie-break"), else the name made readable."""
    from domain.games import get_game  # the games load only where a phase is told

    said = getattr(get_game(game_id), "PHASES", {}).get(code) or MATCH_PHASES.get(code)
    return said or readable(code)


def instant(iso: str) -> str:
    """An ISO 8601 instant as people write it, in UTC ("Mon 30 Nov 2026, 20:00 UTC"); the
    pages' script shows it in the reader's own zone."""
    try:
        when = datetime.fromisoformat(str(iso).replace("Z", "+00:00")).astimezone(UTC)
    except ValueError:
        return str(iso)
    return when.strftime("%a %-d %b %Y, %H:%M UTC")


def round_name(round: int) -> str:
    return "the opening" if round == 0 else f"round {round}"


# -- commands -------------------------------------------------------------------------------

def value(item: Any) -> str:
    """An argument's value as a reader says it: never None, a repr or JSON."""
    if item is None:
        return "nothing"
    if isinstance(item, bool):
        return "yes" if item else "no"
    if isinstance(item, list | tuple):
        return names([value(v) for v in item]) if item else "none"
    if isinstance(item, Mapping):
        return ", ".join(f"{readable(k)} {value(v)}" for k, v in item.items()) or "none"
    return str(item)


# A command a player sent, as the page and the terminal name it ("your vote for carol").
SENT = {
    "vote": "vote for {candidate}{bills}",
    "tiebreak": "choice of {choice} to join the court",
    "peek": "question to the Judge about {target}",
    "annoyed_check": "question to the Judge whether you annoyed him",
    "king_gift": "gift of a Token of Life to {duke} and one to {noble}",
    "ec_vote": "vote for {candidate} as Elimination Candidate",
    "nominate": "nomination of bill {bill} ({direction})",
    "bid": "bid of {amount} chips",
    "pick_item": "pick of {item}",
    "keep_leftover": "leftover tile {tile} kept",
    "choose_next_tile": "choice of the {label} tile next",
    "submit_tile": "tile {tile} put forward",
    "place_bet": "bet of {amount} chips on series {series}",
    "contribute": "addition of “{text}” to the seed",
    "king_learn": "opening look at {targets}",
    "record_dmo": "record of {dmo} as the DMO",
}


# Commands that act the moment they are sent (an auction bid, a joust step): never replaced
# (docs/games/tile_joust.md 4), so the page asks before sending one.
FINAL = {"tile_joust": ("pick_item", "bid", "fold", "choose_next_tile", "keep_leftover",
                        "use_items", "submit_tile", "pass")}


# Tile Joust's items, as its story names them (docs/games/tile_joust.md 2.3).
ITEMS = {"tile_inversion": "Tile Inversion", "equaliser": "the Equaliser", "conceal": "Conceal"}


def item(name: Any) -> str:
    return ITEMS.get(str(name), readable(str(name)))


def uses(items: Any) -> str:
    """Tile Joust's item uses: "use of Tile Inversion on tile s1g1M", or of none."""
    told = [f"{item(u.get('item'))}{' on tile ' + str(u['tile']) if u.get('tile') else ''}"
            for u in items or [] if isinstance(u, Mapping)]
    return f"use of {names(told)}" if told else "use of no item"


def command(game_id: str, name: str, args: Mapping[str, Any]) -> str:
    """A command as a noun phrase: "vote for carol", "bid of 6 chips", else its name and
    arguments in words ("submit round: invest 10, donate 0")."""
    if name == "use_items":
        return uses(args.get("items"))
    template = SENT.get(name)
    if template is not None:
        fields = {k: item(v) if k == "item" else value(v) for k, v in args.items()}
        if name == "vote" and "bills" in args:  # the Guild's vote names bills
            return f"vote for bill{'s' if len(args['bills']) != 1 else ''} " \
                   f"{value(args['bills'])}"
        fields.setdefault("candidate", "")
        fields.setdefault("bills", "")
        try:
            return template.format(**fields)
        except KeyError:
            pass
    said = ", ".join(f"{readable(k)} {value(v)}" for k, v in args.items())
    return f"{readable(name)}{': ' + said if said else ''}"


def receipt(player: str, game_id: str, name: str, args: Mapping[str, Any], seq: int,
            round: int) -> str:
    """ "bob's vote for carol, entry #17, is in the log under the checkpoint of round 2" """
    return (f"{player}'s {command(game_id, name, args)}, entry #{seq}, is in the log under "
            f"the checkpoint of {round_name(round)}")


# -- refusals -------------------------------------------------------------------------------

def refusal(code: str, message: str) -> str:
    """A refused command's message as the sentence a person reads (the code goes beside it as
    a small label, or in --json)."""
    return sentence(message) if message else sentence(readable(code))


# -- roles ----------------------------------------------------------------------------------

def role(view: Mapping[str, Any], player: str) -> dict[str, str] | None:
    """The viewer's role in words and what it wants (docs/games, each rulebook's "The game in
    brief"), from what the viewer's own view shows; None before the draw tells it, and for
    whoever does not play (the public, the host)."""
    created = next((e for e in view.get("events", []) if e["kind"] == "MatchCreated"), None)
    if created is None or player not in created["data"].get("players", []):
        return None
    summary = view.get("summary") or {}
    game_id = view.get("game", "")
    found = ROLES.get(game_id)
    return found(summary, player) if found else None


def kings_court_role(summary: Mapping[str, Any], player: str) -> dict[str, str] | None:
    game = summary.get("game")
    mine = ((summary.get("roles") or {}).get(str(game)) or {}).get(player)
    if mine is None:
        return None
    goals = {
        "king": "You win if, when you are voted into the court, it holds as many Dukes as "
                "Nobles; found before three others are in, you are punished and the game is "
                "dealt again.",
        "duke": "The Dukes win if, when the King is voted into the court, more Dukes than "
                "Nobles are in it: crowd the court with Dukes before the King is found.",
        "noble": "The Nobles win if, when the King is voted into the court, more Nobles than "
                 "Dukes are in it: crowd the court with Nobles before the King is found.",
    }
    named = "the King" if mine == "king" else f"a {readable(mine).title()}"
    return {"role": f"In game {game} you are {named}.",
            "goal": goals.get(mine, "")}


def merchants_guild_role(summary: Mapping[str, Any], player: str) -> dict[str, str] | None:
    houses = (summary.get("alignments") or {}).get(player)
    if not houses:
        return None
    houses = names([f"House {readable(h).title()}" for h in houses])
    return {"role": f"You are a contact of {houses}.",
            "goal": "After week 8 each house pays gold to its contacts: help your three houses "
                    "to the top, so you can pay the tax of 2 gold and are not the poorest; the "
                    "richest win, and backing the bills that pass earns a Token of Life."}


def amalgamation_role(summary: Mapping[str, Any], player: str) -> dict[str, str] | None:
    team = next((t for t, members in (summary.get("teams") or {}).items()
                 if player in members), None)
    said = f"In Kong's Dilemma you play for the {team} team." if team else \
        "You play four games at once with one purse of $400."
    return {"role": said,
            "goal": "Each round, split your money between the four games; after seven rounds "
                    "each game ranks the six players, and the most match points wins (the "
                    "fewest makes the Elimination Candidate). Money left at the end is worth "
                    "nothing."}


def totemic_might_role(summary: Mapping[str, Any], player: str) -> dict[str, str] | None:
    start = (summary.get("starting_totems") or {}).get(player)
    said = f"Your starting spirit totem is {start['totem']} (weight {start['weight']})." \
        if isinstance(start, Mapping) and start.get("totem") else \
        "You bid chips for trial copies of totems and weigh them in secret."
    return {"role": said,
            "goal": "Learn the totems' weights, so that in the final challenge you split them "
                    "into three groups of equal weight: the fewest failure marks wins, then "
                    "the highest score; every correct guess of your starting totem costs you "
                    "3 points."}


def tile_joust_role(summary: Mapping[str, Any], player: str) -> dict[str, str] | None:
    roles = summary.get("roles") or {}
    if summary.get("variant") == "death_match":
        said = ("You are the DMO: you start, and you win a tie on points."
                if roles.get("dmo") == player else
                "You are the Elimination Candidate sent to this Death Match: lose it and you "
                "leave the season.")
    elif roles.get("starter") == player:
        said = "You hold the Equaliser: you start, and you win a tie on points."
    else:
        said = "You play the Final Match against the holder of the Equaliser."
    return {"role": said,
            "goal": "Buy tiles without seeing their numbers, then joust with them: the side "
                    "whose tiles add up to more scores; the most points wins. Your chips are "
                    "worth nothing at the end."}


ROLES = {"kings_court": kings_court_role, "merchants_guild": merchants_guild_role,
         "amalgamation": amalgamation_role, "totemic_might": totemic_might_role,
         "tile_joust": tile_joust_role}
