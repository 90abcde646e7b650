"""`arbiter announce`: a round's public story as Discord messages, the same sentences as the
public page, the round's signed checkpoint in a code block, every message under 2,000
characters."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from pages_harness import FILES, canaries, last_round, play_seeds

from commands.cli.main import cli
from domain.decider import PUBLIC
from projections import story
from projections.announcement import LIMIT, announcement, packed, plain
from projections.views import view


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('announce')}/a.db"
    app = play_seeds(url)
    yield url, app
    app.close()


def test_every_round_of_every_seed_match_fits_discord_and_tells_the_page_story(seeded):
    _, app = seeded
    for file in FILES:
        match = app.match(file.match)
        notes = app.checkpoints(file.match).notes
        for round in range(last_round(match) + 1):
            public = view(match, PUBLIC, round)
            chapter = next((c for c in story.chapters(public) if c["round"] == round), None)
            if chapter is None:
                continue
            messages = announcement(public, round, notes, "https://arbiter.example")
            text = "\n".join(messages)
            assert all(len(m) <= LIMIT for m in messages)
            # Every line of the story, each sentence one bullet: a line that carries a list
            # over (it begins with spaces) is indented under its bullet, never a dash.
            for line in chapter["lines"]:
                bullet = "- " if not line[:1].isspace() else "\n  "
                assert f"{bullet}{plain(line.strip())}" in text, line
                if bullet != "- ":
                    assert f"- {plain(line.strip())}" not in text, line
            for note in (n["note"] for n in notes if n["round"] == round):
                assert f"```\n{note.rstrip()}\n```" in text
            for secret in canaries(file, match, PUBLIC, round):
                assert secret not in text
            assert f"<https://arbiter.example/m/{file.match}?round={round}>" in text


def test_the_command_prints_the_latest_round_and_a_chosen_one(seeded):
    url, _ = seeded
    runner = CliRunner()
    latest = runner.invoke(cli, ["--db", url, "announce", "kings-court-king-win"])
    assert latest.exit_code == 0, latest.output
    assert latest.stdout.startswith("**King's Court · kings-court-king-win · ")
    # Nothing has projected this store: read from the log, and said so beside the answer.
    assert latest.stderr.startswith("note: the view tables do not hold match kings-court")
    third = runner.invoke(cli, ["--db", url, "announce", "kings-court-king-win", "--round", "3",
                                "--json"])
    messages = json.loads(third.stdout)
    assert messages[0].startswith("**King's Court · kings-court-king-win · ")
    assert "```\narbiter/match/kings-court-king-win\n" in messages[-1]
    missing = runner.invoke(cli, ["--db", url, "announce", "no-such-match"])
    assert missing.exit_code == 2 and "unknown_match" in missing.output


def test_long_rounds_split_between_lines_and_never_inside_the_checkpoint():
    lines = [f"- line {i} " + "x" * 180 for i in range(30)]
    block = "Signed checkpoint:\n```\n" + "n" * 400 + "\n```"
    messages = packed("**head**", [*lines, block])
    assert len(messages) > 2 and all(len(m) <= LIMIT for m in messages)
    assert all(m.startswith("**head**") for m in messages)
    assert messages[1].startswith("**head** (continued)\n- line")
    assert sum(m.count("```") for m in messages) == 2 and block in messages[-1]
    assert "\n".join(m.split("\n", 1)[1] for m in messages) == "\n".join([*lines, block])


def test_names_cannot_format_or_mention():
    assert plain("*bold* _it_ `code` @everyone") == \
        "\\*bold\\* \\_it\\_ \\`code\\` @\u200beveryone"
