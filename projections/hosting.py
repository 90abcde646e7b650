"""What the host's set-up pages draw, read off a game's declaration and a season's standings:
the games to pick from, a game's setup as form fields (its defaults filled in, each explained
in its rulebook's words), and the season's next steps (a Death Match whose pairing is known,
the Final of the last two). No rule is decided here: the service judges every form as it
judges the API.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic_core import PydanticUndefined

from domain.games import game_ids, get_game
from domain.setup import SetupBase
from projections.story import game_name

BRIEF = {
    "kings_court": "Eleven players, a secret King, Dukes and Nobles, elections into the court, "
                   "a lying Judge; the EC at the end.",
    "merchants_guild": "Ten players, five gem houses, 60 bills in hidden pairs, eight weekly "
                       "ballots, an investigation and a blackmail week.",
    "amalgamation": "Six players, seven rounds of four sub-games at once, three twists; the EC "
                    "at the end.",
    "totemic_might": "Seven players learn the weights of twenty totems through auctions, a "
                     "private scale and wagers, then balance what they hold.",
    "tile_joust": "Two players: the Death Match of an EC against its DMO, and the Final of the "
                  "last two (made from the season).",
}
# Fields the season or the page fills in: the players always; a Tile Joust's pairing.
SEASON_FIELDS = ("players",)
DUEL_FIELDS = ("variant", "dmo")


def games() -> list[dict[str, str]]:
    return [{"game": g, "name": game_name(g), "brief": BRIEF.get(g, "")} for g in game_ids()]


def kind_of(prop: dict[str, Any]) -> tuple[str, list[Any] | None]:
    """How a setup field is typed in: a choice, a whole number, yes/no, a text, or JSON."""
    options = [p for p in prop.get("anyOf", [prop]) if p.get("type") != "null"]
    only = options[0] if len(options) == 1 else {}
    if "enum" in only:
        return "choice", list(only["enum"])
    return {"boolean": "bool", "integer": "int", "string": "text"}.get(only.get("type", ""),
                                                                        "json"), None


def setup_fields(game_id: str, leave_out: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The game's setup, field by field: name, kind, choices, whether it must be given, its
    default (as the form shows it) and its explanation."""
    game = get_game(game_id)
    schema = game.Setup.model_json_schema()
    helps: dict[str, str] = getattr(game, "SETUP_HELP", {})
    fields = []
    every_game = SetupBase.model_fields  # the match's own settings, after the game's
    ordered = sorted(game.Setup.model_fields.items(), key=lambda item: item[0] in every_game)
    for name, field in ordered:
        if name in SEASON_FIELDS or name in leave_out:
            continue
        kind, choices = kind_of(schema["properties"].get(name, {}))
        default = (field.default_factory() if field.default_factory is not None  # type: ignore[call-arg]
                   else None if field.default is PydanticUndefined else field.default)
        fields.append({"name": name, "kind": kind, "choices": choices,
                       "required": field.is_required(), "default": shown(kind, default),
                       "help": helps.get(name) or field.description or "",
                       "advanced": kind == "json"})
    return fields


def shown(kind: str, default: Any) -> Any:
    """A default as the form's field holds it: JSON for JSON fields (empty when there is
    nothing to show), the value itself otherwise."""
    if kind == "json":
        if default in (None, [], {}):
            return ""
        return json.dumps(default.model_dump() if hasattr(default, "model_dump") else default)
    return default


def next_steps(standings: dict[str, Any]) -> dict[str, Any]:
    """What the season's standings make possible next: a Death Match for each Main Match's EC
    (or early King) whose DMO is known and who has none yet, the ECs still waiting for their
    DMO, and the Final once two players remain."""
    matches = standings["matches"]
    played = {(m["from"], m["ec"]) for m in matches if m["kind"] == "death_match"}
    death_matches: list[dict[str, Any]] = []
    waiting: list[dict[str, Any]] = []
    for m in matches:
        if m["kind"] != "main" or not m["ended"] or m["abandoned"]:
            continue
        for ec in [*m["ecs"], *m["entrants"]]:
            if (m["match"], ec) in played:
                continue
            dmo = m["dmos"].get(ec)
            (death_matches if dmo else waiting).append({"from": m["match"], "ec": ec,
                                                        "dmo": dmo, "several": len(m["ecs"]) > 1
                                                        or bool(m["entrants"])})
    final_made = any(m["kind"] == "final_match" for m in matches)
    remaining = standings["remaining"]
    final = (list(remaining) if len(remaining) == 2 and not final_made
             and standings["champion"] is None else None)
    return {"death_matches": death_matches, "waiting_dmo": waiting, "final": final}
