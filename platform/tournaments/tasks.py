"""Celery tasks of tournaments (thin adapters of ``tournaments.life_cycle``): the beat sweep that starts, pairs and
ends every tournament due, and the step queued when one of a tournament's tables finishes."""

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from tournaments.life_cycle import tournament_advance
from tournaments.models import Tournament, TournamentTable


@shared_task(ignore_result=True)
def sweep_tournaments() -> None:
    """Every sweep (``TAPETE_SWEEP_SECONDS``): each tournament due to start and each running one takes its next
    step (a table aborted, an arena's patience or end, a finish whose task was lost)."""
    due = Q(status=Tournament.Status.UPCOMING, starts_at__lte=timezone.now()) | Q(status=Tournament.Status.RUNNING)
    for tournament_id in Tournament.objects.filter(due).order_by("pk").values_list("pk", flat=True):
        tournament_advance(tournament_id)


@shared_task(ignore_result=True)
def table_finished(match_id: int) -> None:
    """A table finished: if it is a tournament's, score it and pair what is due."""
    tournament_id = (
        TournamentTable.objects.filter(match_id=match_id).values_list("round__tournament_id", flat=True).first()
    )
    if tournament_id is not None:
        tournament_advance(tournament_id)
