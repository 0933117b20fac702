"""A tournament's rules in sentences, in the reader's language, for its page: the format, how players are paired and
scored, the odd ones out, the tie-breaks, the time control, who may join and when a player stops being paired."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from tapete_sdk.plugin import place_points

from lobby.option_text import option_sentences, time_control_text
from tournaments import pairing
from tournaments.models import Tournament
from turnengine import clocks


def rules_sentences(tournament: Tournament) -> list[str]:
    rules = tournament.rules
    game = _(rules.name)
    size = tournament.table_size
    if tournament.kind == Tournament.Kind.SWISS:
        lines = [
            ngettext(
                "A Swiss tournament of %(rounds)d round of %(game)s, at tables of %(size)d.",
                "A Swiss tournament of %(rounds)d rounds of %(game)s, at tables of %(size)d.",
                tournament.rounds,
            ) % {"rounds": tournament.rounds, "game": game, "size": size},
            _("Each round, players with the same score sit together, and nobody meets the same opponent again "
              "where a neighbour in the standings can take their place. A round starts when every table of the "
              "previous one has finished."),
        ]
    else:
        lines = [
            ngettext(
                "An arena of %(minutes)d minute of %(game)s, at tables of %(size)d.",
                "An arena of %(minutes)d minutes of %(game)s, at tables of %(size)d.",
                tournament.duration_minutes,
            ) % {"minutes": tournament.duration_minutes, "game": game, "size": size},
            _("A player whose game ends is seated again at once with other players waiting, close in the "
              "standings, and not with the same opponents as just before. Games that started before the end are "
              "played out and count."),
        ]
    points = place_points(rules, size)
    lines.append(
        _("Points by place at a table of %(size)d: %(points)s; a smaller table gives the points of its size.")
        % {"size": size, "points": ", ".join(str(value) for value in points)}
    )
    if tournament.kind == Tournament.Kind.SWISS:
        lines.append(
            _("When the players do not fill the tables evenly, some tables have fewer players; if the game has no "
              "table of that size, the lowest in the standings who have not sat out yet sit out the round and "
              "score %(bye)d.") % {"bye": pairing.bye_points(points[0])}
        )
        lines.append(_("Ties are broken by the Buchholz score: the sum of the scores of every opponent met."))
    else:
        lines.append(
            _("A player left alone sits at a smaller table after waiting %(seconds)d seconds.")
            % {"seconds": int(settings.TAPETE_ARENA_PATIENCE_SECONDS)}
        )
        if tournament.streak_bonus:
            lines.append(_("Streak: after two wins in a row, each win counts double until the player does not "
                           "win."))
        lines.append(_("Ties go to the player who played fewer tables."))
    control = clocks.profile_json(tournament.time_control)
    lines.append(_("Time control: %(control)s.") % {"control": time_control_text(control)})
    if tournament.ranked:
        lines.append(_("Ranked: every game is rated as any ranked game. People only: no computer player, no bot "
                       "account."))
    else:
        lines.append(_("Friendly: the games are not rated."))
    lines.append(ngettext("Up to %(count)d player.", "Up to %(count)d players.", tournament.max_players)
                 % {"count": tournament.max_players})
    if tournament.min_rating:
        lines.append(_("Players rated %(rating)d or more.") % {"rating": tournament.min_rating})
    if tournament.min_games:
        lines.append(ngettext("Players with at least %(count)d rated game.",
                              "Players with at least %(count)d rated games.", tournament.min_games)
                     % {"count": tournament.min_games})
    lines.append(_("A player absent from two tables is no longer paired. Players may withdraw at any time."))
    changed = [sentence["text"] for sentence in option_sentences(rules, tournament.options) if sentence["changed"]]
    if changed:
        lines.append(_("Options: %(options)s") % {"options": " ".join(changed)})
    return lines
