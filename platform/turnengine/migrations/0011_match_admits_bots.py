"""A table open to bot accounts says so itself (``Match.admits_bots``), where ``botapi.BotTable`` kept a row per
such table: which pool a table is rated in is then read from the match alone."""

from django.db import migrations, models


def copy_bot_tables(apps, schema_editor):
    BotTable = apps.get_model("botapi", "BotTable")
    Match = apps.get_model("turnengine", "Match")
    Match.objects.filter(pk__in=BotTable.objects.values("match_id")).update(admits_bots=True)


def copy_back(apps, schema_editor):
    BotTable = apps.get_model("botapi", "BotTable")
    Match = apps.get_model("turnengine", "Match")
    BotTable.objects.bulk_create(
        BotTable(match_id=pk) for pk in Match.objects.filter(admits_bots=True).values_list("pk", flat=True)
    )


class Migration(migrations.Migration):
    dependencies = [
        ("turnengine", "0010_presence"),
        ("botapi", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="admits_bots",
            field=models.BooleanField(
                default=False,
                help_text="Bot accounts may sit here; such a table is rated in the game's bot pool.",
                verbose_name="open to bot accounts",
            ),
        ),
        migrations.RunPython(copy_bot_tables, copy_back),
    ]
