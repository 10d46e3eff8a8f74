"""Tools for any game written in the rules language: highlighting, reference pages, perft.

They sit above :mod:`interpreter.game` and know no game: whatever a tool needs
to know about one comes in as a parameter.
"""
