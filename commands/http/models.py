"""Request bodies and path parameters: shape and plain-text checks only; the rules decide
everything else (and answer with their own codes)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)

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
SEASON_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
ORIGIN_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._~-]*(/[A-Za-z0-9._~-]+)*$"
SeasonId = Annotated[str, Path(pattern=SEASON_PATTERN, description="The season id")]
PlayerId = Annotated[str, Path(max_length=100, description="A player of the match"),
                     AfterValidator(plain_name)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OriginIn(Body):
    prefix: str = Field(max_length=200, pattern=ORIGIN_PATTERN,
                        description="The prefix of every checkpoint origin this host signs, "
                                    "set once: e.g. its domain")


class SeasonIn(Body):
    name: str = Field(pattern=SEASON_PATTERN, description="1 to 64 letters, digits, '.', '_' "
                                                          "or '-'")


class PlayerIn(Body):
    """One player, or a list registered in one save (all or none)."""

    player: Name | None = None
    players: list[Name] | None = Field(default=None, min_length=1, max_length=500)

    @model_validator(mode="after")
    def check_one_form(self) -> PlayerIn:
        if (self.player is None) == (self.players is None):
            raise ValueError("give player or players")
        return self

    @property
    def names(self) -> list[str]:
        return [self.player] if self.player is not None else list(self.players or ())


class GrantLine(Body):
    player: Name
    amount: Amount = Field(description="Negative to take away")
    asset: Name = "garnets"
    reason: Text


class GrantIn(Body):
    """One grant (player, amount, asset, reason), or a list of them in one save (all or
    none)."""

    player: Name | None = None
    amount: Amount | None = Field(default=None, description="Negative to take away")
    asset: Name = "garnets"
    reason: Text | None = None
    grants: list[GrantLine] | None = Field(default=None, min_length=1, max_length=1000)

    @model_validator(mode="after")
    def check_one_form(self) -> GrantIn:
        single = (self.player, self.amount, self.reason)
        if (self.grants is None and None in single) or (self.grants is not None and any(
                v is not None for v in single)):
            raise ValueError("give player, amount and reason, or grants")
        return self

    @property
    def lines(self) -> list[GrantLine]:
        if self.grants is not None:
            return list(self.grants)
        return [GrantLine(player=self.player, amount=self.amount, asset=self.asset,
                          reason=self.reason)]


class DmoIn(Body):
    match: Name = Field(description="The Main Match")
    dmo: Name
    ec: Name | None = Field(default=None, description="Which EC (or early King), when the "
                                                      "Main Match has several")
    reason: Text = Field(description="How the DMO was chosen")


class RulingIn(Body):
    player: Name
    reason: Text
    changes: dict[Literal["tol", "opal", "moe"], Amount] = Field(default_factory=dict)
    status: Literal["eliminated", "reinstated"] | None = None


class TokensIn(Body):
    base_url: str | None = Field(default=None, max_length=500,
                                 pattern=r"^https?://[^\s?#]+$",
                                 description="The service's public address: each player's "
                                             "link is BASE/m/MATCH/join#TOKEN")


class TransferIn(Body):
    giver: Name
    receiver: Name
    amount: Amount
    reason: Text = "trade"


class MatchIn(Body):
    match: Name
    season: str = Field(pattern=SEASON_PATTERN)
    game: Name
    players: list[Name] | None = Field(
        default=None, min_length=1, max_length=100,
        description="In seat order; a Death Match's and the Final's come from the season")
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
    from_: Name | None = Field(default=None, alias="from",
                               description="A Death Match (tile_joust): this Main Match's EC "
                                           "against its DMO")
    ec: Name | None = Field(default=None, description="With from: which EC, when several")
    final: bool = Field(default=False, description="The Final Match of the last two "
                                                   "(tile_joust)")


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
    link: str | None = None


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
