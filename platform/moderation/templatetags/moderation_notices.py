"""Template tags for the table page: the muted player's chat box says until when, and a table a moderator
aborted says so (the live frames do the same on pages already open: ``static/js/moderation-notices.js``)."""

from django import template
from django.utils.translation import gettext as _

from moderation.models import AuditEntry
from moderation.notices import sanction_message
from turnengine.models import Match

register = template.Library()


@register.inclusion_tag("moderation/_table_notices.html", takes_context=True)
def table_notices(context, match: Match) -> dict:
    restrictions = getattr(context.get("request"), "moderation", None)
    mute = restrictions.mute if restrictions is not None else None
    aborted = (
        match.status == Match.Status.ABORTED
        and AuditEntry.objects.filter(action="abort_match", match=match).exists()
    )
    return {
        "mute_message": sanction_message(mute) if mute is not None else "",
        "mute_until": mute.ends_at.isoformat() if mute is not None and mute.ends_at else "",
        "aborted_message": _("This match was aborted by a moderator.") if aborted else "",
    }
