"""Quick chat: a phrase travels as its key, is table chat in every other way (channels, rate limit, mutes), and a
key the site does not know is refused with a code."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest

from moderation import services as moderation
from realtime.frames import Quick, parse_client_frame
from turnengine import chat, quick_chat
from turnengine.errors import EngineError
from turnengine.models import ChatMessage

pytestmark = pytest.mark.django_db

TABLE_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "table.js"


def test_a_quick_phrase_is_sent_as_its_key_to_the_table_and_kept_with_its_english_words(start_table):
    match, users = start_table("perudo", 2)
    update = quick_chat.quick_post(match=match, user=users[0], seat=0, phrase="gg")
    message = update.messages[match.group_name("all")]
    assert message["type"] == "chat.line" and message["author"] == users[0].pk  # each reader's socket filters
    frame = json.loads(message["text"])
    assert frame["t"] == "chat" and frame["d"]["phrase"] == "gg" and frame["d"]["user"] == users[0].username
    line = match.chat.get()
    assert line.phrase == "gg" and line.text == "Well played!"  # what moderators read
    assert chat.recent_chat(match=match, seat=1)[-1]["phrase"] == "gg"  # a reloaded page shows it too


def test_a_spectators_quick_phrase_stays_among_spectators(start_table, make_user):
    match, _users = start_table("perudo", 2)
    update = quick_chat.quick_post(match=match, user=make_user(), seat=None, phrase="clap")
    assert list(update.messages) == [match.group_name(None)] and not update.frames
    assert chat.recent_chat(match=match, seat=0) == []


@pytest.mark.parametrize("phrase", ["nope", "", "GG", "gg ", 42, None, ["gg"], {"k": "gg"}])
def test_an_unknown_phrase_gets_a_code_and_changes_nothing(start_table, phrase):
    match, users = start_table("perudo", 2)
    with pytest.raises(EngineError) as refused:
        quick_chat.quick_post(match=match, user=users[0], seat=0, phrase=phrase)
    assert refused.value.code == "unknown_phrase"
    assert not ChatMessage.objects.exists()


def test_the_quick_frame_is_parsed_like_chat():
    assert parse_client_frame('{"t": "quick", "d": {"phrase": "gg"}}', None, max_bytes=4096) == Quick("gg")
    for bad in ('{"t": "quick"}', '{"t": "quick", "d": {"phrase": 1}}', '{"t": "quick", "d": {"text": "gg"}}'):
        with pytest.raises(EngineError) as refused:
            parse_client_frame(bad, None, max_bytes=4096)
        assert refused.value.code == "malformed"


def test_quick_lines_count_with_typed_ones_against_the_chat_rate_limit(start_table, settings):
    settings.TAPETE_CHAT_LINES_PER_MINUTE = 3
    match, users = start_table("perudo", 2)
    chat.chat_post(match=match, user=users[0], seat=0, text="hi", max_length=500)
    quick_chat.quick_post(match=match, user=users[0], seat=0, phrase="gl")
    quick_chat.quick_post(match=match, user=users[0], seat=0, phrase="wink")
    with pytest.raises(EngineError) as refused:
        quick_chat.quick_post(match=match, user=users[0], seat=0, phrase="oops")
    assert refused.value.code == "chat_rate_limited"
    assert match.chat.count() == 3


def test_a_muted_player_cannot_send_quick_phrases_either(start_table, make_user):
    match, users = start_table("perudo", 2)
    moderation.moderation_mute(moderator=make_user(), user=users[0], reason="spam", duration=timedelta(hours=1))
    with pytest.raises(EngineError) as refused:
        quick_chat.quick_post(match=match, user=users[0], seat=0, phrase="gg")
    assert refused.value.code == "muted"
    assert not match.chat.exists()


def test_a_reader_who_mutes_a_player_hides_their_quick_lines_as_their_chat():
    """The page hides every line of a muted author, quick ones included (appendChat reads ``user`` only)."""
    source = TABLE_JS.read_text()
    append = source[source.index("    appendChat(line, live) {") :]
    append = append[: append.index("\n    }\n")]
    assert "const muted = (this.muted || []).includes(line.user);" in append and "hidden: muted" in append


def test_the_page_knows_every_phrase_the_server_accepts():
    source = TABLE_JS.read_text()
    phrases = re.search(r"const QUICK_PHRASES = \{(.*?)\};", source, re.S).group(1)
    reactions = re.search(r"const QUICK_REACTIONS = \{(.*?)\};", source, re.S).group(1)
    keys = set(re.findall(r"(\w+): ", phrases)) | set(re.findall(r"(\w+): \[", reactions))
    assert keys == set(quick_chat.PHRASES)
    assert set(quick_chat.REACTIONS) == set(re.findall(r"(\w+): \[", reactions))
