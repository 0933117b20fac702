"""The players' side of moderation: reporting a player and acknowledging a warning (moderators work in Django
admin)."""

from django.urls import path

from moderation import views
from web import converters  # noqa: F401 (registers <printable:...>)

app_name = "moderation"

urlpatterns = [
    path("report/<printable:username>/", views.report, name="report"),
    path("warnings/<int:sanction_id>/acknowledge/", views.acknowledge, name="acknowledge"),
]
