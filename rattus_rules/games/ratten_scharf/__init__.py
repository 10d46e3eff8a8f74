"""Ratten Scharf's own package: empty so far (the game runs from its spec alone)."""
