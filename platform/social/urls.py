"""The social pages: player search, friends, invitations, and the forms behind a profile's buttons."""

from django.urls import path

from social import views
from web import converters  # noqa: F401 (registers <printable:...>)

app_name = "social"

urlpatterns = [
    path("players/", views.player_search, name="search"),
    path("friends/", views.friends_view, name="friends"),
    path("invitations/", views.invitation_list, name="invitations"),
    path("invitations/<int:invitation_id>/accept/", views.invitation_accept, name="invitation_accept"),
    path("invitations/<int:invitation_id>/decline/", views.invitation_decline, name="invitation_decline"),
    path("table/<int:match_id>/invite/", views.table_invite, name="invite"),
    *(
        path(f"players/<printable:username>/{action}/", views.player_action, {"action": action}, name=action)
        for action in views.ACTIONS
    ),
]
