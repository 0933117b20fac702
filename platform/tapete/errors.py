"""The site's answer to a request that failed: a database that cannot be reached is "try again" (HTTP 503 with
``Retry-After``), never an HTTP 500; a staff member refused a Django admin page reads why inside the admin's own
frame, with the missing permission named (HTTP 403).

Django calls ``handler500`` (``tapete.urls``) inside its handling of the uncaught exception, so the exception is
``sys.exc_info()``'s. PostgreSQL unreachable, or its connection dropped under the request, raises Django's
``OperationalError`` or ``InterfaceError``; the answer then needs no database (plain text, in the language the
request was already speaking). Every other failure keeps Django's own 500 page.
"""

import re
import sys

from django.apps import apps
from django.contrib import admin
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.template.response import TemplateResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from django.views import defaults

RETRY_AFTER_SECONDS = 5


def server_error(request):
    if isinstance(sys.exc_info()[1], OperationalError | InterfaceError):
        response = HttpResponse(
            _("The site cannot reach its database for a moment. Please try again in a few seconds."),
            status=503,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return defaults.server_error(request)


# The model permission each Django admin view of a model needs (a change page: "view" to read, "change" to save).
ADMIN_VIEW_PERMISSIONS = {"changelist": "view", "history": "view", "add": "add", "delete": "delete"}
PERMISSION_NAME = re.compile(r"(\w+)\.(view|add|change|delete)_(\w+)")  # "moderation.add_sanction"


def permission_denied(request, exception):
    """Django admin's own 403 page for a staff member, naming the permission they lack; Django's plain one
    elsewhere."""
    user = getattr(request, "user", None)
    if user is None or not user.is_staff or admin_view(request) is None:
        return defaults.permission_denied(request, exception)
    permission = missing_permission(request, exception)
    context = {
        **admin.site.each_context(request),
        "title": _("You may not do this"),
        "permission": permission[0] if permission else "",
        "permission_text": permission[1] if permission else "",
    }
    return TemplateResponse(request, "admin/403.html", context, status=403)


def admin_view(request):
    """The Django admin view the request asked for, if it asked for one."""
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    return match if match.namespace == admin.site.name else None


def missing_permission(request, exception) -> tuple[str, str] | None:
    """(``app.codename``, what it lets one do, in words) of the permission the refused page needs: the one the view
    named when it refused (``PermissionDenied("moderation.add_sanction")``), else the one Django admin's view of
    that model checks; None if neither says."""
    named = PERMISSION_NAME.fullmatch(str(exception.args[0]) if exception is not None and exception.args else "")
    if named:
        app_label, verb, model_name = named.groups()
        codename = f"{verb}_{model_name}"
    else:
        url_name = admin_view(request).url_name or ""
        found = next(
            (
                (model._meta.app_label, model._meta.model_name, url_name.rsplit("_", 1)[-1])
                for model in apps.get_models()
                if url_name.startswith(f"{model._meta.app_label}_{model._meta.model_name}_")
            ),
            None,
        )
        if found is None:
            return None
        app_label, model_name, view = found
        verb = ADMIN_VIEW_PERMISSIONS.get(view, "change" if request.method == "POST" else "view")
        codename = f"{verb}_{model_name}"
    try:
        models = apps.get_model(app_label, model_name)._meta.verbose_name_plural
    except LookupError:
        return None
    words = {
        "view": _("see %(models)s"),
        "add": _("add %(models)s"),
        "change": _("change %(models)s"),
        "delete": _("delete %(models)s"),
    }.get(verb)
    return f"{app_label}.{codename}", (words % {"models": models}) if words else codename
