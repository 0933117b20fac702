"""Django settings for Tapete.

Two running modes, chosen by the environment (design.md §4):

* **Embedded default** (nothing to install): SQLite in ``var/`` (IMMEDIATE transactions, so writers queue instead of
  failing), the in-memory channel layer, and Celery on a file-system broker in ``var/celery/``.
* **Real services**: ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` switch to PostgreSQL, the Redis pub/sub channel
  layer and the Redis Celery broker, so several ASGI processes and Celery workers can share them.
"""

import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(os.environ.get("TAPETE_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(exist_ok=True)


def env_flag(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).lower() in {"1", "true", "yes", "on"}


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me-in-production-0123456789")
DEBUG = env_flag("DJANGO_DEBUG", True)
ALLOWED_HOSTS = os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
CSRF_TRUSTED_ORIGINS = [
    origin for origin in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if origin
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "accounts",
    "turnengine",
    "lobby",
    "ratings",
    "moderation",
    "ninja",  # django-ninja: the Bot API and its OpenAPI docs (its Swagger UI files are served locally)
    "botapi",
    "games.perudo",
    "games.spicy",
    "games.chinesecheckers",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "moderation.middleware.SanctionMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

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
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        DATABASES["default"].update(CONN_MAX_AGE=0, OPTIONS=SQLITE_OPTIONS)
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "tapete.sqlite3",
            "OPTIONS": SQLITE_OPTIONS,
            "TEST": {"NAME": VAR_DIR / "test.sqlite3"},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = ["moderation.backends.SanctionAwareBackend"]
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
STATIC_ROOT = BASE_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)  # whitenoise expects it; collectstatic fills it for production
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = True  # serve app static files without collectstatic on the embedded default

EMAIL_BACKEND = os.environ.get("DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "Tapete <noreply@tapete.invalid>")

REDIS_URL = os.environ.get("REDIS_URL", "")

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # The pub/sub layer carried about twice the moves/s of the core layer on this stack (design.md §8);
            # this subclass publishes a move's frames in one round trip.
            "BACKEND": "turnengine.channel_layer.PubSubChannelLayer",
            # redis-py caps an asyncio pool at 100 connections and raises beyond: size it for the sockets we hold.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "max_connections": 2000}]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Celery: the Redis broker with real services, a file-system broker (no server) on the embedded default.
CELERY_BROKER_DIR = VAR_DIR / "celery"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict = {"visibility_timeout": 3600}
else:
    for folder in ("out", "processed"):
        (CELERY_BROKER_DIR / folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT = "tapete.broker:Transport"  # kombu's, with atomic writes (see tapete/broker.py)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_BROKER_DIR / "out"),
        "data_folder_out": str(CELERY_BROKER_DIR / "out"),
        "processed_folder": str(CELERY_BROKER_DIR / "processed"),
        "store_processed": False,
    }
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ALWAYS_EAGER = env_flag("CELERY_TASK_ALWAYS_EAGER", False)
TAPETE_SWEEP_SECONDS = float(os.environ.get("TAPETE_SWEEP_SECONDS", "15"))
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "turnengine.tasks.sweep_deadlines", "schedule": TAPETE_SWEEP_SECONDS},
}

# Clocks: schedule a Celery task at each deadline (tests switch it off and drive time themselves); open tables
# nobody starts close after this long.
TAPETE_SCHEDULE_DEADLINES = env_flag("TAPETE_SCHEDULE_DEADLINES", True)
# Embedded default: the Celery worker posts its frames to the web process (see turnengine.broadcast).
TAPETE_RELAY_URL = os.environ.get("TAPETE_RELAY_URL", "")
TAPETE_RELAY_TOKEN = os.environ.get("TAPETE_RELAY_TOKEN", "")
TAPETE_SCHEDULE_BOTS = env_flag("TAPETE_SCHEDULE_BOTS", True)
TAPETE_BOT_DELAY_SECONDS = float(os.environ.get("TAPETE_BOT_DELAY_SECONDS", "1.5"))  # a human-like pause
TAPETE_OPEN_TABLE_TTL_SECONDS = int(os.environ.get("TAPETE_OPEN_TABLE_TTL_SECONDS", str(2 * 3600)))

# Websocket limits: a frame larger than this, or more than RATE frames a second (with a burst), is refused.
TAPETE_WS_MAX_FRAME_BYTES = 8 * 1024
TAPETE_WS_RATE_PER_SECOND = 20
TAPETE_WS_RATE_BURST = 40
TAPETE_CHAT_MAX_LENGTH = 500
# Bot API: requests per token (django-ninja's throttle, counted in Django's cache).
TAPETE_API_RATE = os.environ.get("TAPETE_API_RATE", "300/m")
# Post-game analysis: a Celery task when a match ends (tests switch it off and call the service themselves).
TAPETE_SCHEDULE_ANALYSIS = env_flag("TAPETE_SCHEDULE_ANALYSIS", True)
TAPETE_BENCH_ECHO = env_flag("TAPETE_BENCH_ECHO", False)  # the echo baseline of bench/ws_load.py

DEMO_ADMIN_USERNAME = "admin"
DEMO_ADMIN_PASSWORD = os.environ.get("TAPETE_DEMO_ADMIN_PASSWORD", "tapete-admin")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
}
