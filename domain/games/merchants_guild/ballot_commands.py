"""Votes, nominations, paid pushes and partner look-ups (rulebook §5.2), checks in the listed
order after the common ones."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import RuleViolation
from domain.games.merchants_guild import events
from domain.games.merchants_guild.checks import (
    check_bill_is_eligible,
    check_can_afford,
    check_direction,
    check_is_bill,
    check_selection_can_still_matter,
)
from domain.games.merchants_guild.guild import LOOKUP_PRICE, PAID_PUSH_PRICE, VOTES_PER_WEEK
from domain.games.merchants_guild.state import State
from domain.games.merchants_guild.turn import Turn

Args = Mapping[str, Any]


def vote(turn: Turn, actor: str, args: Args) -> None:
    """Replaces the actor's votes for this week; an empty list withdraws them (MG-R8)."""
    state = turn.state
    bills = args.get("bills")
    if isinstance(bills, list) and len(bills) > VOTES_PER_WEEK:
        raise RuleViolation("too_many_votes", f"at most {VOTES_PER_WEEK} votes a week")
    if not isinstance(bills, list):
        raise RuleViolation("unknown_bill", "bills must be a list of bill numbers")
    for bill in bills:
        check_is_bill(bill)
    if len(set(bills)) != len(bills):
        raise RuleViolation("duplicate_vote", "you cannot vote for the same bill twice")
    on_ballot = state.on_ballot()
    for bill in bills:
        if bill not in on_ballot:
            raise RuleViolation("bill_not_on_ballot", f"bill {bill} is not on this week's ballot")
    turn.emit(events.vote_cast(state.week, actor, list(bills)))


def nominate(turn: Turn, actor: str, args: Args) -> None:
    """The free nomination: replaces the actor's nomination for this week (MG-R12)."""
    state = turn.state
    check_selection_can_still_matter(state)
    bill = check_is_bill(args.get("bill"))
    direction = check_direction(args.get("direction"))
    check_bill_is_eligible(state, bill)
    turn.emit(events.priority_nominated(state.week, actor, bill, direction, False, 0))


def paid_push(turn: Turn, actor: str, args: Args) -> None:
    """Once a week, on top of the free nomination, irrevocable (MG-R15)."""
    state = turn.state
    check_selection_can_still_matter(state)
    bill = check_is_bill(args.get("bill"))
    direction = check_direction(args.get("direction"))
    check_bill_is_eligible(state, bill)
    if actor in state.pushes:
        raise RuleViolation("already_used_this_week", "one paid push per week")
    check_can_afford(turn, actor, PAID_PUSH_PRICE)
    turn.emit(events.priority_nominated(state.week, actor, bill, direction, True, PAID_PUSH_PRICE))


def reveal_partner(turn: Turn, actor: str, args: Args) -> None:
    """Answered privately at the deadline; refused only where the actor knows the answer."""
    state = turn.state
    check_selection_can_still_matter(state)
    bill = check_is_bill(args.get("bill"))
    check_partner_is_unknown_to(state, actor, bill)
    check_lookups_left(state, actor)
    check_can_afford(turn, actor, LOOKUP_PRICE)
    turn.emit(events.partner_lookup_requested(state.week, actor, bill, LOOKUP_PRICE))


def check_partner_is_unknown_to(state: State, player: str, bill: int) -> None:
    """Presented pairs are public; a pair told at an earlier deadline is known whichever half
    was asked; the same bill twice in a week is pointless. The other half of a pair asked this
    week is NOT refused: the player cannot know yet that they are partners (MG-R18)."""
    if bill in state.presented:
        raise RuleViolation("partner_already_known", f"bill {bill} has been presented with it")
    if bill in state.known_partners.get(player, frozenset()):
        raise RuleViolation("partner_already_known", f"you were told bill {bill}'s partner")
    if bill in state.lookups.get(player, ()):
        raise RuleViolation("partner_already_known", f"you asked about bill {bill} this week")


def check_lookups_left(state: State, player: str) -> None:
    limit = state.setup.lookup_limit_per_week
    if limit is not None and len(state.lookups.get(player, ())) >= limit:
        raise RuleViolation("lookup_limit", f"at most {limit} look-ups a week")
