"""COMMANDS: every command `decide` accepts, with its arguments (rulebook section 5). The
framework refuses arguments not listed here and draws the API, the CLI's help and the pages'
forms from it; the rules still check every value with their own codes."""

from __future__ import annotations

from domain.decider import Arg, CommandSpec
from domain.games.tile_joust.setup import ITEMS

COMMANDS: dict[str, CommandSpec] = {
    "pick_item": CommandSpec(
        "player",
        {"item": Arg("text", label="the item you keep: " + ", ".join(ITEMS))},
        "FM first picker: keep one item; the other player receives the other two",
    ),
    "bid": CommandSpec(
        "player",
        {"amount": Arg("int", label="chips, above the current bid and at most your chips")},
        "bid for the tile on auction",
    ),
    "fold": CommandSpec("player", {}, "fold: the other player wins the tile"),
    "choose_next_tile": CommandSpec(
        "player",
        {"label": Arg("text", label="M, B or G: one of the group's two unsold tiles")},
        "winner of a group's first auction: choose which tile is auctioned next",
    ),
    "keep_leftover": CommandSpec(
        "player",
        {"tile": Arg("text", label="s<set>x1 or s<set>x2: the leftover you keep")},
        "FM, fewer tiles: keep one leftover and give the other to your opponent",
    ),
    "use_items": CommandSpec(
        "player",
        {
            "items": Arg(
                "list",
                required=False,
                items="object",
                max_items=len(ITEMS),  # each item once at most
                label='uses, each {"item": name, "tile": id} (the tile for Tile Inversion); '
                "none for nothing",
            )
        },
        "FM item window: the items you use now (possibly none)",
    ),
    "submit_tile": CommandSpec(
        "player",
        {"tile": Arg("text", label="the id of a tile in your hand (or final pool)")},
        "joust step: put a tile forward",
    ),
    "pass": CommandSpec("player", {}, "joust step: put no tile forward"),
    "timeout": CommandSpec(
        "host",
        {"player": Arg("player", label="the player whose time is up")},
        "a player's time is up: apply the default to their pending decision",
    ),
}
