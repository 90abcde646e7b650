"""The match told to one viewer: narrate (the story round by round), scoreboard (the live
standings) and forms (what the viewer may send now).

Each reads only what it is handed, the viewer's own entries or summary, so it tells nobody
what the rulebook keeps from them (section 8): a player's story holds his own garnets,
submissions, defaults, spending and Chip Thief points because only those reached him; the
host's tells everything.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.decider import HOST, PUBLIC
from domain.games.amalgamation.command_specs import COMMANDS
from domain.games.amalgamation.draws import ROLES
from domain.games.amalgamation.minus_auction import score
from domain.games.amalgamation.scoring import (
    CHIP_THIEF,
    INVESTMENT,
    KONG,
    MINUS_AUCTION,
    PLACE_POINTS,
    SUBGAMES,
)
from domain.games.amalgamation.setup import RATE_RANGE, ROUNDS, Variants
from domain.games.amalgamation.state import SCORING_ROUND

Data = Mapping[str, Any]
Chapter = dict[str, Any]
LINE = 199  # every line of the story stays under 200 characters

GAME_NAMES = {
    KONG: "Kong's Dilemma",
    MINUS_AUCTION: "Minus Auction",
    INVESTMENT: "Investment & Donation",
    CHIP_THIEF: "Chip Thief",
}
HOW_KONG_WAS_WON = {
    "points": "on points",
    "first_to_reach": "reaching that score first",
    "gamewide_tiebreak": "by the Gamewide Tiebreak",
}
HOW_THE_EC_WAS_FIXED = {
    "fewest_points": "alone at the fewest match points",
    "winner_choice": "chosen by the winners",
    "gamewide_tiebreak": "the lowest in the Gamewide Tiebreak among the level candidates",
}


# Words


def listed(items: Sequence[Any]) -> str:
    """a, b and c."""
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def each(amounts: Mapping[str, Any], unit: str = "") -> str:
    """ann $3, ben $0, ... in the order given."""
    return ", ".join(f"{player} {unit}{amount}" for player, amount in amounts.items())


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def place(number: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(number, f"{number}th")


def signed(number: int) -> str:
    return f"+{number}" if number > 0 else str(number)


def tiles_text(tiles: Sequence[int]) -> str:
    return " ".join(str(tile) for tile in tiles)


def ranks(match_points: Mapping[str, int]) -> dict[str, int]:
    """1 for the most match points; level players share the better rank (rulebook 7.6)."""
    points = match_points.values()
    return {p: 1 + sum(other > mine for other in points) for p, mine in match_points.items()}


def by_points(match_points: Mapping[str, int], order: Sequence[str]) -> list[str]:
    """The most match points first; level players in `order` (the GT)."""
    return sorted(order, key=lambda p: (-match_points[p], list(order).index(p)))


# narrate


def narrate(events: Sequence[Mapping[str, Any]], viewer: str) -> list[Chapter]:
    """The match in words, one chapter per round with something to tell: 0 the pre-game, 1-7
    the rounds, 8 the final scoring and the end. `events` are the viewer's entries as
    `domain.records.shown` gives them, so they alone decide what `viewer` is told; the
    framework's own kinds are its to tell."""
    story = Story()
    for event in events:
        teller = TELLERS.get(event["kind"])
        if teller is not None:
            story.chapter = chapter_of(event)
            teller(story, event["data"])
    return story.chapters()


def chapter_of(event: Mapping[str, Any]) -> int:
    """The round a line belongs to: the round the event names, the final scoring for the end,
    else the round its entry was logged in."""
    if event["kind"] in FINAL_KINDS:
        return SCORING_ROUND
    round_number = event["data"].get("round")
    return round_number if isinstance(round_number, int) else event["round"]


class Story:
    """The chapters told so far, and what later lines need from earlier events."""

    def __init__(self) -> None:
        self.lines: dict[int, list[str]] = {}
        self.chapter = 0
        self.players: list[str] = []
        self.gamewide_tiebreak: list[str] = []
        self.awarded: list[str] = []  # this round's tiles, as "tile to taker"

    def tell(self, line: str) -> None:
        self.lines.setdefault(self.chapter, []).extend(textwrap.wrap(line, LINE))

    def chapters(self) -> list[Chapter]:
        return [
            {"round": number, "title": title(number), "lines": lines}
            for number, lines in sorted(self.lines.items())
        ]


def title(number: int) -> str:
    if number == 0:
        return "The pre-game"
    if number > ROUNDS:
        return "The final scoring"
    return f"Round {number}"


# The opening and the pre-game


def opened(story: Story, data: Data) -> None:
    story.players = list(data["players"])
    story.tell(
        f"Six players, {listed(story.players)}, start with ${data['starting_money']} each "
        f"for {data['rounds']} rounds of four games at once."
    )
    if data["gamewide_tiebreak"]:
        story.gamewide_tiebreak = list(data["gamewide_tiebreak"])
        story.tell(f"The Gamewide Tiebreak is {' > '.join(story.gamewide_tiebreak)}.")
    mm, dm = data["mm_winner"], data["dm_winner"]
    order = (
        f"{mm}, the MM winner, may set the first Minus Auction order"
        if mm
        else "No MM winner: the Minus Auction order starts as the Gamewide Tiebreak"
    )
    teams = f"{dm}, the DM winner, may pick the Kong teams" if dm else "no DM winner picks teams"
    story.tell(f"{order}; {teams}.")
    defaults = Variants().model_dump(mode="json")
    changed = {k: v for k, v in data["variants"].items() if defaults.get(k) != v}
    if changed:
        story.tell(f"Variants in force: {each(changed)}.")


def garnets_held(story: Story, data: Data) -> None:
    story.tell(f"{data['player']} holds {plural(data['garnets'], 'garnet')}.")


def rate_proposed(story: Story, data: Data) -> None:
    story.tell(f"{data['player']} proposes a garnet rate of ${data['rate']}.")


def order_set(story: Story, data: Data) -> None:
    story.tell(f"{data['player']} sets the Minus Auction order: {', '.join(data['order'])}.")


def teams_picked(story: Story, data: Data) -> None:
    story.tell(
        f"{data['player']} picks red {listed(data['red'])} against white {listed(data['white'])}."
    )


def setup_drawn(story: Story, data: Data) -> None:
    sources, schedule = data["sources"], data["tile_schedule"]
    teams = data["default_teams"]
    story.tell(
        f"Gamewide Tiebreak (from the {sources['gamewide_tiebreak']}): "
        f"{' > '.join(data['gamewide_tiebreak'])}; default teams (from the "
        f"{sources['default_teams']}): red {listed(teams['red'])}, white {listed(teams['white'])}."
    )
    rounds = [tiles_text(tiles) for tiles in schedule]
    story.tell(
        f"Tile schedule (from the {sources['tile_schedule']}), rounds 1-4: "
        f"{' | '.join(rounds[:4])}."
    )
    story.tell(f"Tile schedule, rounds 5-7: {' | '.join(rounds[4:])}.")


SOURCES = {
    "dm_winner": "DM winner",
    "default_teams": "default teams",
    "mm_winner": "MM winner",
    "gamewide_tiebreak": "Gamewide Tiebreak",
}


def pregame_settled(story: Story, data: Data) -> None:
    proposals = each(data["rate_submissions"], "$") or "none"
    story.tell(
        f"Rate proposals: {proposals}; the teams come from the {SOURCES[data['teams_from']]}, "
        f"the Minus Auction order from the {SOURCES[data['ma_order_from']]}."
    )


def pregame_closed(story: Story, data: Data) -> None:
    teams = data["teams"]
    if not story.gamewide_tiebreak:
        story.gamewide_tiebreak = list(data["gamewide_tiebreak"])
        story.tell(
            f"The Gamewide Tiebreak, drawn from the seed: {' > '.join(story.gamewide_tiebreak)}."
        )
    story.tell(
        f"The pre-game closes: red {listed(teams['red'])} against white "
        f"{listed(teams['white'])}; a garnet buys ${data['garnet_rate']}."
    )


# A round


def round_opened(story: Story, data: Data) -> None:
    story.tell(
        f"Round {data['round']} opens: tiles {', '.join(map(str, data['tiles']))} are "
        f"auctioned in this order; the Minus Auction order is {', '.join(data['ma_order'])}."
    )


def submitted(story: Story, data: Data) -> None:
    bids = ", ".join(f"{tile}: {bid}" for tile, bid in data["ma_bids"].items())
    exchange = data["garnets_to_exchange"]
    trade = f"; exchanging {plural(exchange, 'garnet')}" if exchange else ""
    story.tell(
        f"{data['player']} hands in round {data['round']}: Kong ${data['kd_contribution']}; "
        f"bids {bids}; invest ${data['invest']}, donate ${data['donate']}; {data['ct_role']} "
        f"betting ${data['ct_bet']}{trade} (spending ${data['spend']})."
    )


def round_locked(story: Story, data: Data) -> None:
    story.tell(f"Round {data['round']} is locked.")


def submission_locked(story: Story, data: Data) -> None:
    if data["defaulted"]:
        story.tell(
            f"{data['player']} sent nothing: the defaults apply, with the drawn role "
            f"{data['drawn_ct_role']}."
        )
    else:
        story.tell(f"{data['player']}'s submission stands.")


def defaults_applied(story: Story, data: Data) -> None:
    drawn = [f"{player} ({role})" for player, role in data["roles"].items()]
    story.tell(f"Defaulted: {listed(drawn)}." if drawn else "Nobody was defaulted.")


def money_spent(story: Story, data: Data) -> None:
    exchanged = data["garnets_exchanged"]
    bought = f"; {plural(exchanged, 'garnet')} bought ${data['money_bought']}" if exchanged else ""
    story.tell(
        f"{data['player']} spends ${data['total']} (Kong ${data['kd_contribution']}, bids "
        f"${data['ma_bids_total']}, invest ${data['invest']}, donate ${data['donate']}, bet "
        f"${data['ct_bet']}){bought}: ${data['balance']} before penalties."
    )


def kong_resolved(story: Story, data: Data) -> None:
    points = data["points"]
    standing = f"Kong points: red {points['red']}, white {points['white']}."
    if data["result"] == "tie":
        amount = f" at ${data['tie_total']} each" if data["tie_total"] is not None else ""
        story.tell(f"Kong's Dilemma: the teams tie{amount}, nobody scores. {standing}")
        return
    loser = "white" if data["result"] == "red" else "red"
    story.tell(
        f"Kong's Dilemma: {data['result']} gives more and scores; {loser} gave "
        f"${data['losing_team_total']} in all. {standing}"
    )


def kong_totals(story: Story, data: Data) -> None:
    story.tell(f"Kong totals: {each(data['totals'], '$')}.")


def tile_awarded(story: Story, data: Data) -> None:
    story.awarded.append(f"{data['tile']} to {data['winner']}")


def tile_bids(story: Story, data: Data) -> None:
    moved = f"; {data['tied'][0]} moves to the back" if data["moved_to_end"] else ""
    tied = f", tied {listed(data['tied'])}" if len(data["tied"]) > 1 else ""
    story.tell(
        f"Bids on {data['tile']}: {each(data['bids'])}; lowest {data['lowest_bid']}{tied}{moved}."
    )


def ma_round_closed(story: Story, data: Data) -> None:
    story.tell(f"Minus Auction: {', '.join(story.awarded)}.")
    story.awarded = []
    story.tell(f"The Minus Auction order is now {', '.join(data['order_after'])}.")


def tokens_awarded(story: Story, data: Data) -> None:
    top = data["top_investor"]
    misers = data["misers"]
    investor = f"Top Investor {top}" if top else "no Top Investor (every amount shared)"
    miser = "all six" if len(misers) == len(story.players) else listed(misers)
    story.tell(f"Investment & Donation: {investor}; Miser tokens to {miser}.")


def investment_amounts(story: Story, data: Data) -> None:
    story.tell(f"Investments: {each(data['invest'], '$')}; donations: {each(data['donate'], '$')}.")


def chip_thief_resolved(story: Story, data: Data) -> None:
    chips = [f"{player} {role} {data['chips'][player]}" for player, role in data["roles"].items()]
    story.tell(f"Chip Thief, role and chips: {', '.join(chips)}.")


def chip_thief_bets(story: Story, data: Data) -> None:
    bets = [f"{p} ${bet} ({data['points'][p]} points)" for p, bet in data["bets"].items()]
    story.tell(f"Chip Thief bets: {', '.join(bets)}.")


def chip_thief_points(story: Story, data: Data) -> None:
    story.tell(
        f"{data['player']} scores {plural(data['points'], 'Chip Thief point')} this round, "
        f"{data['total']} in all."
    )


def penalties(story: Story, data: Data) -> None:
    penalised = data["penalised"]
    if penalised:
        story.tell(
            f"A second round in a row without a tile: {listed(penalised)} "
            f"{'pays' if len(penalised) == 1 else 'pay'} ${data['amount']}."
        )


def balances_before(story: Story, data: Data) -> None:
    story.tell(f"Balances before penalties: {each(data['balances'], '$')}.")


def balances(story: Story, data: Data) -> None:
    story.tell(f"Balances: {each(data['balances'], '$')}.")


# The final scoring and the end


def subgame_ranked(story: Story, data: Data) -> None:
    ranking, scores = data["ranking"], data["scores"]
    name = GAME_NAMES[data["subgame"]]
    if data["subgame"] == KONG:
        points, team = scores["points"], scores["winning_team"]
        other = "white" if team == "red" else "red"
        story.tell(
            f"{name}: {team} wins {points[team]}-{points[other]} "
            f"({HOW_KONG_WAS_WON[scores['decided_by']]}); places {', '.join(ranking)}."
        )
    elif data["subgame"] == MINUS_AUCTION:
        placed = [f"{p} {scores['scores'][p]}" for p in ranking]
        story.tell(f"{name}: places {', '.join(placed)}.")
        for player in ranking:
            tiles = scores["tiles"][player]
            story.tell(f"{player} took {tiles_text(tiles) if tiles else 'no tile'}.")
    elif data["subgame"] == INVESTMENT:
        tokens = [
            f"{p} {scores['top_investor_tokens'][p]}/{scores['miser_tokens'][p]}" for p in ranking
        ]
        story.tell(f"{name}: places {', '.join(tokens)} (Top Investor / Miser tokens).")
    else:
        placed = [f"{p} {scores['points'][p]}" for p in ranking]
        story.tell(f"{name}: places {', '.join(placed)} (points).")


def subgame_spending(story: Story, data: Data) -> None:
    story.tell(f"Kong contributions in all: {each(data['kong_contributions'], '$')}.")
    story.tell(f"Minus Auction money: {each(data['minus_auction'], '$')}.")
    story.tell(f"Investment & Donation money: {each(data['investment_donation'], '$')}.")


def match_scored(story: Story, data: Data) -> None:
    points = data["match_points"]
    order = story.gamewide_tiebreak or list(points)
    ranked = by_points(points, order)
    story.tell(f"Match points: {', '.join(f'{p} {points[p]}' for p in ranked)}.")
    rank = ranks(points)
    story.tell(f"Ranks: {', '.join(f'{p} {rank[p]}' for p in ranked)}.")
    winners, tols = data["winners"], data["tols"]
    if data["tols_invalidated"]:
        who = f"{listed(winners)} all win" if winners else "nobody wins"
        story.tell(f"Four or more share the most points: {who}, and the ToLs are void.")
    elif len(winners) == 1:
        story.tell(f"{winners[0]} wins alone: {plural(tols[winners[0]], 'ToL')}.")
    else:
        story.tell(f"{listed(winners)} win jointly: 1 ToL each.")
    candidates = data["ec_candidates"]
    if len(candidates) > 1:
        story.tell(f"{listed(candidates)} share the fewest match points.")


def ec_window(story: Story, data: Data) -> None:
    deciders = data["deciders"]
    story.tell(
        f"The EC decision window opens: {listed(deciders)} "
        f"{'chooses' if len(deciders) == 1 else 'choose'} between {listed(data['candidates'])}."
    )


def ec_chosen(story: Story, data: Data) -> None:
    story.tell(f"{data['winner']} chooses {data['candidate']} as the EC.")


def ec_counted(story: Story, data: Data) -> None:
    choices = each(data["choices"]) or "none"
    story.tell(f"EC choices: {choices}; counts {each(data['counts'])}.")


def ec_determined(story: Story, data: Data) -> None:
    story.tell(
        f"{data['ec']} is the Elimination Candidate, {HOW_THE_EC_WAS_FIXED[data['decided_by']]}."
    )


def garnets_awarded(story: Story, data: Data) -> None:
    story.tell(f"Garnets for 1st and 2nd places: {each(data['awards'])}.")


def garnet_ledger(story: Story, data: Data) -> None:
    story.tell(
        f"{data['player']} exchanged {plural(data['exchanged'], 'garnet')} and is awarded "
        f"{data['awarded']}: net {signed(data['net_change'])}."
    )


TELLERS: dict[str, Callable[[Story, Data], None]] = {
    "AmalgamationOpened": opened,
    "GarnetsHeld": garnets_held,
    "GarnetRateSubmitted": rate_proposed,
    "MinusAuctionOrderSubmitted": order_set,
    "TeamsSubmitted": teams_picked,
    "SetupDrawn": setup_drawn,
    "PregameSettled": pregame_settled,
    "PregameClosed": pregame_closed,
    "RoundOpened": round_opened,
    "RoundSubmissionAccepted": submitted,
    "RoundLocked": round_locked,
    "SubmissionLocked": submission_locked,
    "DefaultsApplied": defaults_applied,
    "MoneySpent": money_spent,
    "KongRoundResolved": kong_resolved,
    "KongRoundTotals": kong_totals,
    "MinusAuctionTileAwarded": tile_awarded,
    "MinusAuctionTileBids": tile_bids,
    "MinusAuctionRoundClosed": ma_round_closed,
    "InvestmentTokensAwarded": tokens_awarded,
    "InvestmentAmounts": investment_amounts,
    "ChipThiefRoundResolved": chip_thief_resolved,
    "ChipThiefBets": chip_thief_bets,
    "ChipThiefPointsNoted": chip_thief_points,
    "MinusAuctionPenaltiesApplied": penalties,
    "BalancesBeforePenalties": balances_before,
    "BalancesRevealed": balances,
    "SubgameRanked": subgame_ranked,
    "SubgameSpending": subgame_spending,
    "MatchScored": match_scored,
    "EcDecisionOpened": ec_window,
    "EcChosen": ec_chosen,
    "EcChoicesCounted": ec_counted,
    "EcDetermined": ec_determined,
    "GarnetsAwarded": garnets_awarded,
    "GarnetLedgerClosed": garnet_ledger,
}
FINAL_KINDS = frozenset(
    {
        "SubgameRanked",
        "SubgameSpending",
        "MatchScored",
        "EcDecisionOpened",
        "EcChosen",
        "EcChoicesCounted",
        "EcDetermined",
        "GarnetsAwarded",
        "GarnetLedgerClosed",
    }
)


# scoreboard


def scoreboard(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The standings: each game's public score so far during the rounds; places, match points
    and garnets once scored. None before the pre-game close fixes the teams."""
    if view["end"].get("match_points"):
        return final_standings(view)
    if not view["teams"]:
        return None
    return standings_so_far(view)


def standings_so_far(view: Mapping[str, Any]) -> dict[str, Any]:
    team_of = {p: team for team, members in view["teams"].items() for p in members}
    per_tile = view["variants"].get("ma_streak_scoring") == "per_tile"
    chips = dict.fromkeys(view["players"], 0)
    for resolved in view["rounds"]:
        for player, count in resolved.get("chips", {}).items():
            chips[player] += count
    tokens = view["tokens"]
    rows = [
        [
            player,
            f"{team_of[player]} ({view['kong_points'][team_of[player]]})",
            view["balances"][player],
            tiles_text(sorted(view["ma_tiles"][player], reverse=True)),
            score(view["ma_tiles"][player], per_tile),
            tokens["top_investor"][player],
            tokens["miser"][player],
            chips[player],
        ]
        for player in view["players"]
    ]
    resolved = sum("balances" in entry for entry in view["rounds"])  # at most seven
    return {
        "title": f"After round {resolved}" if resolved else "Before round 1",
        "columns": [
            "player",
            "Kong team (points)",
            "balance $",
            "tiles",
            "Minus Auction score",
            "Top Investor tokens",
            "Miser tokens",
            "Chip Thief chips",
        ],
        "rows": rows,
    }


def final_standings(view: Mapping[str, Any]) -> dict[str, Any]:
    end = view["end"]
    points = end["match_points"]
    rank = ranks(points)
    places = {
        game: {p: number for number, p in enumerate(end["rankings"][game]["ranking"], 1)}
        for game in SUBGAMES
    }
    awards = end.get("awards", {})
    rows = [
        [
            rank[player],
            player,
            *(
                f"{place(places[game][player])} ({PLACE_POINTS[places[game][player] - 1]})"
                for game in SUBGAMES
            ),
            points[player],
            awards.get(player, ""),
            outcome_of(end, player),
        ]
        for player in by_points(points, view["gamewide_tiebreak"])
    ]
    return {
        "title": "Final standings",
        "columns": [
            "rank",
            "player",
            *(GAME_NAMES[game] for game in SUBGAMES),
            "match points",
            "garnets won",
            "result",
        ],
        "rows": rows,
    }


def outcome_of(end: Mapping[str, Any], player: str) -> str:
    if player in end["winners"]:
        tols = end["tols"].get(player, 0)
        return f"winner, {plural(tols, 'ToL')}" if tols else "winner"
    if end.get("ec") == player:
        return "Elimination Candidate"
    if player in end["ec_candidates"] and "ec" not in end:
        return "EC candidate"
    return ""


# forms


def forms(view: Mapping[str, Any], viewer: str) -> list[dict[str, Any]]:
    """What `viewer` may send in the phase his summary shows (rulebook 4.1); nothing for the
    public. A convenience for pages: the rules still judge every command."""
    if viewer == PUBLIC:
        return []
    phase = view["phase"]
    if viewer == HOST:
        close = HOST_CLOSES.get(phase)
        return [form(close, {})] if close else []
    if phase == "pregame":
        return pregame_forms(view, viewer)
    if phase == "round":
        return [
            form(
                "submit_round",
                {"round": [view["round"]], "ct_role": list(ROLES)},
                {"ma_bids": f"one bid on each tile: {', '.join(map(str, view['tiles']))}"},
            )
        ]
    if phase == "ec_decision" and viewer in view["end"]["deciders"]:
        return [form("choose_ec", {"candidate": list(view["end"]["candidates"])})]
    return []


HOST_CLOSES = {
    "pregame": "close_pregame",
    "round": "close_round",
    "ec_decision": "close_ec_decision",
}


def pregame_forms(view: Mapping[str, Any], viewer: str) -> list[dict[str, Any]]:
    players = list(view["players"])
    offered = [form("submit_garnet_rate", {"rate": list(RATE_RANGE)})]
    if viewer == view["twists"]["mm_winner"]:
        offered.append(form("submit_ma_order", {"order": players}))
    if viewer == view["twists"]["dm_winner"]:
        offered.append(form("submit_teams", {"red": players, "white": players}))
    return offered


def form(
    name: str, choices: Mapping[str, list[Any]], labels: Mapping[str, str] | None = None
) -> dict[str, Any]:
    spec = COMMANDS[name]
    labels = labels or {}
    return {
        "command": name,
        "label": spec.label,
        "fields": [
            {
                "name": arg,
                "kind": given.kind,
                "label": labels.get(arg, given.label),
                "required": given.required,
                "choices": choices.get(arg),
            }
            for arg, given in spec.args.items()
        ],
    }


# the host's words: the phase open now, who it waits on, what its close does

PHASES = {
    "not_started": "waiting for the opening",
    "pregame": "the pre-game (rate, order and teams)",
    "round": "a round's submissions",
    "resolving": "a round being resolved",
    "scored": "between rounds",
    "ec_decision": "the EC decision",
    "over": "over",
}


def acting(view: Mapping[str, Any]) -> list[str]:
    """Every player in the pre-game and in a round; the deciders in the EC decision."""
    if view["phase"] in ("pregame", "round"):
        return list(view["players"])
    if view["phase"] == "ec_decision":
        return list(view["end"]["deciders"])
    return []


def on_close(view: Mapping[str, Any], waiting: Sequence[str]) -> str | None:
    """What the host's close does now, in a sentence (the page asks before it is sent)."""
    phase, missing = view["phase"], len(waiting)
    have = "s have" if missing != 1 else " has"
    if phase == "pregame":
        return ("The pre-game closes: the rate is the mean of those proposed, the order and the "
                "teams are the winners' picks, else the defaults; round 1 opens.")
    if phase == "round":
        if not missing:
            return f"Everyone has submitted for round {view['round']}: the round is resolved."
        return (f"{missing} player{have} not submitted for round {view['round']}: each plays "
                "the defaults ($0, bids of 0, a drawn Chip Thief role), then the round is "
                "resolved.")
    if phase == "ec_decision":
        if not missing:
            return "Every decider has chosen: the choices decide the EC."
        return (f"{missing} decider{have} not chosen and {'are' if missing != 1 else 'is'} "
                "not counted; the choices sent decide the EC.")
    return None
