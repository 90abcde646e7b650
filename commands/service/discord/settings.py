"""What Arbiter needs from the Developer Portal, read from the environment (docs/discord.md).

The channel webhooks, one a season, are secrets like the bot token (a webhook's URL is all it
takes to post in the channel): `ARBITER_DISCORD_WEBHOOKS` names them as `SEASON=URL` pairs,
separated by spaces or new lines.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from domain.errors import RuleViolation

API = "https://discord.com/api/v10"
PREFIX = "ARBITER_DISCORD_"


@dataclass(frozen=True)
class DiscordSettings:
    application_id: str
    public_key: str  # hex, as the Developer Portal shows it
    bot_token: str = ""  # registers the commands and sends reminders by DM
    webhooks: Mapping[str, str] = field(default_factory=dict)  # season -> channel webhook URL
    reminders: frozenset[str] = frozenset()  # seasons whose players get deadline reminders
    remind_before: float = 3600.0  # seconds before a deadline
    public_url: str = "http://127.0.0.1:8000"  # where players' links point
    rules_url: str = ""  # where the rulebooks are read (docs/games/ of Arbiter's docs)
    api: str = API  # Discord's REST API (tests: a fake one on the loopback)


def pairs(text: str, variable: str) -> dict[str, str]:
    found = {}
    for pair in text.split():
        season, sep, url = pair.partition("=")
        if not sep or not season or not url.startswith(("https://", "http://")):
            raise RuleViolation("invalid_setting", f"{variable}: {pair[:60]!r} is not "
                                "SEASON=https://discord.com/api/webhooks/...")
        found[season] = url
    return found


def discord_settings(env: Mapping[str, str] | None = None) -> DiscordSettings | None:
    """The settings, or None when Discord is not configured (no public key)."""
    env = os.environ if env is None else env
    public_key = env.get(f"{PREFIX}PUBLIC_KEY", "").strip()
    if not public_key:
        return None
    try:
        bytes.fromhex(public_key)
    except ValueError:
        raise RuleViolation("invalid_setting", f"{PREFIX}PUBLIC_KEY is the application's "
                            "public key in hex, as the Developer Portal shows it") from None
    reminders = env.get(f"{PREFIX}REMINDERS", "").replace(",", " ").split()
    return DiscordSettings(
        application_id=env.get(f"{PREFIX}APPLICATION_ID", "").strip(),
        public_key=public_key,
        bot_token=env.get(f"{PREFIX}BOT_TOKEN", "").strip(),
        webhooks=pairs(env.get(f"{PREFIX}WEBHOOKS", ""), f"{PREFIX}WEBHOOKS"),
        reminders=frozenset(reminders),
        remind_before=float(env.get(f"{PREFIX}REMIND_BEFORE") or 3600),
        public_url=env.get("ARBITER_PUBLIC_URL") or "http://127.0.0.1:8000",
        rules_url=env.get(f"{PREFIX}RULES_URL", "").strip(),
        api=(env.get(f"{PREFIX}API") or API).rstrip("/"))
