"""The match told in words (narrate), the live standings (scoreboard) and what a viewer may
send now (forms): pure functions of what the viewer may see, in the rulebook's words.

narrate reads the entries the framework shows the viewer (`domain.records.shown`), so a
player's chapters hold their own secrets (the numbers of their tiles, their steps, their item
choices) and the host's hold everything; the match's own kinds are left to the framework.
A chapter is one round: an auction, an FM leftover choice, an item window or a joust.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.decider import HOST, PUBLIC
from domain.games.tile_joust.commands import COMMANDS
from domain.games.tile_joust.setup import CONCEAL, EQUALISER, TILE_INVERSION, Setup
from domain.games.tile_joust.tiles import FINAL, LABELS, LEFTOVER, REMAINING

Data = Mapping[str, Any]
Chapter = dict[str, Any]

LABEL_WORDS = {"M": "Minute", "B": "Balance", "G": "Giant"}
ITEM_WORDS = {TILE_INVERSION: "Tile Inversion", EQUALISER: "the Equaliser", CONCEAL: "Conceal"}
FOLD_WORDS = {"fold": "folds", "timeout": "runs out of time and folds", "cannot_raise":
              "cannot raise and folds"}
VARIANT_WORDS = {"death_match": "Death Match", "final_match": "Final Match"}
JOUST_PHASES = ("joust", "final_joust")


def and_list(words: Sequence[str]) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def stage_words(stage: int | str) -> str:
    return "the final joust" if stage == FINAL else f"set {stage}"


def tile_words(fact: Data) -> str:
    """What a shown tile tells: colour, group (or hidden), and its set in the final joust."""
    colour = fact["colour"].lower()
    group = fact["group"]
    if group == LEFTOVER:
        where = "a leftover"
    elif group == "hidden":
        where = "group hidden"
    else:
        where = f"group {group}"
    if "set" in fact:
        where = f"set {fact['set']}, {where}"
    return f"a {colour} tile ({where})"


def ordering_words(ordering: Sequence[int]) -> str:
    groups = [" ".join(map(str, ordering[i : i + 3])) for i in range(0, 12, 3)]
    return " | ".join([*groups, " ".join(map(str, ordering[12:]))])


# -- narrate -------------------------------------------------------------------------------


class Teller:
    """Walks the shown entries and writes one chapter per round."""

    def __init__(self, viewer: str) -> None:
        self.viewer = viewer
        self.chapters: list[Chapter] = []
        self.titles: dict[int, str] = {0: "The opening"}
        self.opened = 0  # rounds opened so far: round r is the r-th opening
        self.bids: list[str] = []  # the open auction's bids and folds, told at its end
        self.players: list[str] = []
        self.variant = ""

    def tell(self, entry: Data) -> None:
        teller = TELLERS.get(entry["kind"])
        if teller is None:
            return
        lines = teller(self, entry["data"])
        if not lines:
            return
        chapter = self.chapter(entry["round"])
        prefix = self.whose(entry["audience"])
        chapter["lines"].extend(prefix + line for line in lines)

    def chapter(self, round_number: int) -> Chapter:
        if not self.chapters or self.chapters[-1]["round"] != round_number:
            self.close()
            title = self.titles.get(round_number, f"Round {round_number}")
            self.chapters.append({"round": round_number, "title": title, "lines": []})
        return self.chapters[-1]

    def close(self) -> None:
        if self.bids and self.chapters:
            self.chapters[-1]["lines"].append(f"Bidding so far: {', '.join(self.bids)}.")
        self.bids = []

    def whose(self, audience: str | Sequence[str]) -> str:
        """Lines the public does not read say who alone was told."""
        if audience == PUBLIC:
            return ""
        if audience == HOST:
            return "(host only) "
        return f"(only {and_list(list(audience))}) "

    def opens(self, title: str) -> None:
        self.opened += 1
        self.titles[self.opened] = title

    def result(self) -> list[Chapter]:
        self.close()
        return [chapter for chapter in self.chapters if chapter["lines"]]


def narrate(events: Sequence[Data], viewer: str) -> list[Chapter]:
    teller = Teller(viewer)
    for entry in events:
        teller.tell(entry)
    return teller.result()


def told_opening(teller: Teller, data: Data) -> list[str]:
    teller.players, teller.variant = list(data["players"]), data["variant"]
    first, second = data["players"]
    chips = data["chips"][first]
    lines = [f"{VARIANT_WORDS[data['variant']]}: {first} against {second}, {chips} chips each."]
    if data["dmo"] is not None:
        lines.append(f"{data['dmo']} is the DMO: opens each set and wins a tie; "
                     f"{data['ec']} is the EC.")
    elif data["first_picker"] is not None:
        lines.append(f"{data['first_picker']} picks an item first.")
    changed = [f"{key} {value}" for key, value in data["config"].items()
               if key != "starting_chips" and Setup.model_fields[key].default != value]
    if changed:
        lines.append(f"Options: {', '.join(changed)}.")
    return lines


def told_orderings(teller: Teller, data: Data) -> list[str]:
    return [f"Set {key} is ordered {ordering_words(values)}."
            for key, values in data["orderings"].items()]


def told_pick_opened(teller: Teller, data: Data) -> list[str]:
    teller.opens("The item pick")
    items = and_list([ITEM_WORDS[item] for item in data["items"]])
    return [f"{data['picker']} chooses one of {items}."]


def told_allocation(teller: Teller, data: Data) -> list[str]:
    held = "; ".join(f"{player} holds {and_list([ITEM_WORDS[i] for i in items])}"
                     for player, items in data["items"].items())
    how = {"fixed": "The host fixed the items", "picked": "The pick is made",
           "timeout": "The first picker ran out of time: Tile Inversion by default"}[data["how"]]
    holder = data["equaliser_holder"]
    return [f"{how}: {held}.", f"{holder} holds the Equaliser: opens each set and wins a tie."]


def told_group(teller: Teller, data: Data) -> list[str]:
    colours = ", ".join(f"{LABEL_WORDS[label]} {data['colours'][label].lower()}"
                        for label in LABELS)
    start = "Set {set} begins. ".format(**data) if data["group"] == 1 else ""
    return [f"{start}Group {data['group']} of set {data['set']} opens: {colours}; "
            f"the {LABEL_WORDS[data['first_label']]} tile goes first."]


def told_group_start(teller: Teller, data: Data) -> list[str]:
    distances = ", ".join(f"{LABEL_WORDS[label]} {data['distances'][label]}" for label in LABELS)
    why = "a tie, so the Balance tile" if data["tie"] else f"the {LABEL_WORDS[data['label']]} tile"
    return [f"Nearest to {data['reference']}: {distances}: {why} starts."]


def told_auction(teller: Teller, data: Data) -> list[str]:
    label = LABEL_WORDS[data["label"]]
    teller.opens(f"Set {data['set']}, group {data['group']}: the {label} tile")
    return []


def told_bid(teller: Teller, data: Data) -> list[str]:
    teller.bids.append(f"{data['player']} {data['amount']}")
    return []


def told_fold(teller: Teller, data: Data) -> list[str]:
    teller.bids.append(f"{data['player']} {FOLD_WORDS[data['reason']]}")
    return []


def told_win(teller: Teller, data: Data) -> list[str]:
    bids, teller.bids = ", ".join(teller.bids), []
    chips = ", ".join(f"{player} {count}" for player, count in data["chips"].items())
    return [f"{bids}: {data['winner']} wins the {LABEL_WORDS[data['label']]} tile for "
            f"{data['price']}. Chips: {chips}."]


def told_value(teller: Teller, data: Data) -> list[str]:
    where = ("a leftover" if data["group"] == LEFTOVER
             else f"group {data['group']}, {LABEL_WORDS[data['label']]}")
    return [f"{data['player']} learns that {data['tile']} (set {data['set']}, {where}) is "
            f"{data['value']}."]


def told_next_tile(teller: Teller, data: Data) -> list[str]:
    label = LABEL_WORDS[data["label"]]
    if data["by_default"]:
        return [f"{data['chooser']} runs out of time: the {label} tile goes next."]
    return [f"{data['chooser']} chooses the {label} tile next."]


def told_leftover_given(teller: Teller, data: Data) -> list[str]:
    return [f"{data['player']} has fewer tiles this set and receives the leftover "
            f"{data['tile']}. Tiles: {counts(data['hands'])}."]


def told_leftovers_discarded(teller: Teller, data: Data) -> list[str]:
    what = "the leftover is" if len(data["tiles"]) == 1 else "both leftovers are"
    return [f"Equal tiles this set: {what} set aside unseen."]


def told_leftovers_withheld(teller: Teller, data: Data) -> list[str]:
    values = ", ".join(f"{tile} is {value}" for tile, value in data["values"].items())
    return [f"Set aside: {values}."]


def told_leftover_offered(teller: Teller, data: Data) -> list[str]:
    teller.opens(f"Set {data['set']}: the leftovers")
    return [f"{data['chooser']} has fewer tiles this set and sees both leftovers."]


def told_leftover_values(teller: Teller, data: Data) -> list[str]:
    values = " and ".join(f"{tile} is {value}" for tile, value in data["values"].items())
    return [f"{data['chooser']} sees that {values}."]


def told_leftover_kept(teller: Teller, data: Data) -> list[str]:
    return [f"{data['chooser']} keeps {data['kept']} and gives {data['given']}."]


def told_leftover_split(teller: Teller, data: Data) -> list[str]:
    how = " (out of time: the default choice)" if data["by_default"] else ""
    return [f"{data['chooser']} keeps one leftover and gives the other to {data['receiver']}"
            f"{how}. Tiles: {counts(data['hands'])}."]


def told_window_opened(teller: Teller, data: Data) -> list[str]:
    teller.opens(f"{stage_words(data['set']).capitalize()}: the item window")
    return [f"Item window of {stage_words(data['set'])}: {and_list(data['pending'])} "
            "may use an item."]


def told_items_chosen(teller: Teller, data: Data) -> list[str]:
    if data["by_default"]:
        return [f"{data['player']} runs out of time: no item."]
    uses = [ITEM_WORDS[use["item"]] + (f" on {use['tile']}" if use["tile"] else "")
            for use in data["uses"]]
    return [f"{data['player']} chooses {and_list(uses) if uses else 'no item'}."]


def told_window_closed(teller: Teller, data: Data) -> list[str]:
    lines = []
    for player, items in data["used"].items():
        if items:
            lines.append(f"{player} uses {and_list([ITEM_WORDS[i] for i in items])}.")
    if any(CONCEAL in items for items in data["used"].values()):
        lines.append("Groups stay hidden for the rest of this set's jousts.")
    return lines or ["Nobody uses an item."]


def told_inverted(teller: Teller, data: Data) -> list[str]:
    return [f"{data['player']}'s {data['tile']} turns from {data['old']} to {data['new']} "
            f"({data['colour'].lower()})."]


def told_joust(teller: Teller, data: Data) -> list[str]:
    where = "Final joust" if data["set"] == FINAL else f"Set {data['set']}, joust"
    teller.opens(f"{where} {data['joust']}")
    return []


def told_step_opened(teller: Teller, data: Data) -> list[str]:
    if not data["auto_passed"]:
        return []
    return [f"Step {data['step']}: {and_list(data['auto_passed'])} cannot put a tile forward "
            "and passes."]


def told_committed(teller: Teller, data: Data) -> list[str]:
    return [f"Step {data['step']}: {data['player']} puts {data['tile']} forward."]


def told_passed(teller: Teller, data: Data) -> list[str]:
    how = "runs out of time and passes" if data["by_default"] else "passes"
    return [f"Step {data['step']}: {data['player']} {how}."]


def told_step_closed(teller: Teller, data: Data) -> list[str]:
    plays = [f"{player} {tile_words(play) if play['committed'] else 'passes'}"
             for player, play in data["plays"].items()]
    return [f"Step {data['step']} shows: {'; '.join(plays)}."]


def told_resolved(teller: Teller, data: Data) -> list[str]:
    sides = []
    for player, tiles in data["tiles"].items():
        values = [str(tile["value"]) for tile in tiles]
        total = f" = {data['sums'][player]}" if len(values) > 1 else ""
        sides.append(f"{player} {' + '.join(values)}{total}" if values else f"{player} nothing")
    gains = data["gains"]
    if data["winner"] == "tie":
        outcome = "equal sums: " + " and ".join(f"{p} scores {g}" for p, g in gains.items())
    else:
        outcome = f"{data['winner']} wins and scores {gains[data['winner']]}"
    return [f"{'; '.join(sides)}: {outcome}. Points: {counts(data['totals'])}."]


def told_set_ended(teller: Teller, data: Data) -> list[str]:
    why = ("nobody put a tile forward" if data["reason"] == "empty_joust"
           else "a hand holds one tile or none")
    return [f"Set {data['set']} ends ({why}). Stored for the final joust: "
            f"{counts(data['stored'])}."]


def told_final_opened(teller: Teller, data: Data) -> list[str]:
    return [f"The final joust begins, every stored tile in one pool: {counts(data['pools'])}."]


def told_final_ended(teller: Teller, data: Data) -> list[str]:
    remaining = data["remaining_points"]
    if data["reason"] == "empty_joust":
        end = ("Nobody put a tile forward: the final joust ends, and each tile still held "
               f"scores a point: {counts(remaining)}.")
    else:
        emptied = [player for player, count in remaining.items() if count == 0]
        end = (f"{and_list(emptied)} has no tile left: the final joust ends; tiles still held "
               f"score a point each: {counts(remaining)}.")
    winner, loser = data["winner"], data["loser"]
    totals = data["totals"]
    if data["decided_by_tiebreak"]:
        role = "the DMO" if teller.variant == "death_match" else "the Equaliser holder"
        verdict = f"Equal totals ({totals[winner]} each): {winner} wins as {role}."
    else:
        verdict = f"{winner} wins, {totals[winner]} to {totals[loser]}."
    return [end, f"Totals: {counts(totals)}. {verdict}",
            f"Ranks: {winner} 1, {loser} 2. No awards: Tile Joust moves no garnets and gives no "
            "Token of Life, Opal or MoE."]


def told_reveal(teller: Teller, data: Data) -> list[str]:
    if teller.chapters:
        chapter = teller.chapters[-1]
        chapter["title"] = f"{chapter['title']}, and the result"
    return [f"Revealed: set {key} was ordered {ordering_words(values)}."
            for key, values in data["orderings"].items()]


def counts(by_player: Data) -> str:
    return ", ".join(f"{player} {count}" for player, count in by_player.items())


TELLERS: dict[str, Callable[[Teller, Data], list[str]]] = {
    "TileJoustOpened": told_opening,
    "OrderingsRecorded": told_orderings,
    "ItemPickOpened": told_pick_opened,
    "ItemsAllocated": told_allocation,
    "GroupOpened": told_group,
    "GroupStartComputed": told_group_start,
    "AuctionOpened": told_auction,
    "BidPlaced": told_bid,
    "Folded": told_fold,
    "TileWon": told_win,
    "TileValueShown": told_value,
    "NextTileChosen": told_next_tile,
    "LeftoverGiven": told_leftover_given,
    "LeftoversDiscarded": told_leftovers_discarded,
    "LeftoverValuesWithheld": told_leftovers_withheld,
    "LeftoverOffered": told_leftover_offered,
    "LeftoverValuesShown": told_leftover_values,
    "LeftoverKept": told_leftover_kept,
    "LeftoverSplit": told_leftover_split,
    "ItemWindowOpened": told_window_opened,
    "ItemsChosen": told_items_chosen,
    "ItemWindowClosed": told_window_closed,
    "TileInverted": told_inverted,
    "JoustOpened": told_joust,
    "JoustStepOpened": told_step_opened,
    "TileCommitted": told_committed,
    "StepPassed": told_passed,
    "JoustStepClosed": told_step_closed,
    "JoustResolved": told_resolved,
    "SetEnded": told_set_ended,
    "FinalJoustOpened": told_final_opened,
    "FinalEnded": told_final_ended,
    "SetupRevealed": told_reveal,
}


# -- scoreboard ----------------------------------------------------------------------------


def scoreboard(view: Data) -> dict[str, Any] | None:
    """Points by set, the final joust and tiles left; chips; tiles in hand and stored."""
    if not view["players"]:
        return None
    stages = [stage for stage in next(iter(view["points_by_stage"].values()))]
    names = {FINAL: "final joust", REMAINING: "tiles left"}
    columns = ["player", "role", "points", *(names.get(s, f"set {s}") for s in stages),
               "chips", "in hand", "stored"]
    rows = []
    for player in view["players"]:
        by_stage = view["points_by_stage"][player]
        tiles = view["tiles"][player]
        rows.append([player, role_of(view, player), view["points"][player],
                     *(by_stage[s] for s in stages), view["chips"][player], tiles["hand"],
                     tiles["stored"]])
    return {"title": "Points, chips and tiles", "columns": columns, "rows": rows}


def role_of(view: Data, player: str) -> str:
    roles = view["roles"]
    if roles.get("dmo") == player:
        return "DMO"
    if roles.get("ec") == player:
        return "EC"
    if roles.get("equaliser") == player:
        return "Equaliser"
    return ""


# -- forms ---------------------------------------------------------------------------------


def forms(view: Data, viewer: str) -> list[dict[str, Any]]:
    """What `viewer` may send now, judged from their own summary (never for the public)."""
    if viewer == PUBLIC or view["phase"] == "over":
        return []
    if viewer == HOST:
        pending = pending_players(view)
        return [form("timeout", player=pending)] if pending else []
    return player_forms(view, viewer)


def pending_players(view: Data) -> list[str]:
    """Who owes a decision now, as the host's summary shows it."""
    now, phase = view["now"], view["phase"]
    if phase == "auction" and now["what"] == "bidding":
        return [now["to_act"]]
    if phase in ("item_pick", "next_tile", "leftovers"):
        return [now["who"]]
    if phase == "item_window":
        return [player for player in now["pending"] if player not in now["chosen"]]
    if phase in JOUST_PHASES and now["what"] == "joust_step":
        return [player for player in now["eligible"] if player not in now["acted"]]
    return []


def player_forms(view: Data, player: str) -> list[dict[str, Any]]:
    if player not in pending_players(view):
        return []
    now, phase = view["now"], view["phase"]
    if phase == "item_pick":
        return [form("pick_item", item=list(now["items"]))]
    if phase == "auction":
        return [form("bid", amount=None), form("fold")]
    if phase == "next_tile":
        sold = view["auctions"][-1]["label"]
        return [form("choose_next_tile", label=[label for label in LABELS if label != sold])]
    if phase == "leftovers":
        return [form("keep_leftover", tile=[f"s{now['set']}x1", f"s{now['set']}x2"])]
    if phase == "item_window":
        return [form("use_items", items=usable_uses(view, player, now["set"]))]
    return [form("submit_tile", tile=tiles_in_hand(view, player)), form("pass")]


def tiles_in_hand(view: Data, player: str) -> list[str]:
    known = view["known_tiles"]
    return [tile for tile in view["tiles_by_status"].get("hand", [])
            if known[tile].get("holder") == player]


def usable_uses(view: Data, player: str, stage: int | str) -> list[dict[str, Any]]:
    """The uses the rules would take now: Tile Inversion on each tile in hand, Conceal in a
    set; never the Equaliser, never an item already used."""
    used = {item for entry in view["items_used"] for items in entry["used"].values()
            for item in items}
    held = [item for item in view["items"].get(player, []) if item not in used]
    uses: list[dict[str, Any]] = []
    if TILE_INVERSION in held:
        uses += [{"item": TILE_INVERSION, "tile": tile} for tile in tiles_in_hand(view, player)]
    if CONCEAL in held and stage != FINAL:
        uses.append({"item": CONCEAL})
    return uses


def form(command: str, **choices: list[Any] | None) -> dict[str, Any]:
    spec = COMMANDS[command]
    fields = [{"name": name, "kind": arg.kind, "label": arg.label, "required": arg.required,
               "choices": choices.get(name)} for name, arg in spec.args.items()]
    return {"command": command, "label": spec.label, "fields": fields}


# the host's words: the phase open now and who it waits on (no close: a step ends by the
# players, or by the host's `timeout` of the one who owes it)

PHASES = {
    "not_started": "waiting for the opening",
    "opening": "the opening",
    "item_pick": "the item pick",
    "auction": "a tile auction",
    "next_tile": "the choice of the next tile",
    "leftovers": "the leftover tiles",
    "item_window": "the item window",
    "joust": "a joust",
    "between_sets": "between two sets",
    "final_joust": "the final joust",
    "over": "over",
}


def acting(view: Data) -> list[str]:
    """Who owes a decision now (the host's `timeout` applies the default to them)."""
    return pending_players(view)
