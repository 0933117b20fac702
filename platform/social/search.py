"""Finding a player by name: case-insensitive, names that start with the query first, then names that contain it,
at most :data:`LIMIT` of them, in one query. Bot accounts, computer players, guests and banned or suspended
accounts are not listed."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Case, Exists, IntegerField, OuterRef, Q, Value, When
from django.db.models.functions import Lower
from django.utils import timezone

from moderation.models import Sanction
from moderation.sanctions import LOCKOUT_KINDS
from social.errors import SocialError

User = get_user_model()

LIMIT = 20
MAX_QUERY = 150  # a username is at most 150 characters


def search_players(query: str, *, limit: int = LIMIT) -> list:
    query = (query or "").strip()
    if not query:
        return []
    if len(query) > MAX_QUERY:
        raise SocialError("query_too_long")
    now = timezone.now()
    locked_out = Sanction.objects.filter(
        user=OuterRef("pk"), kind__in=LOCKOUT_KINDS, lifted_at__isnull=True, starts_at__lte=now
    ).filter(Q(ends_at__isnull=True) | Q(ends_at__gt=now))
    return list(
        User.objects.filter(username__icontains=query, is_active=True, is_bot=False, is_guest=False)
        .exclude(Exists(locked_out))
        .annotate(
            prefix=Case(
                When(username__istartswith=query, then=Value(0)),
                default=Value(1),
                output_field=IntegerField(),
            )
        )
        .order_by("prefix", Lower("username"))
        .only("pk", "username", "date_joined")[:limit]
    )
