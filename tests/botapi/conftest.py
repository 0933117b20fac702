"""Fixtures of the Bot API tests: tokens and an HTTP client that sends them."""

from __future__ import annotations

import pytest
from django.test import Client

from botapi.tokens import token_create


class ApiClient:
    """Django's test client with ``Authorization: Bearer`` and JSON bodies."""

    def __init__(self, raw: str | None) -> None:
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {raw}"} if raw else {}

    def get(self, path: str, **params):
        return self.client.get(f"/api{path}", params, headers=self.headers)

    def post(self, path: str, body: dict | None = None):
        return self.client.post(
            f"/api{path}",
            body if body is not None else {},
            content_type="application/json",
            headers=self.headers,
        )


@pytest.fixture
def api_for():
    """``api_for(user, scopes=("play", "read"))``: an API client with a new token of ``user``."""

    def make(user, scopes=("play", "read")) -> ApiClient:
        _token, raw = token_create(user=user, name="test", scopes=list(scopes))
        return ApiClient(raw)

    return make


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """These tests make many accounts; the real hasher's deliberate slowness is tested elsewhere."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
