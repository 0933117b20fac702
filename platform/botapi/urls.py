"""Pages of the profile's Bot API section; the API itself is mounted at /api/ (botapi.api)."""

from django.urls import path

from botapi import views

app_name = "botapi"

urlpatterns = [
    path("accounts/tokens/new/", views.token_create, name="token_create"),
    path("accounts/tokens/<int:token_id>/revoke/", views.token_revoke, name="token_revoke"),
    path("accounts/bot/", views.become_bot, name="become_bot"),
]
