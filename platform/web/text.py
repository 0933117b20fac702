"""Text a client sends: the control characters the site refuses wherever a name, token or filter is typed.

PostgreSQL's text columns cannot hold NUL (psycopg raises ``DataError``), and no name, token or chat line of the
site needs a control character: C0 and C1 controls (NUL, newlines and tabs included) and UTF-16 surrogates are
refused before any query, by the URL converter of :mod:`web.converters`, the Bot API's schemas and the token form.
"""

from __future__ import annotations

import re

CONTROL_CHARACTERS = "\x00-\x1f\x7f-\x9f\ud800-\udfff"  # a regular expression's character range
CONTROL = re.compile(f"[{CONTROL_CHARACTERS}]")
PRINTABLE = f"[^{CONTROL_CHARACTERS}]*"  # a whole value without any of them (pydantic's ``pattern``)


def has_control_character(text: str) -> bool:
    return CONTROL.search(text) is not None
