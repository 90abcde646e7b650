"""What a public page needs for "Check this log in your browser" (static/audit.js and
static/check.js, templates/check_in_browser.html): the public bundle to fetch, the host's
verifier key the page pins, where the host says it published that key, and who cosigned each
checkpoint; and what a player's page needs for their browser to be a witness
(static/witness.js, templates/browser_witness.html).

The key shown is only as trustworthy as the page that shows it: a reader compares it with the
one the host published elsewhere (the game's chat, its website), which
$ARBITER_KEY_PUBLISHED_AT names in words or as a link. docs/audit.md, "Checking in the browser".
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import quote

from commands.web.worker import Service
from domain.decider import HOST
from domain.season import witness_name

PUBLISHED_VARIABLE = "ARBITER_KEY_PUBLISHED_AT"


def browser_check(svc: Service, bundle: str, match_id: str | None = None,
                  season: str | None = None) -> dict[str, Any]:
    """The context of the check: `bundle` is the public bundle's path on this server; a
    match's page and a season's also list who cosigned each of its checkpoints."""
    signer = svc.arbiter.signer
    published = os.environ.get(PUBLISHED_VARIABLE, "").strip()
    return {"bundle": bundle, "key": signer.verifier_key() if signer else None,
            "published": published or None,
            "published_link": published.startswith(("https://", "http://")),
            "rounds": cosigned_rounds(svc, match_id) if match_id else
            season_rounds(svc, season) if season else []}


def witness_context(svc: Service, match_id: str, player: str, csrf: str) -> dict[str, Any]:
    """What templates/browser_witness.html needs on the player's page."""
    season = svc.arbiter.match(match_id).season
    signer = svc.arbiter.signer
    return {"season": season, "player": player, "name": witness_name(season, player),
            "registered": svc.arbiter.season(season).witnesses.get(player), "csrf": csrf,
            "bundle": f"/matches/{quote(match_id)}/bundle", "match": match_id,
            "season_bundle": f"/seasons/{quote(season)}/bundle",
            "key": signer.verifier_key() if signer else None}


def cosigned_rounds(svc: Service, match_id: str) -> list[dict[str, Any]]:
    """Each signed checkpoint, newest first: the round it closes, and which of the match's
    players' browsers and which other witnesses cosigned it."""
    match = svc.arbiter.match(match_id)
    return rows_of(svc, match.season, [p for p in match.players if p != HOST],
                   svc.arbiter.cosigned_notes(match_id))


def season_rounds(svc: Service, season: str) -> list[dict[str, Any]]:
    """The same for a season's checkpoints (one after each change of the season), of its
    players."""
    return rows_of(svc, season, svc.arbiter.season(season).players,
                   svc.arbiter.cosigned_season_notes(season))


def rows_of(svc: Service, season: str, players: list[str],
            notes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    keys = svc.arbiter.season(season).witnesses
    names = {witness_name(season, p): p for p in players if p in keys}
    rows = []
    later: set[str] = set()  # who cosigned a later round: that vouches for this one too
    for note in reversed(notes):
        signed_by = {line[2:].split(" ")[0] for line in note.get("cosignatures", [])}
        cosigners = {names[n] for n in signed_by if n in names}
        rows.append({"round": note.get("round"), "size": note["size"],
                     "players": sorted(cosigners), "of": len(players),
                     "later": len(later - cosigners),
                     "others": sorted(n for n in signed_by if n not in names)})
        later |= cosigners
    return rows
