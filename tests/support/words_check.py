"""What a person reads, checked for codes: the visible text of a page, or what a command prints,
may hold no outcome code, no `None`, no Python repr or JSON, no backtick and no underscore word;
a page is in the site's layout; a terminal never splits a word across lines."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Kept as written where a reader copies them: commands to run, hashes, checkpoint notes.
VERBATIM = {"code", "pre", "textarea", "script", "style"}
OFFENCES = {
    "an underscore word": re.compile(r"\b[A-Za-z0-9]+_[A-Za-z0-9_]*[A-Za-z0-9]\b"),
    "None": re.compile(r"\bNone\b"),
    "a repr or JSON": re.compile(r"""[\[{]['"]|['"]\s*:\s*['"\[{]"""),
    "a backtick": re.compile(r"`"),
    "an event kind": re.compile(r"\b(?:[A-Z][a-z]+)+(?:Accepted|Cast|Opened|Closed|Ended|"
                                r"Drawn|Set|Placed|Revealed|Created|Granted|Tallied)\b"),
    # One sentence, one bullet: a list carried over to a second dash ("-   heidi …"), or a
    # bullet left hanging on a comma with the rest of its list under a dash of its own.
    "a broken bullet": re.compile(r"(?m)^[ \t]*- {2,}\S.*|,[ \t]*\n[ \t]*- \S.*"),
    "a field dump": re.compile(r"\b(?:tied|amount|previous kings|is king|index|defaulted)"
                               r" (?:none|nothing|0|yes|no)\b"),
}


class Visible(HTMLParser):
    """The text a browser shows (SVG titles and labels included), outside verbatim blocks."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0
        self.open: list[str] = []  # the verbatim elements we are inside

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VERBATIM or is_label(tag, attrs):
            self.hidden += 1
            self.open.append(tag)
        self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if self.open and self.open[-1] == tag:
            self.open.pop()
            self.hidden -= 1
        self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def is_label(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """A code shown as a small label beside its sentence (`<small class="code">`)."""
    return tag == "small" and ("class", "code") in attrs


def visible(html: str) -> str:
    parser = Visible()
    parser.feed(html)
    return " ".join("".join(parser.parts).split())


def offences(text: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """Each code-like thing in `text`, with a little context; `allowed`: words the reader
    types as they are (a match id, a player id; paths and URLs always are)."""
    found = []
    text = re.sub(r"\S*/\S*", "", text)  # a path, a URL, a rules version: typed as it is
    for what, pattern in OFFENCES.items():
        for hit in pattern.finditer(text):
            if hit.group(0) in allowed:
                continue
            start = max(0, hit.start() - 40)
            found.append(f"{what}: …{text[start:hit.end() + 40]}…")
    return found


def broken_items(html: str) -> list[str]:
    """Items of a page's lists that stop on a comma: the rest of the sentence went to an item
    of its own."""
    return [f"a broken bullet: …{hit[-60:]}" for hit in re.findall(r"<li>[^<]*,\s*</li>", html)]


def in_layout(html: str) -> bool:
    """The site's layout: its header, its main, its footer (templates/base.html)."""
    return all(mark in html for mark in ('<header class="top">', '<main id="main">',
                                         '<footer class="bottom">'))


def split_words(narrow: str, wide: str) -> list[str]:
    """Words of `narrow` (printed 80 columns wide) that are no word of `wide` (the same
    printed wide): a word cut across two lines."""
    def words(text: str) -> set[str]:
        return {w.strip(".,:;()…") for w in text.split()}
    known = words(wide)
    return sorted(w for w in words(narrow) if w and w not in known and w.strip("─"))
