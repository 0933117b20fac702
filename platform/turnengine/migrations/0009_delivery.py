from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("turnengine", "0008_match_rematch_of"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="undelivered_version",
            field=models.PositiveIntegerField(
                blank=True, editable=False, null=True, verbose_name="undelivered version"
            ),
        ),
        migrations.AddField(
            model_name="match",
            name="undelivered_at",
            field=models.DateTimeField(
                blank=True, editable=False, null=True, verbose_name="delivery failed at"
            ),
        ),
    ]
