"""Plain-text renderings for the CLI. Each takes data already filtered for its viewer."""

from __future__ import annotations

import json
from typing import Any

import click

from commands.app import Outcome


def emit(data: Any, as_json: bool, text: str) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=True) if as_json else text)


def compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def event_line(event: dict[str, Any]) -> str:
    audience = event["audience"]
    if audience == "public":
        to = ""
    else:
        to = f" [to {audience if isinstance(audience, str) else ','.join(audience)}]"
    return f"  #{event['seq']:<4} r{event['round']:<3} {event['kind']}{to} {compact(event['data'])}"


def outcome_text(outcome: Outcome) -> str:
    lines = []
    if outcome.receipt:
        r = outcome.receipt
        lines.append(f"receipt: match {r.match} seq {r.seq} hash {r.hash}")
        lines.extend(f"  salt[{i}] {s}" for i, s in r.salts.items())
    lines.extend(event_line(e) for e in outcome.told)
    return "\n".join(lines)


def view_text(data: dict[str, Any]) -> str:
    lines = [f"{data['game']} match {data['match']} as seen by {data['viewer']} "
             f"(round {data['as_of']['round']}, {data['as_of']['seq']} entries)"]
    lines.extend(f"{key}: {compact(value)}" for key, value in data["summary"].items())
    lines.append("events:")
    lines.extend(event_line(e) for e in data["events"])
    return "\n".join(lines)


def results_text(outcome: dict[str, Any], reveals: bool = True) -> str:
    lines = [f"{outcome['game']} match {outcome['match']}: outcome {outcome['outcome']}"
             + ("" if outcome["ended"] else " (not ended)")]
    lines.append(f"  {'player':<12} {'rank':>4} {'ToL':>4} {'garnets':>8} {'opal':>4} "
                 f"{'MoE':>4}  EC")
    for row in outcome["players"]:
        lines.append(f"  {row['player']:<12} {row['rank'] or '-':>4} {row['tol']:>4} "
                     f"{row['garnets']:>+8} {row['opal']:>4} {row['moe']:>4}  "
                     f"{'EC' if row['ec'] else ''}{' DM' if row['dm_entrant'] else ''}")
    for key, value in outcome["details"].items():
        lines.append(f"  {key}: {compact(value)}")
    if reveals:
        for block in outcome["rounds"]:
            lines.append(f"round {block['round']}:")
            lines.extend(f"  #{r['seq']} {r['kind']} {compact(r['data'])}"
                         for r in block["reveals"])
    return "\n".join(lines)
