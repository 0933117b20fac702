"""Quick chat: a small set of phrases and reactions a player (or a logged-in spectator) sends with one tap.

A quick line travels as its key (``{"t": "quick", "d": {"phrase": "gg"}}``) and is stored as a chat line whose
``phrase`` is that key (its ``text`` the English words, for moderators): every reader's page shows it in the reader's
own language, so players of different languages understand each other. It is table chat in every other way
(``turnengine.chat``): the same channels, the same rate limit (quick lines count with typed ones), refused for a
muted player, hidden by a reader's "mute" and by a moderator like any line. A key not in :data:`PHRASES` is refused
with the code ``unknown_phrase``. The client's words for each key are in ``static/js/table.js`` (``QUICK_PHRASES``);
``tests/turnengine/test_quick_chat.py`` keeps both lists the same.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import override

from turnengine import chat
from turnengine.errors import engine_error
from turnengine.models import Match

# key -> English words (the moderators' text). Phrases first, then the reactions (an emoji each).
PHRASES = {
    "hello": _("Hello!"),
    "gl": _("Good luck!"),
    "gg": _("Well played!"),
    "thanks": _("Thanks!"),
    "oops": _("Oops!"),
    "wow": _("Wow!"),
    "think": _("Let me think…"),
    "bye": _("Bye!"),
    "clap": "👏",
    "laugh": "😂",
    "wink": "😉",
    "sad": "😢",
}
REACTIONS = ("clap", "laugh", "wink", "sad")


def quick_post(*, match: Match, user, seat: int | None, phrase: object):
    """Post the quick line ``phrase`` (a key of :data:`PHRASES`) as ``user``; its frame goes out on commit."""
    if not isinstance(phrase, str) or phrase not in PHRASES:
        raise engine_error("unknown_phrase")
    with override("en"):
        words = str(PHRASES[phrase])
    return chat.chat_post(
        match=match,
        user=user,
        seat=seat,
        text=words,
        max_length=settings.TAPETE_CHAT_MAX_LENGTH,
        phrase=phrase,
    )
