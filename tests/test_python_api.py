"""docs/python-api.md's bot handler, run as written against a sealed-bid match."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from pathlib import Path

from audit import keys
from commands.service.outcomes import Grant
from tests.support.host_key import SIGNER

DOC = Path(__file__).resolve().parents[1] / "docs" / "python-api.md"


def handler_source() -> str:
    text = DOC.read_text()
    section = text[text.index("## A bot's command handler"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


@dataclass
class Chat:
    said: list[tuple[str, str]] = field(default_factory=list)
    receipts: list[tuple[str, dict]] = field(default_factory=list)

    async def reply_privately(self, message, text: str) -> None:
        self.said.append((message.author_id, text))

    async def store_receipt(self, player: str, receipt: dict) -> None:
        self.receipts.append((player, receipt))


@dataclass
class Message:
    id: int
    author_id: str
    text: str


def test_the_documented_handler_submits_answers_and_keeps_receipts(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ARBITER_DATABASE_URL", f"sqlite:///{tmp_path}/bot.db")
    monkeypatch.delenv("ARBITER_HOST_KEY", raising=False)
    keys.save(SIGNER, tmp_path / "arbiter-host.key")  # where `arbiter init` puts the host's key
    bot: dict = {}
    exec(compile(handler_source(), str(DOC), "exec"), bot)
    arbiter = bot["arbiter"]
    arbiter.create_season("s")
    arbiter.register_all("s", ["carol", "bob"])
    arbiter.grant_all("s", [Grant("carol", 2, reason="purse")])
    arbiter.create_match(match_id="m", season="s", game="sealed_bid",
                         setup={"players": ["carol", "bob"]}, host_seed="h" * 40,
                         salt_key="ab" * 32)
    arbiter.submit("m", "host", "open_match")
    chat = Chat()

    async def say(number: int, author: str, text: str) -> None:
        await bot["on_command"](chat, Message(number, author, text), "m")

    # Entries 1-6 are the creation and the opening; carol buys the hint with her 2 garnets.
    asyncio.run(say(1, "1093", "!hint"))
    asyncio.run(say(2, "2210", "!hint"))  # bob has none
    asyncio.run(say(1, "1093", "!hint"))  # the same message delivered again
    assert chat.said[0][0] == "1093" and chat.said[0][1].startswith("Recorded as entry 7")
    assert "HintGiven" in chat.said[0][1]
    assert chat.said[1] == ("2210", "You do not have enough garnets for that.")
    assert chat.said[2] == chat.said[0]  # answered once: recorded once
    assert arbiter.season("s").garnets(["carol"]) == {"carol": 0}
    assert [player for player, _ in chat.receipts] == ["carol", "carol"]
    arbiter.close()
