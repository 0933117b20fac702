"""``{% load tournaments %}``: ``{% tournament_results player %}``, a player's finished tournaments on their profile;
``{% tournament_follow match %}``, on a tournament table's page, the link back to its tournament and what the page's
script needs to open the player's next table on its own (``static/js/tournament.js``)."""

from django import template

from tournaments import selectors

register = template.Library()


@register.inclusion_tag("tournaments/_profile.html")
def tournament_results(player):
    return {"results": selectors.results_of(player)}


@register.inclusion_tag("tournaments/_follow.html", takes_context=True)
def tournament_follow(context, match):
    tournament = selectors.tournament_of_match(match.pk)
    user = context["request"].user
    playing = tournament is not None and user.is_authenticated and match.seats.filter(user=user).exists()
    return {"tournament": tournament, "match": match, "playing": playing}
