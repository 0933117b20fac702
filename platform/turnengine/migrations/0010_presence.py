"""Presence from live connections (turnengine.presence): one row per open socket and per server process life, and
the connection lines of a table's log. The old counters, bumped up and down by each socket, may have leaked: they
start again from zero, the count of the (still empty) connection table, and the servers restarted with this
release count their sockets afresh."""

import django.db.models.deletion
from django.db import migrations, models


def counts_from_zero(apps, schema_editor):
    apps.get_model("turnengine", "Seat").objects.exclude(connections=0).update(connections=0)
    apps.get_model("turnengine", "Match").objects.exclude(spectator_connections=0).update(spectator_connections=0)


class Migration(migrations.Migration):

    dependencies = [
        ('turnengine', '0009_delivery'),
    ]

    operations = [
        migrations.CreateModel(
            name='ServerProcess',
            fields=[
                ('id', models.CharField(max_length=32, primary_key=True, serialize=False, verbose_name='process')),
                ('name', models.CharField(db_index=True, max_length=200, verbose_name='server')),
                ('started_at', models.DateTimeField(verbose_name='started')),
                ('seen_at', models.DateTimeField(verbose_name='last seen')),
            ],
            options={
                'verbose_name': 'server process',
                'verbose_name_plural': 'server processes',
            },
        ),
        migrations.CreateModel(
            name='PresenceNotice',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('version', models.PositiveIntegerField(verbose_name='version')),
                ('notice', models.JSONField(help_text='As sent in the presence frame: type, seat, back.', verbose_name='notice')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='time')),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='presence_notices', to='turnengine.match', verbose_name='match')),
            ],
            options={
                'verbose_name': 'connection notice',
                'verbose_name_plural': 'connection notices',
                'ordering': ['match', 'pk'],
            },
        ),
        migrations.CreateModel(
            name='Connection',
            fields=[
                ('key', models.CharField(max_length=32, primary_key=True, serialize=False, verbose_name='socket')),
                ('seat', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='seat')),
                ('opened_at', models.DateTimeField(auto_now_add=True, verbose_name='opened')),
                ('match', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='connections', to='turnengine.match', verbose_name='match')),
                ('process', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='connections', to='turnengine.serverprocess', verbose_name='server process')),
            ],
            options={
                'verbose_name': 'connection',
                'verbose_name_plural': 'connections',
                'indexes': [models.Index(fields=['match', 'seat'], name='connection_match_seat')],
            },
        ),
        migrations.RunPython(counts_from_zero, migrations.RunPython.noop),
    ]
