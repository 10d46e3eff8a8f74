"""Game records for any game: their format, walking them against the rules, validating them, archives."""
