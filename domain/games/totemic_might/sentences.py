"""The match in words, one event at a time: each kind of event the viewer may see becomes a few
plain sentences in the game's own words (rules 7 says who sees which). `viewer` turns the
viewer's own doings into "you"; the host reads every player's by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from domain.games.totemic_might.grid import SEASONS, SIGILS

Data = Mapping[str, Any]
Told = dict[str, Any]  # what earlier events said that later sentences need
Sentences = Callable[[Data, str, Told], list[str]]

LONGEST = 199  # a line of the story; longer sentences go on over the next line
RESULT_WORDS = {"LEFT_HEAVIER": "the left pan is heavier", "RIGHT_HEAVIER":
                "the right pan is heavier", "BALANCED": "the pans balance"}


def listed(items: Iterable[Any]) -> str:
    words = [str(item) for item in items]
    return ", ".join(words) if words else "nothing"


def by_name(values: Mapping[str, Any]) -> str:
    return ", ".join(f"{player} {value}" for player, value in values.items())


def count(number: int, word: str, plural: str | None = None) -> str:
    return f"{number} {word if number == 1 else plural or word + 's'}"


def who(player: str, viewer: str) -> str:
    return "You" if player == viewer else player


def pieces(tokens: Sequence[str]) -> str:
    return " + ".join(tokens) if tokens else "nothing"


def weight_rows(weights: Mapping[str, int]) -> list[str]:
    """One sentence per season, the sigils in grid order."""
    return [
        f"{season}: " + ", ".join(f"{sigil} {weights[f'{season}-{sigil}']}" for sigil in SIGILS)
        + "."
        for season in SEASONS
    ]


# Opening


def game_opened(data: Data, viewer: str, told: Told) -> list[str]:
    told["garnets_start"] = dict(data["garnets_start"])
    told["wolf_modulus"] = data["config"]["wolf_modulus"]
    chips = set(data["chips"].values())
    each = f"{chips.pop()} chips each" if len(chips) == 1 else by_name(data["chips"])
    return [
        f"Seven players: {listed(data['players'])}; {each}.",
        f"Garnets at the start: {by_name(data['garnets_start'])}.",
        f"Priority list: {listed(data['priority_list'])}.",
    ]


def starting_totem_dealt(data: Data, viewer: str, told: Told) -> list[str]:
    if data["player"] == viewer:
        return [f"Your starting spirit totem is {data['totem']}, weighing {data['weight']}."]
    return [f"{data['player']} starts with {data['totem']}, weighing {data['weight']}."]


def secret_setup_recorded(data: Data, viewer: str, told: Told) -> list[str]:
    return [
        "The secret setup is sealed. Weights:", *weight_rows(data["weights"]),
        f"Spirit pool: {listed(data['spirit_pool'])}.",
    ]


# Rounds


def round_opened(data: Data, viewer: str, told: Told) -> list[str]:
    number = data["round"]
    if data["round_type"] != "auction":
        return [f"Round {number} is the final weighing round: no auction and no transfers, "
                "three weighings and one wager."]
    series = data["series"]
    return [f"Series {number}{name}: {listed(series[name])}." for name in ("A", "B")]


def spirit_pool_shown(data: Data, viewer: str, told: Told) -> list[str]:
    return [f"{who(data['player'], viewer)} may choose a spirit totem from the pool: "
            f"{listed(data['pool'])}."]


def bet_placed(data: Data, viewer: str, told: Told) -> list[str]:
    return [f"{who(data['player'], viewer)} bet {data['amount']} on series "
            f"{data['round']}{data['series']}."]


def pick_order_set(data: Data, viewer: str, told: Told) -> list[str]:
    return [f"{who(data['player'], viewer)} ranked series {data['round']}{data['series']}: "
            f"{listed(data['order'])}."]


def spirit_choice_made(data: Data, viewer: str, told: Told) -> list[str]:
    return [f"{who(data['player'], viewer)} chose the spirit totem {data['totem']}."]


def weighing_performed(data: Data, viewer: str, told: Told) -> list[str]:
    answer = RESULT_WORDS.get(data["result"], "answered at the deadline")
    return [f"{who(data['player'], viewer)} weighed {pieces(data['left'])} against "
            f"{pieces(data['right'])}: {answer} (use {data['use']})."]


def wager_words(wager: Mapping[str, Any]) -> str:
    kind = wager["kind"]
    if kind == "snake":
        return f"Snake, letter {wager['letter']}"
    named = listed(wager["totems"])
    if kind == "bear":
        return f"Bear on {named}" + (" (band of 5)" if wager.get("fine") else "")
    if kind == "fox":
        return f"Fox on {named}, paid with {wager['payment']}"
    return f"Wolf on {named}"


def wager_placed(data: Data, viewer: str, told: Told) -> list[str]:
    return [f"{who(data['player'], viewer)} wagered: {wager_words(data['wager'])}."]


def wager_cancelled(data: Data, viewer: str, told: Told) -> list[str]:
    done = "cancelled the wager" if data["cancelled"] else "cancelled no wager (none stood)"
    return [f"{who(data['player'], viewer)} {done}."]


def transfer_words(data: Data, viewer: str) -> str:
    """"ada's gift 1 to bo: T:Spring-Secret", "bo's trade 1 with cy: ... for ..."."""
    proposer = "Your" if data["proposer"] == viewer else f"{data['proposer']}'s"
    other = "you" if data["to"] == viewer else data["to"]
    if data["kind"] == "gift":
        return f"{proposer} gift {data['id']} to {other}: {pieces(data['give'])}"
    return (f"{proposer} trade {data['id']} with {other}: {pieces(data['give'])} for "
            f"{pieces(data['receive'])}")


def transfer_proposed(data: Data, viewer: str, told: Told) -> list[str]:
    return [f"{transfer_words(data, viewer)}, proposed."]


def transfer_cancelled(data: Data, viewer: str, told: Told) -> list[str]:
    proposer = "Your" if data["proposer"] == viewer else f"{data['proposer']}'s"
    return [f"{proposer} {data['kind']} {data['id']} was cancelled."]


# Deadlines


def spirit_grant_resolved(data: Data, viewer: str, told: Told) -> list[str]:
    source = {"choice": "chosen", "spirit_default": "drawn (no choice)",
              "spirit_shared": "drawn for the group"}[data["source"]]
    return [f"Spirit totem for {listed(data['recipients'])}: {data['totem']}, {source}; "
            f"pool left: {listed(data['pool_after'])}."]


def spirit_totem_granted(data: Data, viewer: str, told: Told) -> list[str]:
    if data["pool_empty"]:
        return [f"The spirit pool is empty: {listed(data['owed'])} receive nothing."]
    if len(data["recipients"]) > 1:
        return [f"{listed(data['recipients'])} each receive a spirit totem of one shared type."]
    return [f"{listed(data['recipients'])} receives a spirit totem."]


def spirit_totem_received(data: Data, viewer: str, told: Told) -> list[str]:
    return [f"{who(data['player'], viewer)} received the spirit totem {data['totem']} "
            "(its weight stays secret)."]


def series_bids_recorded(data: Data, viewer: str, told: Told) -> list[str]:
    name = f"{data['round']}{data['series']}"
    lines = [f"Bids on {name}: {by_name(data['bids'])}; order {listed(data['order'])}."]
    lines += [f"Drawn pick for {draw['key'].rsplit('|', 1)[-1]} in {name}: {draw['outcome']}."
              for draw in data["draws"]]
    return lines


def series_resolved(data: Data, viewer: str, told: Told) -> list[str]:
    taken = {p: item for p, item in data["allocation"].items() if item is not None}
    empty = [p for p, item in data["allocation"].items() if item is None]
    nothing = f"; nothing for {listed(empty)}" if empty else ""
    return [f"Series {data['round']}{data['series']}: {by_name(taken)}{nothing}."]


def chips_updated(data: Data, viewer: str, told: Told) -> list[str]:
    return [f"Chips: {by_name(data['chips'])}."]


def priority_list_updated(data: Data, viewer: str, told: Told) -> list[str]:
    return [f"Priority list: {listed(data['priority_list'])}."]


def spirit_totems_owed(data: Data, viewer: str, told: Told) -> list[str]:
    if not data["players"]:
        return ["Everyone won a totem: nobody is owed a spirit totem."]
    return [f"No totem this round for {listed(data['players'])}: owed a spirit totem at the "
            "next deadline."]


def trial_copies_destroyed(data: Data, viewer: str, told: Told) -> list[str]:
    if not data["copies"]:
        return []
    return [f"{who(data['player'], viewer)} lost the copies used on the scale: "
            f"{by_name(data['copies'])}."]


def weighings_answered(data: Data, viewer: str, told: Told) -> list[str]:
    return [f"{who(data['player'], viewer)}, weighing {answer['use']}: "
            f"{RESULT_WORDS[answer['result']]}." for answer in data["results"]]


def transfers_settled(data: Data, viewer: str, told: Told) -> list[str]:
    """A player reads their whole account; the host, who reads every account, each transfer
    once, in its proposer's."""
    accounted = [t for t in data["transfers"]
                 if data["player"] == viewer or t["proposer"] == data["player"]]
    return [f"{transfer_words(t, viewer)}: {t['status']}." for t in accounted]


def wagers_settled(data: Data, viewer: str, told: Told) -> list[str]:
    snake = data["snake"]
    lines = []
    if snake["assigned"]:
        letters = by_name({p: letter or "none" for p, letter in snake["assigned"].items()})
        lines.append(f"Snake letters: {letters}; taken now: {listed(snake['taken_after'])}.")
    if data["balloons"]:
        made = ", ".join(f"{b['id']} lift {b['lift']}" for b in data["balloons"])
        lines.append(f"Balloons made: {made}.")
    return lines


def wager_settled(data: Data, viewer: str, told: Told) -> list[str]:
    if data["kind"] is None:
        return []
    name = who(data["player"], viewer)
    wager = data["wager"]
    if not data["took_place"]:
        why = {"insufficient_garnets": "not enough garnets left", "no_letter":
               "no letter left to give"}[data["lapsed"]]
        return [f"{name}: the {wager_words(wager)} did not take place ({why})."]
    paid = f"; {count(data['cost'], 'garnet')} paid" if data["cost"] else ""
    balloon = f"; balloon {data['balloon']}" if data.get("balloon") else ""
    named = listed(wager.get("totems", []))
    if data["kind"] == "snake":
        bumped = f" (bumped from {wager['letter']})" if data["bumped"] else ""
        return [f"{name}: Snake letter {data['letter']}{bumped}, balloon {data['balloon']} of "
                f"lift {data['lift']}.", f"Hint {data['letter']}: {data['hint']}"]
    if data["kind"] == "bear":
        low, high = data["answer"]
        return [f"{name}: Bear on {named}: between {low} and {high}{paid}."]
    if data["kind"] == "wolf":
        modulus = told.get("wolf_modulus", "the Wolf's number")
        return [f"{name}: Wolf on {named}: they differ by {data['answer']} modulo "
                f"{modulus}{balloon}."]
    return [f"{name}: Fox on {named}: {data['answer']} in all{paid}{balloon}."]


def auctions_ended(data: Data, viewer: str, told: Told) -> list[str]:
    return [f"Enough players are low on chips: round {data['after_round']} was the last "
            "auction."]


# The final challenge


def final_challenge_opened(data: Data, viewer: str, told: Told) -> list[str]:
    return ["The final challenge opens: every trial copy is discarded; split your pieces into "
            "three groups of equal weight."]


def final_pieces_issued(data: Data, viewer: str, told: Told) -> list[str]:
    own = [token for token in data["pieces"] if not token.startswith("C:")]
    return [f"{who(data['player'], viewer)} must place a copy of every totem and "
            f"{listed(own)}."]


def balance_attempted(data: Data, viewer: str, told: Told) -> list[str]:
    name = who(data["player"], viewer)
    if data["balanced"]:
        return [f"{name}: attempt {data['attempt']} balances, three groups of "
                f"{data['final_weight']}."]
    return [f"{name}: attempt {data['attempt']} does not balance "
            f"({count(data['failure_marks'], 'failure mark')})."]


def guess_recorded(data: Data, viewer: str, told: Told) -> list[str]:
    return [f"{who(data['player'], viewer)} guessed that {data['target']} started with "
            f"{data['totem']}."]


def guess_withdrawn(data: Data, viewer: str, told: Told) -> list[str]:
    if not data["withdrawn"]:
        return []
    return [f"{who(data['player'], viewer)} withdrew the guess on {data['target']}."]


def match_results(data: Data, viewer: str, told: Told) -> list[str]:
    lines = [f"Starting totems: {by_name(data['starting_totems'])}."]
    start = told.get("garnets_start", {})
    for player in data["ranking"]:
        row = data["players"][player]
        guessed = (f", found by {listed(row['guessed_by'])} (-{row['penalty']})"
                   if row["guessed_by"] else "")
        change = row["end_garnets"] - start.get(player, row["end_garnets"])
        lines.append(
            f"{row['rank']}. {player}: {count(row['failure_marks'], 'failure mark')}, weight "
            f"{row['final_weight']}{guessed}, score {row['final_score']}; "
            f"{count(row['correct_guesses'], 'correct guess', 'correct guesses')}, "
            f"{count(row['wagers_taken'], 'wager')}, garnets {row['end_garnets']} "
            f"({change:+d}).")
    lines.append(f"{data['winner']} wins: 2 ToL and an Opal. {data['ec']} is the EC.")
    opal = data["opal_challenge"]
    lines.append(f"Opal challenge: {opal} wins an Opal." if opal else
                 "Opal challenge: nobody wins it.")
    return lines


def setup_revealed(data: Data, viewer: str, told: Told) -> list[str]:
    lines = ["The sealed setup is opened. Weights:", *weight_rows(data["weights"]),
             f"Spirit pool at the start: {listed(data['spirit_pool'])}."]
    lines += [f"Hint {hint['letter']} (lift {hint['lift']}): {hint['text']}"
              for hint in data["snake_hints"]]
    return lines


SENTENCES: dict[str, Sentences] = {
    "SecretSetupRecorded": secret_setup_recorded,
    "GameOpened": game_opened,
    "StartingTotemDealt": starting_totem_dealt,
    "RoundOpened": round_opened,
    "SpiritPoolShown": spirit_pool_shown,
    "BetPlaced": bet_placed,
    "PickOrderSet": pick_order_set,
    "SpiritChoiceMade": spirit_choice_made,
    "WeighingPerformed": weighing_performed,
    "WagerPlaced": wager_placed,
    "WagerCancelled": wager_cancelled,
    "TransferProposed": transfer_proposed,
    "TransferCancelled": transfer_cancelled,
    "SpiritGrantResolved": spirit_grant_resolved,
    "SpiritTotemGranted": spirit_totem_granted,
    "SpiritTotemReceived": spirit_totem_received,
    "SeriesBidsRecorded": series_bids_recorded,
    "SeriesResolved": series_resolved,
    "ChipsUpdated": chips_updated,
    "PriorityListUpdated": priority_list_updated,
    "SpiritTotemsOwed": spirit_totems_owed,
    "TrialCopiesDestroyed": trial_copies_destroyed,
    "WeighingsAnswered": weighings_answered,
    "TransfersSettled": transfers_settled,
    "WagersSettled": wagers_settled,
    "WagerSettled": wager_settled,
    "AuctionsEnded": auctions_ended,
    "FinalChallengeOpened": final_challenge_opened,
    "FinalPiecesIssued": final_pieces_issued,
    "BalanceAttempted": balance_attempted,
    "GuessRecorded": guess_recorded,
    "GuessWithdrawn": guess_withdrawn,
    "MatchResults": match_results,
    "SetupRevealed": setup_revealed,
}
