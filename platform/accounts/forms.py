"""Forms of the accounts app: sign-up, and a guest keeping their account under a name of their own."""

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.guests import RESERVED_PREFIXES
from accounts.models import User


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self):
        username = self.cleaned_data.get("username", "")
        if username.lower().startswith(RESERVED_PREFIXES):
            raise forms.ValidationError(
                _("Names starting with “guest-” or “bot-” are kept for the site's own accounts."),
                code="reserved_name",
            )
        # Django's own check: a name taken in any case is refused with its usual message (it returns None then).
        return super().clean_username()


class KeepAccountForm(SignUpForm):
    """A guest chooses a name and a password: the same account (``instance``), no longer a guest."""

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=False)
        user.is_guest = False
        if commit:
            user.save()
        return user
