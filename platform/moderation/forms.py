"""The report form players fill in, and the reason/duration fields of moderator actions in admin."""

from django import forms
from django.contrib.admin.helpers import ActionForm
from django.utils.translation import gettext_lazy as _

from moderation.models import Report


class ReportForm(forms.Form):
    reason = forms.ChoiceField(label=_("What happened?"), choices=Report.Reason.choices)
    comment = forms.CharField(
        label=_("Details"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("What should a moderator look at? The table, the move and the chat line are attached."),
    )
    match = forms.IntegerField(required=False, widget=forms.HiddenInput)
    move = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)
    chat = forms.IntegerField(required=False, widget=forms.HiddenInput)


class ModerationActionForm(ActionForm):
    """Extra fields on the admin action bar: every sanction has a reason, and mutes and suspensions a length."""

    reason = forms.CharField(label=_("Reason"), required=False, max_length=500)
    days = forms.IntegerField(label=_("Days"), required=False, min_value=1, max_value=3650, initial=1)
