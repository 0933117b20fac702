"""The site's answer to a request that failed: a database that cannot be reached is "try again" (HTTP 503 with
``Retry-After``), never an HTTP 500.

Django calls ``handler500`` (``tapete.urls``) inside its handling of the uncaught exception, so the exception is
``sys.exc_info()``'s. PostgreSQL unreachable, or its connection dropped under the request, raises Django's
``OperationalError`` or ``InterfaceError``; the answer then needs no database (plain text, in the language the
request was already speaking). Every other failure keeps Django's own 500 page.
"""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
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
