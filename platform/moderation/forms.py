"""The report form players fill in."""

from django import forms
from django.utils.translation import gettext_lazy as _

from moderation.models import Report
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

