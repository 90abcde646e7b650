"""Discord's REST API, as much of it as Arbiter uses: the bulk overwrite of the application's
commands, a channel webhook's messages, a DM, an interaction's follow-up with a file. Plain
HTTPS with the standard library; a 429 is waited out for its `retry_after` (seconds, in the
body and the Retry-After header) up to `MAX_WAIT`, anything else is a `DiscordError` the
caller retries later or reports."""

from __future__ import annotations

import json
import secrets
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from domain.errors import RuleViolation

TIMEOUT = 10.0  # seconds for one request
MAX_WAIT = 30.0  # seconds a 429 may ask us to wait before the request counts as failed
EPHEMERAL = 1 << 6  # a message only the interaction's user sees
AGENT = "DiscordBot (https://github.com/arbiter, 1) Arbiter"  # Discord asks for this form


class DiscordError(RuleViolation):
    """Discord did not take the request: `status` 0 when it could not be reached."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__("discord_refused" if status else "discord_unreachable", message)
        self.status = status


class Rest:
    def __init__(self, api: str, bot_token: str = "",
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.api, self.bot_token, self.sleep = api.rstrip("/"), bot_token, sleep

    def request(self, method: str, url: str, body: Any = None, *, bot: bool = True,
                files: dict[str, bytes] | None = None) -> Any:
        """One request, waiting out 429s; the answer's JSON (None for 204). With `files`, the
        body goes as multipart/form-data: `payload_json` and `files[n]` (Discord's
        "Uploading Files")."""
        headers = {"User-Agent": AGENT, "Content-Type": "application/json"}
        if bot:
            if not self.bot_token:
                raise RuleViolation("no_bot_token", "set ARBITER_DISCORD_BOT_TOKEN to the "
                                    "bot's token (Developer Portal, Bot, Reset Token)")
            headers["Authorization"] = f"Bot {self.bot_token}"
        data = None if body is None else json.dumps(body).encode()
        if files:
            data, headers["Content-Type"] = multipart(body, files)
        waited = 0.0
        while True:
            asked = urllib.request.Request(url, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(asked, timeout=TIMEOUT) as answer:
                    text = answer.read()
                    return json.loads(text) if text else None
            except urllib.error.HTTPError as error:
                text = error.read()
                if error.code == 429:
                    wait = retry_after(text, error.headers.get("Retry-After"))
                    if waited + wait <= MAX_WAIT:
                        self.sleep(wait)
                        waited += wait
                        continue
                raise DiscordError(error.code, f"Discord answered {error.code} to {method} "
                                   f"{self.shown(url)}: {text[:300].decode(errors='replace')}"
                                   ) from None
            except (urllib.error.URLError, TimeoutError, OSError) as error:
                raise DiscordError(0, f"Discord could not be reached ({self.shown(url)}): "
                                   f"{getattr(error, 'reason', error)}") from None

    def shown(self, url: str) -> str:
        """A URL fit for a log line: a webhook's token is cut off."""
        if "/webhooks/" in url:
            return url.split("/webhooks/")[0] + "/webhooks/…"
        return url

    def overwrite_commands(self, application_id: str, commands: list[dict[str, Any]],
                           guild: str | None = None) -> list[dict[str, Any]]:
        """Every slash command at once, replacing those registered before (global, or for one
        server, where they appear at once)."""
        where = f"/guilds/{guild}" if guild else ""
        found: list[dict[str, Any]] = self.request(
            "PUT", f"{self.api}/applications/{application_id}{where}/commands", commands)
        return found

    def post_webhook(self, webhook: str, content: str) -> dict[str, Any]:
        """One message to a channel webhook; `wait=true` so Discord answers with the message
        once it is posted (its id is what the outbox records)."""
        sep = "&" if "?" in webhook else "?"
        found: dict[str, Any] = self.request(
            "POST", f"{webhook}{sep}wait=true",
            {"content": content, "allowed_mentions": {"parse": []}}, bot=False)
        return found

    def follow_up(self, application_id: str, token: str, content: str,
                  files: dict[str, bytes]) -> dict[str, Any]:
        """An ephemeral message after an interaction's answer, through its own webhook (no
        bot token), with files attached."""
        body = {"content": content, "flags": EPHEMERAL, "allowed_mentions": {"parse": []},
                "attachments": [{"id": i, "filename": name} for i, name in enumerate(files)]}
        found: dict[str, Any] = self.request(
            "POST", f"{self.api}/webhooks/{application_id}/{token}", body, bot=False,
            files=files)
        return found

    def direct_message(self, user: str, content: str) -> dict[str, Any]:
        """A DM from the bot: open (or find) the DM channel, then post in it."""
        channel = self.request("POST", f"{self.api}/users/@me/channels",
                               {"recipient_id": user})
        found: dict[str, Any] = self.request(
            "POST", f"{self.api}/channels/{channel['id']}/messages",
            {"content": content, "allowed_mentions": {"parse": []}})
        return found


def multipart(body: Any, files: dict[str, bytes]) -> tuple[bytes, str]:
    """`payload_json` and `files[0]`, `files[1]`, ... as multipart/form-data."""
    boundary = secrets.token_hex(16)
    parts = [(b'name="payload_json"', "application/json", json.dumps(body).encode())]
    parts += [(f'name="files[{i}]"; filename="{name}"'.encode(), "application/json", content)
              for i, (name, content) in enumerate(files.items())]
    out = b"".join(f"--{boundary}\r\nContent-Disposition: form-data; ".encode() + head
                   + f"\r\nContent-Type: {kind}\r\n\r\n".encode() + content + b"\r\n"
                   for head, kind, content in parts)
    return out + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def retry_after(body: bytes, header: str | None) -> float:
    try:
        return max(0.0, float(json.loads(body)["retry_after"]))
    except (ValueError, KeyError, TypeError):
        pass
    try:
        return max(0.0, float(header or 1))
    except ValueError:
        return 1.0
