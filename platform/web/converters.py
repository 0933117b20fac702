"""The path converter of names and tokens in addresses: ``<printable:username>``, ``<printable:token>``.

Django's ``str`` converter takes any character but ``/``, NUL included, which then reaches the database (a
``DataError`` on PostgreSQL, a 500). ``printable`` takes no control character (:mod:`web.text`): such an address
matches no page and answers 404, like a name nobody has. Importing this module registers it; each ``urls`` module
that uses it imports it.
"""

from __future__ import annotations

from django.urls import register_converter
from django.urls.converters import StringConverter

from web.text import CONTROL_CHARACTERS


class PrintableConverter(StringConverter):
    regex = f"[^/{CONTROL_CHARACTERS}]+"


register_converter(PrintableConverter, "printable")
