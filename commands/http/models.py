"""Request bodies and path parameters: shape and plain-text checks only; the rules decide
everything else (and answer with their own codes)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import Path
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from commands.app import Outcome

LIMIT = 10**9  # the largest grant or trade: balances stay far inside the log's integer range


def plain_name(value: str) -> str:
    """Ids and names: printable, no surrounding spaces."""
    if value != value.strip() or not value.isprintable() or has_surrogates(value):
        raise ValueError("use printable characters without surrounding spaces")
    return value


def plain_text(value: str) -> str:
    if "\x00" in value or has_surrogates(value):
        raise ValueError("no NUL characters or lone surrogates")
    return value


def plain_json(value: Any) -> Any:
    """Command arguments and setups: every text in them plain."""
    if isinstance(value, str):
        plain_text(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            plain_text(key)
            plain_json(item)
    elif isinstance(value, list):
        for item in value:
            plain_json(item)
    return value


def has_surrogates(value: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in value)


def iso_instant(value: str) -> str:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError("give an ISO 8601 time, e.g. 2026-11-21T20:00:00Z") from None
    if moment.tzinfo is None:
        raise ValueError("give the time zone, e.g. 2026-11-21T20:00:00Z")
    return value


Name = Annotated[str, StringConstraints(min_length=1, max_length=100), AfterValidator(plain_name)]
Text = Annotated[str, StringConstraints(max_length=2000), AfterValidator(plain_text)]
Args = Annotated[dict[str, Any], AfterValidator(plain_json)]
Seed = Annotated[str, StringConstraints(min_length=1, max_length=2000),
                 AfterValidator(plain_text)]
Amount = Annotated[int, Field(strict=True, ge=-LIMIT, le=LIMIT)]

MatchId = Annotated[str, Path(max_length=100, description="The match id"),
                    AfterValidator(plain_name)]
SeasonId = Annotated[str, Path(max_length=100, description="The season id"),
                     AfterValidator(plain_name)]
PlayerId = Annotated[str, Path(max_length=100, description="A player of the match"),
                     AfterValidator(plain_name)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeasonIn(Body):
    name: Name


class PlayerIn(Body):
    player: Name


class GrantIn(Body):
    player: Name
    amount: Amount = Field(description="Negative to take away")
    asset: Name = "garnets"
    reason: Text


class TransferIn(Body):
    giver: Name
    receiver: Name
    amount: Amount
    reason: Text = "trade"


class MatchIn(Body):
    match: Name
    season: Name
    game: Name
    players: list[Name] = Field(min_length=1, max_length=100, description="In seat order")
    setup: Args = Field(default_factory=dict, description="The game's setup, but players")
    host_seed: Seed | None = Field(
        default=None, description="Secret seed (default: 256 random bits); under 32 "
        "characters only with allow_weak_seed")
    allow_weak_seed: bool = Field(
        default=False, description="Accept a seed under 128 bits; the genesis entry says so")
    unsigned: bool = Field(
        default=False, description="Run the match without signed checkpoints (the genesis "
        "entry says so); without it, a service with no host key refuses (no_host_key)")
    salt_key: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")] | None = Field(
        default=None, description="64 hex digits (default: random)")


class CommandIn(Body):
    command: Name
    args: Args = Field(default_factory=dict)
    id: Name | None = Field(default=None, description="Client id: a repeat is answered once")


class CloseIn(Body):
    phase: Name = Field(default="round", description="round, tiebreak, king_gift, ...")


class DeadlineIn(Body):
    deadline: Annotated[Text, AfterValidator(iso_instant)]


class CorrectionIn(Body):

    reason: Text
    void: Amount | None = Field(default=None, description="Void the submission at this seq")
    as_: Name | None = Field(default=None, alias="as", description="Enter a command for...")
    command: Name | None = None
    args: Args = Field(default_factory=dict)


class EndIn(Body):
    reason: Text


class TokenOut(BaseModel):
    match: str
    player: str
    token: str


class OutcomeOut(BaseModel):
    """An accepted command: the seqs it appended, the sender's receipt, what they were told."""

    match: str
    seqs: list[int]
    receipt: dict[str, Any] | None
    told: list[dict[str, Any]]

    @classmethod
    def of(cls, outcome: Outcome) -> OutcomeOut:
        return cls(match=outcome.match, seqs=outcome.seqs, told=outcome.told,
                   receipt=outcome.receipt.as_dict() if outcome.receipt else None)
