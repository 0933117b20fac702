"""The "Your move" page, the next table waiting, the alert settings, and the e-mails' unsubscribe link."""

from django.urls import path

from alerts import views
from web import converters  # noqa: F401 (registers <printable:...>)

app_name = "alerts"

urlpatterns = [
    path("your-move/", views.your_move, name="your_move"),
    path("your-move/list/", views.your_move_list, name="your_move_list"),
    path("your-move/next/", views.next_table, name="next"),
    path("your-move/settings/", views.alert_settings, name="settings"),
    path("unsubscribe/<printable:token>/", views.unsubscribe, name="unsubscribe"),
]
