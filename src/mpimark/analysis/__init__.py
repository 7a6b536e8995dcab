"""Statistics and comparisons: pure functions on records, no I/O (docs/analysis.md)."""
