"""The season ledger: registrations, grants with reasons, trades and their freeze."""

from __future__ import annotations

from pathlib import Path

from commands.matchfile import load, play
from tests.test_match_ledger import refused


def test_grants_and_trades_name_their_cause(app):
    app.create_season("s")
    refused("season_exists", app.create_season, "s")
    app.register("s", "ann")
    app.register("s", "bob")
    refused("player_exists", app.register, "s", "ann")
    refused("invalid_player", app.register, "s", "host")
    refused("reason_required", app.grant, "s", "ann", "garnets", 5, " ")
    refused("unknown_asset", app.grant, "s", "ann", "gems", 5, "why not")
    refused("insufficient_garnets", app.grant, "s", "ann", "garnets", -1, "fine")
    app.grant("s", "ann", "garnets", 5, "season start")
    refused("insufficient_garnets", app.transfer, "s", "ann", "bob", 6, "trade")
    refused("invalid_amount", app.transfer, "s", "ann", "bob", 0, "trade")
    refused("invalid_transfer", app.transfer, "s", "ann", "ann", 1, "trade")
    app.transfer("s", "ann", "bob", 2, "bought a hint")
    season = app.season("s")
    assert season.garnets(["ann", "bob"]) == {"ann": 3, "bob": 2}
    assert [h["cause"] for h in season.history] == [
        {"grant": "season start"}, {"transfer": "bought a hint"}, {"transfer": "bought a hint"}]


def test_king_court_freezes_trades_from_the_end_until_the_dmo(app):
    file = load(Path(__file__).resolve().parents[1] / "seeds" / "kings_court-king-win.json")
    # Stop before the last command (record_dmo): the freeze is on.
    play(app, file.model_copy(update={"commands": file.commands[:-1], "expect": None}))
    refused("garnet_trades_frozen", app.transfer, file.season, "alice", "bob", 1, "trade")
    app.submit(file.match, "host", file.commands[-1].do, file.commands[-1].args)
    assert file.commands[-1].do == "record_dmo"
    app.transfer(file.season, "bob", "alice", 1, "trade")  # the DMO ends the freeze
