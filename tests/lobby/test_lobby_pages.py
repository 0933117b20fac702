"""The lobby's pages and forms: the creation form is built from the option schema; forged posts are refused."""

import pytest
from django.urls import reverse
from tapete_sdk import registry

from lobby.forms import TableForm
from tests.conftest import GAME_KEYS
from turnengine.models import Match

pytestmark = pytest.mark.django_db


def form_defaults(game: str, num_players: int) -> dict:
    """What a browser posts when the player leaves every option at its initial value."""
    form = TableForm(registry.get(game))
    data = {"num_players": str(num_players)}
    for name, field in form.fields.items():
        initial = field.initial
        if isinstance(initial, bool):
            if initial:
                data[name] = "on"
        elif isinstance(initial, list):
            data[name] = initial
        elif initial is not None and name != "num_players":
            data[name] = str(initial)
    return data


def test_home_lists_every_game(client):
    response = client.get(reverse("lobby:home"))
    assert response.status_code == 200
    for key in GAME_KEYS:
        assert reverse("lobby:game", args=[key]).encode() in response.content


@pytest.mark.parametrize("game", GAME_KEYS)
def test_the_creation_form_offers_every_option_with_its_help(client, make_user, game):
    client.force_login(make_user())
    response = client.get(reverse("lobby:game", args=[game]))
    assert response.status_code == 200
    form = response.context["form"]
    for option in registry.get(game).options:
        if option.kind == "choice" and len(option.choices) == 1:  # no choice: no field
            assert f"opt_{option.name}" not in form.fields
            continue
        field = form.fields[f"opt_{option.name}"]
        assert field.help_text == option.help
        assert f'name="opt_{option.name}"'.encode() in response.content


def test_creating_joining_and_starting_through_the_pages(client, make_user):
    creator, guest = make_user(), make_user()
    client.force_login(creator)
    data = form_defaults("perudo", num_players=2)
    data.update({"opt_calza": "on", "opt_calzaCaller": '"currentOnly"'})
    response = client.post(reverse("lobby:create", args=["perudo"]), data)
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == reverse("lobby:table", args=[match.pk])
    assert match.options["calza"] is True and match.options["calzaCaller"] == "currentOnly"
    client.force_login(guest)
    invite = client.get(reverse("lobby:invite", args=[match.invite_token]))
    assert invite.url == reverse("lobby:table", args=[match.pk])
    client.post(reverse("lobby:join", args=[match.pk]))
    client.force_login(creator)
    client.post(reverse("lobby:start", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    page = client.get(reverse("lobby:table", args=[match.pk]))
    assert f"/ws/match/{match.pk}/".encode() in page.content


def test_a_forged_option_value_is_refused_with_a_message(client, make_user):
    client.force_login(make_user())
    data = form_defaults("perudo", num_players=2)
    data["opt_calzaCaller"] = '"everyone"'
    response = client.post(reverse("lobby:create", args=["perudo"]), data)
    assert response.status_code == 400
    assert response.context["form"].errors
    assert not Match.objects.exists()


def test_a_refused_form_opens_on_a_summary_linking_each_error_to_its_field(client, make_user):
    """As GOV.UK's error summary: at the top of the form, focused when the page opens, a link per field error
    (issue 35: the only error was 1,358 px down the page, with no summary and no focus)."""
    client.force_login(make_user())
    data = {**form_defaults("perudo", num_players=2), "min_rating": "1500", "max_rating": "1400", "ranked": "on"}
    response = client.post(reverse("lobby:create", args=["perudo"]), data)
    assert response.status_code == 400
    page = response.content.decode()
    summary = page[page.index("data-error-summary") :]
    assert page.index("data-error-summary") < page.index('name="num_players"')  # above every field
    assert "autofocus" in page[page.rindex("<div", 0, page.index("data-error-summary")) :][:200]
    assert '<a href="#id_max_rating">' in summary and "The maximum must be at least the minimum." in summary
    assert page.index('class="submit-bar"') > page.index('name="max_rating"')
    assert not Match.objects.exists()


def test_a_forged_player_count_is_refused(client, make_user):
    client.force_login(make_user())
    response = client.post(
        reverse("lobby:create", args=["chinesecheckers"]), form_defaults("chinesecheckers", num_players=5)
    )
    assert response.status_code == 400
    assert not Match.objects.exists()


def test_posts_without_a_csrf_token_are_refused(make_user):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user())
    response = client.post(reverse("lobby:create", args=["perudo"]), {"num_players": "2"})
    assert response.status_code == 403
    assert not Match.objects.exists()


def test_an_anonymous_visitor_opens_a_friendly_table_as_a_guest(client):
    data = form_defaults("perudo", num_players=2)
    data.pop("ranked", None)
    response = client.post(reverse("lobby:create", args=["perudo"]), data)
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == reverse("lobby:table", args=[match.pk])
    assert match.created_by.is_guest and not match.ranked


def test_the_guest_form_has_no_ranked_choice(client):
    response = client.get(reverse("lobby:game", args=["perudo"]))
    assert "ranked" not in response.context["form"].fields
    assert b'name="ranked"' not in response.content


def test_a_refusal_is_shown_as_a_message(client, make_user):
    creator = make_user()
    client.force_login(creator)
    client.post(reverse("lobby:create", args=["perudo"]), form_defaults("perudo", num_players=2))
    match = Match.objects.get()
    response = client.post(reverse("lobby:start", args=[match.pk]), follow=True)
    assert "Not every seat is taken yet." in response.content.decode()


def test_the_table_list_fragment_shows_open_tables(client, make_user):
    client.force_login(make_user())
    client.post(reverse("lobby:create", args=["spicy"]), form_defaults("spicy", num_players=3))
    fragment = client.get(reverse("lobby:table_list", args=["spicy"]))
    assert b"1/3" in fragment.content
