"""The leaderboards, per game and rating pool."""

from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("leaderboard/<slug:game>/", views.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:game>/<slug:pool>/", views.leaderboard, name="leaderboard_pool"),
]
