"""Forms of the accounts app: sign-up, and a guest keeping their account under a name of their own."""

from django.contrib.auth.forms import UserCreationForm

from accounts.models import User


class SignUpForm(UserCreationForm):
    """Names the site gives and look-alike names are refused by ``User.clean`` (``accounts.names``)."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class KeepAccountForm(SignUpForm):
    """A guest chooses a name and a password: the same account (``instance``), no longer a guest."""

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=False)
        user.is_guest = False
        if commit:
            user.save()
        return user
