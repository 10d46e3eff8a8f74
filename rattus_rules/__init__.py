"""Rattus as data."""
