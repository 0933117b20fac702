"""The report form players fill in, and the log-in form that tells a locked-out player why."""

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _

from moderation.models import Report
from moderation.notices import sanction_message, user_zone
from moderation.sanctions import LOCKOUT_KINDS, active_sanction
from web.params import MAX_ID, MAX_INTEGER


class ReportForm(forms.Form):
    reason = forms.ChoiceField(label=_("What happened?"), choices=Report.Reason.choices)
    comment = forms.CharField(
        label=_("Details"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("What should a moderator look at? The table, the move and the chat line are attached."),
    )
    # Hidden, filled in by the page; forged values beyond the columns' range are refused like any invalid field.
    match = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID, widget=forms.HiddenInput)
    move = forms.IntegerField(required=False, min_value=0, max_value=MAX_INTEGER, widget=forms.HiddenInput)
    chat = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID, widget=forms.HiddenInput)


class SanctionAwareAuthenticationForm(AuthenticationForm):
    """Log-in: a suspended or banned player with the right password reads why and until when, not "wrong
    password" (the backend refuses them; only the right password reveals the sanction)."""

    def clean(self):
        try:
            return super().clean()
        except forms.ValidationError:
            sanction = self._lockout_behind_right_password()
            if sanction is None:
                raise
            message = sanction_message(sanction, user_zone(sanction.user))
            raise forms.ValidationError(message, code="sanctioned") from None

    def _lockout_behind_right_password(self):
        username, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
        user = get_user_model()._default_manager.filter(username=username).first() if username else None
        if user is None or not password or not user.is_active or not user.check_password(password):
            return None
        return active_sanction(user=user, kinds=LOCKOUT_KINDS)
