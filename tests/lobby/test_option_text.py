"""A table's options and time control in words, on the waiting page and the replay (never raw keys or values)."""

import pytest
from django.urls import reverse
from django.utils import translation
from tapete_sdk import registry

from lobby import option_text
from lobby import services as lobby
from tests.conftest import play_to_the_end
from turnengine import clocks
from turnengine.models import Match

pytestmark = pytest.mark.django_db


def test_time_controls_in_words():
    words = option_text.time_control_text
    assert words(clocks.profile_json("normal")) == (
        "Real time: 5 minutes per player, plus 10 seconds a move (at most 8 minutes in hand)."
    )
    assert words(clocks.profile_json("daily")) == "Turn-based: 24 hours a move."
    assert words(clocks.profile_json("unlimited")) == "No time limit."
    with translation.override("it"):
        assert words(clocks.profile_json("blitz")) == (
            "Tempo reale: 2 minuti per giocatore, più 5 secondi a mossa (al massimo 3 minuti di riserva)."
        )


def test_each_option_is_a_sentence_and_the_changed_ones_are_flagged():
    rules = registry.get("perudo")
    options = rules.normalize_options({"calza": True, "calzaCaller": "currentOnly"}, 3)
    sentences = {item["name"]: item for item in option_text.option_sentences(rules, options)}
    assert sentences["calzaCaller"]["text"] == "Who may call Calza: The player whose turn it is."
    assert sentences["calza"]["text"] == "Calza: yes."
    changed = [name for name, item in sentences.items() if item["changed"]]
    assert changed == [
        "calza",
        "calzaCaller",
        "calzaRequiresMissingDie",
        "calzaSuccessEffect",
        "afterCalzaStarter",
    ]
    # Without Calza, who may call it changes nothing and is not said at all.
    default = option_text.option_sentences(rules, rules.normalize_options({}, 3))
    assert not any(item["changed"] for item in default)
    assert not any(item["name"].startswith("calza") and item["name"] != "calza" for item in default)
    spicy = registry.get("spicy")
    texts = [item["text"] for item in option_text.option_sentences(spicy, spicy.normalize_options({}, 2))]
    assert "Challenge grace period: 3 seconds." in texts
    assert "Cards below World's End: by player count." in texts
    assert "Spice It Up! cards: none." in texts


def test_the_preset_a_table_matches_is_named():
    rules = registry.get("perudo")
    options = rules.normalize_options(
        {
            "firstPlayer": "rollOne",
            "palificoOneDieMayChangeFace": True,
            "calzaCaller": "anyoneButLastBidderAndCurrent",
        },
        4,
    )
    assert option_text.matching_preset(rules, options, 4).key == "italian"
    assert option_text.matching_preset(rules, rules.normalize_options({"salsa": True}, 4), 4) is None


def test_the_waiting_page_shows_the_rules_in_words_in_the_readers_language(client, make_user):
    creator = make_user()
    match = lobby.table_create(
        user=creator, game="perudo", num_players=2, options={"lostDiceVisible": True}, ranked=False
    )
    page = client.get(reverse("lobby:table", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "lostDiceVisible" not in page and "True" not in page
    assert "Les dés perdus sont visibles : oui." in page
    assert "Temps réel : 5 minutes par joueur" in page
    assert reverse("lobby:howto", args=["perudo"]) in page


def test_the_replay_shows_the_rules_in_words(client, make_user):
    users = [make_user(), make_user()]
    match = lobby.table_create(
        user=users[0], game="perudo", num_players=2, options={"calza": True}, ranked=False
    )
    lobby.table_join(user=users[1], match_id=match.pk)
    lobby.table_start(user=users[0], match_id=match.pk)
    play_to_the_end(Match.objects.get(pk=match.pk), users)
    page = client.get(reverse("turnengine:replay", args=[match.pk])).content.decode()
    assert "Calza: yes." in page and "Rules of this table" in page
