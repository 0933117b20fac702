"""Personal API tokens: create (the raw token is returned once), list, revoke, and authenticate a request.

A token authenticates only while it is not revoked and its owner is neither suspended nor banned: the sanction is
checked on every request, so a moderator's suspension stops the owner's programs at once (their open websockets are
closed by the moderation service through the ``user.<id>`` group). Revoking a token closes the websockets opened
with it the same way, through the token's own group. Tokens do not expire and their scopes never change after
creation, so revocation is the one way a live token stops.
"""

from __future__ import annotations

import secrets as token_source

from django.utils import timezone

from botapi.errors import BotApiRefusal
from botapi.models import SCOPES, TOKEN_PREFIX, ApiToken, token_digest
from moderation.sanctions import is_locked_out
from turnengine import outbox
from turnengine.updates import Update
from web.text import has_control_character

MAX_TOKENS_PER_USER = 20
LAST_USED_PRECISION_SECONDS = 60  # last_used_at is written at most once a minute per token
REVOKE_MESSAGE = "token.revoke"  # to a token's sockets (realtime.sockets.FrameSocket.token_revoke): close now


class TokenError(BotApiRefusal):
    """A token that cannot be made, or that does not let its bearer in."""


def token_create(*, user, name: str, scopes: list[str]) -> tuple[ApiToken, str]:
    """A new token for ``user``; returns the row and the raw token, which is never stored nor shown again."""
    name = (name or "").strip()
    too_long = len(name) > ApiToken._meta.get_field("name").max_length
    if not name or too_long or has_control_character(name):
        raise TokenError("invalid_token_name")
    chosen = sorted(set(scopes))
    if not chosen or any(scope not in SCOPES for scope in chosen):
        raise TokenError("invalid_scopes")
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_TOKENS_PER_USER:
        raise TokenError("too_many_tokens")
    raw = TOKEN_PREFIX + token_source.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, digest=token_digest(raw), hint=raw[: len(TOKEN_PREFIX) + 4], scopes=chosen
    )
    return token, raw


def token_list(*, user):
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True)


def token_revoke(*, user, token_id: int) -> bool:
    """Revoke one of ``user``'s tokens; False if there is no such live token. Once the revocation commits, every
    websocket opened with the token, in every process, closes (4401, ``token_revoked``)."""
    revoked = bool(
        ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    )
    if revoked:
        group = ApiToken(pk=token_id).socket_group
        outbox.send_on_commit(Update(messages={group: {"type": REVOKE_MESSAGE}}))
    return revoked


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def token_authenticate(raw: str) -> ApiToken:
    """The live token ``raw`` names, with its user loaded; raises :class:`TokenError` (``invalid_token``,
    ``account_suspended``) otherwise."""
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=token_digest(raw), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is None:
        raise TokenError("invalid_token")
    if is_locked_out(token.user):
        raise TokenError("account_suspended")
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > LAST_USED_PRECISION_SECONDS:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
