"""The host's page of a match: the phase in the game's words and who still has to act, the
close (confirmed first, saying what it does), the deadline in the host's own time, the game's
host commands, corrections, the end, every player's link as a full URL, the round's
announcement, the bundles.

Every form carries the round and the phase the page showed: the service refuses it
(`round_moved`, nothing recorded) once the match has moved on. What cannot be undone (a close,
a host command, the end, a void, a deadline of `now`, new links) is asked first: the form
posts, the page says exactly what will happen, and a second post carries it out.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from audit.bundle import FULL, PUBLIC
from commands.service.guards import moment
from commands.service.tokens import join_link
from commands.web.auth import Svc
from commands.web.bounds import whole_number
from commands.web.edge import Route
from commands.web.errors import ApiError
from commands.web.models import MatchId
from commands.web.pages import forms as posted
from commands.web.pages.host import (
    JUST_SAVED,
    host_form,
    new_form_id,
    refusal,
    signed_in_host,
    text,
)
from commands.web.pages.public import told
from commands.web.pages.session import HOST_PATH, csrf_of
from commands.web.pages.templating import page, path_part
from commands.web.reading import caught_up, read_checkpoints, read_dashboard, read_view
from commands.web.routes.players import client_id
from commands.web.routes.public import MinSeq
from commands.web.worker import Service
from domain.decider import HOST
from domain.decider import PUBLIC as EVERYONE
from domain.errors import RuleViolation
from domain.games import get_game
from domain.logs import check_plays
from projections import story
from projections.announcement import announcement, last_told
from projections.dashboard import (
    close_commands,
    phase_line,
    phase_words,
    still_to_act,
    what_closing_does,
)
from projections.words import instant

router = APIRouter(route_class=Route, prefix=f"{HOST_PATH}/m/{{match_id}}",
                   include_in_schema=False)


def base_url(svc: Service) -> str:
    """Where players reach this server: its public URL ($ARBITER_PUBLIC_URL), never the Host
    header a request came with."""
    return svc.settings.public_url.rstrip("/")


def match_page(svc: Service, request: Request, match_id: str, token: str, *,
               min_seq: int = 0, done: str | None = None,
               refused: dict[str, Any] | None = None, status: int = 200) -> HTMLResponse:
    view = read_view(svc, match_id, HOST, None)
    board = read_dashboard(svc, match_id, min_seq)
    context = told(view, board["round"])
    game = get_game(view["game"])
    closes = close_commands(game)
    live = not context["ended"] and board["phase"] != "configured"
    return page("host_match.html", status=status, **context, csrf=csrf_of(token),
                d=board, line=phase_line(board), to_act=still_to_act(board),
                words=phase_words(view["game"], board["phase"]),
                closing=what_closing_does(view, board) if live and closes else None,
                can_close=live and bool(closes),
                forms=[] if context["ended"] else
                [f for f in story.forms(view, HOST) if f["command"] not in closes],
                form_id=new_form_id(), done=done, refused=refused,
                announce=announcement_of(svc, request, match_id))


def announcement_of(svc: Service, request: Request, match_id: str) -> dict[str, Any] | None:
    """The latest told round's announcement (`arbiter announce`), to copy into the chat."""
    round = last_told(read_view(svc, match_id, EVERYONE, None))
    try:
        messages = announcement(read_view(svc, match_id, EVERYONE, round), round,
                                read_checkpoints(svc, match_id), base_url(svc))
    except RuleViolation:  # nothing public to tell yet
        return None
    return {"round": round, "messages": messages}


@router.get("", response_class=HTMLResponse)
def host_match(match_id: MatchId, request: Request, svc: Svc, min_seq: MinSeq = 0,
               done: Annotated[str | None, Query(max_length=20)] = None,
               round: Annotated[int | None, Query(ge=0, le=2**31)] = None,
               phase: Annotated[str | None, Query(max_length=60)] = None,
               seq: Annotated[int | None, Query(ge=0, le=2**31)] = None,
               what: Annotated[str | None, Query(max_length=100)] = None) -> HTMLResponse:
    token = signed_in_host(svc, request)
    caught_up(svc, JUST_SAVED if done else 0)
    view_game = read_dashboard(svc, match_id, min_seq)["game"]
    said = done_words(view_game, done, round, phase, seq, what)
    return match_page(svc, request, match_id, token, min_seq=min_seq, done=said)


def done_words(game: str, done: str | None, round: int | None, phase: str | None,
               seq: int | None, what: str | None) -> str | Markup | None:
    """What the host just did, in a sentence (the redirect after a form carries its facts)."""
    where = f" (entries from #{seq})" if seq else ""
    if done == "closed" and round is not None and phase:
        return f"You closed {phase_words(game, phase)} of round {round}{where}."
    if done == "deadline" and what == "now":
        return f"The deadline is now: the service closes round {round} within a second."
    if done == "deadline" and what:
        return deadline_set(round, what)
    if done == "sent" and what == "open_match":
        return ("You opened the match: the draws are made, round 0 is signed, round 1 is "
                f"open{where}.")
    if done == "sent" and what:
        return f"Sent: {what}{where}."
    if done == "voided" and what:
        return f"Entry #{what} is voided; the match is replayed without it."
    if done == "entered" and what:
        return f"Entered {what} for the player{where}."
    if done == "ended":
        return "The match is ended; the seed is revealed."
    return None


def deadline_set(round: int | None, when: str) -> str | Markup:
    """The deadline just set, as a time in the host's own zone (times.js shows a `<time
    data-local>` so; UTC without JavaScript), never the bare UTC instant."""
    try:
        moment(when)
    except ValueError:
        return f"Deadline set for round {round}."
    return Markup('Deadline set: round {} closes {}.').format(
        round, Markup('<time datetime="{}" data-local>{}</time>').format(when, instant(when)))


# -- the forms --------------------------------------------------------------------------------

@router.post("/links", response_model=None)
async def links(match_id: MatchId, request: Request, svc: Svc) -> Response:
    data = await request.form()
    return await run_in_threadpool(issuing, svc, request, match_id, data)


def issuing(svc: Service, request: Request, match_id: str, data: FormData) -> Response:
    """Every player's personal link at once, as full URLs: asked first, since each replaces
    the player's earlier link."""
    token = host_form(svc, request, data)
    view = read_view(svc, match_id, HOST, None)
    players = story.players_of(view)
    if data.get("confirmed") != "yes":
        return confirm_page(svc, match_id, token, data, "links", "Issue every player's link",
                            [f"{len(players)} new personal links, one for each player of "
                             f"{match_id}.",
                             "Each replaces that player's earlier link at once: an old link "
                             "stops working within a second. Send each player their own."])
    return links_page(svc, match_id, svc.tokens.issue_joins(match_id, players))


@router.post("/link", response_model=None)
async def link(match_id: MatchId, request: Request, svc: Svc) -> Response:
    data = await request.form()
    return await run_in_threadpool(issuing_one, svc, request, match_id, data)


def issuing_one(svc: Service, request: Request, match_id: str, data: FormData) -> Response:
    """One player's new link (a lost one): it replaces theirs alone."""
    token = host_form(svc, request, data)
    player = text(data, "player", 100)
    try:
        check_plays(player, story.players_of(read_view(svc, match_id, HOST, None)), match_id)
    except RuleViolation as error:
        return match_page(svc, request, match_id, token, refused=refusal("link", error, data),
                          status=422)
    return links_page(svc, match_id, svc.tokens.issue_joins(match_id, [player]))


def links_page(svc: Service, match_id: str, issued: dict[str, str]) -> HTMLResponse:
    """New links as full addresses, each in a message ready to send its player (each holds
    a join code, which opens the player's pages and nothing else)."""
    base = base_url(svc)
    rows = [{"player": p, "link": join_link(base, match_id, t)} for p, t in issued.items()]
    return page("host_links.html", match=match_id, rows=rows,
                block="\n".join(f"{r['player']}: {r['link']}" for r in rows),
                messages={r["player"]: f"{r['player']}, your personal link for {match_id} "
                                       f"(keep it to yourself: it acts as you): {r['link']}"
                          for r in rows})


@router.get("/bundle")
def bundle(match_id: MatchId, request: Request, svc: Svc,
           kind: Annotated[str, Query(pattern="^(public|full)$")] = FULL) -> Response:
    """The match's audit bundle as a file: full (the auditor's: seed, salts, every sealed
    plaintext) or public."""
    signed_in_host(svc, request)
    lines = "".join(svc.arbiter.bundle(match_id, FULL if kind == FULL else PUBLIC))
    name = f"{match_id}-{kind}.jsonl".replace('"', "")
    return Response(lines, media_type="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})


@router.post("/{action}", response_model=None)
async def act(match_id: MatchId, action: str, request: Request, svc: Svc) -> Response:
    data = await request.form()
    return await run_in_threadpool(acting, svc, request, match_id, action, data)


def acting(svc: Service, request: Request, match_id: str, action: str,
           data: FormData) -> Response:
    """One of the page's forms: asked first when it cannot be undone, then sent aimed at the
    round and phase the page showed; a refusal comes back beside its form."""
    token = host_form(svc, request, data)
    if action not in ACTIONS:
        raise ApiError(404, "not_found", f"no action {action!r}")
    try:
        form = ACTIONS[action](svc, match_id, data)
        if form.ask and data.get("confirmed") != "yes":
            return confirm_page(svc, match_id, token, data, action, form.title, form.ask)
        name, seqs = send(svc, match_id, form, data)
    except RuleViolation as error:
        return match_page(svc, request, match_id, token, refused=refusal(action, error, data),
                          status=422)
    back = f"{HOST_PATH}/m/{path_part(match_id)}"
    round, phase = aim(data)
    facts = {"min_seq": seqs[-1], "done": form.done, "seq": seqs[0], **form.facts(name),
             **({"round": round, "phase": phase} if form.aimed and round is not None and phase
                else {})}
    return RedirectResponse(f"{back}?{urlencode(facts)}", status_code=303)


class Sending:
    """A form as the command(s) it sends: the names to try in turn (a close: the game's
    closes), the arguments, what to ask before sending, and what to say after."""

    def __init__(self, names: list[str], args: dict[str, Any], done: str, *,
                 title: str = "", ask: list[str] | None = None, aimed: bool = True,
                 what: str = "") -> None:
        self.names, self.args, self.done, self.title = names, args, done, title
        self.ask = ask or []
        self.aimed = aimed  # carries the round and phase the page showed
        self.what = what

    def facts(self, name: str) -> dict[str, Any]:
        return {"what": self.what or name}


def aim(data: FormData) -> tuple[int | None, str | None]:
    """The round and the phase the page showed when the form was drawn."""
    round = text(data, "round", 12)
    phase = text(data, "phase", 60)
    return whole_number(round), (phase or None)


AIM_CODES = ("round_moved", "invalid_round", "round_not_reached")  # the aim, not the close


def send(svc: Service, match_id: str, form: Sending, data: FormData) -> tuple[str, list[int]]:
    """The command, or the first of the game's closes the rules accept (as `arbiter match
    close-round` and the deadlines do), aimed at the page's round and phase."""
    form_id = text(data, "id", 100) or None
    round, phase = aim(data) if form.aimed else (None, None)
    refusals = []
    for name in form.names:
        try:
            return name, svc.submit(match_id, HOST, name, form.args, client_id(HOST, form_id),
                                    expect_round=round, expect_phase=phase).seqs
        except RuleViolation as error:
            if error.code in AIM_CODES or len(form.names) == 1:
                raise
            refusals.append(error)  # not this phase's close
    raise refusals[0] if refusals else RuleViolation("wrong_state", "this game has no closes")


def confirm_page(svc: Service, match_id: str, token: str, data: FormData, action: str,
                 title: str, said: list[str]) -> HTMLResponse:
    """The second step: what the form will do, and the same form again to carry it out."""
    kept = [(k, v) for k, v in data.multi_items() if isinstance(v, str)
            and k not in ("csrf", "confirmed")]
    return page("confirm.html", match=match_id, title=title, said=said,
                action=f"{HOST_PATH}/m/{path_part(match_id)}/{action}", kept=kept,
                csrf=csrf_of(token), back=f"{HOST_PATH}/m/{path_part(match_id)}")


def closing(svc: Service, match_id: str, data: FormData) -> Sending:
    view = read_view(svc, match_id, HOST, None)
    board = read_dashboard(svc, match_id)
    words = phase_words(view["game"], board["phase"])
    return Sending(close_commands(get_game(view["game"])), {}, "closed",
                   title=f"Close {words} of round {board['round']}",
                   ask=[what_closing_does(view, board), phase_line(board),
                        "A close cannot be undone: the results are revealed and the round's "
                        "checkpoint is signed."])


def deadline(svc: Service, match_id: str, data: FormData) -> Sending:
    """The deadline as the host's browser gave it (`deadline_utc`, from the local time they
    typed), else the typed time as UTC; `now` closes the round at once, so it is asked."""
    if data.get("now") == "yes":
        board = read_dashboard(svc, match_id)
        view = read_view(svc, match_id, HOST, None)
        return Sending(["set_deadline"], {"deadline": "now"}, "deadline", what="now",
                       title=f"Close round {board['round']} now, by its deadline",
                       ask=["The deadline becomes now: the service closes the round within "
                            "a second.", what_closing_does(view, board)])
    when = text(data, "deadline_utc", 64) or utc_of(text(data, "deadline", 64))
    return Sending(["set_deadline"], {"deadline": when}, "deadline", what=when)


def utc_of(typed: str) -> str:
    """A time typed without a zone (a datetime-local field, JavaScript off) read as UTC."""
    try:
        moment = datetime.fromisoformat(typed)
    except ValueError:
        return typed  # the service answers it (invalid_deadline)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def correction(svc: Service, match_id: str, data: FormData) -> Sending:
    reason = text(data, "reason")
    void = text(data, "void", 20)
    if void:
        seq = posted.number_or_text(void)
        return Sending(["correct"], {"void": seq, "reason": reason}, "voided", aimed=False,
                       what=str(seq), title=f"Void entry #{seq}",
                       ask=[voided_words(svc, match_id, seq), f"Reason, recorded: {reason}",
                            "The void is recorded for good (it can be checked in the full "
                            "bundle); the submission no longer counts."])
    name = text(data, "command", 100)
    player = text(data, "as", 100)
    args = posted.parsed("args", text(data, "args") or "{}", strict=True)
    spends = getattr(get_game(read_view(svc, match_id, HOST, None)["game"]), "SPENDS", {})
    ask = ([f"{player} spends {spends[name]} garnets on {name}, entered by you: the garnets "
            "are taken from their season balance.", f"Reason, recorded: {reason}"]
           if name in spends else [])
    return Sending(["correct"], {"as": player, "command": name, "args": args,
                                 "reason": reason}, "entered", aimed=False,
                   what=f"{name} for {player}", title=f"Enter {name} for {player}", ask=ask)


def voided_words(svc: Service, match_id: str, seq: Any) -> str:
    """Which submission a void takes away, as the host's view tells it."""
    view = read_view(svc, match_id, HOST, None)
    entry = next((e for e in view["events"] if e["seq"] == seq), None)
    if entry is None or entry["kind"] != "CommandAccepted":
        return f"Entry #{seq} is voided, if it is a player's submission the rules may still void."
    sent = entry["data"]
    return (f"Entry #{seq}, {entry['actor']}'s {sent.get('name')} of round {entry['round']} "
            f"({story.compact(sent.get('args', {}))}), is voided: the match is replayed "
            "without it.")


def ending(svc: Service, match_id: str, data: FormData) -> Sending:
    reason = text(data, "reason")
    return Sending(["end"], {"reason": reason}, "ended", aimed=False,
                   title=f"End {match_id} now",
                   ask=["The match ends before its rules finish it: no awards beyond those "
                        "already given; the seed is revealed; every later command is refused.",
                        f"Reason, public: {reason}"])


def host_command(svc: Service, match_id: str, data: FormData) -> Sending:
    name = text(data, "command", 100)
    view = read_view(svc, match_id, HOST, None)
    if "free.args" in data:
        found = posted.parsed("arguments", text(data, "free.args") or "{}", strict=True)
        args = found if isinstance(found, dict) else {"": found}
    else:
        form = next((f for f in story.forms(view, HOST) if f["command"] == name), None)
        declared = story.declared(view["game"], name)
        args = posted.args_of(data, posted.field_kinds(form) or declared,
                              {n: a.get("items") for n, a in declared.items()})
    spec = getattr(get_game(view["game"]), "COMMANDS", {}).get(name)
    label = spec.label if spec is not None and spec.label else name
    told_args = f" ({story.compact(args)})" if args else ""
    return Sending([name], args, "sent", what=f"{name}{told_args}", title=label,
                   ask=[f"{label}{told_args}: sent as the host, recorded in the log for good."])


ACTIONS = {"close": closing, "deadline": deadline, "corrections": correction, "end": ending,
           "commands": host_command}
