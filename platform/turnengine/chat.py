"""Table chat: players talk to the table (spectators read along); spectators talk among themselves, so nobody can
whisper hints to a player of a bluffing game. Lines are persisted for moderators, length- and rate-limited, refused
for muted players, and rendered as text (never HTML) by clients. A moderator may hide a line."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from moderation.models import Sanction
from moderation.notices import sanction_message, user_zone
from moderation.sanctions import active_sanction
from turnengine import outbox
from turnengine.errors import EngineError, engine_error
from turnengine.models import ChatMessage, Match
from turnengine.updates import Update, encode_frame


def chat_payload(message: ChatMessage) -> dict:
    return {
        "id": message.pk,
        "user": message.user.username,
        "text": message.text,
        "channel": message.channel,
        "at": message.created_at.isoformat(),
    }


def recent_chat(*, match: Match, seat: int | None, limit: int = 50) -> list[dict]:
    """The last lines a seat may read: players' chat for everyone, spectators' chat for spectators only."""
    lines = match.chat.filter(hidden=False).select_related("user").order_by("-created_at", "-pk")
    if seat is not None:
        lines = lines.filter(channel=ChatMessage.Channel.PLAYERS)
    return [chat_payload(message) for message in reversed(list(lines[:limit]))]


def chat_post(*, match: Match, user, seat: int | None, text: object, max_length: int):
    """Persist a chat line; its frame goes to its readers on commit."""
    if not isinstance(text, str) or not text.strip():
        raise engine_error("chat_empty")
    text = text.strip()
    if len(text) > max_length:
        raise engine_error("chat_too_long")
    mute = active_sanction(user=user, kinds=(Sanction.Kind.MUTE,))
    if mute is not None:
        raise EngineError("muted", sanction_message(mute, user_zone(user)))
    recent = ChatMessage.objects.filter(
        user=user, created_at__gte=timezone.now() - timedelta(minutes=1)
    ).count()
    if recent >= settings.TAPETE_CHAT_LINES_PER_MINUTE:
        raise engine_error("chat_rate_limited")
    channel = ChatMessage.Channel.PLAYERS if seat is not None else ChatMessage.Channel.SPECTATORS
    message = ChatMessage.objects.create(match=match, user=user, text=text, channel=channel)
    group = match.group_name("all") if channel == ChatMessage.Channel.PLAYERS else match.group_name(None)
    update = Update({group: encode_frame("chat", match.version, chat_payload(message))})
    outbox.send_on_commit(update)
    return update
