"""COMMANDS: every command `decide` accepts from the players and the host, with its arguments
(rulebook 4.1-4.5). The framework draws the HTTP schema, the CLI's help and the pages' forms
from it; the rules still check every value with their own codes (rulebook 4.6)."""

from __future__ import annotations

from domain.decider import Arg, CommandSpec
from domain.games.amalgamation.setup import PLAYER_COUNT, RATE_RANGE, TEAM_SIZE, TILES_PER_ROUND

PLAYER, HOST = "player", "host"

COMMANDS: dict[str, CommandSpec] = {
    "submit_garnet_rate": CommandSpec(
        PLAYER,
        {"rate": Arg("int", label="dollars per garnet, 5 to 20", minimum=RATE_RANGE[0],
                     maximum=RATE_RANGE[-1])},
        "Propose the garnet rate (pre-game)",
    ),
    "submit_ma_order": CommandSpec(
        PLAYER,
        {
            "order": Arg(
                "list",
                items="player",
                max_items=PLAYER_COUNT,
                label="the six players, front of the Minus Auction order first",
            )
        },
        "Set the first Minus Auction order (the MM winner, pre-game)",
    ),
    "submit_teams": CommandSpec(
        PLAYER,
        {
            "red": Arg("list", items="player", max_items=TEAM_SIZE, label="the red team"),
            "white": Arg("list", items="player", max_items=TEAM_SIZE, label="the white team"),
        },
        "Pick the Kong teams, three and three (the DM winner, pre-game)",
    ),
    "submit_round": CommandSpec(
        PLAYER,
        {
            "round": Arg("int", label="the round open now"),
            "kd_contribution": Arg("int", label="Kong's Dilemma: your contribution, $"),
            "ma_bids": Arg(
                "object",
                items="int",
                max_items=TILES_PER_ROUND,
                label="Minus Auction: one bid per tile of the round, any whole number",
            ),
            "invest": Arg("int", label="Investment & Donation: your investment, $"),
            "donate": Arg("int", label="Investment & Donation: your donation, $"),
            "ct_role": Arg("text", label="Chip Thief: mafia, cartel, police or beggar"),
            "ct_bet": Arg("int", label="Chip Thief: your bet, $"),
            "garnets_to_exchange": Arg(
                "int", required=False, label="garnets to turn into money this round"
            ),
        },
        "Hand in your round: Kong, the five bids, investment, donation, role and bet",
    ),
    "choose_ec": CommandSpec(
        PLAYER,
        {"candidate": Arg("player", label="one of the players tied for fewest points")},
        "Choose the Elimination Candidate (a winner, EC decision window)",
    ),
    "close_pregame": CommandSpec(
        HOST, {}, "Close the pre-game: draw the setup, fix teams, order and rate, open round 1"
    ),
    "close_round": CommandSpec(
        HOST, {}, "Close the round: lock, resolve the four games, open the next round or score"
    ),
    "close_ec_decision": CommandSpec(
        HOST, {}, "Close the EC decision window and fix the Elimination Candidate"
    ),
}
