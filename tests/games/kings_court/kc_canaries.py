"""What a viewer may not know, as canaries to look for in what they are shown.

Two kinds, both worked out from the sealed parts of the log the viewer may not open, less what
the parts they may open already tell them:

- words: every text value of a hidden part (a role as the data spells it, a tie-break's
  source, a seed, a posting's reason), looked for case-sensitively as a word;
- facts: what a hidden part says about players, as the words that would have to meet in one
  line (or sentence) to tell it: a player with a role or with "annoyed", a pair check's two
  targets with its answer, a voter "for" a candidate, a peeker with a target, a missed vote...

A line leaks a fact when it holds all of the fact's words (player ids exactly, other words
case-insensitively, plural allowed), unless it says the opposite ("not the King"); a phrase
fact leaks when the phrase appears.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from domain.decider import HOST, PUBLIC

Fact = frozenset[str] | str  # words that must meet, or a phrase


def readable(record: dict[str, Any], viewer: str) -> tuple[list[dict], list[dict]]:
    """(parts the viewer may read, parts they may not), each as {kind, actor, data, postings};
    a public entry's own content is a readable part, its sealed parts are judged one by one."""
    entry = record["entry"]
    mine: list[dict] = []
    others: list[dict] = []
    if entry["kind"] is not None:
        mine.append({"kind": entry["kind"], "actor": entry["actor"], "data": entry["public"],
                     "postings": entry["postings"]})
    for part in record["parts"]:
        audience = part["audience"]
        can = viewer == HOST or audience == PUBLIC or (
            isinstance(audience, list) and viewer in audience)
        (mine if can else others).append(part)
    return mine, others


def texts(value: Any, keys: bool = False) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, Mapping):
        found = set(value) if keys else set()
        for item in value.values():
            found |= texts(item, keys)
        return found
    if isinstance(value, list):
        return set().union(*(texts(item, keys) for item in value)) if value else set()
    return set()


def reasons(part: Mapping[str, Any]) -> set[str]:
    """Why a part moved season assets (the asset names themselves tell nothing)."""
    return {posting["reason"] for posting in part["postings"]}


def facts(part: Mapping[str, Any]) -> set[Fact]:
    kind, data, actor = part["kind"], part["data"], part["actor"]
    said: set[Fact] = set()

    def words(*items: str) -> None:
        said.add(frozenset(item for item in items))

    if kind in ("GameRolesDrawn", "GameEnded"):
        for player, role in data["roles"].items():
            words(player, role)
        words(data["annoyed_duke"], "annoyed")
        words(data["annoyed_noble"], "annoyed")
        if kind == "GameEnded":  # the Judge's swapped view follows from the reveal
            words(data["annoyed_duke"], "noble")
            words(data["annoyed_noble"], "duke")
    elif kind == "RoleDisclosed":
        words(data["player"], data["role"])
    elif kind == "MemberJoined" and data["is_king"]:
        words(data["player"], "king")
    elif kind == "EarlyKingFound":
        words(data["king"], "king")
    elif kind == "GameStarted":
        for king in data["previous_kings"]:
            words(king, "king")
    elif kind == "GameListsDrawn":
        for owner, names in data["lists"].items():
            for name in names:
                words(owner, name, "list")
                said.add(f"{owner} hears {name}")
    elif kind == "ListNameReleased":
        words(data["player"], data["name"], "list")
        said.add(f"{data['player']} hears {data['name']}")
    elif kind == "VoteCast":
        said.add(f"{data['voter']} for {data['candidate']}")
        said.add(f"{data['voter']} voted for {data['candidate']}")
    elif kind in ("PairCheckSubmitted", "PairCheckAnswered"):
        first, second = data["targets"]
        words(data["checker"], first, second, "judge")
        if kind == "PairCheckAnswered":
            words(first, second, data["result"])
    elif kind == "KingLookAnswered":
        words(data["king"], "look")
        for target, role in zip(data["targets"], data["roles_shown"], strict=True):
            words(target, role)
    elif kind == "PeekAnswered":
        words(data["peeker"], data["target"], "peek")
        words(data["peeker"], "paid")
        words(data["target"], data["role_shown"])
    elif kind == "AnnoyedCheckAnswered":
        words(data["player"], "paid")
        if data["annoyed"]:
            words(data["player"], "annoyed")
    elif kind == "MissedVotePenalised":
        words(data["player"], "missed")
    elif kind in ("TiebreakChosen", "TiebreakResolved"):
        words(data["choice"], "chose")
        said.add(f"default picked {data['choice']}")
    elif kind == "KingGiftChosen":
        words(data["duke"], data["noble"], "chose")
    elif kind == "EcBallotCast":
        said.add(f"{data['voter']} named {data['candidate']}")
    elif kind == "CommandAccepted" and data.get("name") == "vote":
        said.add(f"{actor} for {data['args'].get('candidate')}")
    return said


class Canaries:
    """The canaries of `records` for `viewer`."""

    def __init__(self, records: Iterable[dict[str, Any]], players: list[str], viewer: str,
                 known: Iterable[str] = ()):
        """`known`: words everyone knows anyway (the game's command names)."""
        seen_texts: set[str] = set(players) | set(known)
        hidden_texts: set[str] = set()
        seen_facts: set[Fact] = set()
        hidden_facts: set[Fact] = set()
        for record in records:
            mine, others = readable(record, viewer)
            for part in mine:
                seen_texts |= texts(part["data"], keys=True) | reasons(part)
                seen_facts |= facts(part)
            for part in others:
                hidden_texts |= texts(part["data"]) | reasons(part)
                hidden_facts |= facts(part)
        self.players = set(players)
        self.words = {text for text in hidden_texts - seen_texts if re.fullmatch(r"\w+", text)}
        self.facts = hidden_facts - seen_facts

    def leaks(self, units: Iterable[str]) -> list[tuple[str, Any]]:
        found = []
        for unit in units:
            tokens = re.findall(r"[\w]+", unit)
            exact = set(tokens)
            folded = {token.lower().removesuffix("s") for token in tokens} | {
                token.lower() for token in tokens}
            for word in self.words:
                if word in exact:
                    found.append((unit, word))
            lowered = unit.lower()
            for fact in self.facts:
                if not isinstance(fact, str) and "king" in fact and "not the king" in lowered:
                    continue  # "x joins: not the King" says the opposite (of this game)
                if isinstance(fact, str):
                    if fact.lower() in lowered:
                        found.append((unit, fact))
                elif all(
                    (word in exact) if word in self.players else (word.lower() in folded)
                    for word in fact
                ):
                    found.append((unit, sorted(fact)))
        return found
