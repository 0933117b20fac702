"""Each name's look-alike skeleton (accounts.names), unique: filled for the accounts that exist, oldest first; an
account whose name already looked like an older one's keeps it, its skeleton marked apart with its id."""

from django.db import migrations, models


def fill_skeletons(apps, schema_editor):
    from accounts.names import name_skeleton

    User = apps.get_model("accounts", "User")
    taken = set()
    for user in User.objects.order_by("date_joined", "pk").only("pk", "username"):
        skeleton = name_skeleton(user.username)
        if skeleton in taken:
            skeleton = f"{skeleton}#{user.pk}"
        taken.add(skeleton)
        User.objects.filter(pk=user.pk).update(username_skeleton=skeleton)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_user_time_zone")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(editable=False, max_length=600, null=True),
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(
                editable=False,
                help_text="The name's confusable skeleton: no two accounts have names that look alike.",
                max_length=600,
                unique=True,
                verbose_name="name as it looks",
            ),
        ),
    ]
