"""A fake Discord on the loopback: the REST API's routes Arbiter calls and channel webhooks,
speaking Discord's documented shapes and refusing what Discord refuses, recording every
request it took. Tests tell it to answer 429 (with retry_after) or 500 for a while."""

from __future__ import annotations

import itertools
import json
import re
import threading
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

NAME = re.compile(r"^[-_'\w]{1,32}$")  # lowercase; \w stands for Discord's letters and digits
OPTION_TYPES = set(range(3, 12))  # STRING .. ATTACHMENT (1, 2: subcommands, unused here)
MESSAGE_MAX = 2000


def command_problems(command: dict[str, Any]) -> list[str]:
    """What Discord's bulk overwrite refuses in one CHAT_INPUT command (application-commands:
    names 1-32 lowercase, descriptions 1-100, at most 25 options, required before optional,
    min/max only on numbers, autocomplete not with choices, max_length 1-6000 on strings)."""
    found = []
    name = command.get("name", "")
    if not NAME.match(name) or name != name.lower():
        found.append(f"name {name!r}")
    if not 1 <= len(command.get("description", "")) <= 100:
        found.append(f"{name}: description length")
    if command.get("type", 1) != 1:
        found.append(f"{name}: type")
    options = command.get("options", [])
    if len(options) > 25:
        found.append(f"{name}: {len(options)} options")
    seen_optional = False
    for option in options:
        oname = option.get("name", "")
        if not NAME.match(oname) or oname != oname.lower():
            found.append(f"{name}.{oname}: name")
        if not 1 <= len(option.get("description", "")) <= 100:
            found.append(f"{name}.{oname}: description length")
        if option.get("type") not in OPTION_TYPES:
            found.append(f"{name}.{oname}: type {option.get('type')}")
        if option.get("required"):
            if seen_optional:
                found.append(f"{name}.{oname}: required after optional")
        else:
            seen_optional = True
        if ("min_value" in option or "max_value" in option) and option["type"] not in (4, 10):
            found.append(f"{name}.{oname}: min/max on a non-number")
        if option.get("autocomplete") and option.get("choices"):
            found.append(f"{name}.{oname}: autocomplete with choices")
        if "max_length" in option and (option["type"] != 3
                                       or not 1 <= option["max_length"] <= 6000):
            found.append(f"{name}.{oname}: max_length")
    if len({o.get("name") for o in options}) != len(options):
        found.append(f"{name}: option names repeat")
    return found


def form(raw: bytes, content_type: str) -> dict[str, tuple[str | None, bytes]]:
    """multipart/form-data as {field: (filename, content)}."""
    message = BytesParser(policy=HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + raw)
    if not message.is_multipart():
        raise ValueError("not multipart")
    found = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        found[str(name)] = (part.get_filename(), part.get_payload(decode=True) or b"")
    return found


class FakeDiscord:
    def __init__(self, bot_token: str = "bot-token") -> None:
        self.bot_token = bot_token
        self.received: list[dict[str, Any]] = []  # every request: method, path, body
        self.commands: dict[str, list[dict[str, Any]]] = {}  # "global" or a guild id
        self.webhook_messages: list[dict[str, Any]] = []
        self.direct_messages: list[dict[str, Any]] = []
        self.edited: list[dict[str, Any]] = []  # deferred answers, by interaction token
        self.followups: list[dict[str, Any]] = []  # follow-ups: token, payload, files
        self.throttle = 0  # answer this many requests 429 (retry_after 0.05 s)
        self.broken = 0  # answer this many requests 500
        self.unknown = 0  # answer this many follow-ups 404: the answer has not reached us yet
        self.lock = threading.Lock()
        self.ids = itertools.count(1000)
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_PUT(self) -> None:
                fake.handle(self, "PUT")

            def do_POST(self) -> None:
                fake.handle(self, "POST")

            def do_PATCH(self) -> None:
                fake.handle(self, "PATCH")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.api = f"{self.url}/api/v10"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def webhook(self, season: str) -> str:
        return f"{self.url}/api/webhooks/{abs(hash(season)) % 10**18}/token-{season}"

    def __enter__(self) -> FakeDiscord:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length)
        parts = urlsplit(handler.path)
        kind = handler.headers.get("Content-Type", "")
        try:
            body = form(raw, kind) if kind.startswith("multipart/form-data") else \
                json.loads(raw) if raw else None
        except ValueError:
            return self.send(handler, 400, {"message": "400: Bad Request", "code": 50109})
        with self.lock:
            self.received.append({"method": method, "path": parts.path, "body": body,
                                  "query": parse_qs(parts.query),
                                  "authorization": handler.headers.get("Authorization")})
            if self.throttle:
                self.throttle -= 1
                return self.send(handler, 429, {"message": "You are being rate limited.",
                                                "retry_after": 0.05, "global": False},
                                 {"Retry-After": "1"})
            if self.broken:
                self.broken -= 1
                return self.send(handler, 500, {"message": "500: Internal Server Error"})
            status, answer = self.route(method, parts.path, body, handler)
        self.send(handler, status, answer)

    def route(self, method: str, path: str, body: Any,
              handler: BaseHTTPRequestHandler) -> tuple[int, Any]:
        if path.startswith("/api/webhooks/"):
            return self.execute_webhook(path, body)
        found = re.fullmatch(r"/api/v10/webhooks/(\d+)/([^/]+)", path)
        if method == "POST" and found:  # a follow-up message, here always with files
            return self.follow_up(found[2], body)
        found = re.fullmatch(r"/api/v10/webhooks/(\d+)/([^/]+)/messages/@original", path)
        if method == "PATCH" and found:  # an interaction's own webhook: no bot token
            if not 1 <= len(body.get("content", "")) <= MESSAGE_MAX:
                return 400, {"message": "Invalid Form Body", "code": 50035}
            self.edited.append({"token": found[2], **body})
            return 200, {"id": str(next(self.ids)), **body}
        if handler.headers.get("Authorization") != f"Bot {self.bot_token}":
            return 401, {"message": "401: Unauthorized", "code": 0}
        found = re.fullmatch(r"/api/v10/applications/(\d+)(?:/guilds/(\d+))?/commands", path)
        if method == "PUT" and found:
            problems = [p for c in body for p in command_problems(c)] if \
                isinstance(body, list) else ["not a list"]
            if len(body) > 100 or problems:
                return 400, {"message": "Invalid Form Body", "code": 50035,
                             "errors": problems}
            registered = [{**c, "id": str(next(self.ids)), "application_id": found[1],
                           "version": "1"} for c in body]
            self.commands[found[2] or "global"] = registered
            return 200, registered
        if method == "POST" and path == "/api/v10/users/@me/channels":
            return 200, {"id": f"dm{body['recipient_id']}", "type": 1,
                         "recipients": [{"id": body["recipient_id"]}]}
        found = re.fullmatch(r"/api/v10/channels/dm(\d+)/messages", path)
        if method == "POST" and found:
            if not 1 <= len(body.get("content", "")) <= MESSAGE_MAX:
                return 400, {"message": "Invalid Form Body", "code": 50035}
            message = {"id": str(next(self.ids)), "content": body["content"], "user": found[1]}
            self.direct_messages.append(message)
            return 200, message
        return 404, {"message": "404: Not Found", "code": 0}

    def follow_up(self, token: str, body: Any) -> tuple[int, Any]:
        """Uploading Files: `payload_json` names each `files[n]` in its `attachments`."""
        if self.unknown:
            self.unknown -= 1
            return 404, {"message": "Unknown interaction", "code": 10062}
        if not isinstance(body, dict) or "payload_json" not in body:
            return 400, {"message": "Invalid Form Body", "code": 50035}
        payload = json.loads(body["payload_json"][1])
        files = {name: content for key, (name, content) in body.items() if key != "payload_json"}
        named = {f"files[{a['id']}]": a["filename"] for a in payload.get("attachments", [])}
        if named != {key: name for key, (name, _) in body.items() if key != "payload_json"} \
                or not 1 <= len(payload.get("content", "")) <= MESSAGE_MAX:
            return 400, {"message": "Invalid Form Body", "code": 50035}
        self.followups.append({"token": token, "payload": payload, "files": files})
        return 200, {"id": str(next(self.ids)), **payload}

    def execute_webhook(self, path: str, body: Any) -> tuple[int, Any]:
        content = body.get("content", "") if isinstance(body, dict) else ""
        if not 1 <= len(content) <= MESSAGE_MAX:
            return 400, {"message": "Invalid Form Body", "code": 50035,
                         "errors": {"content": "Must be 2000 or fewer in length."}}
        message = {"id": str(next(self.ids)), "content": content, "webhook": path}
        self.webhook_messages.append(message)
        return 200, message

    @staticmethod
    def send(handler: BaseHTTPRequestHandler, status: int, body: Any,
             headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(data)
