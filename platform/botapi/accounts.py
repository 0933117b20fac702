"""Bot accounts: turning a fresh account into one.

As on Lichess, a player may turn a fresh account (one that never sat at a table, apart from tables cancelled before
they started) into a bot account, for ever: it is then flagged as a bot (``User.is_bot``) wherever players are
listed, never appears on the leaderboards, and may sit only at tables whose creator admits bot accounts. Those
tables are rated in the game's own bot pool (``ratings.pools.BOT_POOL``), so games against programs never move
anyone's rating among humans. The site's own computer players are bots as well, seated by a friendly table's
creator; no ranked table seats them. The engine's writer applies both rules under the table's lock
(``turnengine.writer.seat_refusal``), after locking the account's row, which the conversion below locks too: a join
racing a conversion either sits first (the conversion then finds the seat) or reads the converted account.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from botapi.errors import BotApiRefusal
from botapi.models import BotAccount
from turnengine.models import Match, Seat


def is_bot_account(user) -> bool:
    """A bot account, played by its owner's program (the engine and the lobby ask through the check ``BotApiConfig.ready``
    installs: ``turnengine.programs.is_bot_account``)."""
    return BotAccount.objects.filter(user_id=user.pk).exists()


class BotAccountError(BotApiRefusal):
    """An account that cannot become a bot account (why: ``bot_account_refusal``)."""


def bot_account_refusal(user) -> str | None:
    """Why ``user`` cannot become a bot account now (an error code), or None if it can."""
    if user.is_bot:
        return "already_bot"
    if user.is_staff or user.is_superuser:
        return "staff_cannot_be_bot"
    if Seat.objects.filter(user=user).exclude(match__status=Match.Status.ABORTED).exists():
        return "account_has_games"
    return None


def bot_account_convert(*, user) -> BotAccount:
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one conversion at a time
        refusal = bot_account_refusal(user)
        if refusal:
            raise BotAccountError(refusal)
        user.is_bot = True
        user.save(update_fields=["is_bot"])
        return BotAccount.objects.create(user=user)
