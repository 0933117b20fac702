"""Signals of the turn engine, for apps that build on it (the post-game analysis listens to ``match_finished``)."""

from functools import partial

from django.db import transaction
from django.dispatch import Signal

# Sent after the commit that finished a match (never for a rollback); keyword argument: ``match_id``.
match_finished = Signal()


def announce_finish(match) -> None:
    """Call inside the transaction that records a match's result."""
    transaction.on_commit(partial(match_finished.send, sender=type(match), match_id=match.pk))
