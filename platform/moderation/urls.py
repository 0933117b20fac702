from django.urls import path

from moderation import views

app_name = "moderation"

urlpatterns = [path("report/<str:username>/", views.report, name="report")]
