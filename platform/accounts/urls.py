"""Sign-up, log-in and password pages (Django's views), keeping a guest account, and a player's profile."""

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views
from accounts.login import login_view
from web import converters  # noqa: F401 (registers <printable:...>)

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("keep/", views.keep_account, name="keep_account"),
    path("login/", login_view, name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("password/reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("u/<printable:username>/", views.profile, name="profile"),
]
