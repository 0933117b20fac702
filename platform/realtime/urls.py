from django.urls import path

from realtime import views

app_name = "realtime"

urlpatterns = [
    path("internal/relay/", views.relay, name="relay"),
]
