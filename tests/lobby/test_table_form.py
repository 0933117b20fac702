"""The short creation form: presets declared by each game, the full option list under "Custom", durations in
seconds, no single-choice lists, each refusal once as a translated sentence."""

import pytest
from django.urls import reverse
from tapete_sdk import registry
from tapete_sdk.plugin import presets_of

from lobby.forms import TableForm
from tests.lobby.test_lobby_pages import form_defaults
from turnengine.models import Match

pytestmark = pytest.mark.django_db


def test_the_perudo_presets_are_the_three_rule_texts():
    labels = [preset.label for preset in presets_of(registry.get("perudo"))]
    assert labels == ["Asmodée (French)", "Italian", "Board Game Arena"]
    form = TableForm(registry.get("perudo"))
    assert [key for key, _label, _help in form.preset_options][-1] == "custom"
    assert form["preset"].value() == "bga"  # the schema's defaults come first checked


def _post(client, game, data):
    return client.post(reverse("lobby:create", args=[game]), data)


def test_a_preset_sets_the_options_even_without_javascript(client, make_user):
    client.force_login(make_user())
    data = {
        **form_defaults("perudo", num_players=3),
        "preset": "asmodee",
    }  # folded fields as the page showed them
    assert _post(client, "perudo", data).status_code == 302
    options = Match.objects.get().options
    assert options["firstPlayer"] == "rollTwoSum" and options["calzaCaller"] == "currentOnly"
    assert options["palificoOncePerPlayer"] is False


def test_changing_a_folded_field_makes_the_rules_custom(client, make_user):
    client.force_login(make_user())
    data = {**form_defaults("perudo", num_players=2), "preset": "bga", "opt_calza": "on"}
    assert _post(client, "perudo", data).status_code == 302
    assert Match.objects.get().options["calza"] is True


def test_a_chinese_checkers_preset_is_a_player_count(client, make_user):
    client.force_login(make_user())
    data = {**form_defaults("chinesecheckers", num_players=2), "preset": "4p"}
    assert _post(client, "chinesecheckers", data).status_code == 302
    assert Match.objects.get().num_players == 4


def test_the_spicy_grace_period_is_asked_in_seconds(client, make_user):
    client.force_login(make_user())
    page = client.get(reverse("lobby:game", args=["spicy"]))
    assert "Challenge grace period (seconds)" in page.content.decode()
    assert page.context["form"]["opt_challengeGraceMs"].value() == 3
    data = {**form_defaults("spicy", num_players=2), "preset": "custom", "opt_challengeGraceMs": "1.5"}
    assert _post(client, "spicy", data).status_code == 302
    assert Match.objects.get().options["challengeGraceMs"] == 1500


def test_an_option_with_a_single_value_is_not_asked_but_applies(client, make_user):
    client.force_login(make_user())
    page = client.get(reverse("lobby:game", args=["spicy"])).content.decode()
    assert 'name="opt_firstPlayer"' not in page
    assert _post(client, "spicy", {**form_defaults("spicy", num_players=2)}).status_code == 302
    assert Match.objects.get().options["firstPlayer"] == "random"


def test_a_refusal_is_shown_once_as_a_translated_sentence(client, make_user):
    client.force_login(make_user())
    data = {
        **form_defaults("perudo", num_players=2),
        "preset": "custom",
        "opt_salsa": "on",
        "opt_calza": "on",
        "opt_calzaCaller": '"currentOnly"',  # choices are posted JSON-encoded
    }
    response = client.post(reverse("lobby:create", args=["perudo"]), data, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    page = response.content.decode()
    sentence = "Avec Perudo Salsa, Calza est ouvert à tous sauf à l&#x27;auteur de la dernière enchère : choisissez cette option."
    assert page.count(sentence) == 1
    assert "with Salsa, Calza is open" not in page  # the rules library's own English message
    assert not Match.objects.exists()


def test_a_field_error_is_shown_once_next_to_its_field_and_linked_from_the_summary(client, make_user):
    client.force_login(make_user())
    data = {**form_defaults("perudo", num_players=2), "preset": "custom", "opt_startingDice": "99"}
    page = _post(client, "perudo", data).content.decode()
    error = "Ensure this value is less than or equal to 10."
    summary, fields = page.split('class="submit-bar"')[0].split("</ul>\n    </div>", 1)
    assert summary.count(error) == 1 and '<a href="#id_opt_startingDice">' in summary
    assert fields.count(error) == 1
    assert 'class="custom-options" open' in page  # unfolded so the player sees it


def test_a_spicy_refusal_names_the_fix(client, make_user):
    client.force_login(make_user())
    data = {
        **form_defaults("spicy", num_players=6),
        "preset": "custom",
        "opt_handSize": "12",
        "opt_worldsEndBelow": "40",
    }
    page = _post(client, "spicy", data).content.decode()
    assert page.count("World&#x27;s End needs at least one card above it") == 1
    assert not Match.objects.exists()
