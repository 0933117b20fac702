"""The site's addresses: Django admin (titled as Tapete's, where moderators work), the Bot API, the i18n helpers,
then each app's pages."""

from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.i18n import JavaScriptCatalog

from accounts.login import answers_429_when_throttled
from botapi.api import api as bot_api
from botapi.api import unknown_path as unknown_api_path


def favicon(request):
    """Browsers ask for /favicon.ico whatever the page links (static/favicon.svg, then this .ico)."""
    return redirect(static("favicon.ico"), permanent=True)


# Moderators work in Django admin: its pages say whose site it is, not "Django administration".
admin.site.site_header = admin.site.site_title = _("Tapete administration")

urlpatterns = [
    # Admin's log-in page (the same address, matched first) answers 429 over the failed log-in limits, as the site's.
    path("admin/login/", answers_429_when_throttled(admin.site.login)),
    path("admin/", admin.site.urls),
    path("favicon.ico", favicon),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("api/", bot_api.urls),
    path("api/<path:rest>", unknown_api_path),
    path("", include("botapi.urls")),
    path("accounts/", include("accounts.urls")),
    path("", include("alerts.urls")),
    path("", include("turnengine.urls")),
    path("", include("realtime.urls")),
    path("", include("ratings.urls")),
    path("", include("moderation.urls")),
    path("", include("tournaments.urls")),
    path("", include("social.urls")),
    path("", include("lobby.urls")),
]

handler403 = "tapete.errors.permission_denied"  # in admin: the admin's own page, naming the missing permission
handler500 = "tapete.errors.server_error"  # a database out of reach answers 503, "try again" (tapete/errors.py)
