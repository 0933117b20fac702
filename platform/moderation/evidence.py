"""What moderation keeps as evidence when abandoned guests are cleaned up: the matches its reports and audit entries
point to, and those whose chat lines a report holds (installed in ``accounts.guests`` by ``ModerationConfig.ready``)."""

from django.db.models import Q

from moderation.models import AuditEntry, Report


def evidence_of_matches() -> Q:
    """A condition on matches: the ones a report or an audit entry needs."""
    return (
        Q(pk__in=Report.objects.values("match"))
        | Q(chat__in=Report.chat_messages.through.objects.values("chatmessage"))
        | Q(pk__in=AuditEntry.objects.values("match"))
    )
