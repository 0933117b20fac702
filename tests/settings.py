"""The test suite's settings: the site's own, plus the fourth game that exists only to prove a game is one folder
(``tests/tictactoe``). pytest selects this module (pyproject.toml), and the servers and workers the tests start
inherit the choice through ``DJANGO_SETTINGS_MODULE``."""

from tapete.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.tictactoe"]  # noqa: F405
