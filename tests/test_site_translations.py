"""No English left in a French or Italian page: every page of the site is rendered in en, fr and it, and every
visible text node (and every accessible name or hint in an attribute) of the fr and it pages that also appears,
word for word, in the English page fails the test, except proper names and a few words that are the same in
both languages. Pages are rendered by the server; the strings of the site's and the games' scripts are checked
in the JavaScript catalogue the pages load (each game's are in its own locale/, djangojs.po)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from botapi.analysis.store import analysis_compute
from lobby import services as lobby
from tests.conftest import GAME_KEYS, play_to_the_end
from turnengine.models import Match

pytestmark = [pytest.mark.django_db, pytest.mark.frontend]

ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")
# Proper names: the site, the games, their moves and cards, key names, the languages' own names.
PROPER_NAMES = (
    "Tapete",
    "Perudo Salsa",
    "Perudo",
    "Spicy",
    "Board Game Arena",
    "English",
    "Français",
    "Italiano",
    "Calza",
    "Dudo",
    "Palifico",
    "Pacos",
    "Paco",
    "Salsa",
    "Spice It Up!",
    "SHA-256",
    "We Love Chili!",
    "Start It Up!",
    "Spice Raider",
    "Change Your Luck",
    "Turn It Up!",
    "Copy Cat",
    "Tab",
)
# Words each language spells as English does (Django's own catalogue included: "Password" in Italian).
SAME_WORDS = {
    "fr": {"six", "Duel", "Message", "Invitations"},
    "it": {"no", "Password", "Email", "Chat", "Esc"},
}
WORD = re.compile(r"[A-Za-z]{2,}")
HEX = re.compile(r"\b[0-9a-f]{16,}\b")


def english_words_left(text: str, language: str, names: set[str]) -> list[str]:
    """The words of ``text`` that no proper name, player name or shared word explains."""
    for name in (*PROPER_NAMES, *sorted(names, key=len, reverse=True)):
        text = text.replace(name, " ")
    text = HEX.sub(" ", text)
    return [word for word in WORD.findall(text) if word not in SAME_WORDS[language]]


class _Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ATTRIBUTES and value:
                self.texts.append(value.strip())

    def handle_endtag(self, tag) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data) -> None:
        if not self._skip and data.strip():
            self.texts.append(" ".join(data.split()))


def visible_texts(html: str) -> set[str]:
    parser = _Texts()
    parser.feed(html)
    return {text for text in parser.texts if WORD.search(text)}


@pytest.fixture
def pages(client, make_user, start_table):
    """Every page kind of the site, with a user logged in who has played, and a table of each state."""
    ana, bruno = make_user("ana"), make_user("bruno")
    open_table = lobby.table_create(
        user=ana, game="perudo", num_players=3, options={"calza": True}, ranked=True
    )
    running, running_users = start_table("spicy")
    finished = lobby.table_create(
        user=ana, game="chinesecheckers", num_players=2, options={"maxTurns": 10}, ranked=True
    )
    lobby.table_join(user=bruno, match_id=finished.pk)
    lobby.table_start(user=ana, match_id=finished.pk)
    play_to_the_end(Match.objects.get(pk=finished.pk), [ana, bruno])
    bluffed, bluffed_users = start_table("perudo", 2, {"startingDice": 2})
    play_to_the_end(bluffed, bluffed_users)
    for match in (finished, bluffed):
        assert analysis_compute(match_id=match.pk)  # the replay pages show it, in each game's own words
    client.force_login(ana)
    urls = [
        reverse("lobby:home"),
        *(reverse("lobby:game", args=[game]) for game in GAME_KEYS),
        *(reverse("lobby:howto", args=[game]) for game in GAME_KEYS),
        reverse("lobby:table", args=[open_table.pk]),
        reverse("lobby:table", args=[running.pk]),
        reverse("lobby:table", args=[finished.pk]),
        reverse("turnengine:replay", args=[finished.pk]),
        reverse("turnengine:replay", args=[bluffed.pk]),
        reverse("profile", args=["ana"]),
        reverse("ratings:leaderboard", args=["perudo"]),
        reverse("ratings:leaderboard_pool", args=["chinesecheckers", "2p"]),
        reverse("ratings:leaderboard", args=["spicy"]),
        reverse("password_change"),
    ]
    names = {user.username for user in (ana, bruno, *running_users, *bluffed_users)} | {"bot-medium"}
    return client, urls, names


def test_no_english_is_left_on_a_french_or_italian_page(pages):
    client, urls, names = pages
    anonymous = ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
    left = {}
    for url in urls + anonymous:
        if url == anonymous[0]:
            client.logout()
        english = visible_texts(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
        for language in ("fr", "it"):
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, url
            translated = visible_texts(response.content.decode())
            same = {text for text in translated & english if english_words_left(text, language, names)}
            if same:
                left[f"{language} {url}"] = sorted(same)
    assert not left, f"English left in translated pages: {left}"


SCRIPTS = [
    *sorted(Path(finders.find("js/table.js")).parent.glob("*.js")),  # the site's own
    *(Path(finders.find(f"{game}/board.js")) for game in GAME_KEYS),
]
JS_STRING = r'"(?:[^"\\]|\\.)*"'
JS_TEXT = re.compile(rf"{JS_STRING}(?:\s*\+\s*{JS_STRING})*")  # a literal, or literals joined with +
MARKED = re.compile(rf"\b(?:_|gettext|ngettext)\(\s*({JS_TEXT.pattern})")


def marked_strings(script: Path) -> set[str]:
    """The strings ``script`` marks for translation: ``_("…")``, ``gettext("…")`` and ``ngettext("…", "…", n)``,
    whose singular is the catalogue's key (its value lists the plural forms)."""
    return {
        "".join(json.loads(part) for part in re.findall(JS_STRING, text))
        for text in MARKED.findall(script.read_text())
    }


@pytest.mark.parametrize("language", ["fr", "it"])
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_string_of_the_site_s_and_the_games_scripts_is_in_the_javascript_catalogue(client, script, language):
    page = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    catalogue = json.loads(re.search(r"const newcatalog = (\{.*?\});\n", page, re.S).group(1))
    strings = marked_strings(script)
    assert strings or script.name != "board.js"
    assert sorted(strings - set(catalogue)) == []
