"""Log-in refuses suspended and banned players until their sanction ends."""

from django.contrib.auth.backends import ModelBackend

from moderation.services import is_locked_out


class SanctionAwareBackend(ModelBackend):
    def user_can_authenticate(self, user) -> bool:
        return super().user_can_authenticate(user) and not is_locked_out(user)
