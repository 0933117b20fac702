"""A computer player's move at a real table: what the Celery task ``turnengine.tasks.bot_move`` runs, through the
same service as a human's move (``turnengine.bot_seats`` says who the computer players are and what they choose)."""

from __future__ import annotations

from django.conf import settings

from turnengine import bot_seats, services
from turnengine.errors import EngineError
from turnengine.models import Match, Seat


def bot_play(*, match_id: int, version: int) -> bool:
    """Let the bots that may act now at ``match_id`` act, if the match is still at ``version``. One action per
    call: the commit schedules the next call if a bot may act again. Whether a bot moved (its frames go on commit)."""
    match = Match.objects.filter(pk=match_id, version=version, status=Match.Status.ACTIVE).first()
    if match is None:
        return False
    rules = match.rules
    awaited = rules.awaited(match.state)
    # The seats the creator gave to computer players: a bot account at the table is played by its owner's program.
    bots = Seat.objects.filter(match=match, index__in=match.bot_seats).select_related("user")
    acting = sorted(
        (seat for seat in bots if seat.index in rules.to_act(match.state)),
        key=lambda seat: (seat.index not in awaited, seat.index),
    )
    for seat in acting:
        action = bot_seats.choose(match, seat.index, bot_seats.bot_level_of(seat.user))
        if action is None:
            continue
        try:
            services.match_apply_action(match_id=match_id, user=seat.user, expected_version=version, action=action)
            return True
        except EngineError as error:
            if error.code == "too_early":  # a challenge grace period holds the move: try again after it
                bot_seats.schedule_bot_move(match, delay=settings.TAPETE_BOT_DELAY_SECONDS)
            return False  # otherwise someone moved first: the commit that did it scheduled the bots again
    return False
