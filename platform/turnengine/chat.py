"""Table chat: players talk to the table (spectators read along); spectators talk among themselves, so nobody can
whisper hints to a player of a bluffing game. Lines are persisted for moderators, length- and rate-limited, refused
for muted players, and rendered as text (never HTML) by clients. A moderator may hide a line.

Who is muted is moderation's to say: it installs its check when the site starts (``moderation.apps``), as the
transport installs the outbox's sender, so the engine, which moderation builds on, never imports it.

A reader never receives the lines of the players they blocked (``social.blocks``, which installs
:func:`install_hidden_authors`): a line travels to the table's sockets as a channel-layer message naming its
author (``chat.line``, not a bare frame), and each socket drops the lines of the authors its user blocked, a set it
reads when it opens and again when its user blocks or unblocks someone (:data:`READER_CHANGED`, sent to
:func:`reader_group`); a snapshot's chat leaves them out too. So the work is per chat line, never per move.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from turnengine import outbox
from turnengine.errors import EngineError, engine_error
from turnengine.models import ChatMessage, Match
from turnengine.updates import Update, encode_frame
from web.compiled import Compiled


def _nobody_is_muted(user) -> None:
    return None


_mute_reason: Callable[[object], str | None] = _nobody_is_muted


def install_mute_check(check: Callable[[object], str | None]) -> None:
    """``check(user)``: why the user may not talk now (a sentence in their language), or None if they may."""
    global _mute_reason
    _mute_reason = check


def _nobody_is_hidden(user) -> frozenset[int]:
    return frozenset()


_hidden_authors: Callable[[object], frozenset[int]] = _nobody_is_hidden

LINE_MESSAGE = "chat.line"  # channel-layer message: {"text": the chat frame, "author": the author's user id}
READER_CHANGED = "chat.reader.changed"  # to a reader's sockets: read whose lines to drop again


def install_hidden_authors(hidden: Callable[[object], frozenset[int]]) -> None:
    """``hidden(user)``: the ids of the accounts whose chat ``user`` must not receive (whom they blocked)."""
    global _hidden_authors
    _hidden_authors = hidden


NOBODY: frozenset[int] = frozenset()


def hidden_authors(user) -> frozenset[int]:
    """Whose lines ``user``'s sockets drop (a visitor hides nobody). Nobody is one shared empty set: every socket
    keeps what this returns, and an empty frozenset is a new object each time."""
    return (_hidden_authors(user) if user.is_authenticated else NOBODY) or NOBODY


def reader_group(user_id: int) -> str:
    """The channel-layer group of one user's table sockets, told when whose lines they drop changes."""
    return f"chat-reader.{user_id}"


def chat_payload(message: ChatMessage) -> dict:
    return _line(message.pk, message.user.username, message.text, message.phrase, message.channel, message.created_at)


def _line(pk: int, username: str, text: str, phrase: str, channel: str, created_at: datetime) -> dict:
    return {
        "id": pk,
        "user": username,
        "text": text,
        "phrase": phrase or None,
        "channel": channel,
        "at": created_at.isoformat(),
    }


SNAPSHOT_LINES = 50  # the chat lines a snapshot carries


def _last_lines(match_id: int, players_only: bool, hidden: frozenset[int] = frozenset()) -> QuerySet:
    lines = ChatMessage.objects.filter(match_id=match_id, hidden=False)
    if hidden:
        lines = lines.exclude(user_id__in=hidden)
    if players_only:
        lines = lines.filter(channel=ChatMessage.Channel.PLAYERS)
    fields = ("pk", "user__username", "text", "phrase", "channel", "created_at")
    return lines.order_by("-created_at", "-pk").values_list(*fields)[:SNAPSHOT_LINES]


# Every snapshot reads one of these: compiled once (web.compiled says why).
_PLAYERS_LINES = Compiled(partial(_last_lines, players_only=True), match_id=int)
_ALL_LINES = Compiled(partial(_last_lines, players_only=False), match_id=int)


def recent_chat(*, match: Match, seat: int | None, hidden: frozenset[int] = frozenset()) -> list[dict]:
    """The last lines a seat may read: players' chat for everyone, spectators' chat for spectators only; none by
    the authors in ``hidden`` (whom the reader blocked)."""
    if hidden:  # a reader who blocked someone: a query of its own, without their lines
        rows = list(_last_lines(match.pk, seat is not None, hidden))
    else:
        rows = (_PLAYERS_LINES if seat is not None else _ALL_LINES).rows(match_id=match.pk)
    return [_line(*row) for row in reversed(rows)]


def chat_post(*, match: Match, user, seat: int | None, text: object, max_length: int, phrase: str = ""):
    """Persist a chat line (``phrase``: a quick line's key, ``turnengine.quick_chat``); its frame goes to its
    readers on commit, as a ``chat.line`` message naming its author (each socket drops the lines of whom its user
    blocked)."""
    if not isinstance(text, str) or not text.strip():
        raise engine_error("chat_empty")
    text = text.strip()
    if len(text) > max_length:
        raise engine_error("chat_too_long")
    muted = _mute_reason(user)
    if muted is not None:
        raise EngineError("muted", muted)
    recent = ChatMessage.objects.filter(
        user=user, created_at__gte=timezone.now() - timedelta(minutes=1)
    ).count()
    if recent >= settings.TAPETE_CHAT_LINES_PER_MINUTE:
        raise engine_error("chat_rate_limited")
    channel = ChatMessage.Channel.PLAYERS if seat is not None else ChatMessage.Channel.SPECTATORS
    message = ChatMessage.objects.create(
        match=match, user=user, text=text, channel=channel, phrase=phrase
    )
    group = match.group_name("all") if channel == ChatMessage.Channel.PLAYERS else match.group_name(None)
    frame = encode_frame("chat", match.version, chat_payload(message))
    update = Update(messages={group: {"type": LINE_MESSAGE, "text": frame, "author": user.pk}})
    outbox.send_on_commit(update)
    return update
