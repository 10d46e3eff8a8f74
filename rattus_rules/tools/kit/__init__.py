"""Conformance for any game: the conformance files and kits, the referee protocol, the JSON Schemas."""
