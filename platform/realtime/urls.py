"""The relay endpoint a Celery worker posts its frames to when there is no shared channel layer."""

from django.urls import path

from realtime import views

app_name = "realtime"

urlpatterns = [
    path("internal/relay/", views.relay, name="relay"),
]
