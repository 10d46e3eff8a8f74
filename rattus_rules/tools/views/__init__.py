"""Views of any game: a position as text and JSON, the replay viewer, the play page."""
