"""A table's rules in words, built from the game's option schema: one translated sentence per option ("Who may
call Calza: Anyone but the last bidder."), the preset the options match, and the time control ("Real time:
5 minutes per player, plus 10 seconds a move."). Used by the waiting page, the table and the replay through the
``{% table_rules match %}`` template tag (``lobby/templatetags/table_rules.py``), and by the creation form for its
error sentences.
"""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_noop, ngettext
from tapete_sdk.plugin import InvalidOptions, Option, Preset, option_errors_of, presets_of

from turnengine import clocks

# Refusals of the schema's own checks (tapete_sdk.plugin.normalize_with_schema), as sentences; a game's cross-option
# checks bring theirs (``option_errors`` on its RULES, see tapete_sdk.plugin.option_errors_of).
OPTION_ERRORS = {
    "player_count": gettext_noop("This game cannot be played with that many players."),
    "option_unknown": gettext_noop("One of these options does not exist."),
    "option_required": gettext_noop("Every option needs a value."),
    "option_type": gettext_noop("One of these options has a value of the wrong kind."),
    "option_choice": gettext_noop("One of these options has a value it cannot take."),
    "option_range": gettext_noop("One of these options is out of its range."),
}


def option_error_sentence(rules, error: InvalidOptions) -> str:
    """A translated sentence for a refusal of ``rules.normalize_options``."""
    sentence = option_errors_of(rules).get(error.code) or OPTION_ERRORS.get(error.code)
    return gettext(sentence) if sentence else gettext("These options cannot be played together.")


def duration_words(milliseconds: int) -> str:
    """5 minutes, 10 seconds, 24 hours, 1.5 seconds."""
    if milliseconds >= clocks.HOUR and milliseconds % clocks.HOUR == 0:
        count = milliseconds // clocks.HOUR
        return ngettext("%(count)s hour", "%(count)s hours", count) % {"count": count}
    if milliseconds >= clocks.MINUTE and milliseconds % clocks.MINUTE == 0:
        count = milliseconds // clocks.MINUTE
        return ngettext("%(count)s minute", "%(count)s minutes", count) % {"count": count}
    if milliseconds % clocks.SECOND == 0:
        count = milliseconds // clocks.SECOND
        return ngettext("%(count)s second", "%(count)s seconds", count) % {"count": count}
    value = number_format(Decimal(milliseconds) / 1000, decimal_pos=1)
    return ngettext("%(count)s second", "%(count)s seconds", 2) % {"count": value}


def time_control_text(time_control: dict) -> str:
    """A match's time control (``Match.time_control``) in words."""
    control = clocks.TimeControl.from_json(time_control)
    if control.kind == clocks.REALTIME:
        return gettext(
            "Real time: %(bank)s per player, plus %(increment)s a move (at most %(cap)s in hand)."
        ) % {
            "bank": duration_words(control.bank_ms),
            "increment": duration_words(control.increment_ms),
            "cap": duration_words(control.cap_ms),
        }
    if control.kind == clocks.TURN_BASED:
        return gettext("Turn-based: %(time)s a move.") % {"time": duration_words(control.bank_ms)}
    return gettext("No time limit.")


def value_words(option: Option, value) -> str:
    """An option's value in words, translated."""
    if option.kind == "bool":
        return gettext("yes") if value else gettext("no")
    if option.kind == "int":
        if value is None:
            return gettext("by player count")
        return duration_words(value) if option.unit == "ms" else str(value)
    labels = dict(option.choices)
    if option.kind == "choice":
        return gettext(labels.get(value, str(value)))
    if not value:
        return gettext("none")
    return ", ".join(gettext(labels.get(item, str(item))) for item in value)


def option_sentences(rules, options: dict) -> list[dict]:
    """Every option of ``rules`` that applies as ``{"name", "text", "changed"}``: an option whose ``requires`` is
    off is left out, and one whose ``requires`` was switched on counts as changed (with Calza on, who may call it
    matters even at its default)."""
    defaults = {option.name: option.default for option in rules.options}
    sentences = []
    for option in rules.options:
        if option.requires and not options.get(option.requires, defaults.get(option.requires)):
            continue
        value = options.get(option.name, option.default)
        text = gettext("%(label)s: %(value)s.") % {
            "label": gettext(option.label),
            "value": value_words(option, value),
        }
        parent_changed = bool(option.requires) and options.get(option.requires) != defaults.get(
            option.requires
        )
        sentences.append(
            {"text": text, "changed": value != option.default or parent_changed, "name": option.name}
        )
    return sentences


def matching_preset(rules, options: dict, num_players: int) -> Preset | None:
    """The preset whose options these are, if any."""
    for preset in presets_of(rules):
        if preset.num_players not in (None, num_players):
            continue
        try:
            if rules.normalize_options(preset.options, num_players) == options:
                return preset
        except InvalidOptions:
            continue
    return None
