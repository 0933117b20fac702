"""``manage.py analyse_matches``: compute the post-game analysis of finished matches that have none (matches that
ended before the analysis existed); ``--all`` recomputes every one."""

from django.core.management.base import BaseCommand

from botapi.analysis.store import analysis_compute
from turnengine.models import Match


class Command(BaseCommand):
    help = "Analyse finished matches that have no post-game analysis yet."

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", help="recompute every finished match's analysis")

    def handle(self, *args, **options):
        matches = Match.objects.filter(status=Match.Status.FINISHED)
        if not options["all"]:
            matches = matches.filter(analysis__isnull=True)
        count = 0
        for match_id in matches.values_list("pk", flat=True).iterator():
            if analysis_compute(match_id=match_id) is not None:
                count += 1
        self.stdout.write(f"{count} matches analysed")
