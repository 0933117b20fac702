"""Integer parameters of HTTP requests: the one way views read a number a client typed or forged.

``str.isdigit()`` followed by ``int()`` fails on digits such as ``²`` (a digit to ``isdigit`` but not to ``int``),
and ``int()`` alone takes ``١٢``, ``1_000`` or a number too large for the database's column. :func:`int_param`
takes only ASCII digits (an optional minus sign), at most 18 of them, within the bounds the caller gives, and
raises :class:`BadParameter` otherwise, which each view turns into a clean refusal (a 400, or a message). Forms
bound their integer fields by the same :data:`MAX_INTEGER` and :data:`MAX_ID`.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

ASCII_INTEGER = re.compile(r"-?[0-9]{1,18}")
MAX_INTEGER = 2**31 - 1  # the largest value of an integer column (a version, a move, a seat)
MAX_ID = 2**63 - 1  # the largest primary key (BigAutoField)


class BadParameter(ValueError):
    """``name`` is not an integer within its bounds."""

    code = "bad_parameter"
    message = _("That request had an invalid parameter.")

    def __init__(self, name: str) -> None:
        super().__init__(f"invalid parameter {name!r}")
        self.name = name

    def as_json(self) -> dict:
        return {"error": {"code": self.code, "parameter": self.name, "message": str(self.message)}}


def int_param(data, name: str, *, minimum: int = 0, maximum: int = MAX_INTEGER) -> int | None:
    """The integer ``name`` of ``data`` (a request's ``GET`` or ``POST``), or None when it is absent or empty."""
    raw = data.get(name)
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str) or not ASCII_INTEGER.fullmatch(raw):
        raise BadParameter(name)
    value = int(raw)
    if not minimum <= value <= maximum:
        raise BadParameter(name)
    return value
