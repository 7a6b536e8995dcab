"""The results stream: reading and validating records, and what a record means (docs/results-format.md)."""
