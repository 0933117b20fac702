"""Production settings refuse to be insecure, and ``check --deploy`` is clean under the
production environment that deploy/tapete.env.example describes."""

import runpy
import secrets
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from tests.servers import ROOT

SETTINGS = ROOT / "platform" / "tapete" / "settings.py"
PRODUCTION = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DJANGO_ALLOWED_HOSTS": "tapete.test",
    "TAPETE_HTTPS": "true",
    "DATABASE_URL": "postgres://tapete@127.0.0.1:5432/tapete",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
}
ALL_NAMES = [*PRODUCTION, "TAPETE_INSTANCE", "DJANGO_CSRF_TRUSTED_ORIGINS"]


def _settings(monkeypatch, **env) -> dict:
    """The settings module's values under ``env`` alone (nothing inherited from this process's environment)."""
    for name in ALL_NAMES:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS))


@pytest.mark.parametrize("missing", ["DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"])
def test_with_debug_off_a_missing_secret_key_or_host_stops_the_start(monkeypatch, missing):
    env = {name: value for name, value in PRODUCTION.items() if name != missing}
    with pytest.raises(ImproperlyConfigured, match=missing):
        _settings(monkeypatch, **env)


def test_the_development_default_still_starts_with_its_own_key_and_hosts(monkeypatch):
    values = _settings(monkeypatch)
    assert values["DEBUG"] and values["SECRET_KEY"].startswith("dev-only")
    assert "127.0.0.1" in values["ALLOWED_HOSTS"] and "SESSION_COOKIE_SECURE" not in values


def test_tapete_https_turns_on_hsts_secure_cookies_the_redirect_and_the_proxy_header(monkeypatch):
    values = _settings(monkeypatch, **PRODUCTION)
    assert values["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")
    assert values["SECURE_SSL_REDIRECT"] and values["SESSION_COOKIE_SECURE"] and values["CSRF_COOKIE_SECURE"]
    assert values["SECURE_HSTS_SECONDS"] >= 365 * 24 * 3600


def test_the_instance_name_comes_from_the_database_or_tapete_instance(monkeypatch):
    from_database = _settings(
        monkeypatch, DATABASE_URL="postgres://u@127.0.0.1:5432/site_one", REDIS_URL="redis://x"
    )
    assert from_database["CHANNEL_LAYERS"]["default"]["CONFIG"]["prefix"] == "tapete.site_one."
    named = _settings(monkeypatch, DATABASE_URL="postgres://u@127.0.0.1:5432/db", TAPETE_INSTANCE="fr play!")
    assert named["TAPETE_INSTANCE"] == "fr-play-"
    assert named["CELERY_TASK_DEFAULT_QUEUE"] == "tapete.fr-play-.play"


def test_check_deploy_is_clean_under_the_production_environment():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}", **PRODUCTION},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
