"""Moderation tests create many accounts: hash their passwords with a fast hasher (Django's advice for tests; the
browser tests, whose server process checks passwords with the real hashers, are elsewhere)."""

import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
