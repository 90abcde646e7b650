"""COMMANDS: every command `decide` accepts, with its arguments (rules 4), for the HTTP schema,
the CLI's help and the pages' forms. The rules still check every value with their own codes.
`open_match` is the match's own command and is not listed."""

from __future__ import annotations

from domain.decider import Arg, CommandSpec
from domain.games.totemic_might.grid import TOTEMS
from domain.games.totemic_might.setup import SERIES_SIZE

SERIES = Arg("text", label="series A or B")
TOKENS = "piece tokens: S:<totem> spirit, T:<totem> trial copy, B:<id> balloon"
TRIAL_COPIES = "trial copies: T:<totem>, repeated for several copies"

COMMANDS: dict[str, CommandSpec] = {
    "place_bet": CommandSpec("player", {
        "series": SERIES,
        "amount": Arg("int", label="chips on that series, 1 to 10 (15 for A and B together)"),
    }, "Bet chips on series A or B of this round"),
    "set_pick_order": CommandSpec("player", {
        "series": SERIES,
        "order": Arg("list", items="text", max_items=SERIES_SIZE + 1,
                     label="the series' five totems and GARNET, best first"),
    }, "Rank the items of a series in the order you want them"),
    "choose_spirit_totem": CommandSpec("player", {
        "totem": Arg("text", label="a totem of the pool you were shown"),
    }, "Choose the spirit totem you are owed"),
    "weigh": CommandSpec("player", {
        "left": Arg("list", required=False, items="text", label=f"left pan: {TOKENS}"),
        "right": Arg("list", required=False, items="text", label=f"right pan: {TOKENS}"),
    }, "Weigh your pieces on the Balance of Souls"),
    "place_wager": CommandSpec("player", {
        "kind": Arg("text", label="snake, wolf, bear or fox"),
        "params": Arg("object", required=False,
                      label="the wager's letter, totems, fine and payment, if not given flat"),
        "letter": Arg("text", required=False, label="Snake: a letter from A to J"),
        "totems": Arg("list", required=False, items="text", max_items=len(TOTEMS),
                      label="Wolf 2 of different seasons, Bear any, Fox 3 sharing no line"),
        "fine": Arg("bool", required=False, label="Bear: pay one more garnet for a band of 5"),
        "payment": Arg("text", required=False, label="Fox: garnets or balloon"),
    }, "Take one of Hope's Wagers this round (Snake, Wolf, Bear or Fox)"),
    "cancel_wager": CommandSpec("player", {}, "Withdraw this round's wager"),
    "give": CommandSpec("player", {
        "to": Arg("player", label="who receives the gift"),
        "pieces": Arg("list", items="text", label=TRIAL_COPIES),
    }, "Give trial copies to another player (delivered at the deadline)"),
    "propose_trade": CommandSpec("player", {
        "with": Arg("player", label="the other party"),
        "give": Arg("list", items="text", label=f"what you give, {TRIAL_COPIES}"),
        "receive": Arg("list", items="text", label=f"what you receive, {TRIAL_COPIES}"),
    }, "Propose a trade of trial copies; it happens if the other party mirrors it"),
    "cancel_transfer": CommandSpec("player", {
        "id": Arg("int", label="the number of your gift or trade this round"),
    }, "Cancel one of your gifts or trades of this round"),
    "attempt_balance": CommandSpec("player", {
        "sides": Arg("list", items="list", max_items=3,
                     label="three groups holding every piece of your final list once"),
    }, "Try to balance the Balance of Souls in three equal groups"),
    "guess_starting_totem": CommandSpec("player", {
        "target": Arg("player", label="another player"),
        "totem": Arg("text", label="the totem you think they started with"),
    }, "Guess another player's starting spirit totem"),
    "withdraw_guess": CommandSpec("player", {
        "target": Arg("player", label="the player whose guess you withdraw"),
    }, "Withdraw your guess of a player's starting totem"),
    "deadline": CommandSpec("host", {}, "Close the round: spirit totems, auction, transfers, "
                            "wagers, then the next round"),
    "final_deadline": CommandSpec("host", {}, "Close the final challenge: scores, ranking, "
                                  "awards, and the setup opened"),
}
