"""``BotTable`` is gone: ``Match.admits_bots`` holds what it said (copied by turnengine's migration 0011)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("botapi", "0001_initial"),
        ("turnengine", "0011_match_admits_bots"),
    ]

    operations = [
        migrations.DeleteModel(name="BotTable"),
    ]
