"""Players and searches that work for any game of the language."""
