"""Every way an account is made counts against one limit per client address: a sign-up, a guest made for a visitor
who clicked "Play now" (or joined, or opened a table), and a guest kept under a name of its own.

Keeping a guest counts as making an account, so a guest becomes a rated account no faster than a sign-up: a
script that makes guests and keeps them meets the same limit as one that signs up. The count is taken here, in the
services every page calls, with ``web.throttle.ACCOUNTS_PER_ADDRESS`` (``TAPETE_ACCOUNTS_PER_ADDRESS``), one
atomic increment in the shared cache per account made; a refusal is :class:`TooManyAccounts`, and nothing is
made. Without an address (a management command, a test calling the service) nothing is counted.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from tapete_sdk.plugin import CodedError

from accounts.models import User
from web import throttle


class TooManyAccounts(CodedError):
    """Too many accounts were made from this address lately: its message says for how long (HTTP 429)."""

    def __init__(self, wait_seconds: int) -> None:
        super().__init__("too_many_accounts", throttle.ACCOUNTS_PER_ADDRESS.message(wait_seconds))
        self.wait_seconds = wait_seconds


def count_new_account(address: str | None) -> None:
    """Count one account made from ``address``; :class:`TooManyAccounts` if that is over the limit."""
    if address is None:
        return
    wait = throttle.ACCOUNTS_PER_ADDRESS.take(address)
    if wait:
        raise TooManyAccounts(wait)


def account_save(form, *, address: str | None) -> User | None:
    """Save a valid sign-up or keep-your-account form once the address may make one more account. Returns the
    account, or None when another request took a look-alike name in the meantime (the form then says so: the
    unique constraint on the name's skeleton decided, ``accounts.names``)."""
    count_new_account(address)
    try:
        with transaction.atomic():
            return form.save()
    except IntegrityError:
        if form.instance.pk is not None:  # a guest keeping their account: still the guest they were
            form.instance.refresh_from_db()
        form.add_error("username", _("This name was just taken, or one that looks like it: choose another."))
        return None
