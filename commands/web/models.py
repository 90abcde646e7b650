"""Request bodies and path parameters: shape and plain-text checks only; the rules decide
everything else (and answer with their own codes)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    StringConstraints,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from commands.service.outcomes import Outcome
from domain.edge import excerpt
from domain.games import game_ids
from domain.season import ASSETS

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


def whole(value: Any) -> Any:
    """JSON Schema's integer: 3.0 is 3 (a fraction or a text stays refused)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
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


# The schema states what the domain's edge enforces (domain.edge), as far as a pattern can:
# beyond Latin-1 the domain also refuses what Unicode calls unprintable.
NAME_PATTERN = r"^[^\s\x00-\x1f\x7f-\x9f](?:[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f])?$"
FIT = r"[^\x00-\x08\x0b-\x1f\x7f-\x9f]"  # a character a text may hold (tabs, newlines)
REASON_PATTERN = rf"^{FIT}*[^\s\x00-\x1f\x7f-\x9f]{FIT}*$"  # not blank
Name = Annotated[str, StringConstraints(min_length=1, max_length=100, pattern=NAME_PATTERN),
                 AfterValidator(plain_name)]
Text = Annotated[str, StringConstraints(max_length=2000, pattern=rf"^{FIT}*$"),
                 AfterValidator(plain_text)]
Reason = Annotated[str, StringConstraints(min_length=1, max_length=2000, pattern=REASON_PATTERN),
                   AfterValidator(plain_text)]
# A command's arguments are the domain's to judge (domain.edge: unknown_argument, too_large,
# invalid_text); a setup is the game's (invalid_setup), its texts checked by the route.
Args = Annotated[dict[str, Any], Field(max_length=100, description="The command's arguments, "
                                       "as `arbiter games GAME` lists them")]
Seed = Annotated[str, StringConstraints(min_length=1, max_length=2000, pattern=r"^[^\x00]*$"),
                 AfterValidator(plain_text)]
Omitted = SkipJsonSchema[None]  # an optional field, left out: never null
Whole = BeforeValidator(whole)
Amount = Annotated[int, Field(strict=True, ge=-LIMIT, le=LIMIT), Whole]
NonZero = Annotated[int, Field(strict=True, ge=-LIMIT, le=LIMIT,
                               json_schema_extra={"not": {"const": 0}}), Whole]
Positive = Annotated[int, Field(strict=True, ge=1, le=LIMIT), Whole]

MatchId = Annotated[str, Path(max_length=100, pattern=NAME_PATTERN, description="The match id"),
                    AfterValidator(plain_name)]
Asset = Literal[ASSETS]  # type: ignore[valid-type]
SEASON_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
ORIGIN_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._~-]*(/[A-Za-z0-9._~-]+)*$"
SeasonId = Annotated[str, Path(pattern=SEASON_PATTERN, description="The season id")]
PlayerId = Annotated[str, Path(max_length=100, pattern=NAME_PATTERN,
                               description="A player of the match"),
                     AfterValidator(plain_name)]


# A client's command id, as a message id or a form's one-time id: the command it came with is
# carried out once, and sent again under it, answered as the first sending was.
CLIENT_ID = "Client id: a repeat is answered once"


class Body(BaseModel):
    """A request body: no key it does not know, and no explicit null (an optional field is
    left out), so the schema states exactly what is accepted."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def no_nulls(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for key, value in data.items():
                if value is None:
                    raise ValueError(f"{excerpt(key)}: leave an optional field out, not null")
        return data


class OriginIn(Body):
    prefix: str = Field(max_length=200, pattern=ORIGIN_PATTERN,
                        description="The prefix of every checkpoint origin this host signs, "
                                    "set once: e.g. its domain")


class SeasonIn(Body):
    name: str = Field(pattern=SEASON_PATTERN, description="1 to 64 letters, digits, '.', '_' "
                                                          "or '-'")
    id: Name | Omitted = Field(default=None, description=CLIENT_ID)


class PlayerIn(Body):
    """One player, or a list registered in one save (all or none)."""

    model_config = ConfigDict(json_schema_extra={"oneOf": [
        {"required": ["player"]}, {"required": ["players"]}]})

    player: Name | Omitted = None
    players: Annotated[list[Name], Field(min_length=1, max_length=500)] | Omitted = None
    id: Name | Omitted = Field(default=None, description=CLIENT_ID)

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
    amount: NonZero = Field(description="Negative to take away")
    asset: Asset = "garnets"
    reason: Reason


class GrantIn(Body):
    """One grant (player, amount, asset, reason), or a list of them in one save (all or
    none)."""

    model_config = ConfigDict(json_schema_extra={"oneOf": [
        {"required": ["player", "amount", "reason"],
         "not": {"required": ["grants"]}},
        {"required": ["grants"], "not": {"anyOf": [
            {"required": ["player"]}, {"required": ["amount"]}, {"required": ["reason"]}]}}]})

    player: Name | Omitted = None
    amount: NonZero | Omitted = Field(default=None, description="Negative to take away")
    asset: Asset = "garnets"
    reason: Reason | Omitted = None
    grants: Annotated[list[GrantLine], Field(min_length=1, max_length=1000)] | Omitted = None
    id: Name | Omitted = Field(default=None, description=CLIENT_ID)

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
    ec: Name | Omitted = Field(default=None, description="Which EC (or early King), when the "
                                                      "Main Match has several")
    reason: Reason = Field(description="How the DMO was chosen")
    id: Name | Omitted = Field(default=None, description=CLIENT_ID)


class RulingIn(Body):
    player: Name
    reason: Reason
    changes: dict[Literal["tol", "opal", "moe"], Amount] = Field(default_factory=dict)
    status: Literal["eliminated", "reinstated"] | Omitted = None
    id: Name | Omitted = Field(default=None, description=CLIENT_ID)


class TokensIn(Body):
    base_url: Annotated[str, StringConstraints(max_length=500,
                                               pattern=r"^https?://[^\s?#]+$")] | Omitted = \
        Field(default=None, description="The service's public address: each player's "
                                             "link is BASE/m/MATCH/join#CODE, a new join "
                                             "code that opens their pages (not the token)")


class TransferIn(Body):
    giver: Name
    receiver: Name
    amount: Positive
    reason: Text = "trade"
    id: Name | Omitted = Field(default=None, description=CLIENT_ID)


def game_enum(schema: dict[str, JsonValue]) -> None:
    schema["enum"] = [*game_ids()]


class MatchIn(Body):
    model_config = ConfigDict(json_schema_extra={"anyOf": [
        {"required": ["players"]}, {"required": ["from"]},
        {"required": ["final"], "properties": {"final": {"const": True}}}]})

    match: Name
    season: str = Field(pattern=SEASON_PATTERN)
    game: str = Field(json_schema_extra=game_enum,
                      description="One of the games `arbiter games` lists")
    players: Annotated[list[Name], Field(min_length=1, max_length=100)] | Omitted = Field(
        default=None,
        description="In seat order; a Death Match's and the Final's come from the season")
    setup: dict[str, Any] = Field(default_factory=dict,
                                  description="The game's setup, but players")
    host_seed: Seed | Omitted = Field(
        default=None, description="Secret seed (default: 256 random bits); under 32 "
        "characters only with allow_weak_seed")
    allow_weak_seed: bool = Field(
        default=False, description="Accept a seed under 128 bits; the genesis entry says so")
    unsigned: bool = Field(
        default=False, description="Run the match without signed checkpoints (the genesis "
        "entry says so); without it, a service with no host key refuses (no_host_key)")
    salt_key: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")] | Omitted = Field(
        default=None, description="64 hex digits (default: random)")
    from_: Name | Omitted = Field(default=None, alias="from",
                               description="A Death Match (tile_joust): this Main Match's EC "
                                           "against its DMO")
    ec: Name | Omitted = Field(default=None, description="With from: which EC, when several")
    final: bool = Field(default=False, description="The Final Match of the last two "
                                                   "(tile_joust)")
    id: Name | Omitted = Field(default=None, description=CLIENT_ID)


RoundNumber = Annotated[int, Field(strict=True, ge=0, le=2**31), Whole]


class CommandIn(Body):
    command: Name
    args: Args = Field(default_factory=dict)
    id: Name | Omitted = Field(default=None, description=CLIENT_ID)
    round: RoundNumber | Omitted = Field(
        default=None, description="The round the command is meant for: refused (round_moved), "
                                  "nothing recorded, once another round is open")


class CloseIn(Body):
    phase: Annotated[Name, StringConstraints(max_length=90)] = Field(
        default="round", description="round, tiebreak, king_gift, ...: the close command "
                                     "close_PHASE")
    round: RoundNumber = Field(description="The round the close is meant for (the open one, "
                                           "`round` of the dashboard): refused (round_moved), "
                                           "nothing recorded, once another round is open")


Instant = Annotated[str, StringConstraints(max_length=64), AfterValidator(iso_instant),
                   Field(json_schema_extra={"format": "date-time"})]


class DeadlineIn(Body):
    deadline: Literal["now"] | Instant = Field(
        description="An ISO 8601 time with its zone, e.g. 2026-11-21T20:00:00Z, or `now` "
                    "(a time already past is `deadline_past`, nothing recorded)")


class CorrectionIn(Body):
    reason: Reason
    void: Annotated[int, Field(strict=True, ge=1, le=2**31), Whole] | Omitted = Field(
        default=None, description="Void the submission at this seq")
    as_: Name | Omitted = Field(default=None, alias="as", description="Enter a command for...")
    command: Name | Omitted = None
    args: Args = Field(default_factory=dict)


class EndIn(Body):
    reason: Reason


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
