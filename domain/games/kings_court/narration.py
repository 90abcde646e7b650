"""The Teller behind `narrate`: one walk over a viewer's entries, a chapter per match round.

A player's story tells what they alone were told in the second person; the host's tells every
secret. A line that names a role speaks of one player, or lists one team, so that no line puts
a player beside a role that is not theirs to be told.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import groupby
from typing import Any

from domain.decider import HOST, PUBLIC

Shown = Mapping[str, Any]
Data = Mapping[str, Any]
Chapter = dict[str, Any]

LINE_LIMIT = 190  # characters: every line stays under the framework's 200
ROLE_NAMES = {"king": "the King", "duke": "a Duke", "noble": "a Noble"}
TEAMS = {"king": "The King wins", "dukes": "The Dukes win", "nobles": "The Nobles win"}
SOURCES = {
    "explicit": "the host's explicit pick",
    "seed": "the seeded draw",
    "seat_order": "seat order",
}
DECIDED_BY = {
    "lowest_score": "the lowest EC score",
    "party_vote": "the winning party's vote",
    "garnets": "the fewest garnets",
    "deadlock_coin": "the deadlock coin",
}


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def listed(names: Sequence[str]) -> str:
    """a, b and c"""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def wrapped(head: str, items: Iterable[str], tail: str = ".") -> list[str]:
    """`head`, then the items comma-separated, over as many lines as the limit needs; a line
    that goes on with the one before it begins with two spaces (projections/story.bullets)."""
    lines: list[str] = []
    current, empty = head, True
    for item in items:
        if not empty and len(current) + 2 + len(item) + len(tail) > LINE_LIMIT:
            lines.append(current + ",")
            current, empty = "  ", True
        current += item if empty else f", {item}"
        empty = False
    lines.append(current + tail)
    return lines


def team_of(roles: Mapping[str, str], role: str) -> list[str]:
    return [player for player, has in roles.items() if has == role]


class Teller:
    def __init__(self, viewer: str) -> None:
        self.viewer = viewer
        self.chapters: dict[int, Chapter] = {}
        self.opened: dict[int, tuple[int, int]] = {}  # match round -> (game, election round)
        self.game = 0
        self.last_counts: Mapping[str, int] = {}
        self.king: str | None = None  # the King of the game that ended normally
        self.early_kings: list[str] = []
        self.death_match: list[str] = []
        self.seats: list[str] = []  # every player in seat order, once a game ends normally
        self.party: list[str] = []
        self.winner: str | None = None
        self.opal: str | None = None
        self.tol: dict[str, int] = {}
        self.ec: str | None = None
        self.dmo: str | None = None
        self.garnets: dict[str, int] = {}  # what the told events moved, per player

    def tell(self, shown: Sequence[Shown]) -> list[Chapter]:
        own = [entry for entry in shown if entry["kind"] in TELLERS]
        for match_round, in_round in groupby(own, key=lambda entry: entry["round"]):
            for kind, run in groupby(in_round, key=lambda entry: entry["kind"]):
                told = TELLERS[kind](self, [entry["data"] for entry in run])
                self.chapter(match_round).extend(told)
        if self.chapters and (self.winner or self.death_match):
            self.chapter(max(self.chapters)).extend(self.results())
        return [self.chapters[n] for n in sorted(self.chapters) if self.chapters[n]["lines"]]

    def chapter(self, match_round: int) -> list[str]:
        if match_round not in self.chapters:
            self.chapters[match_round] = {
                "round": match_round,
                "title": self.title(match_round),
                "lines": [],
            }
        lines: list[str] = self.chapters[match_round]["lines"]
        return lines

    def title(self, match_round: int) -> str:
        if match_round == 0:
            return "The opening"
        if match_round in self.opened:
            game, election = self.opened[match_round]
            return f"Round {match_round}: game {game}, election round {election}"
        return f"Round {match_round}: after game {self.game}"

    def you(self, player: str) -> bool:
        return player == self.viewer

    def who(self, player: str) -> str:
        return "You" if self.you(player) else player

    def moved(self, player: str, amount: int) -> None:
        self.garnets[player] = self.garnets.get(player, 0) + amount

    # A game starts

    def game_started(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            self.game = data["game"]
            if data["game"] == 1:
                told.append("Game 1 begins: each player is told their own role, in secret.")
            else:
                told += wrapped(
                    f"Game {data['game']} begins at once with new roles; never King again: ",
                    data["previous_kings"],
                )
        return told

    def roles_drawn(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            roles = data["roles"]
            told += [
                f"The roles of game {data['game']} are dealt, sealed.",
                f"King: {team_of(roles, 'king')[0]}.",
                *wrapped("Dukes: ", team_of(roles, "duke")),
                *wrapped("Nobles: ", team_of(roles, "noble")),
                f"Annoyed Duke: {data['annoyed_duke']}.",
                f"Annoyed Noble: {data['annoyed_noble']}.",
            ]
        return told

    def lists_drawn(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            lists = [f"{owner}: {' '.join(names)}" for owner, names in data["lists"].items()]
            told += wrapped(f"The Judge's name lists of game {data['game']}: ", lists)
        return told

    def role_disclosed(self, datas: list[Data]) -> list[str]:
        return [
            f"In game {data['game']} you are {ROLE_NAMES[data['role']]}."
            for data in datas
            if self.you(data["player"])
        ]

    def round_opened(self, datas: list[Data]) -> list[str]:
        for data in datas:
            self.opened[data["match_round"]] = (data["game"], data["round"])
        return []

    # What players send

    def vote_cast(self, datas: list[Data]) -> list[str]:
        mine = [f"You voted for {data['candidate']}." for data in datas if self.you(data["voter"])]
        others = [
            f"{data['voter']} for {data['candidate']}"
            for data in datas
            if not self.you(data["voter"])
        ]
        return mine + (wrapped("Secret votes: ", others) if others else [])

    def pair_check_submitted(self, datas: list[Data]) -> list[str]:
        return [
            f"{self.who(data['checker'])} asked the Judge about {listed(data['targets'])}."
            for data in datas
        ]

    def king_look_answered(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            whose = "Your" if self.you(data["king"]) else f"{data['king']}'s"
            told.append(f"{whose} opening look as the King:")
            told += [
                f"The Judge says {target} is {ROLE_NAMES[role]}."
                for target, role in zip(data["targets"], data["roles_shown"], strict=True)
            ]
        return told

    def peek_answered(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            self.moved(data["peeker"], -data["price"])
            told += [
                f"{self.who(data['peeker'])} paid {data['price']} garnets to peek at "
                f"{data['target']}.",
                f"The Judge says {data['target']} is {ROLE_NAMES[data['role_shown']]}.",
            ]
        return told

    def annoyed_check_answered(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            player = data["player"]
            self.moved(player, -data["price"])
            subject = "you have" if self.you(player) else f"{player} has"
            verdict = "annoyed" if data["annoyed"] else "not annoyed"
            told.append(
                f"{self.who(player)} paid {data['price']} garnets to ask the Judge: "
                f"{subject} {verdict} him."
            )
        return told

    # The King's own receipts reach only him and the host.

    def tiebreak_chosen(self, datas: list[Data]) -> list[str]:
        who = "The King" if self.viewer == HOST else "You"
        return [f"{who} chose {data['choice']} to break the tie." for data in datas]

    def king_gift_chosen(self, datas: list[Data]) -> list[str]:
        who, whose = ("The King", "his") if self.viewer == HOST else ("You", "your")
        return [
            f"{who} chose {data['duke']} and {data['noble']} for {whose} gift." for data in datas
        ]

    def ec_ballot_cast(self, datas: list[Data]) -> list[str]:
        return [f"{self.who(data['voter'])} named {data['candidate']} as EC." for data in datas]

    # Deadlines

    def pair_check_answered(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            first, second = data["targets"]
            whom = "you" if self.you(data["checker"]) else data["checker"]
            teams = "the same team" if data["result"] == "same" else "different teams"
            told.append(f"The Judge tells {whom}: {first} and {second} are on {teams}.")
        return told

    def missed_vote_penalised(self, datas: list[Data]) -> list[str]:
        told, others = [], []
        for data in datas:
            self.moved(data["player"], -data["amount"])
            amount = data["amount"]
            taken = f"{plural(amount, 'garnet')} taken" if amount else "nothing taken"
            if self.you(data["player"]):
                told.append(f"You missed the vote: {taken}.")
            else:
                others.append(f"{data['player']} ({taken})")
        return told + (wrapped("Missed the vote: ", others) if others else [])

    def votes_tallied(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            counts = data["counts"]
            self.last_counts = counts
            ranked = sorted(counts, key=lambda player: -counts[player])
            with_votes = [f"{player} {counts[player]}" for player in ranked if counts[player]]
            if with_votes:
                told += wrapped("Votes: ", with_votes, "; everyone else 0.")
            else:
                told.append("Nobody voted.")
            if data["tied"]:
                told += self.tie(counts[data["tied"][0]], data["tied"])
        return told

    def tie(self, top: int, tied: list[str]) -> list[str]:
        line = f"A tie at {top} between {listed(tied)}: a tie-break follows."
        if len(line) <= LINE_LIMIT:
            return [line]
        return wrapped(f"A tie at {top} between ", tied, ": a tie-break follows.")

    def tiebreak_resolved(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            if not data["defaulted"]:
                told.append(f"The tie-break is the King's own choice: {data['choice']}.")
                continue
            source = SOURCES[data["source"]]
            told.append(f"The King did not choose: the default picked {data['choice']} ({source}).")
            if data["skipped_pick"]:
                told.append(f"The explicit pick {data['skipped_pick']} was not eligible.")
        return told

    def member_joined(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            player, place = data["player"], ordinal(len(data["court"]))
            if data["via"] == "votes":
                how = f"with {plural(self.last_counts.get(player, 0), 'vote')}"
            elif data["via"] == "tiebreak":
                how = "through the tie-break"
            else:
                how = "as the last one outside, whom nobody can vote for"
            verdict = f"{player} is the King!" if data["is_king"] else "Not the King."
            told.append(f"{player} joins the court {place}, {how}. {verdict}")
        return told

    def list_name_released(self, datas: list[Data]) -> list[str]:
        mine = [
            f"The Judge whispers name {data['index']} of your list: {data['name']}."
            for data in datas
            if self.you(data["player"])
        ]
        others = [
            f"{data['player']} hears {data['name']}"
            for data in datas
            if not self.you(data["player"])
        ]
        if not others:
            return mine
        head = f"The Judge whispers name {datas[0]['index']} of each list: "
        return mine + wrapped(head, others)

    # A game ends

    def early_king_found(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            self.early_kings.append(data["king"])
            self.moved(data["king"], -data["garnets_taken"])
            told.append(
                f"{data['king']} was found too early: a MoE and "
                f"{plural(data['garnets_taken'], 'garnet')} lost."
            )
            if data["next_game"] is None:
                told.append("That was the fourth early King.")
        return told

    def main_match_ended(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            self.death_match = list(data["death_match"])
            told.append("The Main Match is over: no winner, no EC, no court.")
            told += wrapped("To the Death Match: ", self.death_match)
        return told

    def game_ended(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            roles = data["roles"]
            self.seats, self.winner, self.party = list(roles), data["winner"], list(data["party"])
            self.king, self.opal = team_of(roles, "king")[0], data["opal"]
            others = [member for member in data["court"] if member != self.king]
            told += [
                f"Game {data['game']} is over: {plural(data['dukes_in_court'], 'Duke')} and "
                f"{plural(data['nobles_in_court'], 'Noble')} in the court besides the King.",
                f"{TEAMS[data['winner']]}.",
                *wrapped("The court in joining order: ", others, f", then {self.king}."),
                "Every role is revealed.",
                f"King: {self.king}.",
                *wrapped("Dukes: ", team_of(roles, "duke")),
                *wrapped("Nobles: ", team_of(roles, "noble")),
                f"Annoyed Duke: {data['annoyed_duke']}.",
                f"Annoyed Noble: {data['annoyed_noble']}.",
            ]
            if self.opal:
                told.append(f"{self.opal} takes the Opal: the only winner outside the court.")
            scores = [
                f"{player} {score['votes']}+{score['bonus']}"
                for player, score in data["ec_scores"].items()
            ]
            told += wrapped("EC scores, votes + election bonus: ", scores)
            if len(data["ec_tied"]) > 1:
                told += wrapped("Tied for the lowest EC score: ", data["ec_tied"])
        return told

    def awards_granted(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            for player, prizes in data["awards"].items():
                self.tol[player] = self.tol.get(player, 0) + prizes["tol"]
                self.moved(player, prizes["garnets"])
            if self.winner == "king":
                prizes = data["awards"][self.king]
                told.append(
                    f"{self.king} wins {plural(prizes['tol'], 'Token')} of Life and "
                    f"{plural(prizes['garnets'], 'garnet')}."
                )
            else:
                told += wrapped("1 Token of Life and 2 garnets each for ", list(data["awards"]))
        return told

    def trade_freeze_started(self, datas: list[Data]) -> list[str]:
        return ["Garnet trades are frozen until the DMO is recorded."]

    def trade_freeze_ended(self, datas: list[Data]) -> list[str]:
        return ["Garnet trades are open again."]

    def king_gift_made(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            for player in (data["duke"], data["noble"]):
                self.tol[player] = self.tol.get(player, 0) + 1
            if self.king:
                self.tol[self.king] -= 2
            how = "by default" if data["defaulted"] else "his choice"
            told += [
                f"The King's gift ({how}): 1 Token of Life to {data['duke']}, a Duke.",
                f"The King's gift ({how}): 1 Token of Life to {data['noble']}, a Noble.",
                "The King keeps 1 of his 3 Tokens of Life.",
            ]
        return told

    def ballots(self, data: Data) -> list[str]:
        counts = [f"{player} {count}" for player, count in data["counts"].items()]
        needed = f"; {data['needed']} needed" if data["needed"] else ""
        return wrapped("The winning party's ballots: ", counts, f"{needed}.")

    def garnets_of_the_tied(self, data: Data, tail: str) -> list[str]:
        garnets = [f"{player} {count}" for player, count in data["garnets"].items()]
        return wrapped("No majority; garnets of the tied: ", garnets, tail)

    def deadlock_coin_opened(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            told += self.ballots(data)
            told += self.garnets_of_the_tied(data, ": still tied.")
            told += wrapped("A deadlock coin between ", data["candidates"], " decides the EC.")
        return told

    def ec_decided(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            self.ec = data["ec"]
            if data["decided_by"] in ("party_vote", "garnets"):
                told += self.ballots(data)
            if data["decided_by"] == "garnets":
                told += self.garnets_of_the_tied(data, ".")
            how = DECIDED_BY[data["decided_by"]]
            told.append(f"{data['ec']} is the Elimination Candidate, by {how}.")
        return told

    def dmo_recorded(self, datas: list[Data]) -> list[str]:
        told = []
        for data in datas:
            self.dmo = data["dmo"]
            told.append(f"{data['dmo']} is recorded as the DMO: {data['ec']}'s opponent.")
        return told

    # The last chapter

    def results(self) -> list[str]:
        told = ["The results."]
        if self.death_match:
            told.append("Ranked 1st: every player but the four Kings.")
            told += wrapped("Ranked 2nd, to the Death Match: ", self.death_match)
        else:
            told.append(f"{TEAMS[self.winner or 'king']}.")
            told += wrapped("Ranked 1st: ", self.party)
            middle = [p for p in self.seats if p not in self.party and p != self.ec]
            told += wrapped("Ranked 2nd: ", middle)
            if self.ec:
                told.append(f"Ranked 3rd: {self.ec}, the Elimination Candidate.")
            told += wrapped("Tokens of Life: ", [f"{p} {n}" for p, n in self.tol.items() if n])
            told.append(f"Opal: {self.opal or 'nobody'}.")
            told.append(f"EC: {self.ec or 'not decided'}. DMO: {self.dmo or 'not recorded'}.")
        if self.early_kings:
            told += wrapped("MoE: ", self.early_kings)
        if self.viewer not in (HOST, PUBLIC):
            mine = self.garnets.get(self.viewer, 0)
            told.append(f"Your garnets moved by {mine:+d} over the match.")
        else:
            moved = [f"{p} {n:+d}" for p, n in self.garnets.items() if n]
            told += wrapped("Garnets moved, as far as told here: ", moved or ["none"])
        return told


TELLERS: dict[str, Callable[[Teller, list[Data]], list[str]]] = {
    "GameStarted": Teller.game_started,
    "GameRolesDrawn": Teller.roles_drawn,
    "GameListsDrawn": Teller.lists_drawn,
    "RoleDisclosed": Teller.role_disclosed,
    "RoundOpened": Teller.round_opened,
    "VoteCast": Teller.vote_cast,
    "PairCheckSubmitted": Teller.pair_check_submitted,
    "KingLookAnswered": Teller.king_look_answered,
    "PeekAnswered": Teller.peek_answered,
    "AnnoyedCheckAnswered": Teller.annoyed_check_answered,
    "TiebreakChosen": Teller.tiebreak_chosen,
    "KingGiftChosen": Teller.king_gift_chosen,
    "EcBallotCast": Teller.ec_ballot_cast,
    "PairCheckAnswered": Teller.pair_check_answered,
    "MissedVotePenalised": Teller.missed_vote_penalised,
    "VotesTallied": Teller.votes_tallied,
    "TiebreakResolved": Teller.tiebreak_resolved,
    "MemberJoined": Teller.member_joined,
    "ListNameReleased": Teller.list_name_released,
    "EarlyKingFound": Teller.early_king_found,
    "MainMatchEnded": Teller.main_match_ended,
    "GameEnded": Teller.game_ended,
    "AwardsGranted": Teller.awards_granted,
    "TradeFreezeStarted": Teller.trade_freeze_started,
    "TradeFreezeEnded": Teller.trade_freeze_ended,
    "KingGiftMade": Teller.king_gift_made,
    "DeadlockCoinOpened": Teller.deadlock_coin_opened,
    "EcDecided": Teller.ec_decided,
    "DmoRecorded": Teller.dmo_recorded,
}
