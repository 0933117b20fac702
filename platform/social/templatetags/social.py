"""Template tags other apps' pages use without importing this app: the header's invitations (a count and a list),
a profile's buttons (follow, friends, block) and a waiting table's invitation form."""

from __future__ import annotations

from django import template

from social.friends import friend_ids
from social.invitations import HEADER_LIMIT, pending_for, sent_for
from social.selectors import relation
from turnengine.models import Match

register = template.Library()


@register.inclusion_tag("social/_header.html", takes_context=True)
def social_header(context) -> dict:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"show": False}
    pending = list(pending_for(user)[:HEADER_LIMIT])
    return {"show": True, "invitations": pending, "count": len(pending), "request": request}


@register.inclusion_tag("social/_buttons.html", takes_context=True)
def social_buttons(context, player) -> dict:
    request = context.get("request")
    viewer = getattr(request, "user", None)
    if viewer is None or not viewer.is_authenticated or viewer.pk == player.pk:
        return {"show": False}
    return {
        "show": True,
        "player": player,
        "social": not (player.is_bot or player.is_guest or viewer.is_guest),
        "request": request,
        "csrf_token": context.get("csrf_token"),
        **relation(viewer, player),
    }


@register.inclusion_tag("social/_invite.html", takes_context=True)
def invite_box(context, match: Match, my_seat) -> dict:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or my_seat is None or match.status != Match.Status.OPEN:
        return {"show": False}
    friends = user.__class__.objects.filter(pk__in=friend_ids(user.pk)).order_by("username")
    return {
        "show": True,
        "match": match,
        "friend_names": list(friends.values_list("username", flat=True)),
        "sent": list(sent_for(match_id=match.pk)),
        "csrf_token": context.get("csrf_token"),
    }

