"""The players' side of moderation: reporting a player and acknowledging a warning (moderators work in Django
admin)."""

from django.urls import path

from moderation import views

app_name = "moderation"

urlpatterns = [
    path("report/<str:username>/", views.report, name="report"),
    path("warnings/<int:sanction_id>/acknowledge/", views.acknowledge, name="acknowledge"),
]
