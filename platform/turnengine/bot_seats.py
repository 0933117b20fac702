"""Computer players at real tables: bot accounts, and the engine's side of their moves.

A game's computer players are the ``LEVELS`` it declares (name -> ``choose(view, legal, rng)``, weakest first;
see :mod:`tapete_sdk.registry`). A bot seat plays through the same service as a human (same validation, same log):
after every commit that leaves a bot able to act, a Celery task runs ``bot_moves.bot_play`` after a short, human-like
delay, keyed by (match, version) like the deadlines, so a stale task does nothing. Absent human seats are played by
the game's middle level (:func:`middle_level`, ``services.advance``). A bot's randomness comes from the match's
secret seed, so replays stay exact. A level is shown by its name, in the reader's language for the names the site
words (:data:`LEVEL_LABELS`: easy, medium, hard), as it is for any other name a game chooses.
"""

from __future__ import annotations

import random

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from tapete_sdk import registry

from turnengine import jobs

LEVEL_LABELS = {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard")}


def levels(game: str) -> dict:
    """The game's bot levels, weakest first (empty if the game has no bots)."""
    return registry.bot_levels(game)


def level_choices(game: str) -> list[tuple[str, str]]:
    """(name, label) of the game's levels, weakest first, for a form's choices."""
    return [(name, str(LEVEL_LABELS.get(name, name))) for name in levels(game)]


def middle_level(game: str) -> str | None:
    """The level that plays for an absent player and that a table's creator is offered first: the middle one of
    the game's levels (the stronger of two, the only one of one); None if the game has no computer players."""
    names = list(levels(game))
    return names[len(names) // 2] if names else None


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


def schedule_bots(match) -> None:
    """After the commit, ask Celery for the bots' next move if a bot may act now."""
    if not settings.TAPETE_SCHEDULE_BOTS or not match.bot_seats:
        return
    acting = match.rules.to_act(match.state)
    if not any(seat in acting for seat in match.bot_seats):
        return
    schedule_bot_move(match, delay=settings.TAPETE_BOT_DELAY_SECONDS * random.uniform(0.6, 1.4))


def schedule_bot_move(match, *, delay: float) -> None:
    """After the commit, a bot move of this version in ``delay`` seconds (the sweeper re-queues a lost one)."""
    jobs.bot_move_on_commit(match.pk, match.version, delay=delay)


def auto_play_action(match, seat: int) -> dict:
    """What the engine plays for an absent seat: the middle level's choice, or the game's timeout action if the
    game has no computer players."""
    level = middle_level(match.game)
    action = choose(match, seat, level) if level is not None else None
    return action if action is not None else match.rules.timeout_action(match.state, seat)
