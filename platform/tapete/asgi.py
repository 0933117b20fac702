"""ASGI entry point: Django for HTTP, Channels for websockets (session auth, same origin only: tapete/origin.py;
or a Bot API token, ``botapi.asgi``).

Run with the import roots on the path: ``PYTHONPATH=platform:. daphne tapete.asgi:application``.
"""

import gc
import os

from django.core.asgi import get_asgi_application
from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished
from django.db import connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tapete.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up first)

from botapi.asgi import BearerTokenRouter  # noqa: E402
from realtime.session_stack import socket_session_stack  # noqa: E402
from realtime.sockets import HandshakeGuard  # noqa: E402
from tapete.origin import SameOriginValidator  # noqa: E402
from tapete.routing import websocket_urlpatterns  # noqa: E402


def site_application(patterns: list) -> ProtocolTypeRouter:
    """Django for HTTP; for websockets, ``patterns`` behind the Bot API's token router or, for browsers, the origin
    check and the session, the whole stack inside the handshake guard, which never lets a failure answer HTTP 500
    (``bench/echo.py`` serves the same stack with its echo routes added)."""
    return ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": HandshakeGuard(
                BearerTokenRouter(
                    token_app=URLRouter(patterns),
                    session_app=SameOriginValidator(socket_session_stack(URLRouter(patterns))),
                )
            ),
        }
    )


application = site_application(websocket_urlpatterns)


def close_request_connections(sender, **kwargs) -> None:
    """Under ASGI each HTTP request runs its view on a thread of its own (Django's ``ThreadSensitiveContext``), so
    the database connection it opened can serve no later request: close it as the request ends, instead of leaving it
    open for ``CONN_MAX_AGE`` as the sockets' one long-lived database thread should. Measured: a burst of requests
    left a PostgreSQL session per request open after it (``tests/tapete/test_request_connections.py``)."""
    if isinstance(sender, type) and issubclass(sender, ASGIHandler):  # not the test client's requests
        connections.close_all()


request_finished.connect(close_request_connections)

# What is loaded by now (Django, the apps, the URL and game modules) lives as long as the process: freeze it out of
# the cycle collector's way. Measured with bench/ws_load.py, every full collection walked all of it and paused the
# process for up to hundreds of milliseconds, during which no move or frame moved.
gc.freeze()
# And collect the youngest generation after 10,000 new objects instead of Python's 700. Each young collection moves
# what is alive at that moment (the moves in flight) to an older generation; once enough has been moved, a full
# collection walks every socket of the process and pauses it for 30-200 ms. Measured with bench/ws_load.py
# --find-knee: one process's knee from 94 to 253 and 316 moves/s (bench/RESULTS.md, 2026-12-06, 17:01-17:37).
gc.set_threshold(10_000, 10, 10)
