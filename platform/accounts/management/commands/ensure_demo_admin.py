"""Create the demo admin account of the embedded default if it does not exist, and print its credentials."""

from django.conf import settings
from django.core.management.base import BaseCommand

from accounts.models import User


class Command(BaseCommand):
    help = "Create the demo superuser (embedded default) and print its credentials."

    def handle(self, *args, **options):
        username, password = settings.DEMO_ADMIN_USERNAME, settings.DEMO_ADMIN_PASSWORD
        if not User.objects.filter(username=username).exists():
            User.objects.create_superuser(username=username, email="admin@tapete.invalid", password=password)
            self.stdout.write("Created the demo admin account.")
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo admin: username {username!r}, password {password!r} ({settings.TAPETE_SITE_URL}/admin/)"
            )
        )
