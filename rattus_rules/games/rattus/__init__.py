"""Rattus's own package: the spec names Python reads, its wording, pictures, layout, token faces,
its scenario format, position text and reference pages (rulebook, decision model)."""
