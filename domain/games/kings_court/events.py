"""Every event the decider emits, with its audience (rulebook section 9) and its season postings.

One event has one audience: what the rules release to different people goes in separate events.
Payloads hold only JSON values (lists, never tuples); players are listed in seat order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from domain.decider import HOST, PUBLIC, SYSTEM, Event, Posting
from domain.games.kings_court.roles import Secrets


def _public(
    kind: str, postings: Iterable[Posting] = (), /, actor: str = SYSTEM, **data: object
) -> Event:
    return Event(kind, data, audience=PUBLIC, actor=actor, postings=tuple(postings))


def _host(kind: str, /, **data: object) -> Event:
    return Event(kind, data, audience=HOST, actor=SYSTEM)


def _private(
    recipient: str,
    kind: str,
    /,
    actor: str = SYSTEM,
    postings: Iterable[Posting] = (),
    **data: object,
) -> Event:
    return Event(kind, data, audience=(recipient,), actor=actor, postings=tuple(postings))


def _each(players: Iterable[str], asset: str, amount: int, reason: str) -> list[Posting]:
    return [Posting(player, asset, amount, reason) for player in players]


# Game start


def game_started(game: int, previous_kings: Sequence[str]) -> Event:
    return _public("GameStarted", game=game, previous_kings=list(previous_kings))


def game_roles_drawn(game: int, secrets: Secrets, players: Sequence[str]) -> Event:
    """Sealed apart from the lists: a normal end opens it (KC-R30), the lists never (KC-R38)."""
    return _host(
        "GameRolesDrawn",
        game=game,
        roles={player: secrets.roles[player] for player in players},
        annoyed_duke=secrets.annoyed_duke,
        annoyed_noble=secrets.annoyed_noble,
    )


def game_lists_drawn(game: int, secrets: Secrets, players: Sequence[str], explicit: bool) -> Event:
    return _host(
        "GameListsDrawn",
        game=game,
        lists={player: list(secrets.lists[player]) for player in players},
        explicit=explicit,
    )


def role_disclosed(game: int, player: str, role: str) -> Event:
    return _private(player, "RoleDisclosed", game=game, player=player, role=role)


def round_opened(game: int, round_number: int, match_round: int) -> Event:
    return _public("RoundOpened", game=game, round=round_number, match_round=match_round)


# Accepted player commands during a game


def vote_cast(game: int, round_number: int, voter: str, candidate: str) -> Event:
    return _private(
        voter,
        "VoteCast",
        actor=voter,
        game=game,
        round=round_number,
        voter=voter,
        candidate=candidate,
    )


def pair_check_submitted(game: int, round_number: int, checker: str, targets: list[str]) -> Event:
    return _private(
        checker,
        "PairCheckSubmitted",
        actor=checker,
        game=game,
        round=round_number,
        checker=checker,
        targets=targets,
    )


def king_look_answered(game: int, king: str, targets: list[str], roles_shown: list[str]) -> Event:
    return _private(
        king,
        "KingLookAnswered",
        actor=king,
        game=game,
        king=king,
        targets=targets,
        roles_shown=roles_shown,
    )


def tiebreak_chosen(game: int, round_number: int, king: str, choice: str) -> Event:
    return _private(
        king, "TiebreakChosen", actor=king, game=game, round=round_number, choice=choice
    )


def peek_answered(game: int, peeker: str, target: str, role_shown: str, price: int) -> Event:
    return _private(
        peeker,
        "PeekAnswered",
        actor=peeker,
        postings=[Posting(peeker, "garnets", -price, "peek")],
        game=game,
        peeker=peeker,
        target=target,
        role_shown=role_shown,
        price=price,
    )


def annoyed_check_answered(game: int, player: str, annoyed: bool, price: int) -> Event:
    return _private(
        player,
        "AnnoyedCheckAnswered",
        actor=player,
        postings=[Posting(player, "garnets", -price, "annoyed_check")],
        game=game,
        player=player,
        annoyed=annoyed,
        price=price,
    )


# Deadlines


def pair_check_answered(
    game: int, round_number: int, checker: str, targets: list[str], result: str
) -> Event:
    return _private(
        checker,
        "PairCheckAnswered",
        game=game,
        round=round_number,
        checker=checker,
        targets=targets,
        result=result,
    )


def missed_vote_penalised(game: int, round_number: int, player: str, amount: int) -> Event:
    postings = [Posting(player, "garnets", -amount, "missed_vote")] if amount else []
    return _private(
        player,
        "MissedVotePenalised",
        postings=postings,
        game=game,
        round=round_number,
        player=player,
        amount=amount,
    )


def votes_tallied(game: int, round_number: int, counts: dict[str, int], tied: list[str]) -> Event:
    return _public("VotesTallied", game=game, round=round_number, counts=counts, tied=tied)


def tiebreak_resolved(
    game: int,
    round_number: int,
    tied: list[str],
    choice: str,
    source: str,
    skipped_pick: str | None,
) -> Event:
    """Host only: whether the King chose or a default did is never public (KC-R11)."""
    return _host(
        "TiebreakResolved",
        game=game,
        round=round_number,
        tied=tied,
        choice=choice,
        defaulted=source != "king",
        source=source,
        skipped_pick=skipped_pick,
    )


def member_joined(
    game: int, round_number: int, player: str, is_king: bool, court: list[str], via: str
) -> Event:
    return _public(
        "MemberJoined",
        game=game,
        round=round_number,
        player=player,
        is_king=is_king,
        court=court,
        via=via,
    )


def list_name_released(game: int, player: str, index: int, name: str) -> Event:
    return _private(player, "ListNameReleased", game=game, player=player, index=index, name=name)


# Game ends


def early_king_found(game: int, king: str, garnets_taken: int, next_game: int | None) -> Event:
    postings = [Posting(king, "moe", 1, "early_king")]
    if garnets_taken:
        postings.append(Posting(king, "garnets", -garnets_taken, "early_king"))
    return _public(
        "EarlyKingFound",
        postings,
        game=game,
        king=king,
        moe=1,
        garnets_taken=garnets_taken,
        next_game=next_game,
    )


def main_match_ended(death_match: list[str]) -> Event:
    return _public(
        "MainMatchEnded",
        _each(death_match, "dm_entrant", 1, "four_early_kings"),
        outcome="four_early_kings",
        death_match=death_match,
    )


def game_ended(**data: object) -> Event:
    """The normal-end reveal: roles, annoyed pair, winner, rewards summary and EC scores. The
    match then opens this game's sealed GameRolesDrawn with its salt, so anyone can check the
    roles revealed now against the commitment made when the game started."""
    return Event("GameEnded", data, audience=PUBLIC, actor=SYSTEM, opens=("GameRolesDrawn",))


def awards_granted(game: int, awards: Mapping[str, Mapping[str, int]], reason: str) -> Event:
    postings = [
        Posting(player, asset, amount, "opal" if asset == "opal" else reason)
        for player, prizes in awards.items()
        for asset, amount in prizes.items()
        if amount
    ]
    plain = {player: dict(prizes) for player, prizes in awards.items()}
    return _public("AwardsGranted", postings, game=game, awards=plain)


def trade_freeze_started(players: Sequence[str]) -> Event:
    return _public(
        "TradeFreezeStarted",
        _each(players, "trade_freeze", 1, "kings_court_ec_pending"),
        players=list(players),
    )


def trade_freeze_ended(players: Sequence[str]) -> Event:
    return _public(
        "TradeFreezeEnded",
        _each(players, "trade_freeze", -1, "kings_court_dmo_recorded"),
        players=list(players),
    )


# After a normal end


def king_gift_chosen(king: str, duke: str, noble: str) -> Event:
    return _private(king, "KingGiftChosen", actor=king, duke=duke, noble=noble)


def king_gift_made(king: str, duke: str, noble: str, defaulted: bool) -> Event:
    postings = [
        Posting(duke, "tol", 1, "king_gift"),
        Posting(noble, "tol", 1, "king_gift"),
        Posting(king, "tol", -2, "king_gift"),
    ]
    return _public("KingGiftMade", postings, duke=duke, noble=noble, defaulted=defaulted)


def ec_ballot_cast(voter: str, candidate: str) -> Event:
    return _private(voter, "EcBallotCast", actor=voter, voter=voter, candidate=candidate)


def ec_decided(
    ec: str,
    decided_by: str,
    counts: dict[str, int] | None = None,
    needed: int | None = None,
    garnets: dict[str, int] | None = None,
    actor: str = SYSTEM,
) -> Event:
    return _public(
        "EcDecided",
        [Posting(ec, "ec", 1, "elimination_candidate")],
        actor=actor,
        ec=ec,
        decided_by=decided_by,
        counts=counts,
        needed=needed,
        garnets=garnets,
    )


def deadlock_coin_opened(
    candidates: list[str], counts: dict[str, int], needed: int | None, garnets: dict[str, int]
) -> Event:
    return _public(
        "DeadlockCoinOpened", candidates=candidates, counts=counts, needed=needed, garnets=garnets
    )


def dmo_recorded(dmo: str, ec: str) -> Event:
    return _public("DmoRecorded", actor=HOST, dmo=dmo, ec=ec)
