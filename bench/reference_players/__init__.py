"""Reference players: simple, predictable players written from the rules alone, to measure the levels against.

One module per title, named after the game's key (``perudo.py``, ``spicy.py``, ``chinesecheckers.py``), each with
a ``choose(view, legal, rng)`` (or a single ``choose_*`` function) of the same interface as the ``LEVELS`` entries
of ``games/<key>/bots.py``: it sees only its seat's view and legal actions, returns one of those actions, or None
to let an out-of-turn chance go by.
``bench/bots_tournament.py`` seats them as the entrant ``reference``. They are benchmarks, not site opponents:
no table offers them.
"""
