"""How the command line prints: JSON with `--json`, else sentences and tables drawn with rich.

Each renderer takes data already filtered for its viewer. Rich decides colour and width from
the terminal: printed into a pipe or a file the text stays plain (no colour codes), and
NO_COLOR is honoured. Rich is imported only when text is printed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.table import Table

    from commands.service.outcomes import Outcome

SCALARS = (str, int, float, bool, type(None))


def emit(data: Any, as_json: bool, text: str) -> None:
    """`data` as JSON, or `text` as it is: a value to copy or to script (a key, a token) is
    printed whole, never wrapped."""
    click.echo(json.dumps(data, indent=2, sort_keys=True) if as_json else text)


def show(data: Any, as_json: bool, draw: Callable[[], Iterable[RenderableType]],
         err: bool = False) -> None:
    """`data` as JSON, or what `draw` makes of it as text."""
    if as_json:
        click.echo(json.dumps(data, indent=2, sort_keys=True), err=err)
    else:
        out(*draw(), err=err)


def out(*renderables: RenderableType, err: bool = False) -> None:
    printer = console(err)
    for renderable in renderables:
        printer.print(fitted(renderable, printer.width))


def fitted(renderable: RenderableType, width: int) -> RenderableType:
    """A table that fits `width` without cutting a word: each column at least as wide as its
    longest word, cells wrapped whole; when even that is too wide, one record per block
    ("column: value" lines), so no word is ever split across lines."""
    tables = sys.modules.get("rich.table")  # none was made unless its module was loaded
    if tables is None or not isinstance(renderable, tables.Table) or not renderable.columns:
        return renderable
    if not renderable.show_header:  # a report's grid (`pairs`): its values are words
        return report(renderable, width)
    columns = renderable.columns
    texts = [[str(c.header), *(str(cell) for cell in c._cells)] for c in columns]
    least = [max((len(word) for text in cells for word in text.split()), default=1)
             for cells in texts]
    most = [max((len(text) for text in cells), default=1) for cells in texts]
    # Between two columns: their padding and the box's divider, a space (`new_table`).
    room = width - 3 * (len(columns) - 1)
    if sum(least) > room:
        return records(renderable, texts)
    widths = list(most)
    while sum(widths) > room:  # narrow the column with the most to spare, a space at a time
        spare = max(range(len(widths)), key=lambda i: widths[i] - least[i])
        widths[spare] -= 1
    for column, wide in zip(columns, widths, strict=True):
        column.width = wide
    return renderable


def report(grid: Table, width: int) -> RenderableType:
    """A report (`pairs`) whose values keep every word whole in the room beside the names;
    a value with a word too long for it (a key, a hash, a path) goes under its name, indented,
    where it has the whole width: no word is cut across lines if the terminal can hold it."""
    from rich.console import Group
    from rich.padding import Padding
    from rich.text import Text

    if len(grid.columns) != 2:
        return grid
    cells, values = (list(column._cells) for column in grid.columns)
    names = [name for name in cells if isinstance(name, str)]
    if len(names) != len(cells):
        return grid
    name_width = max((len(name) for name in names), default=0)
    room = width - name_width - 2  # the grid's padding between the two columns

    def too_long(value: Any) -> bool:
        return isinstance(value, str) and any(len(word) > room for word in value.split())

    if not any(too_long(value) for value in values):
        return grid
    parts: list[RenderableType] = []
    run: list[tuple[str, Any]] = []
    for name, value in zip(names, values, strict=True):
        if not isinstance(value, str) or not too_long(value):
            run.append((name, value))
            continue
        if run:
            parts.append(report_grid(run, name_width))
            run = []
        parts.extend([Text(name), Padding(Text(value), (0, 0, 0, 2))])
    if run:
        parts.append(report_grid(run, name_width))
    return Group(*parts)


def records(table: Table, texts: list[list[str]]) -> RenderableType:
    """A table too wide for the terminal as one block of "column: value" lines per row."""
    from rich.console import Group
    from rich.text import Text

    heads = [cells[0] or "" for cells in texts]
    rows = len(texts[0]) - 1
    blocks: list[RenderableType] = [Text(str(table.title))] if table.title else []
    for n in range(1, rows + 1):
        lines = [f"{head}: {cells[n]}" if head else cells[n]
                 for head, cells in zip(heads, texts, strict=True) if cells[n]]
        blocks.append(Text("\n".join(lines) + ("\n" if n < rows else "")))
    return Group(*blocks)


def console(err: bool = False) -> Console:
    from rich.console import Console

    # markup off: player names and game data are printed as they are, brackets and all.
    return Console(stderr=err, markup=False, emoji=False, highlight=False)


# -- values ---------------------------------------------------------------------------------

def compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def cell(value: Any) -> str:
    """A value in a few words: lists joined with commas, objects as `key: value`."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if not value:
            return "none"
        if all(isinstance(v, SCALARS) for v in value):
            return ", ".join(cell(v) for v in value)
        return "; ".join(nested(v) for v in value)
    if isinstance(value, dict):
        if not value:
            return "none"
        return ", ".join(f"{k}: {nested(v)}" for k, v in value.items())
    return str(value)


def nested(value: Any) -> str:
    """A value inside another, in parentheses when it has parts of its own."""
    parts = (isinstance(value, dict) and value) or (isinstance(value, list) and len(value) > 1)
    return f"({cell(value)})" if parts else cell(value)


def block(value: Any) -> RenderableType:
    """A value as a table when it is one (rows of objects with the same keys), as a nested
    report when it is an object of objects, else in a few words."""
    if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
        if rows_alike(list(value.values())):
            return rows_table([{"": key, **row} for key, row in value.items()])
        return pairs(value.items())
    if isinstance(value, list) and rows_alike(value):
        return rows_table(value)
    return cell(value)


def rows_alike(rows: list[Any]) -> bool:
    """Rows a table shows well: objects, all with the same keys, each value a few words."""
    return bool(rows) and all(isinstance(row, dict) and row and row.keys() == rows[0].keys()
                              and all(isinstance(v, SCALARS) or len(v) <= 3
                                      for v in row.values()) for row in rows)


def rows_table(rows: list[dict[str, Any]], title: str | None = None) -> Table:
    columns = list(dict.fromkeys(key for row in rows for key in row))
    table = new_table(*columns, title=title)
    for row in rows:
        table.add_row(*(cell(row.get(column)) for column in columns))
    return table


def new_table(*columns: str, title: str | None = None) -> Table:
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", pad_edge=False,
                  show_edge=False)
    for column in columns:  # a narrow terminal wraps a cell at its spaces (`fitted`)
        table.add_column(column, no_wrap=not column)  # row names stay whole
    return table


def pairs(items: Iterable[tuple[str, Any]]) -> Table:
    """Two columns, what and its value, with no lines: a report."""
    return report_grid((key, block(value)) for key, value in items)


def report_grid(rows: Iterable[tuple[str, RenderableType]],
                name_width: int | None = None) -> Table:
    """A report's rows as they are drawn (`name_width`: the names' column as wide as in
    another part of the same report)."""
    from rich.table import Table

    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True, min_width=name_width)
    table.add_column(overflow="fold")
    for key, value in rows:
        table.add_row(key, value)
    return table


# -- events and views -----------------------------------------------------------------------

def audience(value: Any) -> str:
    if value == "public":
        return "everyone"
    return value if isinstance(value, str) else ", ".join(value)


def events_table(events: list[dict[str, Any]], title: str | None = "events") -> Table:
    """Entries in words: the kind as a phrase ("vote cast"), the details as the story's."""
    from projections import story, words

    table = new_table("#", "round", "event", "by", "seen by", "details", title=title)
    for e in events:
        data = e["data"]
        details = words.command("", str(data.get("name")), data.get("args") or {}) \
            if e["kind"] == "CommandAccepted" else story.compact(data)
        table.add_row(str(e["seq"]), str(e["round"]), words.readable(e["kind"]),
                      e.get("actor") or "-", audience(e["audience"]), details)
    return table


def event_line(event: dict[str, Any]) -> str:
    from projections import story, words

    return (f"#{event['seq']} round {event['round']} {words.readable(event['kind'])} (seen by "
            f"{audience(event['audience'])}): {story.compact(event['data'])}")


def seen_by(viewer: str) -> str:
    return {"public": "the public", "host": "the host"}.get(viewer, viewer)


def view(data: dict[str, Any], when: str, extra: Iterable[tuple[str, Any]] = ()
         ) -> list[RenderableType]:
    """A viewer's view told as the pages tell it: who sees what and `when` ("sees it now:
    ...", "saw it at the end of round 2"), the viewer's part, the outcome, the game's
    scoreboard when it draws one, then the story round by round, in sentences (the entries
    themselves: --json, or `arbiter export`)."""
    from projections import story, words

    lines: list[RenderableType] = [
        f"{words.game_name(data['game'])}, match {data['match']}, as "
        f"{seen_by(data['viewer'])} {when}"]
    part = words.role(data, data["viewer"])
    if part:
        lines.append(f"{part['role']} {part['goal']}")
    said = words.outcome(data["game"], story.results_of(data))
    if said:
        lines.append(words.sentence(said))
    board = scoreboard(data)
    if board is not None:
        lines.append(board)
    for chapter in story.chapters(data):
        lines.append(f"\n{chapter['title']}")
        lines.append(Bullets(chapter["lines"]))
    extras = list(extra)
    if extras:
        lines.append(pairs(extras))
    return lines


class Bullets:
    """Sentences as a list, each wrapped at its spaces under itself to the terminal's width
    (a long match tells a thousand of them: plain wrapping keeps `view` quick)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)

    def __rich_console__(self, console: Console, options: Any) -> Iterator[Any]:
        import textwrap

        from rich.text import Text

        from projections.story import bullets

        width = max(20, options.max_width - 3)
        told = []
        for item in bullets(self.lines):  # a list carried over a line stays in its bullet
            wrapped = textwrap.wrap(" ".join(item), width, break_long_words=False,
                                    break_on_hyphens=False) or [""]
            told.append(" - " + "\n   ".join(wrapped))
        yield Text("\n".join(told))



def scoreboard(data: dict[str, Any]) -> Table | None:
    """The game's own standings table (`scoreboard(view)`), when the game draws one."""
    from domain.games import get_game

    draw = getattr(get_game(data["game"]), "scoreboard", None)
    board = draw(data["summary"]) if draw else None
    if not board:
        return None
    table = new_table(*board["columns"], title=board.get("title"))
    for row in board["rows"]:
        table.add_row(*(cell(value) for value in row))
    return table


# -- outcomes and results -------------------------------------------------------------------

def told(value: Any, ids: set[str]) -> str:
    """A game's result detail in words: keys and codes made readable (`decided_by:
    party_vote` -> "decided by party vote"), the players' ids kept as typed, nested values in
    parentheses, so it wraps as text and never as a table cropped to the terminal."""
    from projections import words

    if isinstance(value, dict):
        return ", ".join(f"{words.readable(k) if k not in ids else k} {nested_told(v, ids)}"
                         for k, v in value.items()) or "none"
    if isinstance(value, list | tuple):
        return ", ".join(nested_told(v, ids) for v in value) or "none"
    if isinstance(value, str) and value not in ids:
        return words.code_or_text(value)
    return words.value(value)


def nested_told(value: Any, ids: set[str]) -> str:
    inner = told(value, ids)
    return f"({inner})" if isinstance(value, dict | list | tuple) and len(value) > 1 else inner


def outcome(result: Outcome, actor: str, name: str,
            seen: dict[str, Any] | None = None) -> list[RenderableType]:
    """A recorded command told as the pages tell it: what was accepted, its receipt, then what
    its entries add to the story `actor` reads (`seen`: their view now), round by round, in
    the game's sentences (the entries themselves: --json, or `arbiter export`)."""
    first, last = result.seqs[0], result.seqs[-1]
    entries = f"entry #{first}" if first == last else f"entries #{first} to #{last}"
    from projections import story, words

    who = "the host" if actor == "host" else actor
    sent = next((e["data"] for e in result.told if e["kind"] == "CommandAccepted"), None)
    game = seen["game"] if seen else ""
    what = words.command(game, name, sent.get("args") or {}) if sent else words.readable(name)
    lines: list[RenderableType] = [f"accepted: {who}'s {what}, {entries}"]
    if result.receipt:
        lines.append(f"receipt: entry #{result.receipt.seq}, hash {result.receipt.hash} "
                     "(the whole receipt: --json, or --receipt FILE)")
    told = story.told_by(seen, result.seqs) if seen else []
    for chapter in told:
        lines.append(f"\n{chapter['title']}")
        lines.append(Bullets(chapter["lines"]))
    if seen is None and result.told:  # no view to tell it from: each entry in words
        lines.append(events_table(result.told, title=f"what {who} was told"))
    return lines


def results(data: dict[str, Any], reveals: bool = True) -> list[RenderableType]:
    from projections import words

    said = words.outcome(data["game"], {"outcome": data["outcome"], "ranks": {
        row["player"]: row["rank"] for row in data["players"] if row["rank"] is not None}})
    state = f"over: {said}" if data["ended"] and said else "over" if data["ended"] \
        else "not over yet"
    lines: list[RenderableType] = [
        f"{words.game_name(data['game'])}, match {data['match']}: {state}"]
    table = new_table("player", "rank", "ToL", "garnets", "Opal", "MoE", "EC", "Death Match")
    for row in data["players"]:
        table.add_row(row["player"], cell(row["rank"]), str(row["tol"]),
                      f"{row['garnets']:+d}", str(row["opal"]), str(row["moe"]),
                      "EC" if row["ec"] else "", "entrant" if row["dm_entrant"] else "")
    lines.append(table)
    if data["details"]:
        ids = {row["player"] for row in data["players"]}
        lines.append(pairs((words.readable(k), told(v, ids))
                           for k, v in data["details"].items()))
    if reveals:
        for block_ in data["rounds"]:
            lines.append(events_table(
                [{**r, "round": block_["round"], "actor": None, "audience": "public"}
                 for r in block_["reveals"]], title=f"round {block_['round']}: revealed"))
    return lines

