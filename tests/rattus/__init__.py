"""Tests of Rattus: its spec, its package, its command and its documents."""
