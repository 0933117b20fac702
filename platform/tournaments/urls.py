"""Tournament pages' addresses."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new/", views.create, name="create"),
    path("tournaments/<int:tournament_id>/", views.tournament_page, name="page"),
    path("tournaments/<int:tournament_id>/live/", views.tournament_live, name="live"),
    path("tournaments/<int:tournament_id>/my-table.json", views.my_table, name="my_table"),
    path("tournaments/<int:tournament_id>/join/", views.join, name="join"),
    path("tournaments/<int:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
]
