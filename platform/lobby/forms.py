"""The table-creation form: the game's presets first, then the full option schema folded under "Custom".

Each option becomes a field (``opt_<name>``); an option with a single possible value is no choice and gets no
field (it is always that value). Durations in milliseconds (``unit="ms"``) are asked in seconds. A preset other
than "Custom" sets the options and ignores the option fields, so the form works the same without JavaScript;
``static/js/table_form.js`` only mirrors the chosen preset into the folded fields.
"""

from __future__ import annotations

import json
from decimal import Decimal

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from tapete_sdk.plugin import InvalidOptions, Option, player_counts_of, presets_of

from lobby.option_text import option_error_sentence
from turnengine import clocks
from turnengine.spectating import MAX_DELAY

OPTION_PREFIX = "opt_"
CUSTOM = "custom"


def _encode(value) -> str:
    return json.dumps(value)


def asked(option: Option) -> bool:
    """Whether the form asks for this option: an option with one possible value is not a choice."""
    return not (option.kind == "choice" and len(option.choices) < 2)


def seconds(milliseconds: int | None) -> Decimal | None:
    return None if milliseconds is None else Decimal(milliseconds) / 1000


def option_field(option: Option) -> forms.Field:
    """A form field for one option; choice values travel JSON-encoded so ints and strings survive."""
    common = {"label": gettext(option.label), "help_text": gettext(option.help)}
    if option.kind == "bool":
        return forms.BooleanField(required=False, initial=option.default, **common)
    if option.kind == "int" and option.unit == "ms":
        common["label"] = gettext("%(label)s (seconds)") % {"label": common["label"]}
        return forms.DecimalField(
            required=not option.nullable,
            min_value=seconds(option.minimum),
            max_value=seconds(option.maximum),
            decimal_places=1,
            initial=seconds(option.default),
            widget=forms.NumberInput(attrs={"step": "0.5"}),
            **common,
        )
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


def field_value(option: Option, value):
    """An option's value as the form's field holds it (for the presets the browser mirrors into the fields)."""
    if option.kind == "int" and option.unit == "ms":
        return None if value is None else str(seconds(value))
    if option.kind in ("choice",):
        return _encode(value)
    if option.kind == "multichoice":
        return [_encode(item) for item in value]
    return value


class TableForm(forms.Form):
    preset = forms.ChoiceField(label=_("Rules"), widget=forms.RadioSelect, required=False)
    num_players = forms.TypedChoiceField(label=_("Players"), coerce=int)
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
    spectator_delay = forms.IntegerField(
        label=_("Spectator delay (moves)"),
        required=False,
        min_value=0,
        max_value=MAX_DELAY,
        initial=0,
        help_text=_("Ranked tables only: spectators see the game this many moves late, so nobody can relay it to a player."),
    )

    spectators_allowed = forms.BooleanField(
        label=_("Allow spectators"),
        required=False,
        initial=True,
        help_text=_("Off: while the game is played, only its players see the table. Tournament tables always allow spectators."),
    )

    disconnect_grace = forms.IntegerField(
        label=_("Grace for a disconnected player (seconds)"),
        min_value=clocks.MIN_GRACE_MS // clocks.SECOND,
        max_value=clocks.MAX_GRACE_MS // clocks.SECOND,
        initial=clocks.DEFAULT_GRACE_MS // clocks.SECOND,
        required=False,
        help_text=_(
            "Real time only: when a player whose turn it is has lost the connection, the computer plays for them "
            "after this many seconds, until they are back."
        ),
    )

    allow_bots = forms.BooleanField(
        label=_("Open to bot accounts"),
        required=False,
        help_text=_(
            "Bot accounts are programs playing through the Bot API. Tables open to them are rated apart from the "
            "others."
        ),
    )

    def __init__(self, rules, *args, may_rank: bool = True, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.presets = {preset.key: preset for preset in presets_of(rules)}
        counts = player_counts_of(rules)
        self.fields["num_players"].choices = [(count, str(count)) for count in counts]
        self.fields["num_players"].initial = counts[0]
        if self.presets:
            self.fields["preset"].choices = [
                *((key, gettext(preset.label)) for key, preset in self.presets.items()),
                (CUSTOM, gettext("Custom")),
            ]
            # The preset of the schema's defaults comes first checked, so the folded fields show it.
            self.fields["preset"].initial = next(
                (key for key, preset in self.presets.items() if not preset.options), next(iter(self.presets))
            )
        else:
            del self.fields["preset"]
        if not may_rank:  # guests play friendly tables only
            for name in ("ranked", "min_rating", "max_rating", "spectator_delay"):
                del self.fields[name]
        self.asked_options = [option for option in rules.options if asked(option)]
        for option in self.asked_options:
            self.fields[OPTION_PREFIX + option.name] = option_field(option)
        initial = self.presets.get(self.fields["preset"].initial) if self.presets else None
        if initial is not None and initial.num_players:
            self.fields["num_players"].initial = initial.num_players

    @property
    def preset_options(self) -> list[tuple[str, str, str]]:
        """(key, label, help) of each preset, then "Custom"."""
        if not self.presets:
            return []
        return [
            *((key, gettext(preset.label), gettext(preset.help)) for key, preset in self.presets.items()),
            (CUSTOM, gettext("Custom"), gettext("Choose every option yourself.")),
        ]

    @property
    def preset_value(self) -> str:
        return self["preset"].value() or CUSTOM if self.presets else ""

    @property
    def custom_open(self) -> bool:
        """Unfold the option list when the player chose "Custom" or one of its fields is wrong."""
        return self.preset_value == CUSTOM or any(field.errors for field in self.option_fields())

    @property
    def presets_fix_players(self) -> bool:
        """Chinese Checkers' presets are player counts: the count is then asked under "Custom" only."""
        return any(preset.num_players for preset in self.presets.values())

    def option_fields(self):
        return [self[OPTION_PREFIX + option.name] for option in self.asked_options]

    def preset_fields_json(self) -> str:
        """Each preset as the values of the fields it sets, for the browser to mirror into the folded fields."""
        mirrored = {}
        for key, preset in self.presets.items():
            values = {}
            for option in self.asked_options:
                value = preset.options.get(option.name, option.default)
                values[OPTION_PREFIX + option.name] = field_value(option, value)
            if preset.num_players:
                values["num_players"] = str(preset.num_players)
            mirrored[key] = values
        return json.dumps(mirrored)

    def chosen_preset(self, custom: dict):
        """The preset the player chose, or None for "Custom". A post without ``preset`` is custom. A browser
        without JavaScript posts the folded fields as the page showed them (the first checked preset's values):
        fields changed away from both those and the chosen preset's values mean the player chose them: custom."""
        key = self.cleaned_data.get("preset") if "preset" in self.fields else None
        preset = self.presets.get(key) if key and key != CUSTOM else None
        if preset is None or not any(name.startswith(OPTION_PREFIX) for name in self.data):
            return preset
        shown = self.presets[self.fields["preset"].initial]
        num_players = preset.num_players or self.cleaned_data["num_players"]
        try:
            posted = self.rules.normalize_options(custom, num_players)
        except InvalidOptions:
            return None
        untouched = [self.rules.normalize_options(p.options, num_players) for p in (preset, shown)]
        return preset if posted in untouched else None

    def _custom_options(self) -> dict:
        options = {}
        for option in self.asked_options:
            value = self.cleaned_data.get(OPTION_PREFIX + option.name)
            if option.kind == "int" and value is None and not option.nullable:
                value = option.default
            elif option.unit == "ms" and value is not None:
                value = int(value * 1000)
            options[option.name] = value
        return options

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        cleaned.setdefault("ranked", False)
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
        if cleaned.get("spectator_delay") and not cleaned["ranked"]:
            self.add_error("spectator_delay", _("Only ranked tables can delay their spectators."))
            return cleaned
        cleaned["spectator_delay"] = cleaned.get("spectator_delay") or 0
        if cleaned.get("disconnect_grace") is None:
            cleaned["disconnect_grace"] = clocks.DEFAULT_GRACE_MS // clocks.SECOND
        options = self._custom_options()
        preset = self.chosen_preset(options)
        if preset is not None:
            options = dict(preset.options)
            if preset.num_players:
                cleaned["num_players"] = preset.num_players
        try:
            cleaned["options"] = self.rules.normalize_options(options, cleaned["num_players"])
        except InvalidOptions as error:
            raise forms.ValidationError(option_error_sentence(self.rules, error), code=error.code) from error
        return cleaned
