"""The guild's fixed numbers (rulebook §2): houses, resources, bills, weeks and prices."""

from __future__ import annotations

from itertools import combinations

GAME_ID = "merchants_guild"

HOUSES = ("red", "green", "blue", "black", "white")  # canonical order (MG-R38)
RESOURCES = ("forges", "ships", "markets")  # also the ranking's tie order (MG-R24)
STARTING_RESOURCE = 1

# The ten 3-of-5 combinations in canonical order: one per player (MG-R5).
COMBINATIONS = tuple(combinations(HOUSES, 3))

PLAYER_COUNT = 10
BILL_NUMBERS = tuple(range(1, 61))
PAIR_COUNT = 30
WEEKS = 8
PAIRS_PER_WEEK = 3
VOTES_PER_WEEK = 2
DOUBLE_PASS_VOTES = 4  # a pair tied at exactly this many votes passes both (MG-R9)
INVESTIGATION_WEEK = 4
BLACKMAIL_WEEK = 5
INVESTIGATED_HOUSES = 3

HOUSE_GOLD_BY_RANK = {1: 3, 2: 2, 3: 1}  # rank 4 and below pay nothing
TAX = 2

PAID_PUSH_PRICE = 1
LOOKUP_PRICE = 1
EXTRA_INVESTIGATION_PRICE = 5

DIRECTIONS = {"forward": 1, "back": -1}
