"""Tic-tac-toe: a fourth game that exists only for the tests, to prove that a game is one folder.

It is installed by the test settings (``tests/settings.py``) and named by no platform file: the site finds its
rules, computer player, board assets, how-to page and translations by the conventions every game follows.
"""
