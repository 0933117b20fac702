"""The log-in forms (the site's and admin's) with the failed log-in limits of ``web.throttle``.

A form checks both limits (per account name and client address, per client address) before it authenticates, so a
guesser over the limit learns nothing, not even a right password; every failed authentication with a request, from
either form, counts against both (``count_failed_login``, on Django's ``user_login_failed`` signal). Over a limit,
either page answers 429 (``answers_429_when_throttled``).

A player whom the authentication backend refuses although their password is right (a suspension or a ban) reads
why on the site's log-in page, not "wrong password": moderation installs that explanation when the site starts
(:func:`install_refusal_reason`, from ``ModerationConfig.ready``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError

from web import throttle

LOGIN_LIMITS = (throttle.FAILED_LOGINS_PER_ACCOUNT, throttle.FAILED_LOGINS_PER_ADDRESS)


class ThrottledLoginMixin:
    throttled = False

    def clean(self):
        if self.request is not None:
            for limit in LOGIN_LIMITS:
                wait = limit.wait_seconds(self.request)
                if wait:
                    self.throttled = True
                    raise ValidationError(limit.message(wait), code="throttled")
        return super().clean()


# Why a player with the right password may not log in (a sentence), or None: installed by moderation.
RefusalReason = Callable[[object], str | None]
_refusal_reason: RefusalReason | None = None


def install_refusal_reason(reason: RefusalReason) -> None:
    global _refusal_reason
    _refusal_reason = reason


class ExplainedRefusalForm(AuthenticationForm):
    """A player refused with the right password reads why (the installed reason); only the right password reveals
    it, so a guesser learns nothing."""

    def clean(self):
        try:
            return super().clean()
        except ValidationError:
            reason = self._reason_behind_right_password()
            if reason is None:
                raise
            raise ValidationError(reason, code="sanctioned") from None

    def _reason_behind_right_password(self) -> str | None:
        username, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
        if _refusal_reason is None or not username or not password:
            return None
        user = get_user_model()._default_manager.filter(username=username).first()
        if user is None or not user.is_active or not user.check_password(password):
            return None
        return _refusal_reason(user)


class LoginForm(ThrottledLoginMixin, ExplainedRefusalForm):
    """The site's log-in: the limits first, then a refused player with the right password reads why."""


class AdminLoginForm(ThrottledLoginMixin, AdminAuthenticationForm):
    pass


def answers_429_when_throttled(login_view):
    """A log-in view (the site's, admin's) whose refusal over a limit answers 429 Too Many Requests, not 200."""

    @wraps(login_view)
    def view(request, *args, **kwargs):
        response = login_view(request, *args, **kwargs)
        form = (getattr(response, "context_data", None) or {}).get("form")
        if getattr(form, "throttled", False):
            response.status_code = 429
        return response

    return view


login_view = answers_429_when_throttled(auth_views.LoginView.as_view(form_class=LoginForm))


def count_failed_login(sender, credentials, request=None, **kwargs) -> None:
    if request is not None and request.method == "POST":
        for limit in LOGIN_LIMITS:
            limit.count(request)
