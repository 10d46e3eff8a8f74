"""Documentation tools for any game: reStructuredText, the English page, reference pages, the lexer."""
