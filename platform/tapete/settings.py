"""Django settings for Tapete.

Two running modes, chosen by the environment (docs/deploy.md, "Running on PostgreSQL and Redis"):

* **Embedded default** (nothing to install): SQLite in ``var/`` (IMMEDIATE transactions, so writers queue instead of
  failing), the in-memory channel layer, and Celery on kombu's SQLAlchemy transport over a SQLite file in ``var/``.
* **Real services**: ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` switch to PostgreSQL, the Redis pub/sub channel
  layer and the Redis Celery broker, so several ASGI processes and Celery workers can share them.

Production (docs/deploy.md, deploy/): ``DJANGO_DEBUG=false`` makes the secret key and host names required,
``TAPETE_HTTPS=true`` the HTTPS settings; ``TAPETE_INSTANCE`` (default: the database's name) prefixes everything the
site puts in Redis. The "Settings" table of docs/deploy.md lists every variable.
"""

import os
import re
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent.parent
# The embedded default's files (SQLite databases, Celery beat's schedule); ``./dev`` creates the folder.
VAR_DIR = Path(os.environ.get("TAPETE_VAR_DIR", BASE_DIR / "var"))


def env_flag(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).lower() in {"1", "true", "yes", "on"}


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


# --- Production: with debug off nothing falls back to a development value (see docs/deploy.md). ---
DEBUG = env_flag("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
if not DEBUG and not SECRET_KEY:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is false.")
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must name the site's host names when DJANGO_DEBUG is false.")
SECRET_KEY = SECRET_KEY or "dev-only-insecure-key-change-me-in-production-0123456789"
ALLOWED_HOSTS = ALLOWED_HOSTS or ["127.0.0.1", "localhost", "testserver"]
# Full origins (scheme://host[:port]) trusted besides the site's own, for forms and websockets alike.
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

# TAPETE_HTTPS=true: the site is served over HTTPS by a proxy (deploy/nginx-tapete.conf) that terminates TLS and
# says so in X-Forwarded-Proto. Browsers then keep to HTTPS (HSTS), cookies travel only over it, plain HTTP is
# redirected, and the proxy's header makes requests secure.
TAPETE_HTTPS = env_flag("TAPETE_HTTPS", False)
if TAPETE_HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("TAPETE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("TAPETE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_flag("TAPETE_HSTS_PRELOAD", True)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_ratelimit",
    "accounts",
    "alerts",
    "turnengine",
    "realtime",
    "lobby",
    "ratings",
    "moderation",
    "ninja",  # django-ninja: the Bot API and its OpenAPI docs (its Swagger UI files are served locally)
    "botapi",
    "tournaments",
    "social",
    "games.perudo",
    "games.spicy",
    "games.chinesecheckers",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # CONTENT_SECURITY_POLICY below
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.timezones.TimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "moderation.middleware.SanctionMiddleware",  # after the user, their zone and messages (its docstring)
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "botapi.middleware.CodedMethodNotAllowed",
]

# Every page's scripts, styles, images and sockets come from the site itself; no inline script or style, no
# plugin, no framing (docs/security.md). 'self' covers the site's own ws:// and wss:// sockets.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

ROOT_URLCONF = "tapete.urls"
ASGI_APPLICATION = "tapete.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "moderation.middleware.notices_context",
                "alerts.context.turns_waiting",
            ],
        },
    },
]

SQLITE_OPTIONS = {
    # Writers take the lock when the transaction begins, so two moves queue rather than deadlock.
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
# A connection lives a minute, on SQLite too: the sockets' database thread keeps one open across moves (with
# Django's default of 0, each move opened a SQLite connection again: a third of the server's CPU a move,
# bench/RESULTS.md, 2026-12-06, 19:53). An HTTP request still closes its own as it ends (tapete/asgi.py).
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        DATABASES["default"].update(OPTIONS=SQLITE_OPTIONS)
    else:
        # Django's cursors bind on the client and never prepare; the statements every move runs bind on the server
        # (turnengine.match_sql), and psycopg prepares one a connection has run twice: PostgreSQL then parses and
        # plans it once per connection (Django turns this off by default for poolers: docs/deploy.md).
        DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 2
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "tapete.sqlite3",
            "CONN_MAX_AGE": 60,
            "OPTIONS": SQLITE_OPTIONS,
            "TEST": {"NAME": VAR_DIR / "test.sqlite3"},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = ["moderation.backends.SanctionAwareBackend"]
SESSION_ENGINE = "accounts.sessions"  # Django's database sessions, their read compiled once
TAPETE_CHAT_LINES_PER_MINUTE = 20
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby:home"
LOGOUT_REDIRECT_URL = "lobby:home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French")), ("it", _("Italian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# collectstatic fills it and nginx serves it in production; ``./dev`` creates it (whitenoise warns without it).
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = True  # serve app static files without collectstatic on the embedded default

# Mail: printed by the process that sends it (``./dev serve``: the Celery worker's lines for turn e-mails) unless
# EMAIL_HOST names an SMTP server (production: docs/deploy.md#e-mail); tests use Django's in-memory backend.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS", True)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "20"))
EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend",
)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "Tapete <noreply@tapete.invalid>")

REDIS_URL = os.environ.get("REDIS_URL", "")

# --- Isolation on shared services: one name per site, in front of everything it puts in Redis. ---
# Redis pub/sub channels are global to the server (database numbers do not separate them), so two sites on one
# Redis server would hear each other's seat frames without it. The default is the database's name, which differs
# between two sites of one machine; TAPETE_INSTANCE names the site outright.
TAPETE_INSTANCE = re.sub(
    r"[^A-Za-z0-9_-]", "-", os.environ.get("TAPETE_INSTANCE") or Path(str(DATABASES["default"]["NAME"])).stem
)[:40]
TAPETE_REDIS_PREFIX = f"tapete.{TAPETE_INSTANCE}."  # only letters, digits, "-", "_" and ".": a valid channel name

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # The pub/sub layer carried about twice the moves/s of the core layer on this stack (ws_load).
            # channels_redis' pub/sub layer, which lets a consumer give up its channel (realtime.channel_layer).
            "BACKEND": "realtime.channel_layer.RedisPubSubLayer",
            "CONFIG": {
                # redis-py caps an asyncio pool at 100 connections and raises beyond: size it for the sockets.
                "hosts": [{"address": REDIS_URL, "max_connections": 2000}],
                "prefix": TAPETE_REDIS_PREFIX,
            },
        }
    }
    # Shared by every web process, so the HTTP limits (accounts.throttle, lobby) hold across them. While Redis cannot
    # be reached it answers as an empty cache (tapete/cache.py), within a second or two of a stalled connection.
    CACHES = {
        "default": {
            "BACKEND": "tapete.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": TAPETE_REDIS_PREFIX,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
    # django-ratelimit names only django-redis among Redis caches; Django's own increments atomically too (INCRBY).
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
else:
    # Channels' in-memory layer, its expiry sweep once a second instead of on every message (realtime.channel_layer).
    CHANNEL_LAYERS = {"default": {"BACKEND": "realtime.channel_layer.InMemoryLayer"}}
    # The embedded default serves HTTP from one process (the Celery worker serves none), so the process's own
    # memory is shared by every request: django-ratelimit's "not a shared cache" error does not apply.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]

# Celery: the Redis broker with real services; on the embedded default, kombu's SQLAlchemy transport on a SQLite
# file beside the site's database (no server: the web process, the worker and beat share the file; kombu takes
# SQLite's write lock, BEGIN IMMEDIATE, before it hands a message out, so each message goes to one worker).
# The worker's tick: how late a task may run after its time (Celery's timer precision) and, on the embedded default,
# how often the worker looks for new messages. A computer player's move or a deadline may wait up to this long.
TAPETE_WORKER_TICK_SECONDS = float(os.environ.get("TAPETE_WORKER_TICK_SECONDS", "1"))
CELERY_WORKER_TIMER_PRECISION = TAPETE_WORKER_TICK_SECONDS
# Two queues (docs/deploy-queues.md): "play", latency-critical (deadlines, the sweeper, computer players' moves),
# and "bulk" (post-game analyses, the guest clean-up), each served by workers of its own in the deployment recipe,
# so that a deadline never waits behind an analysis. A worker consumes the queues TAPETE_WORKER_QUEUES names
# ("play", "bulk", or both, the default: ./dev serve runs one worker for both).
TAPETE_QUEUES = {"play": f"{TAPETE_REDIS_PREFIX}play", "bulk": f"{TAPETE_REDIS_PREFIX}bulk"}
CELERY_TASK_DEFAULT_QUEUE = TAPETE_QUEUES["play"]
CELERY_TASK_ROUTES = {
    "turnengine.tasks.*": {"queue": TAPETE_QUEUES["play"]},
    "botapi.tasks.*": {"queue": TAPETE_QUEUES["bulk"]},
    "accounts.tasks.*": {"queue": TAPETE_QUEUES["bulk"]},
    # Pairing a round is short and players wait for it: with the deadlines, not behind analyses.
    "tournaments.tasks.*": {"queue": TAPETE_QUEUES["play"]},
    "alerts.tasks.*": {"queue": TAPETE_QUEUES["bulk"]},
}
TAPETE_WORKER_QUEUES = [
    name.strip() for name in os.environ.get("TAPETE_WORKER_QUEUES", "play,bulk").split(",") if name.strip()
]
CELERY_TASK_QUEUES = [Queue(TAPETE_QUEUES[name]) for name in TAPETE_WORKER_QUEUES]
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict = {
        "visibility_timeout": 3600,
        # Every key and pub/sub channel of the broker (queues, unacked messages, remote control, events).
        "global_keyprefix": TAPETE_REDIS_PREFIX,
    }
else:
    # The transport is named apart from the URL: a "sqla+" prefix in the URL would choose kombu's own class.
    CELERY_BROKER_URL = f"sqlite:///{VAR_DIR / 'celery-broker.sqlite3'}"
    CELERY_BROKER_TRANSPORT = "tapete.broker:Transport"  # kombu's, polling every worker tick (tapete/broker.py)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
# How many messages a worker process takes ahead of those it runs. On Redis, one: each task goes to a worker free to
# run it (Celery's advice with late acks). The embedded default has one worker, and a task with a countdown (a
# computer player's move, a deadline) keeps its place from its arrival until it runs: with one place per thread, its
# thread pool (./dev serve) waited for Celery's loop to make room, up to 2 s every computer move.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1 if REDIS_URL else 8
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ALWAYS_EAGER = env_flag("CELERY_TASK_ALWAYS_EAGER", False)
TAPETE_SWEEP_SECONDS = float(os.environ.get("TAPETE_SWEEP_SECONDS", "15"))
# How many running matches each process keeps a copy of, so that a move need not read its match first
# (turnengine/match_cache.py; PostgreSQL). A copy is a few kilobytes.
TAPETE_MATCH_CACHE_SIZE = int(os.environ.get("TAPETE_MATCH_CACHE_SIZE", "5000"))
# Presence (turnengine.presence): each ASGI process says it is alive this often; the sweeper closes the connections
# of a process not heard from for three of these.
TAPETE_PRESENCE_TICK_SECONDS = float(os.environ.get("TAPETE_PRESENCE_TICK_SECONDS", "5"))
# Guest accounts (accounts/guests.py): removed after this long without a log-in or a move, checked this often.
TAPETE_GUEST_TTL_SECONDS = int(os.environ.get("TAPETE_GUEST_TTL_SECONDS", str(7 * 24 * 3600)))
TAPETE_GUEST_CLEANUP_SECONDS = float(os.environ.get("TAPETE_GUEST_CLEANUP_SECONDS", "3600"))
# Turn alerts (alerts.tasks, on the bulk queue): how often beat looks for what to mail; how long a table waits
# for a player before its e-mail; at most one turn e-mail per period (a digest: one a day); a reminder once this
# share of a turn-based turn has passed; the days of vacation a player may take in a calendar year. The site's
# address for the links in e-mails.
TAPETE_ALERTS_SECONDS = float(os.environ.get("TAPETE_ALERTS_SECONDS", "60"))
TAPETE_TURN_MAIL_DELAY_SECONDS = int(os.environ.get("TAPETE_TURN_MAIL_DELAY_SECONDS", "900"))
TAPETE_TURN_MAIL_PERIOD_SECONDS = int(os.environ.get("TAPETE_TURN_MAIL_PERIOD_SECONDS", "3600"))
TAPETE_TURN_DIGEST_SECONDS = int(os.environ.get("TAPETE_TURN_DIGEST_SECONDS", "86400"))
TAPETE_TURN_REMINDER_SHARE = float(os.environ.get("TAPETE_TURN_REMINDER_SHARE", "0.75"))
TAPETE_VACATION_DAYS_PER_YEAR = int(os.environ.get("TAPETE_VACATION_DAYS_PER_YEAR", "30"))
TAPETE_SITE_URL = os.environ.get("TAPETE_SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# Beat's scheduler replaces a producer whose broker channel died (tapete/beat.py).
CELERY_BEAT_SCHEDULER = "tapete.beat:Scheduler"
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "turnengine.tasks.sweep_deadlines", "schedule": TAPETE_SWEEP_SECONDS},
    "cleanup-guests": {"task": "accounts.tasks.cleanup_guests", "schedule": TAPETE_GUEST_CLEANUP_SECONDS},
    "sweep-tournaments": {"task": "tournaments.tasks.sweep_tournaments", "schedule": TAPETE_SWEEP_SECONDS},
    "turn-mails": {"task": "alerts.tasks.mail_due_turns", "schedule": TAPETE_ALERTS_SECONDS},
    "turn-reminders": {"task": "alerts.tasks.remind_deadlines", "schedule": TAPETE_ALERTS_SECONDS},
    "probe-bulk": {
        "task": "turnengine.tasks.queue_probe",
        "schedule": TAPETE_SWEEP_SECONDS,
        "args": ("bulk",),
        "options": {"queue": TAPETE_QUEUES["bulk"]},
    },
}

# Clocks: schedule a Celery task at each deadline (tests switch it off and drive time themselves); open tables
# nobody starts close after this long.
TAPETE_SCHEDULE_DEADLINES = env_flag("TAPETE_SCHEDULE_DEADLINES", True)
# Embedded default: the Celery worker posts its frames to the web process (see realtime.broadcast).
TAPETE_RELAY_URL = os.environ.get("TAPETE_RELAY_URL", "")
TAPETE_RELAY_TOKEN = os.environ.get("TAPETE_RELAY_TOKEN", "")
TAPETE_SCHEDULE_BOTS = env_flag("TAPETE_SCHEDULE_BOTS", True)
# Tournaments (docs/tournaments.md): a finished tournament table queues its tournament's next step (the tests switch
# it off and call the tasks themselves); an arena's odd ones out sit at a smaller table after waiting this long;
# players (not only staff) may create tournaments when this is on.
TAPETE_SCHEDULE_TOURNAMENTS = env_flag("TAPETE_SCHEDULE_TOURNAMENTS", True)
TAPETE_ARENA_PATIENCE_SECONDS = float(os.environ.get("TAPETE_ARENA_PATIENCE_SECONDS", "20"))
TAPETE_PLAYERS_CREATE_TOURNAMENTS = env_flag("TAPETE_PLAYERS_CREATE_TOURNAMENTS", False)
TAPETE_BOT_DELAY_SECONDS = float(os.environ.get("TAPETE_BOT_DELAY_SECONDS", "1.5"))  # a human-like pause
TAPETE_OPEN_TABLE_TTL_SECONDS = int(os.environ.get("TAPETE_OPEN_TABLE_TTL_SECONDS", str(2 * 3600)))

# HTTP limits (django-ratelimit, counted in the cache above; "N/period", period s, m, h or d, e.g. "5/15m").
# Failed log-ins count per account name and per client address (an IPv6 /64); sign-ups and table creations as they succeed.
RATELIMIT_ENABLE = env_flag("TAPETE_RATELIMIT", True)
RATELIMIT_FAIL_OPEN = True  # a cache that cannot count lets requests through (tapete/cache.py), logged
TAPETE_LOGIN_FAILURES_PER_ACCOUNT = os.environ.get("TAPETE_LOGIN_FAILURES_PER_ACCOUNT", "5/15m")
TAPETE_LOGIN_FAILURES_PER_ADDRESS = os.environ.get("TAPETE_LOGIN_FAILURES_PER_ADDRESS", "30/15m")
# New accounts per client address (sign-ups, guests, guests kept: one count) and tables per account and per
# address (every entry point): docs/accounts-and-limits.md.
TAPETE_ACCOUNTS_PER_ADDRESS = os.environ.get("TAPETE_ACCOUNTS_PER_ADDRESS", "10/h")
TAPETE_TABLES_PER_USER = os.environ.get("TAPETE_TABLES_PER_USER", "6/m")
TAPETE_TABLES_PER_ADDRESS = os.environ.get("TAPETE_TABLES_PER_ADDRESS", "10/m")

# Websocket limits (docs/protocol.md): a frame larger than this, or more than RATE frames a second (with a burst)
# from one user over all their sockets, is refused; so is a socket beyond the open sockets allowed per user and
# per IP address (counted per ASGI process: realtime.ratelimit). A seat may leave a running game (the one intent
# besides a move that moves the version) at most INTENTS times per INTENT_WINDOW.
TAPETE_WS_MAX_FRAME_BYTES = int(os.environ.get("TAPETE_WS_MAX_FRAME_BYTES", str(8 * 1024)))
TAPETE_WS_RATE_PER_SECOND = float(os.environ.get("TAPETE_WS_RATE_PER_SECOND", "20"))
TAPETE_WS_RATE_BURST = int(os.environ.get("TAPETE_WS_RATE_BURST", "40"))
# A logged-in player's every page holds the lobby socket, and a table's page its match socket too: 20 lets them keep
# nine tables open with the lobby and another page (8 refused the fourth table of a player with the lobby open).
TAPETE_WS_SOCKETS_PER_USER = int(os.environ.get("TAPETE_WS_SOCKETS_PER_USER", "20"))
TAPETE_WS_SOCKETS_PER_IP = int(os.environ.get("TAPETE_WS_SOCKETS_PER_IP", "64"))
# The server (tapete/serve.py): a socket whose client does not read is closed (4008) once this much more than
# Twisted's 64 KiB write buffer waits for it; a ping goes to every socket every PING_INTERVAL seconds, and a peer whose
# pong does not come within PING_TIMEOUT seconds is dropped.
TAPETE_WS_SEND_BUFFER_BYTES = int(os.environ.get("TAPETE_WS_SEND_BUFFER_BYTES", str(256 * 1024)))
TAPETE_WS_PING_INTERVAL = int(os.environ.get("TAPETE_WS_PING_INTERVAL", "20"))
TAPETE_WS_PING_TIMEOUT = int(os.environ.get("TAPETE_WS_PING_TIMEOUT", "20"))
# The server (tapete/serve.py): a connection that sends nothing for this long while its request (a websocket
# handshake included) is incomplete, or between two requests, is closed; and on SIGTERM, how long open sockets and
# the applications get to close before the process exits anyway.
TAPETE_HTTP_IDLE_TIMEOUT = int(os.environ.get("TAPETE_HTTP_IDLE_TIMEOUT", "10"))
TAPETE_SHUTDOWN_GRACE = float(os.environ.get("TAPETE_SHUTDOWN_GRACE", "1.5"))
TAPETE_SEAT_INTENTS = int(os.environ.get("TAPETE_SEAT_INTENTS", "5"))
TAPETE_SEAT_INTENT_WINDOW_SECONDS = int(os.environ.get("TAPETE_SEAT_INTENT_WINDOW_SECONDS", "600"))
# Fair ranked play (docs/fair-play.md): a player's abandonment record counts their last ABANDON_WINDOW finished
# ranked games; one who abandoned at least PLAYBAN_MIN_ABANDONMENTS of them, at a rate of at least PLAYBAN_RATE, is
# barred from ranked tables after the game, for the next of PLAYBAN_MINUTES (escalating with each playban of the
# last PLAYBAN_MEMORY_DAYS days; the last one repeats).
TAPETE_ABANDON_WINDOW = int(os.environ.get("TAPETE_ABANDON_WINDOW", "20"))
TAPETE_PLAYBAN_MIN_ABANDONMENTS = int(os.environ.get("TAPETE_PLAYBAN_MIN_ABANDONMENTS", "3"))
TAPETE_PLAYBAN_RATE = float(os.environ.get("TAPETE_PLAYBAN_RATE", "0.2"))
TAPETE_PLAYBAN_MINUTES = [
    int(minutes) for minutes in os.environ.get("TAPETE_PLAYBAN_MINUTES", "15,60,1440").split(",")
]
TAPETE_PLAYBAN_MEMORY_DAYS = int(os.environ.get("TAPETE_PLAYBAN_MEMORY_DAYS", "7"))
# A socket may ask for a snapshot (``sync``, a database read) SYNC_PER_SECOND times a second with bursts of
# SYNC_BURST, and a user over all their sockets SYNC_PER_USER_PER_SECOND with bursts of SYNC_PER_USER_BURST.
TAPETE_WS_SYNC_PER_SECOND = float(os.environ.get("TAPETE_WS_SYNC_PER_SECOND", "1"))
TAPETE_WS_SYNC_BURST = int(os.environ.get("TAPETE_WS_SYNC_BURST", "5"))
TAPETE_WS_SYNC_PER_USER_PER_SECOND = float(os.environ.get("TAPETE_WS_SYNC_PER_USER_PER_SECOND", "3"))
TAPETE_WS_SYNC_PER_USER_BURST = int(os.environ.get("TAPETE_WS_SYNC_PER_USER_BURST", "15"))
TAPETE_CHAT_MAX_LENGTH = 500
# Delivery that heals (realtime.delivery): every HEARTBEAT seconds each ASGI process brings its sockets that are
# behind up to date from the database and sends every socket the match's version. A view that reached a seat more
# than DELIVERY_BOUND seconds after its commit restarts that seat's running clock; publishing a move's frames gives
# up after BROADCAST_TIMEOUT seconds (the heartbeat delivers them).
TAPETE_HEARTBEAT_SECONDS = float(os.environ.get("TAPETE_HEARTBEAT_SECONDS", "5"))
# The beat runs by itself in every ASGI process; the tests switch it off and beat when they mean to.
TAPETE_SCHEDULE_HEARTBEAT = env_flag("TAPETE_SCHEDULE_HEARTBEAT", True)
TAPETE_DELIVERY_BOUND_SECONDS = float(os.environ.get("TAPETE_DELIVERY_BOUND_SECONDS", "2"))
TAPETE_BROADCAST_TIMEOUT_SECONDS = float(os.environ.get("TAPETE_BROADCAST_TIMEOUT_SECONDS", "3"))
# Bot API: requests per token (django-ninja's throttle, counted in Django's cache).
TAPETE_API_RATE = os.environ.get("TAPETE_API_RATE", "300/m")
# Post-game analysis: a Celery task when a match ends (tests switch it off and call the service themselves).
TAPETE_SCHEDULE_ANALYSIS = env_flag("TAPETE_SCHEDULE_ANALYSIS", True)

DEMO_ADMIN_USERNAME = "admin"
DEMO_ADMIN_PASSWORD = os.environ.get("TAPETE_DEMO_ADMIN_PASSWORD", "tapete-admin")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A Redis outage's third-party tracebacks become one line each (tapete/logs.py).
    "filters": {"redis_outages": {"()": "tapete.logs.OneLineRedisOutages"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redis_outages"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
}
