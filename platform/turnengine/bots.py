"""Computer players at real tables: bot accounts, and the engine's side of their moves.

A game's bots live in its pure module ``games/<key>/bots.py`` (``LEVELS``: name -> ``choose(view, legal, rng)``,
weakest first). A bot seat plays through the same service as a human (same validation, same log): after every
commit that leaves a bot able to act, a Celery task runs :func:`bot_play` after a short, human-like delay, keyed by
(match, version) like the deadlines, so a stale task does nothing. Absent human seats are auto-played by the
"medium" level (``services.advance``). A bot's randomness comes from the match's secret seed, so replays stay exact.
"""

from __future__ import annotations

import importlib
import random
from functools import cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from turnengine.errors import EngineError

AUTO_PLAY_LEVEL = "medium"


@cache
def levels(game: str) -> dict:
    """The game's bot levels, weakest first (empty if the game has no bots)."""
    try:
        return dict(importlib.import_module(f"games.{game}.bots").LEVELS)
    except ModuleNotFoundError:
        return {}


def bot_rng(match, seat: int) -> random.Random:
    return random.Random(f"{match.seed}:bot:{match.version}:{seat}")


def bot_user(*, level: str, taken_user_ids: set[int]):
    """A bot account of ``level`` not yet seated at this table (bot-medium, bot-medium-2, ...)."""
    User = get_user_model()
    number = 1
    while True:
        username = f"bot-{level}" if number == 1 else f"bot-{level}-{number}"
        user, created = User.objects.get_or_create(username=username, defaults={"is_bot": True})
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        if user.pk not in taken_user_ids:
            return user
        number += 1


def bot_level_of(user) -> str:
    """``bot-hard-2`` -> ``hard``."""
    return user.username.split("-")[1]


def choose(match, seat: int, level: str) -> dict | None:
    rules = match.rules
    legal = rules.legal_actions(match.state, seat)
    if not legal:
        return None
    return levels(match.game)[level](rules.view(match.state, seat), legal, bot_rng(match, seat))


def bot_play(*, match_id: int, version: int):
    """Let the bots that may act now at ``match_id`` act, if the match is still at ``version``. One action per
    call: the commit schedules the next call if a bot may act again. Returns the update to broadcast, or None."""
    from turnengine import services
    from turnengine.models import Match, Seat

    match = Match.objects.filter(pk=match_id, version=version, status=Match.Status.ACTIVE).first()
    if match is None:
        return None
    rules = match.rules
    awaited = rules.awaited(match.state)
    # The seats the creator gave to computer players: a bot account at the table is played by its owner's program.
    bots = Seat.objects.filter(match=match, index__in=match.bot_seats).select_related("user")
    acting = sorted(
        (seat for seat in bots if seat.index in rules.to_act(match.state)),
        key=lambda seat: (seat.index not in awaited, seat.index),
    )
    for seat in acting:
        action = choose(match, seat.index, bot_level_of(seat.user))
        if action is None:
            continue
        try:
            return services.match_apply_action(
                match_id=match_id, user=seat.user, expected_version=version, action=action
            )
        except EngineError as error:
            if error.code == "too_early":  # a challenge grace period holds the move: try again after it
                _schedule(match, delay=settings.TAPETE_BOT_DELAY_SECONDS)
            return None  # otherwise someone moved first: the commit that did it scheduled the bots again
    return None


def schedule_bots(match) -> None:
    """After the commit, ask Celery for the bots' next move if a bot may act now."""
    if not settings.TAPETE_SCHEDULE_BOTS or not match.bot_seats:
        return
    acting = match.rules.to_act(match.state)
    if not any(seat in acting for seat in match.bot_seats):
        return
    _schedule(match, delay=settings.TAPETE_BOT_DELAY_SECONDS * random.uniform(0.6, 1.4))


def _schedule(match, *, delay: float) -> None:
    from turnengine.tasks import bot_move

    match_id, version = match.pk, match.version
    # robust: a broker that is down must not fail the committed move (the sweeper re-queues stalled bot moves).
    transaction.on_commit(lambda: bot_move.apply_async((match_id, version), countdown=delay), robust=True)


def auto_play_action(match, seat: int) -> dict:
    """What the engine plays for an absent seat: the medium bot's choice, or the game's timeout action."""
    action = choose(match, seat, AUTO_PLAY_LEVEL) if AUTO_PLAY_LEVEL in levels(match.game) else None
    return action if action is not None else match.rules.timeout_action(match.state, seat)
