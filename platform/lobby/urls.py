"""The lobby's pages: the home page, each game's lobby and How to play, a table's waiting page and its forms,
invitations."""

from django.urls import path

from lobby import views
from web import converters  # noqa: F401 (registers <printable:...>)

app_name = "lobby"

urlpatterns = [
    path("", views.home, name="home"),
    path("tables/open/", views.open_tables, name="open_tables"),
    path("play/<slug:game>/", views.game_lobby, name="game"),
    path("play/<slug:game>/now/", views.play_now, name="play_now"),
    path("how-to-play/<slug:game>/", views.howto, name="howto"),
    path("play/<slug:game>/tables/", views.table_list, name="table_list"),
    path("play/<slug:game>/new/", views.table_create, name="create"),
    path("table/<int:match_id>/", views.table, name="table"),
    path("table/<int:match_id>/join/", views.table_join, name="join"),
    path("table/<int:match_id>/leave/", views.table_leave, name="leave"),
    path("table/<int:match_id>/bot/", views.table_add_bot, name="add_bot"),
    path("table/<int:match_id>/cancel/", views.table_cancel, name="cancel"),
    path("table/<int:match_id>/start/", views.table_start, name="start"),
    path("table/<int:match_id>/again/", views.table_rematch, name="rematch"),
    path("table/<int:match_id>/again/decline/", views.table_rematch_decline, name="rematch_decline"),
    path("invite/<printable:token>/", views.invite, name="invite"),
]
