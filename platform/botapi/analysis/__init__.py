"""Post-game analysis: per game, pure functions over a finished match's full log (see each module)."""
