"""The accounts app: on start, failed log-ins are counted and admin's log-in page gets the same limits as the
site's (``accounts.login``)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from django.contrib import admin
        from django.contrib.auth.signals import user_login_failed

        from accounts.login import AdminLoginForm, count_failed_login

        user_login_failed.connect(count_failed_login, dispatch_uid="accounts.count_failed_login")
        admin.site.login_form = AdminLoginForm  # the failed log-in limits hold on admin's log-in page too
