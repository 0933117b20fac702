"""The form that creates a tournament, in Django admin (staff) and on the site (players, when
``TAPETE_PLAYERS_CREATE_TOURNAMENTS`` allows): the game, its options and table size checked by the game's rules, a
ranked tournament with a time limit."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from tapete_sdk import registry
from tapete_sdk.plugin import InvalidOptions, player_counts_of

from tournaments.models import Tournament
from turnengine import clocks


def game_choices():
    return [(rules.key, rules.name) for rules in registry.all_games()]


class TournamentForm(forms.ModelForm):
    game = forms.ChoiceField(label=_("game"), choices=game_choices)

    class Meta:
        model = Tournament
        fields = [
            "name", "kind", "game", "table_size", "options", "time_control", "starts_at", "rounds",
            "duration_minutes", "streak_bonus", "ranked", "max_players", "min_rating", "min_games",
        ]

    def clean(self):
        data = super().clean()
        game, size = data.get("game"), data.get("table_size")
        if game and size:
            rules = registry.get(game)
            if size not in player_counts_of(rules):
                self.add_error("table_size", _("This game is not played at tables of this size."))
            else:
                try:
                    data["options"] = rules.normalize_options(data.get("options") or {}, size)
                except InvalidOptions:
                    self.add_error("options", _("These options are not valid."))
        control = data.get("time_control")
        if data.get("ranked") and control and clocks.PROFILES[control].kind == clocks.NO_LIMIT:
            self.add_error("time_control", _("Ranked tournaments need a time limit."))
        starts = data.get("starts_at")
        if starts and self.instance.pk is None and starts < timezone.now():
            self.add_error("starts_at", _("The start is in the past."))
        for name in ("rounds", "duration_minutes", "max_players"):
            if data.get(name) is not None and data[name] < 1:
                self.add_error(name, _("At least one."))
        return data


class PlayerTournamentForm(TournamentForm):
    """The site's page: the start as the browser's own date and time picker (admin has its split fields)."""

    class Meta(TournamentForm.Meta):
        widgets = {"starts_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")}
