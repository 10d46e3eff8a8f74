"""The rattus-rules test suite."""
