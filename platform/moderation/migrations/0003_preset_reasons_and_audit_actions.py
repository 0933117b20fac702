"""Sanctions keep their preset reason as a key (``Sanction.preset``), read in each player's language: the preset
sentences stored until now at the head of ``public_reason``, in the moderator's language (English, French or
Italian), become their key, and ``public_reason`` keeps only the free text after them. The sentences are frozen
here as they were written, whatever the catalogues say later. Also: the audit log's actions get their words."""

from django.db import migrations, models

PRESET_TEXTS = {
    "abuse": ("Abusive or insulting language in chat.", "Propos injurieux ou insultants dans le chat.",
              "Linguaggio offensivo o insulti nella chat."),
    "cheating": ("Cheating or collusion with another player.", "Triche ou collusion avec un autre joueur.",
                 "Imbroglio o collusione con un altro giocatore."),
    "spam": ("Spam or advertising in chat.", "Spam ou publicité dans le chat.", "Spam o pubblicità nella chat."),
    "stalling": ("Stalling or leaving games on purpose.", "Faire traîner ou quitter des parties exprès.",
                 "Perdere tempo o abbandonare le partite di proposito."),
    "name": ("An offensive user name.", "Un nom d'utilisateur offensant.", "Un nome utente offensivo."),
}


def split_preset(public_reason: str) -> tuple[str, str]:
    """(preset key, the free text after it), or ("", the text) when it opens with no preset sentence."""
    for key, texts in PRESET_TEXTS.items():
        for text in texts:
            if public_reason == text or public_reason.startswith(text + " "):
                return key, public_reason[len(text):].strip()
    return "", public_reason


def presets_to_keys(apps, schema_editor):
    Sanction = apps.get_model("moderation", "Sanction")
    for sanction in Sanction.objects.exclude(public_reason="").filter(preset="").only("public_reason"):
        preset, rest = split_preset(sanction.public_reason)
        if preset:
            Sanction.objects.filter(pk=sanction.pk).update(preset=preset, public_reason=rest)


def keys_to_presets(apps, schema_editor):
    Sanction = apps.get_model("moderation", "Sanction")
    for sanction in Sanction.objects.exclude(preset="").only("preset", "public_reason"):
        text = " ".join(part for part in (PRESET_TEXTS[sanction.preset][0], sanction.public_reason) if part)
        Sanction.objects.filter(pk=sanction.pk).update(preset="", public_reason=text)


class Migration(migrations.Migration):

    dependencies = [
        ('moderation', '0002_sanction_notices'),
    ]

    operations = [
        migrations.AddField(
            model_name='sanction',
            name='preset',
            field=models.CharField(blank=True, choices=[('abuse', 'Abusive or insulting language in chat.'), ('cheating', 'Cheating or collusion with another player.'), ('spam', 'Spam or advertising in chat.'), ('stalling', 'Stalling or leaving games on purpose.'), ('name', 'An offensive user name.')], help_text='Shown to the player in their own language.', max_length=16, verbose_name='preset reason'),
        ),
        migrations.AlterField(
            model_name='auditentry',
            name='action',
            field=models.CharField(choices=[('warning', 'Warned'), ('mute', 'Muted in chat'), ('suspension', 'Suspended'), ('ban', 'Banned'), ('lift', 'Lifted a sanction'), ('hide_message', 'Hid a chat line'), ('abort_match', 'Aborted a match'), ('reverse_ratings', "Reversed a match's ratings"), ('report_resolved', 'Resolved a report'), ('report_dismissed', 'Dismissed a report'), ('note', 'Wrote a note')], max_length=32, verbose_name='action'),
        ),
        migrations.AlterField(
            model_name='sanction',
            name='public_reason',
            field=models.TextField(blank=True, help_text='Shown after the preset reason, as written.', verbose_name='free text shown to the player'),
        ),
        migrations.RunPython(presets_to_keys, keys_to_presets),
    ]
