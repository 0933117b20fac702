"""Post-game analysis, the platform's part: storing it (store), computing it when a match ends or on demand
(schedule), and showing it (presentation, in the reader's language: words). Each game's analysis, its numbers and
their words, lives in the game's own folder (``analysis.py``, ``analysis_words.py``); nothing here names a game."""
