"""Whether a rating change counted a rated game: not for an unrated seat (absent, auto-played, not abandoned), so
that a reversal takes a game off only where one was added. Filled for the changes that exist, from their match's
clock and seats, as ratings.services decided when it rated them."""

from django.db import migrations, models


def fill_counted_games(apps, schema_editor):
    RatingChange = apps.get_model("ratings", "RatingChange")
    Seat = apps.get_model("turnengine", "Seat")
    uncounted = []
    for change in RatingChange.objects.select_related("match").iterator():
        absent = (change.match.clock or {}).get("absent") or []
        seat = Seat.objects.filter(match_id=change.match_id, user_id=change.user_id).first()
        if seat is not None and seat.index < len(absent) and absent[seat.index] and not seat.abandoned:
            uncounted.append(change.pk)
    RatingChange.objects.filter(pk__in=uncounted).update(counted_game=False)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0001_initial"),
        ("turnengine", "0011_match_admits_bots"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratingchange",
            name="counted_game",
            field=models.BooleanField(
                default=True,
                help_text="Whether the match added one to the player's rated games (not for an unrated seat).",
                verbose_name="counted as a rated game",
            ),
        ),
        migrations.RunPython(fill_counted_games, migrations.RunPython.noop),
    ]
