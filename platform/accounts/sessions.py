"""The site's session engine (``SESSION_ENGINE``): Django's database sessions, with the read that every request and
every websocket handshake makes compiled once (``web.compiled`` says why). Writes, and the asynchronous read, stay
Django's own."""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db.models import QuerySet
from django.db.models.functions import Now

from web.compiled import Compiled


def _session_data(session_key: str) -> QuerySet:
    return Session.objects.filter(session_key=session_key, expire_date__gt=Now()).values_list("session_data")


_SESSION_DATA = Compiled(_session_data, session_key=str)


class SessionStore(db.SessionStore):
    def load(self) -> dict:
        """The session's data, or nothing (and no key) if it does not exist or has expired, as Django's ``load``."""
        row = _SESSION_DATA.first(session_key=self.session_key) if self.session_key else None
        if row is None:
            self._session_key = None
            return {}
        return self.decode(row[0])
