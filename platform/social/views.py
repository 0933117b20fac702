"""The social pages: player search, the friends page (and its list, fetched again when a friend comes or goes), the
header's invitations, and the forms behind the buttons: follow, friends, block, invite, answer an invitation.

Every form is a POST that answers with a redirect (back to ``next`` when it is a page of this site); a refusal is
shown as a message whose tags carry its code, and changes nothing. An unknown player or invitation is a 404, never
a 500."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from lobby.errors import LobbyError
from social import blocks, follows, friends, invitations
from social.errors import SocialError
from social.search import search_players
from social.selectors import friends_page
from web.text import has_control_character

User = get_user_model()

# The profile's buttons: each names a service taking (user, other).
ACTIONS = {
    "follow": (follows.follow, "followed"),
    "unfollow": (follows.unfollow, "unfollowed"),
    "friend": (friends.friend_request, "friend_asked"),
    "accept": (friends.friend_accept, "friend_accepted"),
    "unfriend": (friends.friend_remove, "unfriended"),
    "block": (blocks.block, "blocked"),
    "unblock": (blocks.unblock, "unblocked"),
}

DONE = {
    "followed": _("You follow %(name)s."),
    "unfollowed": _("You no longer follow %(name)s."),
    "friend_asked": _("Friend request sent to %(name)s."),
    "friend_accepted": _("You and %(name)s are friends."),
    "unfriended": _("You and %(name)s are no longer friends."),
    "blocked": _("You blocked %(name)s."),
    "unblocked": _("You unblocked %(name)s."),
    "invited": _("%(name)s is invited to this table."),
}


def _back(request, default: str):
    target = request.POST.get("next", "")
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(default)


def _refused(request, error) -> None:
    messages.error(request, error.message, extra_tags=f"code-{error.code}")


@require_GET
def player_search(request):
    query, error = request.GET.get("q", ""), None
    try:
        found = search_players(query)
    except SocialError as refusal:
        found, query, error = [], "", refusal
    template = (
        "social/_results.html" if request.headers.get("X-Requested-With") == "fetch" else "social/search.html"
    )
    context = {"query": query.strip(), "players": found, "error": error}
    return render(request, template, context, status=400 if error else 200)


@login_required
@require_GET
def friends_view(request):
    template = (
        "social/_friends.html"
        if request.headers.get("X-Requested-With") == "fetch"
        else "social/friends.html"
    )
    return render(request, template, friends_page(request.user))


@login_required
@require_POST
def player_action(request, username: str, action: str):
    other = get_object_or_404(User, username=username)
    service, done = ACTIONS[action]
    try:
        result = service(user=request.user, other=other)
    except SocialError as error:
        _refused(request, error)
    else:
        if action == "friend" and result.accepted_at is not None:
            done = "friend_accepted"  # they had asked first: asking back accepted
        messages.success(request, DONE[done] % {"name": other.username})
    return _back(request, other_profile(other))


def other_profile(other) -> str:
    return reverse("profile", args=[other.username])


def _named(username: str):
    """The player of that exact name, else the one name that matches it ignoring case (never a guess among two)."""
    exact = User.objects.filter(username=username).first()
    if exact is not None:
        return exact
    matches = list(User.objects.filter(username__iexact=username)[:2])
    return matches[0] if len(matches) == 1 else None


@login_required
@require_POST
def table_invite(request, match_id: int):
    username = request.POST.get("username", "").strip()
    named = 0 < len(username) <= 150 and not has_control_character(username)  # NUL cannot reach PostgreSQL
    other = _named(username) if named else None
    try:
        if other is None:
            raise SocialError("no_such_player")
        invitations.invite(user=request.user, match_id=match_id, other=other)
    except SocialError as error:
        _refused(request, error)
    else:
        messages.success(request, DONE["invited"] % {"name": other.username})
    return redirect("lobby:table", match_id=match_id)


@login_required
@require_GET
def invitation_list(request):
    return render(request, "social/invitations.html", {"invitations": invitations.pending_for(request.user)})


@login_required
@require_POST
def invitation_accept(request, invitation_id: int):
    try:
        invitation = invitations.accept(
            user=request.user, invitation_id=invitation_id, ip_address=request.META.get("REMOTE_ADDR")
        )
    except (SocialError, LobbyError) as error:
        _refused(request, error)
        return _back(request, "social:invitations")
    return redirect("lobby:table", match_id=invitation.match_id)


@login_required
@require_POST
def invitation_decline(request, invitation_id: int):
    try:
        invitations.decline(user=request.user, invitation_id=invitation_id)
    except SocialError as error:
        _refused(request, error)
    return _back(request, "social:invitations")
