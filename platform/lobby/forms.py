"""The table-creation form, built field by field from a game's option schema."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from turnengine import clocks
from turnengine.plugin import InvalidOptions, Option

OPTION_PREFIX = "opt_"


def player_counts(rules) -> list[int]:
    """The player counts the game accepts (Chinese Checkers skips 5)."""
    counts = []
    for count in range(rules.min_players, rules.max_players + 1):
        try:
            rules.normalize_options({}, count)
        except InvalidOptions:
            continue
        counts.append(count)
    return counts


def _encode(value) -> str:
    return json.dumps(value)


def option_field(option: Option) -> forms.Field:
    """A form field for one option; choice values travel JSON-encoded so ints and strings survive."""
    common = {"label": gettext(option.label), "help_text": gettext(option.help)}
    if option.kind == "bool":
        return forms.BooleanField(required=False, initial=option.default, **common)
    if option.kind == "int":
        return forms.IntegerField(
            required=not option.nullable,
            min_value=option.minimum,
            max_value=option.maximum,
            initial=option.default,
            **common,
        )
    choices = [(_encode(value), gettext(label)) for value, label in option.choices]
    if option.kind == "choice":
        return forms.TypedChoiceField(
            choices=choices, coerce=json.loads, initial=_encode(option.default), **common
        )
    return forms.TypedMultipleChoiceField(
        choices=choices,
        coerce=json.loads,
        required=False,
        initial=[_encode(value) for value in option.default],
        widget=forms.CheckboxSelectMultiple,
        **common,
    )


class TableForm(forms.Form):
    num_players = forms.TypedChoiceField(label=_("Players"), coerce=int)
    ranked = forms.BooleanField(
        label=_("Ranked"), required=False, help_text=_("Ranked tables change the players' ratings.")
    )
    min_rating = forms.IntegerField(
        label=_("Minimum rating"),
        required=False,
        min_value=0,
        max_value=4000,
        help_text=_("Ranked tables only: players below this rating cannot join."),
    )
    max_rating = forms.IntegerField(
        label=_("Maximum rating"),
        required=False,
        min_value=0,
        max_value=4000,
        help_text=_("Ranked tables only: players above this rating cannot join."),
    )
    allow_bots = forms.BooleanField(
        label=_("Open to bot accounts"),
        required=False,
        help_text=_(
            "Bot accounts are programs playing through the Bot API. Tables open to them are rated apart from the "
            "others."
        ),
    )
    time_control = forms.ChoiceField(
        label=_("Time control"),
        choices=[(name, _(control.label)) for name, control in clocks.PROFILES.items()],
        initial=clocks.DEFAULT_PROFILE,
        help_text=_(
            "Real time: a time bank per player plus a few seconds a move. Turn-based: hours per move, to play at "
            "your own pace. A player who runs out of time twice in a row is replaced by automatic play until "
            "they come back."
        ),
    )

    def __init__(self, rules, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        counts = player_counts(rules)
        self.fields["num_players"].choices = [(count, str(count)) for count in counts]
        self.fields["num_players"].initial = counts[0]
        for option in rules.options:
            self.fields[OPTION_PREFIX + option.name] = option_field(option)

    def option_fields(self):
        return [self[OPTION_PREFIX + option.name] for option in self.rules.options]

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        low, high = cleaned.get("min_rating"), cleaned.get("max_rating")
        if (low is not None or high is not None) and not cleaned["ranked"]:
            self.add_error("min_rating", _("Only ranked tables can be restricted to a rating range."))
            return cleaned
        if low is not None and high is not None and low > high:
            self.add_error("max_rating", _("The maximum must be at least the minimum."))
            return cleaned
        if cleaned["ranked"] and clocks.PROFILES[cleaned["time_control"]].kind == clocks.NO_LIMIT:
            self.add_error("time_control", _("Ranked tables need a time limit."))
            return cleaned
        options = {option.name: cleaned.get(OPTION_PREFIX + option.name) for option in self.rules.options}
        for option in self.rules.options:
            if option.kind == "int" and options[option.name] is None and not option.nullable:
                options[option.name] = option.default
        try:
            cleaned["options"] = self.rules.normalize_options(options, cleaned["num_players"])
        except InvalidOptions as error:
            raise forms.ValidationError(error.message, code=error.code) from error
        return cleaned
