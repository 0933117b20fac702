import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("turnengine", "0007_indexes_for_hot_updates"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="rematch_of",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="rematch",
                to="turnengine.match",
                verbose_name="rematch of",
            ),
        ),
    ]
