"""The results database (SQLite), studies, selectors, and importers of other tools' output."""
