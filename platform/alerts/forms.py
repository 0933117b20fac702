"""The alert settings' form: turn e-mails (off, as they come, daily digest)."""

from django import forms

from alerts.models import AlertSettings


class MailForm(forms.ModelForm):
    class Meta:
        model = AlertSettings
        fields = ["mail"]
        widgets = {"mail": forms.RadioSelect}
