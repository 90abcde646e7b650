"""Orders of players: the starting priority list (2.5), the final ranking (9, TM-R25, TM-R34)
and the Opal challenge (6.10, TM-R26)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.games.totemic_might.setup import Setup


def history_key(setup: Setup, player: str) -> tuple[tuple[int, int], ...]:
    """Older posted garnet counts, most recent first, highest first; a missing count ranks
    below any count."""
    longest = max((len(counts) for counts in setup.garnet_history.values()), default=0)
    counts = setup.garnet_history.get(player, [])
    return tuple((0, -counts[i]) if i < len(counts) else (1, 0) for i in range(longest))


def starting_priority(setup: Setup, garnets_start: Mapping[str, int]) -> list[str]:
    """Most garnets first; ties by the older counts; then setup order."""
    return sorted(
        setup.players,
        key=lambda p: (-garnets_start[p], history_key(setup, p), setup.players.index(p)),
    )


def final_ranking(
    setup: Setup,
    marks: Mapping[str, int],
    scores: Mapping[str, int],
    end_garnets: Mapping[str, int],
    garnets_start: Mapping[str, int],
    priority: Sequence[str],
) -> list[str]:
    """Fewest failure marks, highest score, most garnets now, most at the start, then the older
    counts, then the final priority list: always strict."""
    return sorted(
        setup.players,
        key=lambda p: (
            marks[p],
            -scores[p],
            -end_garnets[p],
            -garnets_start[p],
            history_key(setup, p),
            priority.index(p),
        ),
    )


def opal_challenge_winner(
    setup: Setup, correct: Mapping[str, int], wagers_taken: Mapping[str, int]
) -> str | None:
    """Most correct guesses (at least one, unless the variant says otherwise); ties to the fewest
    wagers taken; still tied, nobody."""
    best = max(correct.values())
    if setup.opal_requires_correct_guess and best < 1:
        return None
    candidates = [p for p in setup.players if correct[p] == best]
    fewest = min(wagers_taken.get(p, 0) for p in candidates)
    leaders = [p for p in candidates if wagers_taken.get(p, 0) == fewest]
    return leaders[0] if len(leaders) == 1 else None
