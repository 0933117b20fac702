"""Log-in refuses suspended and banned players until their sanction ends; a session already open keeps its user,
so that ``SanctionMiddleware`` can tell them on every page what happened instead of silently logging them out."""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from moderation.sanctions import is_locked_out
from web.compiled import row_reader


class SanctionAwareBackend(ModelBackend):
    def user_can_authenticate(self, user) -> bool:
        return super().user_can_authenticate(user) and not is_locked_out(user)

    def get_user(self, user_id):
        user = _read_user(user_id)
        return user if user is not None and super().user_can_authenticate(user) else None


# Every request and every websocket of a logged-in player reads its user: compiled once (web.compiled says why).
_read_user = row_reader(get_user_model())
