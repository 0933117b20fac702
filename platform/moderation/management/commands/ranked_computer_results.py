"""``manage.py ranked_computer_results``: list the ranked results a computer player or a bot account took part in
(rated before ranked tables seated people only); with ``--reverse``, a moderator reverses them through moderation's
audited reversal, each under their name and reason. Documented in docs/fair-play.md."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from moderation.computer_results import computer_ranked_results, describe
from moderation.services import Refused, moderation_reverse_ratings


class Command(BaseCommand):
    help = "List ranked results that involved a computer player or a bot account; --reverse undoes them."

    def add_arguments(self, parser):
        parser.add_argument("--reverse", action="store_true", help="reverse the listed results (audited)")
        parser.add_argument("--moderator", help="the moderator reversing them (a user with the reversal permission)")
        parser.add_argument("--reason", help="the reason recorded with each reversal")

    def handle(self, *args, **options):
        matches = list(computer_ranked_results())
        for match in matches:
            self.stdout.write(describe(match))
        self.stdout.write(f"{len(matches)} ranked results involved a computer player or a bot account")
        if not options["reverse"]:
            return
        moderator = self._moderator(options["moderator"])
        if not (options["reason"] or "").strip():
            raise CommandError("--reverse needs --reason")
        reversed_count = 0
        for match in matches:
            try:
                moderation_reverse_ratings(moderator=moderator, match=match, reason=options["reason"])
            except Refused as refusal:
                self.stdout.write(f"#{match.pk}: {refusal.message}")
                continue
            reversed_count += 1
        self.stdout.write(f"{reversed_count} reversed")

    def _moderator(self, username: str | None):
        if not username:
            raise CommandError("--reverse needs --moderator")
        user = get_user_model().objects.filter(username=username).first()
        if user is None or not user.has_perm("ratings.add_ratingreversal"):
            raise CommandError(f"{username!r} is not a moderator who may reverse ratings")
        return user
