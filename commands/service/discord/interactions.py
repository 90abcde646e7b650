"""Answering Discord's interactions (POST /discord/interactions): PING, a slash command, an
option being filled in.

A slash command goes through the application service exactly like the API's: the linked
player is the actor, the interaction's id is the client id (`discord:ID`, a namespace of its
own, so a retried interaction is recorded once), and the rules refuse in their words. Every
answer is ephemeral: only the user who asked sees it. Discord's documented shapes:
interaction types PING 1, APPLICATION_COMMAND 2, APPLICATION_COMMAND_AUTOCOMPLETE 4; answers
PONG 1, CHANNEL_MESSAGE_WITH_SOURCE 4, DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE 5,
APPLICATION_COMMAND_AUTOCOMPLETE_RESULT 8; the flag EPHEMERAL 64 (1 << 6).

Discord drops an interaction not answered within 3 seconds, and a command may wait longer for
its match's writer (ARBITER_WRITE_WAIT): one not done within `DEFER_AFTER` is answered "thinking"
(deferred, still ephemeral) and its answer follows by editing that message through the
interaction's own webhook, which takes no bot token.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as NotYet
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from commands.service.arbiter import Arbiter
from commands.service.discord.links import Links, joining
from commands.service.discord.rest import EPHEMERAL, DiscordError, Rest
from commands.service.discord.seats import Seat, Seats
from commands.service.discord.settings import DiscordSettings
from commands.service.discord.slash import arguments, given
from commands.service.outcomes import Outcome
from commands.service.tokens import Tokens
from domain.decider import HOST
from domain.errors import RuleViolation
from domain.games import get_game
from projections import story
from projections.announcement import plain
from projections.dashboard import dashboard, phase_line, still_to_act

log = logging.getLogger("arbiter.discord")

PING, APPLICATION_COMMAND, AUTOCOMPLETE = 1, 2, 4
PONG, CHANNEL_MESSAGE_WITH_SOURCE, DEFERRED, AUTOCOMPLETE_RESULT = 1, 4, 5, 8
DEFER_AFTER = 2.0  # seconds a command may take before the answer is deferred
CHOICES_MAX = 25  # choices in one autocomplete answer
MESSAGE_MAX = 2000


def message(text: str) -> dict[str, Any]:
    """An ephemeral answer that mentions nobody, whatever a name holds."""
    if len(text) > MESSAGE_MAX:
        text = text[:MESSAGE_MAX - 1] + "…"
    return {"type": CHANNEL_MESSAGE_WITH_SOURCE,
            "data": {"content": text, "flags": EPHEMERAL, "allowed_mentions": {"parse": []}}}


@dataclass(frozen=True)
class Reply:
    """What the sender reads, and the files that follow it (their receipt)."""

    text: str
    files: dict[str, bytes] = field(default_factory=dict)


ATTACH_TRIES = 5  # a follow-up waits for Discord to have the answer it follows: 0.5 s, 1 s, ...


class Interactions:
    def __init__(self, arbiter: Arbiter, tokens: Tokens, settings: DiscordSettings,
                 submit: Callable[..., Outcome], seasons: Callable[[], list[str]],
                 rest: Rest, defer_after: float = DEFER_AFTER) -> None:
        """`submit` records a command as the service does (`Service.submit`); `seasons` lists
        the seasons (the views'); `rest` sends a deferred answer."""
        self.arbiter, self.tokens, self.settings = arbiter, tokens, settings
        self.submit, self.seasons, self.rest = submit, seasons, rest
        self.links = Links(arbiter)
        self.seats = Seats(arbiter, self.links, seasons)
        self.defer_after = defer_after
        self._commands = ThreadPoolExecutor(8, thread_name_prefix="discord")
        # Receipts wait for Discord apart from the commands, which never queue behind them.
        self._receipts = ThreadPoolExecutor(4, thread_name_prefix="discord-receipts")
        self._closed = threading.Event()

    def close(self) -> None:
        """Commands under way finish; receipts still waiting to follow are let go."""
        self._closed.set()
        self._commands.shutdown(wait=True, cancel_futures=True)
        self._receipts.shutdown(wait=True, cancel_futures=True)

    def answer(self, interaction: Mapping[str, Any]) -> dict[str, Any]:
        kind = interaction.get("type")
        if kind == PING:
            return {"type": PONG}
        data = interaction.get("data")
        user = user_of(interaction)
        if not isinstance(data, dict) or user is None or not isinstance(data.get("name"), str):
            return message("Arbiter could not read this interaction.")
        if kind == AUTOCOMPLETE:
            return {"type": AUTOCOMPLETE_RESULT,
                    "data": {"choices": self.complete(user, data)[:CHOICES_MAX]}}
        if kind != APPLICATION_COMMAND:
            return message("Arbiter answers slash commands only.")
        interaction_id = interaction.get("id")
        if not isinstance(interaction_id, str) or not (interaction_id.isascii()
                                                       and interaction_id.isdigit()):
            return message("Arbiter could not read this interaction.")  # its id is its client id
        running = self._commands.submit(self.said, user, interaction_id, data)
        token = str(interaction.get("token", ""))
        try:
            reply = running.result(timeout=self.defer_after)
        except NotYet:
            running.add_done_callback(
                lambda done: self._receipts.submit(self.deferred, token, done.result()))
            return {"type": DEFERRED, "data": {"flags": EPHEMERAL}}
        if reply.files:
            self._receipts.submit(self.attach, token, reply)
        return message(reply.text)

    def said(self, user: str, interaction_id: str, data: dict[str, Any]) -> Reply:
        try:
            found = self.command(user, interaction_id, data)
        except RuleViolation as error:
            # Shown only to the sender, and mentioning nobody: the rules' words as they are.
            return Reply(f"Refused: {error.message}")
        except Exception:
            log.exception("Discord command %s failed", data.get("name"))
            return Reply("Arbiter failed to answer this command. It may or may not be "
                         "recorded: /status shows what you sent.")
        return Reply(found) if isinstance(found, str) else found

    def deferred(self, token: str, reply: Reply) -> None:
        """The answer of a command that took long, in place of "thinking"."""
        url = (f"{self.settings.api}/webhooks/{self.settings.application_id}/{token}"
               "/messages/@original")
        try:
            self.rest.request("PATCH", url, message(reply.text)["data"], bot=False)
        except Exception:
            log.exception("the deferred answer to a Discord command was not delivered")
            return
        if reply.files:
            self.attach(token, reply)

    def attach(self, token: str, reply: Reply) -> None:
        """The receipt as a file, in an ephemeral follow-up. Discord takes a follow-up once it
        has the answer, which this process may not have finished sending: an unknown
        interaction (404) is tried again a little later."""
        said = ("Your receipt, to keep: `arbiter receipt verify` shows with it that your "
                "command is in the log the round's posted checkpoint signs.")
        for attempt in range(ATTACH_TRIES):
            if self._closed.wait(0.5 * 2 ** attempt):
                return  # the service stops
            try:
                self.rest.follow_up(self.settings.application_id, token, said, reply.files)
                return
            except DiscordError as error:
                if error.status not in (0, 404) or attempt == ATTACH_TRIES - 1:
                    log.warning("a receipt was not attached on Discord: %s", error.message)
                    return

    # -- slash commands -------------------------------------------------------------------

    def command(self, user: str, interaction_id: str, data: dict[str, Any]) -> str | Reply:
        name, options = data["name"], given(data.get("options"))
        if name == "join":
            return self.join(user, str(options.get("link") or ""))
        if name == "status":
            return self.status(self.seats.seat(user, None, options.get("match")))
        if name == "rules":
            return self.rules(self.seats.seat(user, None, options.get("match")))
        seat = self.seats.seat(user, name, options.get("match"))
        game = get_game(seat.game)
        args = arguments(game, name, options)
        price = getattr(game, "SPENDS", {}).get(name)
        if price is not None and options.get("confirm") is not True:
            return (f"Not sent: /{name} costs {price} garnets, taken at once and never given "
                    "back. Send it again with confirm: True to spend them.")
        aim: dict[str, Any] = {}
        if name in game.CLOSES:
            aim["expect_round"] = options.get("round")
            aim["expect_phase"] = self.arbiter.phase(seat.match, options["round"]) \
                if isinstance(options.get("round"), int) else None
        outcome = self.submit(seat.match, seat.player, name, args,
                              f"discord:{interaction_id}", **aim)
        return self.recorded(seat, outcome)

    def recorded(self, seat: Seat, outcome: Outcome) -> Reply:
        """What the rules told the sender; a player's receipt follows as a file (and stays
        on their page)."""
        seq = outcome.receipt.seq if outcome.receipt else outcome.seqs[0]
        said = [f"Recorded as entry #{seq} of {plain(seat.match)}."]
        chapters = story.chapters({"game": seat.game, "viewer": seat.player,
                                   "events": outcome.told})
        said += ["- " + "\n  ".join(plain(part) for part in item)
                 for c in chapters for item in story.bullets(c["lines"])]
        if outcome.receipt is None or seat.player == HOST:
            return Reply("\n".join(said))
        said.append(f"Receipt: entry #{seq}, hash `{outcome.receipt.entry['hash']}`; it "
                    f"follows as a file, and stays on your page: <{self.page(seat.match)}/me>")
        kept = json.dumps(outcome.receipt.as_dict(), indent=2, sort_keys=True) + "\n"
        name = f"receipt-{quote(seat.match, safe='')}-{seq}.json"
        return Reply("\n".join(said), {name: kept.encode()})

    def page(self, match: str) -> str:
        return f"{self.settings.public_url.rstrip('/')}/m/{quote(match, safe='')}"

    def join(self, user: str, code: str) -> str:
        match_id, player = joining(self.tokens, code)
        season = self.arbiter.match(match_id).season
        self.links.link(season, player, user, by="join")
        return (f"Linked: your Discord account now plays as {plain(player)} in season "
                f"{plain(season)}. Send your commands here, e.g. /status.")

    def status(self, seat: Seat) -> str:
        """The sender's match now. The host reads the dashboard's lines (who is still to
        act); a player only what their own view shows (who has acted is not theirs to know)."""
        match = self.arbiter.match(seat.match)
        seen = self.arbiter.view(seat.match, seat.player).view
        title = f"**{plain(story.game_name(seat.game))} · {plain(seat.match)}**"
        if seat.player == HOST:
            board = dashboard(match)
            lines = [f"{title} · {plain(phase_line(board))}", "You act as the host.",
                     plain(still_to_act(board))]
        else:
            board = {"game": seat.game, "round": match.round, "acting": None,
                     "phase": "ended" if match.ended else seen["summary"].get("phase", "open")}
            lines = [f"{title} · {plain(phase_line(board))}"]
            role = role_of(seen["summary"], seat.player)
            if role:
                lines.append(f"Your role: {plain(role)}.")
            garnets = self.arbiter.season(seat.season).balances.get(seat.player, {})
            if "garnets" in garnets:
                lines.append(f"Your garnets: {garnets['garnets']}.")
            sent = [f"{plain(e['data']['name'])} "
                    f"({plain(story.compact(e['data'].get('args') or {}))}), entry #{e['seq']}"
                    for e in seen["events"] if e["kind"] == "CommandAccepted"
                    and e["actor"] == seat.player and e["round"] == match.round]
            lines.append(f"Sent this round: {'; '.join(sent)}." if sent
                         else "Sent this round: nothing yet.")
        deadline = story.deadline_of(seen)
        lines.append(f"Deadline: {plain(deadline['deadline'])}." if deadline
                     else "Deadline: none set.")
        lines.append(f"<{self.page(seat.match)}>")
        return "\n".join(line for line in lines if line)

    def rules(self, seat: Seat) -> str:
        """A link to the game's rulebook: its page on this service (`/rules/GAME`, drawn from
        docs/games), or the copy ARBITER_DISCORD_RULES_URL names; then what the sender may
        send now."""
        where = f"{self.settings.public_url.rstrip('/')}/rules/{quote(seat.game, safe='')}"
        if self.settings.rules_url:
            where = f"{self.settings.rules_url.rstrip('/')}/{quote(seat.game, safe='')}.md"
        lines = [f"**{plain(story.game_name(seat.game))}**, the rules: <{where}>"]
        if seat.player != HOST:
            seen = self.arbiter.view(seat.match, seat.player).view
            forms = story.forms(seen, seat.player) if not story.ended(seen) else []
            if forms:
                lines.append("What you may send now:")
            lines += [f"- /{f['command']}: {plain(f['label'])}" for f in forms]
        lines.append(f"<{self.page(seat.match)}>")
        return "\n".join(lines)

    # -- autocomplete ---------------------------------------------------------------------

    def complete(self, user: str, data: dict[str, Any]) -> list[dict[str, str]]:
        """Choices for the option being typed: the user's matches, or the players of the
        match the command goes to."""
        options = data.get("options") or []
        focused = next((o for o in options if isinstance(o, dict) and o.get("focused")), None)
        if focused is None:
            return []
        typed = str(focused.get("value") or "").lower()
        name = data["name"] if data["name"] not in ("status", "rules") else None
        seats = self.seats.of(user, name)
        if focused.get("name") == "match":
            found = sorted({s.match for s in seats})
        else:
            chosen = given(options).get("match")
            seats = [s for s in seats if s.match == chosen] if chosen else seats
            if len({s.match for s in seats}) != 1:
                return []
            found = list(self.arbiter.match(seats[0].match).players)
        return [{"name": p, "value": p} for p in found if typed in p.lower()]


def user_of(interaction: Mapping[str, Any]) -> str | None:
    """The user's id: `member.user` in a server's channel, `user` in a DM."""
    member = interaction.get("member")
    user = member.get("user") if isinstance(member, dict) else interaction.get("user")
    found = user.get("id") if isinstance(user, dict) else None
    return found if isinstance(found, str) else None


def role_of(summary: dict[str, Any], player: str) -> str | None:
    """The player's role as the game's summary shows it to them: its `role`, or their entry
    of its `roles` table (King's Court's holds one per game of the match: the latest)."""
    if isinstance(summary.get("role"), str):
        return str(summary["role"]).replace("_", " ")
    found = latest(summary.get("roles"), player)
    return found.replace("_", " ") if found else None


def latest(roles: Any, player: str) -> str | None:
    if not isinstance(roles, dict):
        return None
    if isinstance(roles.get(player), str):
        return str(roles[player])
    found = None
    for value in roles.values():
        found = latest(value, player) or found
    return found
