"""COMMANDS: every command the rules accept from the players and the host (not the match's own),
with its arguments, as the API, the CLI's help and the pages' forms present them.

The rules still check every value with their own codes (player_commands, aftermath); these
declarations only say what may be sent. Every argument names players of the match.
"""

from __future__ import annotations

from domain.decider import Arg, CommandSpec

PLAYER, HOST = "player", "host"

TWO_OTHERS = Arg("list", items="player", max_items=2, label="two other players")

COMMANDS: dict[str, CommandSpec] = {
    "vote": CommandSpec(
        PLAYER,
        {"candidate": Arg("player", label="a player outside the court, not yourself")},
        label="Vote one player into the King's Court this round",
    ),
    "pair_check": CommandSpec(
        PLAYER,
        {"targets": TWO_OTHERS},
        label="The newest member asks the Judge whether two players share a team",
    ),
    "king_learn": CommandSpec(
        PLAYER,
        {"targets": TWO_OTHERS},
        label="The King's opening look (round 1): the Judge names two players' roles",
    ),
    "tiebreak": CommandSpec(
        PLAYER,
        {"choice": Arg("player", label="one of the tied players, never the King himself")},
        label="The King picks which tied player joins the court",
    ),
    "peek": CommandSpec(
        PLAYER,
        {"target": Arg("player", label="another player")},
        label="Pay 8 garnets: the Judge names one player's role",
    ),
    "annoyed_check": CommandSpec(
        PLAYER, {}, label="Pay 3 garnets: learn whether you have annoyed the Judge"
    ),
    "king_gift": CommandSpec(
        PLAYER,
        {
            "duke": Arg("player", label="a Duke to receive 1 ToL"),
            "noble": Arg("player", label="a Noble to receive 1 ToL"),
        },
        label="The winning King passes on 1 ToL to a Duke and 1 ToL to a Noble",
    ),
    "ec_vote": CommandSpec(
        PLAYER,
        {"candidate": Arg("player", label="one of the players tied for EC")},
        label="The winning party names the Elimination Candidate among the tied",
    ),
    "close_round": CommandSpec(HOST, {}, label="Close the election round: count the votes"),
    "close_tiebreak": CommandSpec(
        HOST, {}, label="Close the tie-break: the King's choice (or the default) joins"
    ),
    "close_king_gift": CommandSpec(
        HOST, {}, label="Close the King's gift: his choice, or the earliest elected of each team"
    ),
    "close_ec_vote": CommandSpec(
        HOST, {}, label="Close the EC vote: a party majority, else the fewest garnets"
    ),
    "record_deadlock_result": CommandSpec(
        HOST,
        {"ec": Arg("player", label="the player the deadlock coin made EC")},
        label="Record who lost the deadlock coin: the EC",
    ),
    "record_dmo": CommandSpec(
        HOST,
        {"dmo": Arg("player", label="the EC's Death Match opponent, a player other than the EC")},
        label="Record the DMO: the trade freeze ends and the match is over",
    ),
}
