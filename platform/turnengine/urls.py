"""A match's log and replay (the page and its data)."""

from django.urls import path

from turnengine import views

app_name = "turnengine"

urlpatterns = [
    path("table/<int:match_id>/log.json", views.match_log, name="log"),
    path("internal/health/", views.queue_health, name="queue_health"),
    path("table/<int:match_id>/replay/", views.replay, name="replay"),
    path("table/<int:match_id>/replay.json", views.replay_data, name="replay_data"),
]
