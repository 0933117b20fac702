"""Template tags for a table's rules in words and the games' names in the reader's language.

``{% load table_rules %}`` then ``{% table_rules match %}`` (``heading=3`` for an ``<h3>``) renders
``lobby/_table_rules.html``: the preset the options match, the time control, ranked or friendly, the options that
differ from the defaults and, folded, every option; ``{{ rules|game_name }}`` is the translated name of a game.
"""

from django import template
from django.utils.translation import gettext

from lobby import option_text

register = template.Library()


@register.filter
def game_name(rules) -> str:
    """The game's name in the current language ("Chinese Checkers" is "Dames chinoises" in French)."""
    return gettext(rules.name)


@register.inclusion_tag("lobby/_table_rules.html")
def table_rules(match, heading: int = 2) -> dict:
    rules = match.rules
    sentences = option_text.option_sentences(rules, match.options)
    preset = option_text.matching_preset(rules, match.options, match.num_players)
    return {
        "match": match,
        "rules": rules,
        "heading": heading,
        "preset_label": gettext(preset.label) if preset else "",
        "time_control": option_text.time_control_text(match.time_control),
        "changed": [sentence for sentence in sentences if sentence["changed"]],
        "sentences": sentences,
    }
