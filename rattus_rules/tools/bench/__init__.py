"""Benchmarks for any game: games per second and records per second, as ratios against a yardstick."""
