"""The match told in words (narrate), the live standings (scoreboard) and what a viewer may send
now (forms). Pure functions of what the viewer was given: the entries they may see, or their
own summary; they read nothing else, so they tell nobody more than the rules let them see.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.decider import HOST, PUBLIC
from domain.games.merchants_guild import words
from domain.games.merchants_guild.command_specs import COMMANDS
from domain.games.merchants_guild.guild import BILL_NUMBERS, DIRECTIONS, HOUSES, RESOURCES
from domain.games.merchants_guild.settlement import rank_houses

Entry = Mapping[str, Any]
Data = Mapping[str, Any]


# -- narrate ------------------------------------------------------------------------------


@dataclass
class Submissions:
    """One player's submissions of a week as they stood: the last vote, the last free
    nomination and investigation, each decision's last value; paid ones each count."""

    vote: list[int] | None = None
    nomination: tuple[int, str] | None = None
    pushes: list[tuple[int, str]] = field(default_factory=list)
    lookups: list[int] = field(default_factory=list)
    investigation: tuple[str, list[str]] | None = None
    extras: list[tuple[str, list[str]]] = field(default_factory=list)
    decisions: dict[str, bool] = field(default_factory=dict)

    def told(self, who: str) -> list[str]:
        lines = []
        if self.vote is not None:
            lines.append(f"{who} voted for {words.bills(self.vote)}." if self.vote
                         else f"{who} withdrew {'your' if who == 'You' else 'their'} votes.")
        if self.nomination is not None:
            bill, direction = self.nomination
            lines.append(f"{who} nominated bill {bill} {direction} (free).")
        lines += [f"{who} paid 1 garnet to push bill {bill} {direction}."
                  for bill, direction in self.pushes]
        lines += [f"{who} paid 1 garnet to ask for the partner of bill {bill}."
                  for bill in self.lookups]
        if self.investigation is not None:
            target, named = self.investigation
            lines.append(f"{who} investigated {target}, naming {words.houses(named)}.")
        lines += [f"{who} paid 5 garnets to investigate {target} too, naming "
                  f"{words.houses(named)}." for target, named in self.extras]
        lines += [f"{who} decided to {'go through with' if proceed else 'drop'} blackmailing "
                  f"{target}." for target, proceed in self.decisions.items()]
        return lines


@dataclass
class Chapter:
    round: int
    lines: list[str] = field(default_factory=list)
    submitted: dict[str, Submissions] = field(default_factory=dict)  # by player
    closed: bool = False
    settled: bool = False

    def of(self, player: str) -> Submissions:
        return self.submitted.setdefault(player, Submissions())


@dataclass
class Telling:
    """What the story keeps between entries: the seat order, the ballots, the chapters."""

    viewer: str
    players: list[str] = field(default_factory=list)
    ballots: dict[int, list[list[int]]] = field(default_factory=dict)
    chapters: list[Chapter] = field(default_factory=list)

    def chapter(self, round: int) -> Chapter:
        if not self.chapters or self.chapters[-1].round != round:
            if self.chapters:
                self.tell_submissions(self.chapters[-1])
            self.chapters.append(Chapter(round))
        return self.chapters[-1]

    def tell_submissions(self, chapter: Chapter) -> None:
        """A player hears their own submissions, as they stood, when the week closes (or so
        far, while it is open). The host is told everyone's at the close, so hears these only
        while the week is open."""
        if self.host and chapter.closed:
            chapter.submitted.clear()
        for player in self.seated(chapter.submitted):
            who = "You" if player == self.viewer else player
            chapter.lines += chapter.submitted.pop(player).told(who)

    def seated(self, players: Iterable[str]) -> list[str]:
        players = list(players)
        order = [p for p in self.players if p in players]
        return order + [p for p in players if p not in order]

    @property
    def host(self) -> bool:
        return self.viewer == HOST


def narrate(events: Sequence[Entry], viewer: str) -> list[dict[str, Any]]:
    """One chapter per round with something to tell: round 0 the opening, round w week w (its
    close included), the settlement in week 8's chapter. The match's own entries tell nothing
    (the framework tells the creation, the opening and the end); the creation gives the seat
    order."""
    telling = Telling(viewer)
    for entry in events:
        if entry["kind"] == "MatchCreated":
            telling.players = list(entry["data"]["players"])
        teller = TELLERS.get(entry["kind"])
        if teller is None:
            continue
        chapter = telling.chapter(entry["round"])
        teller(telling, chapter, entry["data"])
    if telling.chapters:
        telling.tell_submissions(telling.chapters[-1])
    return [{"round": c.round, "title": title(c), "lines": c.lines}
            for c in telling.chapters if c.lines]


def title(chapter: Chapter) -> str:
    if chapter.round == 0:
        return "The opening"
    if chapter.settled:
        return f"Week {chapter.round} and the settlement"
    return f"Week {chapter.round}"


# The opening


def tell_secrets(telling: Telling, chapter: Chapter, data: Data) -> None:
    drawn = data["derived"]
    chapter.lines.append("Hidden setup: " + (f"{' and '.join(drawn)} drawn from the seed"
                                            if drawn else "all given by the host") + ".")
    chapter.lines += words.wrapped("The hidden pairs: ", words.pairs(data["pairs"]))
    chapter.lines += alignments_told(telling, data["alignments"])


def alignments_told(telling: Telling, alignments: Mapping[str, list[str]]) -> list[str]:
    return words.wrapped("Each player's houses: ", [
        f"{player} {'-'.join(words.house(h) for h in alignments[player])}"
        for player in telling.seated(alignments)], "; ")


def tell_opening(telling: Telling, chapter: Chapter, data: Data) -> None:
    chapter.lines.append(f"The guild opens with {len(data['bills'])} bills, every effect public; "
                         "the pairs are hidden.")
    chapter.lines.append("Five houses, each with 1 forge, 1 ship and 1 market: " + ", ".join(
        f"{words.house(h)} ({words.GEMS[h]})" for h in HOUSES) + ".")


def tell_alignment(telling: Telling, chapter: Chapter, data: Data) -> None:
    if telling.host:
        return  # told whole with the hidden setup
    chapter.lines.append(f"Your houses: {words.houses(data['houses'])}.")


def tell_selection(telling: Telling, chapter: Chapter, data: Data) -> None:
    chosen = ", ".join(f"{lead} (with {mate})" for lead, mate in data["selection"])
    chapter.lines.append(f"Week {data['week']}'s ballot was chosen in the order {chosen}.")


def tell_ballot(telling: Telling, chapter: Chapter, data: Data) -> None:
    telling.ballots[data["week"]] = [list(pair) for pair in data["pairs"]]
    pairs = ", ".join(f"{low} against {high}" for low, high in data["pairs"])
    chapter.lines.append(f"Week {data['week']}'s ballot: {pairs}.")


# The players' submissions: a receipt reaches only its sender (and the host)


def gathered(gather: Callable[[Submissions, Data], None]) -> Callable[[Telling, Chapter, Data],
                                                                     None]:
    def tell(telling: Telling, chapter: Chapter, data: Data) -> None:
        gather(chapter.of(data["player"]), data)

    return tell


def gather_vote(submissions: Submissions, data: Data) -> None:
    submissions.vote = list(data["bills"])


def gather_nomination(submissions: Submissions, data: Data) -> None:
    choice = (data["bill"], data["direction"])
    if data["paid"]:
        submissions.pushes.append(choice)
    else:
        submissions.nomination = choice


def gather_lookup(submissions: Submissions, data: Data) -> None:
    submissions.lookups.append(data["bill"])


def gather_investigation(submissions: Submissions, data: Data) -> None:
    asked = (data["target"], list(data["houses"]))
    if data["extra"]:
        submissions.extras.append(asked)
    else:
        submissions.investigation = asked


def gather_decision(submissions: Submissions, data: Data) -> None:
    submissions.decisions[data["target"]] = data["proceed"]


# A week's close


def tell_week(telling: Telling, chapter: Chapter, data: Data) -> None:
    chapter.closed = True
    telling.tell_submissions(chapter)
    counts = {entry["bill"]: entry["votes"] for entry in data["vote_counts"]}
    passed = set(data["passed"])
    for low, high in telling.ballots.get(data["week"], []):
        chapter.lines.append(pair_result(low, high, counts, passed))
    chapter.lines.append("Houses now (forges/ships/markets): "
                         f"{words.house_state(data['houses'])}.")


def pair_result(low: int, high: int, counts: Mapping[int, int], passed: set[int]) -> str:
    score = f"{counts[low]}-{counts[high]}"
    if low in passed and high in passed:
        return f"Bills {low} and {high} both pass, {score}."
    if low in passed or high in passed:
        winner, loser = (low, high) if low in passed else (high, low)
        return f"Bill {winner} passes {counts[winner]}-{counts[loser]} over bill {loser}."
    return f"Bills {low} and {high} are both rejected, {score}."


def tell_votes(telling: Telling, chapter: Chapter, data: Data) -> None:
    players = telling.seated(data["votes"])
    chapter.lines += words.wrapped("Votes: ", [
        f"{player} {words.bills(data['votes'][player])}" for player in players], "; ")
    chapter.lines += words.wrapped("Votes on passed bills: ", [
        f"{player} {data['passes'][player]}" for player in players])


def tell_partners(telling: Telling, chapter: Chapter, data: Data) -> None:
    who = "You learn" if not telling.host else f"{data['player']} learns"
    chapter.lines += [f"{who} that bill {answer['bill']}'s partner is bill {answer['partner']}."
                      for answer in data["answers"]]


def tell_investigations(telling: Telling, chapter: Chapter, data: Data) -> None:
    whose = "Your" if not telling.host else f"{data['player']}'s"
    who = "you" if not telling.host else data["player"]
    for result in data["results"]:
        kind = "extra investigation" if result["kind"] == "extra" else "investigation"
        found = result["matched"]
        if result["blackmail_right"]:
            verdict = f"all three match: {who} may blackmail {result['target']} next week"
        elif len(found) == 1:
            verdict = f"only {words.house(found[0])} matches"
        else:
            verdict = f"{words.listed(words.house(h) for h in found)} match"
        chapter.lines.append(f"{whose} {kind} of {result['target']} "
                             f"({words.houses(result['named'])}): {verdict}.")


def tell_register(telling: Telling, chapter: Chapter, data: Data) -> None:
    chapter.lines += words.wrapped("Blackmail decisions: ", [
        f"{d['blackmailer']} on {d['target']} {'goes ahead' if d['proceed'] else 'drops it'}"
        for d in data["decisions"]] or ["none"], "; ")


def tell_blackmailers(telling: Telling, chapter: Chapter, data: Data) -> None:
    blackmailers = data["blackmailers"]
    if not blackmailers:
        return
    whom = "you" if not telling.host else data["target"]
    verb = "is" if len(blackmailers) == 1 else "are"
    chapter.lines.append(f"{words.names(blackmailers)} {verb} blackmailing {whom}: at the "
                         "settlement each gets a gold if the gold from houses covers them all.")


def tell_priorities(telling: Telling, chapter: Chapter, data: Data) -> None:
    chapter.lines += words.wrapped("Nominations: ", [
        f"{n['player']} {n['bill']} {n['direction']}{' (paid)' if n['paid'] else ''}"
        for n in data["nominations"]] or ["none"], "; ")
    chapter.lines += words.wrapped("Priorities now: ", [
        f"{p['bill']} {words.signed(p['priority'])}" for p in data["priorities"]] or ["all 0"])


# The settlement


def tell_settlement(telling: Telling, chapter: Chapter, data: Data) -> None:
    chapter.settled = True
    lines = chapter.lines
    lines += words.wrapped("The houses are ranked: ", [
        f"{words.ordinal(h['rank'])} {words.house(h['house'])} {words.resources(h)} "
        f"({h['total']})" for h in data["ranking"]])
    lines += words.wrapped("Gold to each contact: ", [
        f"{words.house(h['house'])} {h['gold_per_contact']}" for h in data["ranking"]])
    lines += alignments_told(telling, data["alignments"])
    for entry in data["blackmails"]:
        if not entry["paid"]:
            count = len(entry["blackmailers"])
            lines.append(f"{entry['target']} cannot pay {count} blackmailer"
                         f"{'s' if count > 1 else ''} ({words.names(entry['blackmailers'])}) "
                         "and pays nobody.")
    lines += [f"{t['from']} pays {t['amount']} gold to {t['to']} (blackmail)."
              for t in data["transfers"]]
    lines += [gold_line(row) for row in data["gold"]]
    lines.append(losers_line(data))
    lines.append(most_gold_line(data))
    if not any(award["reason"] == "bills" for award in data["awards"]):
        lines.append("No single tax payer holds a best count of votes on passed bills: "
                     "nobody gets the bills Token of Life.")
    lines.append(ranks_line(data))
    lines += words.wrapped("Never presented: ", [str(b) for b in data["never_presented"]])
    lines += words.wrapped("The hidden pairs were: ", words.pairs(data["pairing"]))


def gold_line(row: Data) -> str:
    told = [f"{row['player']}: {row['gold_from_houses']} gold from houses"]
    if row["blackmail_received"]:
        told.append(f"{row['blackmail_received']} from blackmail")
    if row["blackmail_paid"]:
        told.append(f"{row['blackmail_paid']} paid in blackmail")
    if row["paid_tax"]:
        told.append("pays the tax")
    else:
        told.append(f"cannot pay the tax (hands over {row['tax_taken']})")
    return ", ".join(told) + f", {row['gold_after_tax']} left."


def losers_line(data: Data) -> str:
    losers = data["losers"]
    if data["outcome"] == "non_payers":
        return (f"{words.names(losers)} could not pay the tax and "
                f"{'loses' if len(losers) == 1 else 'lose'}: Elimination Candidate"
                f"{'s' if len(losers) > 1 else ''}.")
    if data["outcome"] == "least_gold":
        return (f"{words.names(losers)} {'has' if len(losers) == 1 else 'share'} the least gold "
                f"and {'loses' if len(losers) == 1 else 'lose'}: Elimination Candidate"
                f"{'s' if len(losers) > 1 else ''}.")
    if losers:
        return "All ten have the same gold: all ten lose (Elimination Candidates), nobody wins."
    return "All ten have the same gold: nobody loses."


def most_gold_line(data: Data) -> str:
    richest = [a["player"] for a in data["awards"] if a["reason"] == "most_gold"]
    left = {row["player"]: row["gold_after_tax"] for row in data["gold"]}
    if len(richest) == 1:
        return f"{richest[0]} alone has the most gold ({left[richest[0]]}): 2 Tokens of Life."
    if richest:
        return (f"{words.names(richest)} share the most gold ({left[richest[0]]}): "
                "1 Token of Life each.")
    payers = [row for row in data["gold"] if row["paid_tax"]]
    if not payers:
        return "Nobody paid the tax: no Token of Life for the most gold."
    most = max(row["gold_after_tax"] for row in payers)
    tied = sum(row["gold_after_tax"] == most for row in payers)
    return f"{tied} players share the most gold ({most}), more than 6: no Token of Life for it."


def ranks_line(data: Data) -> str:
    winners, losers = data["winners"], data["losers"]
    told = []
    if winners:
        told.append(f"{words.names(winners)} {'wins' if len(winners) == 1 else 'win'} (rank 1)")
    if losers:
        told.append(f"{words.names(losers)} {'loses' if len(losers) == 1 else 'lose'} (rank 3)")
    if len(winners) + len(losers) < len(data["gold"]):
        told.append(f"{'everyone else' if told else 'everyone'} ranks 2")
    return ("Result: " + "; ".join(told) + ". No Opals or Marks of Excellence in this game.")


def tell_gains(telling: Telling, chapter: Chapter, data: Data) -> None:
    chapter.lines += words.wrapped("Garnets from gold: ", [
        f"{g['player']} {words.signed(g['amount'])}" for g in data["gains"]])


def tell_award(telling: Telling, chapter: Chapter, data: Data) -> None:
    """The most-gold awards are told with the settlement; the bills award names its count."""
    if data["reason"] == "bills":
        chapter.lines.append(f"{data['player']} voted for {data['pass_count']} bills that "
                             "passed, the best count no one shares: 1 Token of Life.")


def tell_totals(telling: Telling, chapter: Chapter, data: Data) -> None:
    whose = "Your" if not telling.host else f"{data['player']}'s"
    chapter.lines.append(
        f"{whose} votes on passed bills: {data['pass_count']}; garnets spent "
        f"{data['garnets_spent']}, gained {data['garnets_gained']}, change "
        f"{words.signed(data['garnet_delta'])}, balance {data['final_balance']}.")


TELLERS: dict[str, Callable[[Telling, Chapter, Data], None]] = {
    "SecretsDrawn": tell_secrets,
    "BallotSelected": tell_selection,
    "GuildOpened": tell_opening,
    "BallotPublished": tell_ballot,
    "AlignmentDisclosed": tell_alignment,
    "VoteCast": gathered(gather_vote),
    "PriorityNominated": gathered(gather_nomination),
    "PartnerLookupRequested": gathered(gather_lookup),
    "InvestigationSubmitted": gathered(gather_investigation),
    "BlackmailDecided": gathered(gather_decision),
    "WeekResolved": tell_week,
    "VotesRecorded": tell_votes,
    "PartnersRevealed": tell_partners,
    "InvestigationResults": tell_investigations,
    "BlackmailRegistered": tell_register,
    "BlackmailNotified": tell_blackmailers,
    "PrioritiesUpdated": tell_priorities,
    "MatchSettled": tell_settlement,
    "GarnetsGained": tell_gains,
    "ToLAwarded": tell_award,
    "TotalsDisclosed": tell_totals,
}


# -- scoreboard ---------------------------------------------------------------------------


def scoreboard(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The houses ranked as they stand (the settlement's order), and once settled, every
    player's gold and result. None before the opening."""
    settled = view["settlement"]
    if settled:
        return settlement_board(settled)
    if not view["houses"]:
        return None
    listing = words_listing(view["houses"])
    ranks = rank_houses(listing)
    order = sorted(HOUSES, key=lambda h: (ranks[h], HOUSES.index(h)))
    week = len(view["weeks"])
    return {
        "title": f"The houses after week {week}" if week else "The houses at the opening",
        "columns": ["Rank", "House", "Forges", "Ships", "Markets", "Total"],
        "rows": [[ranks[h], words.house(h), *(listing[h][r] for r in RESOURCES),
                  sum(listing[h].values())] for h in order],
    }


def words_listing(entries: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    return {e["house"]: {r: e[r] for r in RESOURCES} for e in entries}


def settlement_board(settled: Mapping[str, Any]) -> dict[str, Any]:
    tols: dict[str, int] = {}
    for award in settled["awards"]:
        tols[award["player"]] = tols.get(award["player"], 0) + award["count"]
    return {
        "title": "The settlement",
        "columns": ["Player", "Houses", "From houses", "Blackmail", "After tax", "Result", "ToL"],
        "rows": [[row["player"], "-".join(words.house(h) for h in row["houses"]),
                  row["gold_from_houses"],
                  words.signed(row["blackmail_received"] - row["blackmail_paid"]),
                  row["gold_after_tax"], result(settled, row["player"]),
                  tols.get(row["player"], 0)] for row in settled["gold"]],
    }


def result(settled: Mapping[str, Any], player: str) -> str:
    if player in settled["winners"]:
        return "wins"
    return "loses" if player in settled["losers"] else ""


# -- forms --------------------------------------------------------------------------------

PLAYER_PHASES = {
    "week": ("vote", "nominate", "paid_push", "reveal_partner"),
    "investigation_week": ("vote", "nominate", "paid_push", "reveal_partner", "investigate",
                           "extra_investigate"),
    "blackmail_week": ("vote", "nominate", "paid_push", "reveal_partner", "blackmail"),
    "final_week": ("vote",),
}


def forms(view: Mapping[str, Any], viewer: str) -> list[dict[str, Any]]:
    """What the viewer may send in the phase their summary shows; nothing for the public."""
    phase = view["phase"]
    if viewer == PUBLIC or phase not in PLAYER_PHASES:
        return []
    if viewer == HOST:
        return [form("close_week", {})]
    offered = []
    for name in PLAYER_PHASES[phase]:
        choices = CHOICES[name](view, viewer)
        if choices is not None:
            offered.append(form(name, choices))
    return offered


def form(name: str, choices: Mapping[str, list[Any] | None]) -> dict[str, Any]:
    spec = COMMANDS[name]
    return {"command": name, "label": spec.label, "fields": [
        {"name": arg, "kind": declared.kind, "label": declared.label,
         "required": declared.required, "choices": choices.get(arg)}
        for arg, declared in spec.args.items()]}


def presented(view: Mapping[str, Any]) -> set[int]:
    bills = {entry["bill"] for week in view["weeks"] for entry in week["vote_counts"]}
    return bills | {bill for pair in view["ballot"] for bill in pair}


def this_weeks(view: Mapping[str, Any], viewer: str, kind: str) -> list[Mapping[str, Any]]:
    return [r for r in view["receipts"]
            if r["kind"] == kind and r["week"] == view["week"] and r["player"] == viewer]


def vote_choices(view: Data, viewer: str) -> dict[str, Any]:
    return {"bills": sorted(bill for pair in view["ballot"] for bill in pair)}


def nominate_choices(view: Data, viewer: str) -> dict[str, Any]:
    open_bills = [b for b in BILL_NUMBERS if b not in presented(view)]
    return {"bill": open_bills, "direction": list(DIRECTIONS)}


def push_choices(view: Data, viewer: str) -> dict[str, Any] | None:
    if any(r["paid"] for r in this_weeks(view, viewer, "nomination")):
        return None  # one paid push a week
    return nominate_choices(view, viewer)


def lookup_choices(view: Data, viewer: str) -> dict[str, Any]:
    known = {bill for pair in view["pairs"] for bill in pair} | presented(view)
    known |= {r["bill"] for r in this_weeks(view, viewer, "partner_lookup")}
    return {"bill": [b for b in BILL_NUMBERS if b not in known]}


def others(view: Data, viewer: str) -> list[str] | None:
    return [p for p in view["players"] if p != viewer] or None


def investigate_choices(view: Data, viewer: str) -> dict[str, Any]:
    extras = {r["target"] for r in this_weeks(view, viewer, "investigation") if r["extra"]}
    targets = others(view, viewer)
    return {"target": targets and [t for t in targets if t not in extras],
            "houses": list(HOUSES)}


def extra_choices(view: Data, viewer: str) -> dict[str, Any] | None:
    mine = this_weeks(view, viewer, "investigation")
    if any(r["extra"] for r in mine):
        return None  # the one extra investigation is bought
    free = [r["target"] for r in mine if not r["extra"]][-1:]
    targets = others(view, viewer)
    return {"target": targets and [t for t in targets if t not in free],
            "houses": list(HOUSES)}


def blackmail_choices(view: Data, viewer: str) -> dict[str, Any] | None:
    caught = [r["target"] for r in view["investigation_results"]
              if r["player"] == viewer and r["blackmail_right"]]
    return {"target": caught, "proceed": [True, False]} if caught else None


CHOICES: dict[str, Callable[[Mapping[str, Any], str], dict[str, Any] | None]] = {
    "vote": vote_choices,
    "nominate": nominate_choices,
    "paid_push": push_choices,
    "reveal_partner": lookup_choices,
    "investigate": investigate_choices,
    "extra_investigate": extra_choices,
    "blackmail": blackmail_choices,
}


# the host's words: the phase open now, who it waits on, what its close does

PHASES = {
    "configured": "waiting for the opening",
    "week": "an ordinary week",
    "investigation_week": "the investigation week",
    "blackmail_week": "the blackmail week",
    "final_week": "the final week",
    "over": "over",
    "abandoned": "ended early",
}
OPEN_WEEKS = ("week", "investigation_week", "blackmail_week", "final_week")


def acting(view: Mapping[str, Any]) -> list[str]:
    """Every player may act in every week (MG-R37)."""
    return list(view["players"]) if view["phase"] in OPEN_WEEKS else []


def on_close(view: Mapping[str, Any], waiting: Sequence[str]) -> str | None:
    """What `close_week` does now, in a sentence (the page asks before it is sent)."""
    if view["phase"] not in OPEN_WEEKS:
        return None
    voted = view["votes"].get(str(view["week"]), {})
    missing = [player for player in view["players"] if player not in voted]
    then = ("the settlement runs and the match is over" if view["phase"] == "final_week"
            else "the week's bills are decided and next week's ballot is published")
    if not missing:
        return f"Everyone has voted in week {view['week']}: {then}."
    return (f"{len(missing)} player{'s have' if len(missing) != 1 else ' has'} not voted in week "
            f"{view['week']} and cast{'' if len(missing) != 1 else 's'} no votes (nobody loses "
            f"a garnet); {then}.")
