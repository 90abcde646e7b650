"""Through the service: a seed match played into the store, viewed by each viewer as of a round
(the live view the issue asks for), on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from commands.cli.matchfile import load, play
from projections.views import view

SEED = Path(__file__).resolve().parents[3] / "seeds" / "tile_joust-dm-ec-outscores.json"


def test_each_viewer_sees_what_the_rulings_release_as_of_any_round(app):
    file = load(SEED)
    play(app, file)
    match = app.match(file.match)
    # As of round 11 (set 1's eleventh auction, which opened the twelfth): bids and chips
    # are public, values are not.
    public = view(match, "public", round=11)["summary"]
    assert public["chips"] == {"mira": 48, "theo": 73}
    assert public["known_tiles"] == {} and public["orderings"] is None
    assert public["now"]["what"] == "bidding" and public["now"]["label"] == "G"
    mira = view(match, "mira", round=11)["summary"]
    assert {tile: facts["value"] for tile, facts in mira["known_tiles"].items()} == {
        "s1g1G": 9,
        "s1g2M": 1,
        "s1g2G": 13,
        "s1g3G": 12,
        "s1g3M": 4,
    }
    theo = view(match, "theo", round=11)["summary"]
    assert set(theo["known_tiles"]) == {"s1g1B", "s1g1M", "s1g2B", "s1g3B", "s1g4M", "s1g4B"}
    assert view(match, "host", round=11)["summary"]["orderings"]["1"][12] == 8  # x1
    # At the end every value is public.
    final = view(match, "public")["summary"]
    assert final["result"]["winner"] == "theo" and final["revealed"]["orderings"]["2"][0] == 11
