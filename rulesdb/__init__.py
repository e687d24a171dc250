"""rulesdb: the rules of Magic: The Gathering as one cross-referenced SQLite database."""

__version__ = "0.1.0"
