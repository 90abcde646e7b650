"""COMMANDS: every command `decide` answers, its arguments and what it does, in the guild's words
(rulebook §5). The framework draws the HTTP schema, the CLI's help and the pages' forms from it;
the rules still check every value with their own codes."""

from __future__ import annotations

from domain.decider import Arg, CommandSpec
from domain.games.merchants_guild.guild import BILL_NUMBERS, INVESTIGATED_HOUSES, VOTES_PER_WEEK

BILL = Arg("int", label="a bill number, 1 to 60", minimum=BILL_NUMBERS[0],
           maximum=BILL_NUMBERS[-1])
DIRECTION = Arg("text", label="forward (priority +1) or back (priority -1)")
TARGET = Arg("player", label="another player")
HOUSES_NAMED = Arg("list", items="text", max_items=INVESTIGATED_HOUSES,
                   label="three different houses: red, green, blue, black, white")

COMMANDS: dict[str, CommandSpec] = {
    "vote": CommandSpec("player", {
        "bills": Arg("list", items="int", max_items=VOTES_PER_WEEK,
                     label="the ballot bills you vote for, at most two (none withdraws)"),
    }, "Vote for up to two bills on this week's ballot"),
    "nominate": CommandSpec("player", {"bill": BILL, "direction": DIRECTION},
                            "Push a bill forward or hold it back for the coming ballots (free)"),
    "paid_push": CommandSpec("player", {"bill": BILL, "direction": DIRECTION},
                             "Pay 1 garnet to move a bill's priority once more this week"),
    "reveal_partner": CommandSpec("player", {"bill": BILL},
                                  "Pay 1 garnet to learn a bill's hidden partner at the close"),
    "investigate": CommandSpec("player", {"target": TARGET, "houses": HOUSES_NAMED},
                               "Week 4: name three houses and learn which are the target's"),
    "extra_investigate": CommandSpec("player", {"target": TARGET, "houses": HOUSES_NAMED},
                                     "Week 4: pay 5 garnets to investigate one more player"),
    "blackmail": CommandSpec("player", {
        "target": Arg("player", label="a player whose three houses you named in week 4"),
        "proceed": Arg("bool", label="go through with the blackmail (true) or not (false)"),
    }, "Week 5: decide whether to blackmail a player you caught out"),
    "close_week": CommandSpec("host", {},
                              "Close the week: count the votes, apply the bills, open the next"),
}
